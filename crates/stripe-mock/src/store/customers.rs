//! Customers.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{new_id, Metadata, Origin, Store};
use crate::error::ApiError;
use crate::expand::Expand;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Customer {
    pub id: String,
    pub created: i64,
    pub email: Option<String>,
    pub name: Option<String>,
    pub description: Option<String>,
    pub metadata: Metadata,
    pub default_payment_method: Option<String>,
    /// Stripe's customer balance, in cents: negative is a credit (from invoices whose total was
    /// negative), applied to the next invoices.
    #[serde(default)]
    pub balance: i64,
}

impl Store {
    pub fn render_customer(&self, c: &Customer, exp: &Expand) -> Value {
        json!({
            "id": c.id,
            "object": "customer",
            "address": null,
            "balance": c.balance,
            "created": c.created,
            "currency": null,
            "default_source": null,
            "delinquent": false,
            "description": c.description,
            "discount": null,
            "email": c.email,
            "invoice_prefix": c.id.trim_start_matches("cus_").chars().take(8).collect::<String>().to_uppercase(),
            "invoice_settings": {
                "custom_fields": null,
                "default_payment_method": self.link(&c.default_payment_method, "invoice_settings.default_payment_method", exp),
                "footer": null,
                "rendering_options": null,
            },
            "livemode": false,
            "metadata": c.metadata,
            "name": c.name,
            "phone": null,
            "preferred_locales": [],
            "shipping": null,
            "tax_exempt": "none",
            "test_clock": null,
        })
    }

    pub fn customer(&self, id: &str, param: &str) -> Result<&Customer, ApiError> {
        self.customers
            .get(id)
            .ok_or_else(|| ApiError::no_such("customer", id, param))
    }

    /// Creates a customer and emits `customer.created`.
    pub fn create_customer(
        &mut self,
        email: Option<String>,
        name: Option<String>,
        description: Option<String>,
        metadata: Metadata,
        origin: &Origin,
        now: i64,
    ) -> String {
        let customer = Customer {
            id: new_id("cus"),
            created: now,
            email,
            name,
            description,
            metadata,
            default_payment_method: None,
            balance: 0,
        };
        let id = customer.id.clone();
        let object = self.render_customer(&customer, &Expand::none());
        self.customers.insert(id.clone(), customer);
        self.emit("customer.created", object, None, origin, now);
        id
    }
}
