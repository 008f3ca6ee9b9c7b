//! Billing-portal sessions.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::Store;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PortalSession {
    pub id: String,
    pub created: i64,
    pub customer: String,
    pub return_url: Option<String>,
    pub url: String,
}

impl Store {
    pub fn render_portal(&self, p: &PortalSession) -> Value {
        json!({
            "id": p.id,
            "object": "billing_portal.session",
            "configuration": {
                "id": "bpc_closewise_default",
                "object": "billing_portal.configuration",
                "active": true,
                "application": null,
                "business_profile": { "headline": null, "privacy_policy_url": null, "terms_of_service_url": null },
                "created": p.created,
                "default_return_url": null,
                "features": {
                    "customer_update": { "allowed_updates": [], "enabled": false },
                    "invoice_history": { "enabled": true },
                    "payment_method_update": { "enabled": true },
                    "subscription_cancel": {
                        "cancellation_reason": { "enabled": false, "options": [] },
                        "enabled": true, "mode": "at_period_end", "proration_behavior": "none",
                    },
                    "subscription_update": {
                        "billing_cycle_anchor": null, "default_allowed_updates": [], "enabled": false, "products": null,
                        "proration_behavior": "none", "schedule_at_period_end": { "conditions": [] },
                        "trial_update_behavior": "end_trial",
                    },
                },
                "is_default": true,
                "livemode": false,
                "login_page": { "enabled": false, "url": null },
                "metadata": {},
                "updated": p.created,
            },
            "created": p.created,
            "customer": p.customer,
            "flow": null,
            "livemode": false,
            "locale": null,
            "on_behalf_of": null,
            "return_url": p.return_url,
            "url": p.url,
        })
    }
}
