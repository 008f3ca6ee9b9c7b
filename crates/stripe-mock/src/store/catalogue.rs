//! Products and prices (and the legacy `plan` view of a price).

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{Metadata, Store};
use crate::error::ApiError;
use crate::expand::Expand;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Product {
    pub id: String,
    pub created: i64,
    pub updated: i64,
    pub name: String,
    pub description: Option<String>,
    pub active: bool,
    pub metadata: Metadata,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Recurring {
    pub interval: String,
    pub interval_count: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Price {
    pub id: String,
    pub created: i64,
    pub product: String,
    pub unit_amount: i64,
    pub currency: String,
    pub recurring: Option<Recurring>,
    pub active: bool,
    pub nickname: Option<String>,
    pub lookup_key: Option<String>,
    pub metadata: Metadata,
}

impl Store {
    pub fn render_product(&self, p: &Product) -> Value {
        json!({
            "id": p.id,
            "object": "product",
            "active": p.active,
            "created": p.created,
            "default_price": self.prices.values().find(|pr| pr.product == p.id).map(|pr| pr.id.clone()),
            "description": p.description,
            "images": [],
            "livemode": false,
            "marketing_features": [],
            "metadata": p.metadata,
            "name": p.name,
            "package_dimensions": null,
            "shippable": null,
            "statement_descriptor": null,
            "tax_code": null,
            "type": "service",
            "unit_label": null,
            "updated": p.updated,
            "url": null,
        })
    }

    pub fn render_price(&self, p: &Price, exp: &Expand) -> Value {
        json!({
            "id": p.id,
            "object": "price",
            "active": p.active,
            "billing_scheme": "per_unit",
            "created": p.created,
            "currency": p.currency,
            "custom_unit_amount": null,
            "livemode": false,
            "lookup_key": p.lookup_key,
            "metadata": p.metadata,
            "nickname": p.nickname,
            "product": self.link(&Some(p.product.clone()), "product", exp),
            "recurring": p.recurring.as_ref().map(|r| json!({
                "interval": r.interval,
                "interval_count": r.interval_count,
                "meter": null,
                "trial_period_days": null,
                "usage_type": "licensed",
            })),
            "tax_behavior": "unspecified",
            "tiers_mode": null,
            "transform_quantity": null,
            "type": if p.recurring.is_some() { "recurring" } else { "one_time" },
            "unit_amount": p.unit_amount,
            "unit_amount_decimal": p.unit_amount.to_string(),
        })
    }

    /// The legacy `plan` object Stripe still puts on subscription items.
    pub(crate) fn render_plan(&self, p: &Price) -> Value {
        let r = p.recurring.clone().unwrap_or(Recurring {
            interval: "month".to_owned(),
            interval_count: 1,
        });
        json!({
            "id": p.id,
            "object": "plan",
            "active": p.active,
            "amount": p.unit_amount,
            "amount_decimal": p.unit_amount.to_string(),
            "billing_scheme": "per_unit",
            "created": p.created,
            "currency": p.currency,
            "interval": r.interval,
            "interval_count": r.interval_count,
            "livemode": false,
            "metadata": p.metadata,
            "meter": null,
            "nickname": p.nickname,
            "product": p.product,
            "tiers_mode": null,
            "transform_usage": null,
            "trial_period_days": null,
            "usage_type": "licensed",
        })
    }

    pub fn price(&self, id: &str, param: &str) -> Result<&Price, ApiError> {
        self.prices
            .get(id)
            .ok_or_else(|| ApiError::no_such("price", id, param))
    }
}
