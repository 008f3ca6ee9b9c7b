//! `/v1/subscription_items`: a subscription's items, one item, and changing its quantity (with
//! prorations). Also reads the `items[…][id|quantity|price]` arrays the subscription update and the
//! invoice preview take.

use axum::extract::{Path, State};
use axum::Json;
use serde_json::Value;

use super::list::page;
use super::params::{int_value, Params};
use super::{ApiResult, Endpoint, Routes, Shared};
use crate::error::ApiError;
use crate::store::{Change, ProrationBehavior, QuantityChange};

static RETRIEVE: Endpoint = Endpoint::get("/v1/subscription_items/{id}", &[]);
static UPDATE: Endpoint = Endpoint::post(
    "/v1/subscription_items/{id}",
    &["quantity", "proration_behavior", "proration_date"],
);
static LIST: Endpoint = Endpoint::list("/v1/subscription_items", &["subscription"]);

pub(super) fn routes(r: Routes) -> Routes {
    r.add(&RETRIEVE, get_item)
        .add(&UPDATE, update_item)
        .add(&LIST, list_items)
}

/// The items of one subscription (`subscription` is required, as in Stripe), in their order.
async fn list_items(State(st): State<Shared>, p: Params) -> ApiResult {
    let sub_id = p.required("subscription")?;
    st.mutate(|s, _| {
        let sub = s.subscription(&sub_id)?;
        page(
            &p,
            "/v1/subscription_items",
            &sub.items,
            |_| true,
            |item, _| s.render_subscription_item(sub, item),
        )
    })
}

async fn get_item(State(st): State<Shared>, Path(id): Path<String>, _p: Params) -> ApiResult {
    st.mutate(|s, _| Ok(Json(s.render_item_by_id(&id)?)))
}

async fn update_item(State(st): State<Shared>, Path(id): Path<String>, p: Params) -> ApiResult {
    let quantity = quantity_value(p.values.get("quantity"), "quantity")?;
    let behavior = ProrationBehavior::parse(
        p.str("proration_behavior")?.as_deref(),
        "proration_behavior",
    )?;
    let proration_date = p.int("proration_date")?;
    st.mutate(|s, now| {
        let sub = s.subscription_of_item(&id)?.id.clone();
        if let Some(quantity) = quantity {
            let change = Change {
                items: vec![QuantityChange {
                    item: id.clone(),
                    quantity: Some(quantity),
                    price: None,
                    param: "id".to_owned(),
                }],
                behavior,
                proration_date,
            };
            s.change_quantities(&sub, &change, &p.origin, now)?;
        }
        Ok(Json(s.render_item_by_id(&id)?))
    })
}

/// A quantity: a non-negative integer.
pub(super) fn quantity_value(value: Option<&Value>, param: &str) -> Result<Option<u64>, ApiError> {
    match value {
        None => Ok(None),
        Some(Value::String(raw)) => raw.parse().map(Some).map_err(|_| {
            ApiError::invalid_param(param, format!("Invalid non-negative integer: {raw}"))
        }),
        Some(_) => Err(ApiError::invalid_param(param, "Invalid integer")),
    }
}

/// `<prefix>[i][id]`, `<prefix>[i][quantity]` and `<prefix>[i][price]`: the changes of existing
/// items (items with neither are left as they are). Adding or removing items is not modelled.
pub(super) fn quantity_changes(
    value: Option<&Value>,
    prefix: &str,
) -> Result<Vec<QuantityChange>, ApiError> {
    let items = match value {
        None => return Ok(Vec::new()),
        Some(Value::Array(items)) => items,
        Some(_) => return Err(ApiError::invalid_param(prefix, "Invalid array")),
    };
    let mut changes = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let param = format!("{prefix}[{i}][id]");
        let id = item
            .get("id")
            .and_then(Value::as_str)
            .filter(|id| !id.is_empty())
            .ok_or_else(|| {
                ApiError::invalid_param(
                    &param,
                    "This mock changes the quantity of existing subscription items only: pass the item's `id`.",
                )
            })?;
        let quantity = quantity_value(item.get("quantity"), &format!("{prefix}[{i}][quantity]"))?;
        let price = match item.get("price") {
            None => None,
            Some(Value::String(p)) if !p.is_empty() => Some(p.clone()),
            Some(_) => {
                return Err(ApiError::invalid_param(
                    &format!("{prefix}[{i}][price]"),
                    "Invalid string",
                ))
            }
        };
        if quantity.is_some() || price.is_some() {
            changes.push(QuantityChange {
                item: id.to_owned(),
                quantity,
                price,
                param,
            });
        }
    }
    Ok(changes)
}

/// `proration_date` as an integer timestamp.
pub(super) fn proration_date(raw: Option<&str>, param: &str) -> Result<Option<i64>, ApiError> {
    int_value(raw, param)
}
