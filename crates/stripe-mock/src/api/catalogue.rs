//! `/v1/products` and `/v1/prices`.

use axum::extract::{Path, State};
use axum::Json;
use serde_json::{Map, Value};

use super::list::page;
use super::params::{int_value, Params};
use super::{ApiResult, Endpoint, Routes, Shared};
use crate::error::ApiError;
use crate::expand::Expand;
use crate::store::{new_id, Metadata, Price, Product, Recurring, Store};

static CREATE_PRODUCT: Endpoint = Endpoint::post(
    "/v1/products",
    &["id", "name", "description", "metadata[*]"],
);
static RETRIEVE_PRODUCT: Endpoint = Endpoint::get("/v1/products/{id}", &[]);
static LIST_PRODUCTS: Endpoint = Endpoint::list("/v1/products", &["active"]);
static CREATE_PRICE: Endpoint = Endpoint::post(
    "/v1/prices",
    &[
        "id",
        "currency",
        "unit_amount",
        "product",
        "product_data[name]",
        "recurring[interval]",
        "recurring[interval_count]",
        "nickname",
        "lookup_key",
        "metadata[*]",
    ],
);
static RETRIEVE_PRICE: Endpoint = Endpoint::get("/v1/prices/{id}", &[]);
static LIST_PRICES: Endpoint = Endpoint::list(
    "/v1/prices",
    &["active", "product", "type", "recurring[interval]"],
);

pub(super) fn routes(r: Routes) -> Routes {
    r.add(&CREATE_PRODUCT, create_product)
        .add(&RETRIEVE_PRODUCT, get_product)
        .add(&LIST_PRODUCTS, list_products)
        .add(&CREATE_PRICE, create_price)
        .add(&RETRIEVE_PRICE, get_price)
        .add(&LIST_PRICES, list_prices)
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

async fn get_product(State(st): State<Shared>, Path(id): Path<String>, _p: Params) -> ApiResult {
    st.mutate(|s, _| {
        s.products
            .get(&id)
            .map(|p| Json(s.render_product(p)))
            .ok_or_else(|| ApiError::no_such("product", &id, "id"))
    })
}

async fn list_products(State(st): State<Shared>, p: Params) -> ApiResult {
    let active = p.bool("active")?;
    st.mutate(|s, _| {
        page(
            &p,
            "/v1/products",
            s.products.values(),
            |pr| active.is_none_or(|a| pr.active == a),
            |pr, _| s.render_product(pr),
        )
    })
}

/// A price described in a request: `POST /v1/prices`, or a checkout line item's `price_data`.
pub(super) struct NewPrice {
    currency: String,
    unit_amount: i64,
    recurring: Option<Recurring>,
    product: Option<String>,
    product_name: Option<String>,
}

/// `currency` at the top level, `line_items[0][price_data][currency]` under a prefix.
fn name(prefix: &str, field: &str) -> String {
    if prefix.is_empty() {
        field.to_owned()
    } else {
        format!("{prefix}[{field}]")
    }
}

fn text<'a>(m: &'a Map<String, Value>, field: &str) -> Option<&'a str> {
    m.get(field)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

impl NewPrice {
    /// Reads the fields under `prefix` (`""` for the top level).
    pub(super) fn parse(m: &Map<String, Value>, prefix: &str) -> Result<Self, ApiError> {
        let currency = text(m, "currency")
            .ok_or_else(|| ApiError::missing_param(&name(prefix, "currency")))?
            .to_lowercase();
        let unit_amount = int_value(
            m.get("unit_amount").and_then(Value::as_str),
            &name(prefix, "unit_amount"),
        )?
        .ok_or_else(|| ApiError::missing_param(&name(prefix, "unit_amount")))?;
        if unit_amount < 0 {
            return Err(ApiError::invalid_param(
                &name(prefix, "unit_amount"),
                "This value must be greater than or equal to 0.",
            ));
        }
        let recurring_name = name(prefix, "recurring");
        let recurring = match m.get("recurring") {
            None => None,
            Some(Value::Object(r)) => {
                let interval = r
                    .get("interval")
                    .and_then(Value::as_str)
                    .ok_or_else(|| ApiError::missing_param(&name(&recurring_name, "interval")))?;
                if !matches!(interval, "day" | "week" | "month" | "year") {
                    return Err(ApiError::invalid_param(
                        &name(&recurring_name, "interval"),
                        "Invalid recurring[interval]: must be one of day, month, week, or year",
                    ));
                }
                let count = int_value(
                    r.get("interval_count").and_then(Value::as_str),
                    &name(&recurring_name, "interval_count"),
                )?
                .unwrap_or(1);
                Some(Recurring {
                    interval: interval.to_owned(),
                    interval_count: count.max(1) as u64,
                })
            }
            Some(_) => return Err(ApiError::invalid_param(&recurring_name, "Invalid hash")),
        };
        let product_name = match m.get("product_data") {
            Some(Value::Object(d)) => Some(
                text(d, "name")
                    .ok_or_else(|| {
                        ApiError::missing_param(&name(&name(prefix, "product_data"), "name"))
                    })?
                    .to_owned(),
            ),
            _ => None,
        };
        Ok(Self {
            currency,
            unit_amount,
            recurring,
            product: text(m, "product").map(str::to_owned),
            product_name,
        })
    }

    /// The price, and the product `product_data` describes, checked against the store but not
    /// kept yet.
    pub(super) fn build(
        self,
        s: &Store,
        id: String,
        prefix: &str,
        now: i64,
    ) -> Result<(Price, Option<Product>), ApiError> {
        let (product_id, product) = match (self.product, self.product_name) {
            (Some(pid), _) => {
                if !s.products.contains_key(&pid) {
                    return Err(ApiError::no_such("product", &pid, &name(prefix, "product")));
                }
                (pid, None)
            }
            (None, Some(product_name)) => {
                let product = Product {
                    id: new_id("prod"),
                    created: now,
                    updated: now,
                    name: product_name,
                    description: None,
                    active: true,
                    metadata: Metadata::new(),
                };
                (product.id.clone(), Some(product))
            }
            (None, None) => return Err(ApiError::missing_param(&name(prefix, "product"))),
        };
        let price = Price {
            id,
            created: now,
            product: product_id,
            unit_amount: self.unit_amount,
            currency: self.currency,
            recurring: self.recurring,
            active: true,
            nickname: None,
            lookup_key: None,
            metadata: Metadata::new(),
        };
        Ok((price, product))
    }
}

async fn create_price(State(st): State<Shared>, p: Params) -> ApiResult {
    let new = NewPrice::parse(&p.values, "")?;
    let metadata = p.metadata()?.unwrap_or_default();
    let nickname = p.str("nickname")?;
    let lookup_key = p.str("lookup_key")?;
    let id = p.str("id")?.unwrap_or_else(|| new_id("price"));
    st.mutate(|s, now| {
        let (mut price, product) = new.build(s, id.clone(), "", now)?;
        if s.prices.contains_key(&id) {
            return Err(ApiError::invalid_param(
                "id",
                format!("Price already exists: {id}"),
            ));
        }
        if let Some(product) = product {
            s.emit(
                "product.created",
                s.render_product(&product),
                None,
                &p.origin,
                now,
            );
            s.products.insert(product.id.clone(), product);
        }
        price.nickname = nickname;
        price.lookup_key = lookup_key;
        price.metadata = metadata;
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
    let interval = match p.values.get("recurring") {
        None => None,
        Some(Value::Object(r)) => r.get("interval").and_then(Value::as_str).map(str::to_owned),
        Some(_) => return Err(ApiError::invalid_param("recurring", "Invalid hash")),
    };
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
                    && interval
                        .as_deref()
                        .is_none_or(|i| pr.recurring.as_ref().is_some_and(|r| r.interval == i))
            },
            |pr, exp| s.render_price(pr, exp),
        )
    })
}
