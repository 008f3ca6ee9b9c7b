//! Cards attached to customers.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::Store;
use crate::cards::Card;
use crate::expand::Expand;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PaymentMethod {
    pub id: String,
    pub created: i64,
    pub customer: Option<String>,
    pub card: Card,
    pub name: Option<String>,
    pub email: Option<String>,
    /// Set for 4000 0000 0000 0341: attached fine, every later charge fails.
    pub fails_charges: bool,
}

impl Store {
    pub fn render_payment_method(&self, p: &PaymentMethod, exp: &Expand) -> Value {
        json!({
            "id": p.id,
            "object": "payment_method",
            "allow_redisplay": "unspecified",
            "billing_details": {
                "address": { "city": null, "country": null, "line1": null, "line2": null, "postal_code": null, "state": null },
                "email": p.email,
                "name": p.name,
                "phone": null,
                "tax_id": null,
            },
            "card": {
                "brand": p.card.brand,
                "checks": { "address_line1_check": null, "address_postal_code_check": null, "cvc_check": "pass" },
                "country": "US",
                "display_brand": p.card.brand,
                "exp_month": p.card.exp_month,
                "exp_year": p.card.exp_year,
                "fingerprint": p.id.chars().rev().take(16).collect::<String>(),
                "funding": p.card.funding,
                "generated_from": null,
                "last4": p.card.last4,
                "networks": { "available": [p.card.brand], "preferred": null },
                "regulated_status": "unregulated",
                "three_d_secure_usage": { "supported": true },
                "wallet": null,
            },
            "created": p.created,
            "customer": self.link(&p.customer, "customer", exp),
            "livemode": false,
            "metadata": {},
            "type": "card",
        })
    }
}
