//! Customers.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{new_id, Metadata, Origin, Store};
use crate::error::ApiError;
use crate::expand::Expand;

/// A postal address as Stripe keeps it (every part optional; `country` a two-letter code).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Address {
    pub line1: Option<String>,
    pub line2: Option<String>,
    pub city: Option<String>,
    pub postal_code: Option<String>,
    pub state: Option<String>,
    pub country: Option<String>,
}

impl Address {
    pub const PARTS: [&'static str; 6] =
        ["line1", "line2", "city", "postal_code", "state", "country"];

    pub fn render(&self) -> Value {
        json!({
            "line1": self.line1, "line2": self.line2, "city": self.city,
            "postal_code": self.postal_code, "state": self.state, "country": self.country,
        })
    }

    /// The lines printed under a name: street, "postcode city", state, country.
    pub fn lines(&self) -> Vec<String> {
        let town = [self.postal_code.as_deref(), self.city.as_deref()]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ");
        [
            self.line1.clone(),
            self.line2.clone(),
            (!town.is_empty()).then_some(town),
            self.state.clone(),
            self.country.clone(),
        ]
        .into_iter()
        .flatten()
        .filter(|l| !l.is_empty())
        .collect()
    }
}

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
    #[serde(default)]
    pub address: Option<Address>,
}

impl Store {
    pub fn render_customer(&self, c: &Customer, exp: &Expand) -> Value {
        let mut customer = json!({
            "id": c.id,
            "object": "customer",
            "address": c.address.as_ref().map(Address::render),
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
        });
        // `tax_ids` is one of Stripe's includable fields: there only when expanded.
        if exp.child("tax_ids").is_some() {
            let ids: Vec<Value> = self
                .tax_ids_of(&c.id)
                .into_iter()
                .rev()
                .map(|t| self.render_tax_id(t))
                .collect();
            customer["tax_ids"] =
                super::list(ids, false, &format!("/v1/customers/{}/tax_ids", c.id));
        }
        customer
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
            address: None,
        };
        let id = customer.id.clone();
        let object = self.render_customer(&customer, &Expand::none());
        self.customers.insert(id.clone(), customer);
        self.emit("customer.created", object, None, origin, now);
        id
    }
}
