//! `/v1/products` and `/v1/prices`.

use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::Value;

use super::list::page;
use super::params::{int_value, Params};
use super::{ApiResult, Shared};
use crate::error::ApiError;
use crate::expand::Expand;
use crate::store::{new_id, Metadata, Price, Product, Recurring};

pub(super) fn routes() -> Router<Shared> {
    Router::new()
        .route("/products", post(create_product))
        .route("/products/{id}", get(get_product))
        .route("/prices", post(create_price).get(list_prices))
        .route("/prices/{id}", get(get_price))
}

async fn create_product(State(st): State<Shared>, p: Params) -> ApiResult {
    let name = p.required("name")?;
    let description = p.str("description")?;
    let metadata = p.metadata()?.unwrap_or_default();
    let id = p.str("id")?.unwrap_or_else(|| new_id("prod"));
    st.mutate(|s, now| {
        if s.products.contains_key(&id) {
            return Err(ApiError::invalid_param(
                "id",
                format!("Product already exists: {id}"),
            ));
        }
        let product = Product {
            id: id.clone(),
            created: now,
            updated: now,
            name,
            description,
            active: true,
            metadata,
        };
        s.emit(
            "product.created",
            s.render_product(&product),
            None,
            &p.origin,
            now,
        );
        s.products.insert(id.clone(), product);
        Ok(Json(s.render_product(&s.products[&id])))
    })
}

async fn get_product(State(st): State<Shared>, Path(id): Path<String>) -> ApiResult {
    st.mutate(|s, _| {
        s.products
            .get(&id)
            .map(|p| Json(s.render_product(p)))
            .ok_or_else(|| ApiError::no_such("product", &id, "id"))
    })
}

async fn create_price(State(st): State<Shared>, p: Params) -> ApiResult {
    let currency = p.required("currency")?.to_lowercase();
    let unit_amount = p
        .int("unit_amount")?
        .ok_or_else(|| ApiError::missing_param("unit_amount"))?;
    if unit_amount < 0 {
        return Err(ApiError::invalid_param(
            "unit_amount",
            "This value must be greater than or equal to 0.",
        ));
    }
    let recurring = match p.values.get("recurring") {
        None => None,
        Some(Value::Object(m)) => {
            let interval = m
                .get("interval")
                .and_then(Value::as_str)
                .ok_or_else(|| ApiError::missing_param("recurring[interval]"))?;
            if !matches!(interval, "day" | "week" | "month" | "year") {
                return Err(ApiError::invalid_param(
                    "recurring[interval]",
                    "Invalid recurring[interval]: must be one of day, month, week, or year",
                ));
            }
            let count = int_value(
                m.get("interval_count").and_then(Value::as_str),
                "recurring[interval_count]",
            )?
            .unwrap_or(1);
            Some(Recurring {
                interval: interval.to_owned(),
                interval_count: count.max(1) as u64,
            })
        }
        Some(_) => return Err(ApiError::invalid_param("recurring", "Invalid hash")),
    };
    let product = p.str("product")?;
    let product_name = match p.values.get("product_data") {
        Some(Value::Object(m)) => Some(
            m.get("name")
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .ok_or_else(|| ApiError::missing_param("product_data[name]"))?
                .to_owned(),
        ),
        _ => None,
    };
    let metadata = p.metadata()?.unwrap_or_default();
    let nickname = p.str("nickname")?;
    let lookup_key = p.str("lookup_key")?;
    let id = p.str("id")?.unwrap_or_else(|| new_id("price"));
    st.mutate(|s, now| {
        let product_id = match (product, product_name) {
            (Some(pid), _) => {
                if !s.products.contains_key(&pid) {
                    return Err(ApiError::no_such("product", &pid, "product"));
                }
                pid
            }
            (None, Some(name)) => {
                let product = Product {
                    id: new_id("prod"),
                    created: now,
                    updated: now,
                    name,
                    description: None,
                    active: true,
                    metadata: Metadata::new(),
                };
                let pid = product.id.clone();
                s.emit(
                    "product.created",
                    s.render_product(&product),
                    None,
                    &p.origin,
                    now,
                );
                s.products.insert(pid.clone(), product);
                pid
            }
            (None, None) => return Err(ApiError::missing_param("product")),
        };
        if s.prices.contains_key(&id) {
            return Err(ApiError::invalid_param(
                "id",
                format!("Price already exists: {id}"),
            ));
        }
        let price = Price {
            id: id.clone(),
            created: now,
            product: product_id,
            unit_amount,
            currency,
            recurring,
            active: true,
            nickname,
            lookup_key,
            metadata,
        };
        s.emit(
            "price.created",
            s.render_price(&price, &Expand::none()),
            None,
            &p.origin,
            now,
        );
        s.prices.insert(id.clone(), price);
        Ok(Json(s.render_price(&s.prices[&id], &p.expand)))
    })
}

async fn get_price(State(st): State<Shared>, Path(id): Path<String>, p: Params) -> ApiResult {
    st.mutate(|s, _| Ok(Json(s.render_price(s.price(&id, "price")?, &p.expand))))
}

async fn list_prices(State(st): State<Shared>, p: Params) -> ApiResult {
    let active = p.bool("active")?;
    let product = p.str("product")?;
    let kind = p.str("type")?;
    st.mutate(|s, _| {
        page(
            &p,
            "/v1/prices",
            s.prices.values(),
            |pr| {
                active.is_none_or(|a| pr.active == a)
                    && product.as_ref().is_none_or(|id| &pr.product == id)
                    && kind
                        .as_deref()
                        .is_none_or(|k| (k == "recurring") == pr.recurring.is_some())
            },
            |pr, exp| s.render_price(pr, exp),
        )
    })
}
