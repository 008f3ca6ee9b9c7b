//! `/v1/subscriptions`.

use axum::extract::{Path, State};
use axum::Json;
use serde_json::Value;

use super::list::page;
use super::params::{merge_metadata, Params};
use super::subscription_items::{quantity_changes, quantity_value};
use super::{ApiResult, Endpoint, Routes, Shared};
use crate::error::ApiError;
use crate::store::{Change, NewSubscription, ProrationBehavior};

static CREATE: Endpoint = Endpoint::post(
    "/v1/subscriptions",
    &[
        "customer",
        "items[][price]",
        "items[][quantity]",
        "collection_method",
        "days_until_due",
        "default_payment_method",
        "metadata[*]",
    ],
);
static RETRIEVE: Endpoint = Endpoint::get("/v1/subscriptions/{id}", &[]);
static UPDATE: Endpoint = Endpoint::post(
    "/v1/subscriptions/{id}",
    &[
        "cancel_at_period_end",
        "default_payment_method",
        "metadata[*]",
        "items[][id]",
        "items[][quantity]",
        "items[][price]",
        "proration_behavior",
        "proration_date",
        "automatic_tax[enabled]",
    ],
);
static CANCEL: Endpoint = Endpoint::delete("/v1/subscriptions/{id}", &[]);
static LIST: Endpoint = Endpoint::list("/v1/subscriptions", &["customer", "price", "status"]);

pub(super) fn routes(r: Routes) -> Routes {
    r.add(&CREATE, create_subscription)
        .add(&RETRIEVE, get_subscription)
        .add(&UPDATE, update_subscription)
        .add(&CANCEL, cancel_subscription)
        .add(&LIST, list_subscriptions)
}

async fn create_subscription(State(st): State<Shared>, p: Params) -> ApiResult {
    let customer = p.required("customer")?;
    let items = match p.values.get("items") {
        None => return Err(ApiError::missing_param("items")),
        Some(Value::Array(items)) if !items.is_empty() => items,
        Some(_) => return Err(ApiError::invalid_param("items", "Invalid array")),
    };
    let mut wanted = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let price = item
            .get("price")
            .and_then(Value::as_str)
            .filter(|p| !p.is_empty())
            .ok_or_else(|| ApiError::missing_param(&format!("items[{i}][price]")))?;
        let param = format!("items[{i}][quantity]");
        let quantity = quantity_value(item.get("quantity"), &param)?.unwrap_or(1);
        if quantity == 0 {
            return Err(ApiError::invalid_param(
                &param,
                "Quantity must be at least 1.",
            ));
        }
        wanted.push((price.to_owned(), quantity));
    }
    let days_until_due = p.int("days_until_due")?;
    let days_until_due = match p.str("collection_method")?.as_deref() {
        None | Some("charge_automatically") => {
            if days_until_due.is_some() {
                return Err(ApiError::invalid_param(
                    "days_until_due",
                    "You can only set `days_until_due` when `collection_method` is `send_invoice`.",
                ));
            }
            None
        }
        Some("send_invoice") => match days_until_due {
            None => {
                return Err(ApiError::invalid_param(
                    "days_until_due",
                    "Missing required param: days_until_due (when collection_method is send_invoice).",
                ))
            }
            Some(d) if (0..=730).contains(&d) => Some(d),
            Some(d) => {
                return Err(ApiError::invalid_param(
                    "days_until_due",
                    format!("Invalid days_until_due: {d}; it must be between 0 and 730."),
                ))
            }
        },
        Some(other) => {
            return Err(ApiError::invalid_param(
                "collection_method",
                format!("Invalid collection_method: must be one of charge_automatically or send_invoice, not {other}."),
            ))
        }
    };
    let new = NewSubscription {
        customer,
        items: wanted,
        days_until_due,
        default_payment_method: p.str("default_payment_method")?.filter(|s| !s.is_empty()),
        metadata: p.metadata()?.unwrap_or_default(),
    };
    st.mutate(|s, now| {
        let id = s.create_subscription(new, &p.origin, now)?;
        Ok(Json(
            s.render_subscription(&s.subscriptions[&id], &p.expand),
        ))
    })
}

async fn get_subscription(
    State(st): State<Shared>,
    Path(id): Path<String>,
    p: Params,
) -> ApiResult {
    st.mutate(|s, _| Ok(Json(s.render_subscription(s.subscription(&id)?, &p.expand))))
}

async fn update_subscription(
    State(st): State<Shared>,
    Path(id): Path<String>,
    p: Params,
) -> ApiResult {
    let cancel = p.bool("cancel_at_period_end")?;
    let default_pm = p.str("default_payment_method")?;
    let clear_metadata = matches!(p.values.get("metadata"), Some(Value::String(s)) if s.is_empty());
    let metadata = p.metadata()?;
    let automatic_tax = p.automatic_tax()?;
    let change = Change {
        items: quantity_changes(p.values.get("items"), "items")?,
        behavior: ProrationBehavior::parse(
            p.str("proration_behavior")?.as_deref(),
            "proration_behavior",
        )?,
        proration_date: p.int("proration_date")?,
    };
    st.mutate(|s, now| {
        let sub = s.subscription(&id)?.clone();
        if let Some(pm) = default_pm.as_deref().filter(|pm| !pm.is_empty()) {
            let pm_obj = s
                .payment_methods
                .get(pm)
                .ok_or_else(|| ApiError::no_such("PaymentMethod", pm, "default_payment_method"))?;
            if pm_obj.customer.as_deref() != Some(sub.customer.as_str()) {
                return Err(ApiError::invalid_param(
                    "default_payment_method",
                    format!("The customer does not have a payment method with the ID {pm}. The payment method must be attached to the customer."),
                ));
            }
        }
        if sub.status == "canceled" && (cancel.is_some() || default_pm.is_some()) {
            return Err(ApiError::invalid_request(
                "A canceled subscription can only update its cancellation_details and metadata.",
            ));
        }
        // Set first: the invoices a change makes are taxed (or not) accordingly. With a change
        // of items, that change's one `customer.subscription.updated` tells it.
        if let Some(enabled) = automatic_tax.filter(|e| *e != sub.automatic_tax) {
            if change.items.is_empty() {
                s.update_subscription(&id, &p.origin, now, |sub| sub.automatic_tax = enabled)?;
            } else if let Some(stored) = s.subscriptions.get_mut(&id) {
                stored.automatic_tax = enabled;
            }
        }
        if !change.items.is_empty() {
            s.change_quantities(&id, &change, &p.origin, now)?;
        }
        if let Some(cancel) = cancel {
            s.set_cancel_at_period_end(&id, cancel, &p.origin, now)?;
        }
        let new_card = default_pm.as_ref().is_some_and(|pm| !pm.is_empty());
        if default_pm.is_some() || metadata.is_some() {
            s.update_subscription(&id, &p.origin, now, |sub| {
                if let Some(pm) = default_pm {
                    sub.default_payment_method = (!pm.is_empty()).then_some(pm);
                }
                if let Some(m) = metadata {
                    merge_metadata(&mut sub.metadata, m, clear_metadata);
                }
            })?;
        }
        if new_card {
            s.charge_open_invoices(&sub.customer, None, &p.origin, now);
        }
        Ok(Json(s.render_subscription(&s.subscriptions[&id], &p.expand)))
    })
}

async fn cancel_subscription(
    State(st): State<Shared>,
    Path(id): Path<String>,
    p: Params,
) -> ApiResult {
    st.mutate(|s, now| {
        s.end_subscription(&id, &p.origin, now)?;
        Ok(Json(
            s.render_subscription(&s.subscriptions[&id], &p.expand),
        ))
    })
}

async fn list_subscriptions(State(st): State<Shared>, p: Params) -> ApiResult {
    let customer = p.str("customer")?;
    let price = p.str("price")?;
    let status = p.str("status")?;
    st.mutate(|s, _| {
        page(
            &p,
            "/v1/subscriptions",
            s.subscriptions.values(),
            |sub| {
                customer.as_ref().is_none_or(|c| &sub.customer == c)
                    && price
                        .as_ref()
                        .is_none_or(|pr| sub.items.iter().any(|i| &i.price == pr))
                    && match status.as_deref() {
                        // Stripe's default hides canceled subscriptions.
                        None => sub.status != "canceled",
                        Some("all") => true,
                        Some(want) => sub.status == want,
                    }
            },
            |sub, exp| s.render_subscription(sub, exp),
        )
    })
}
