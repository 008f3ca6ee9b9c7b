//! Billing-portal configurations and sessions. A session uses the configuration it was created
//! with, else the account's default (`bpc_closewise_default`, built in: cancel at period end, card
//! and invoice history, no subscription updates); the hosted portal offers only what it allows.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{Metadata, Store};
use crate::error::ApiError;

/// The account's default configuration, which every account has in Stripe.
pub const DEFAULT_PORTAL_CONFIGURATION: &str = "bpc_closewise_default";

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PortalSession {
    pub id: String,
    pub created: i64,
    pub customer: String,
    pub return_url: Option<String>,
    pub url: String,
    /// The configuration it was created with; `None` is the default one.
    #[serde(default)]
    pub configuration: Option<String>,
}

/// What the portal lets the customer do (`features` in Stripe's object).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PortalFeatures {
    pub invoice_history: bool,
    pub payment_method_update: bool,
    pub subscription_cancel: bool,
    /// `at_period_end` or `immediately`.
    pub cancel_mode: String,
    pub subscription_update: bool,
    /// `default_allowed_updates`: any of `price`, `quantity`, `promotion_code`.
    pub allowed_updates: Vec<String>,
    /// `create_prorations`, `none` or `always_invoice`.
    pub update_proration_behavior: String,
}

impl Default for PortalFeatures {
    fn default() -> Self {
        PortalFeatures {
            invoice_history: true,
            payment_method_update: true,
            subscription_cancel: true,
            cancel_mode: "at_period_end".to_owned(),
            subscription_update: false,
            allowed_updates: Vec::new(),
            update_proration_behavior: "none".to_owned(),
        }
    }
}

impl PortalFeatures {
    /// Whether the customer may change the quantity of their subscription in the portal.
    pub fn quantity_changes(&self) -> bool {
        self.subscription_update && self.allowed_updates.iter().any(|u| u == "quantity")
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PortalConfiguration {
    pub id: String,
    pub created: i64,
    pub name: Option<String>,
    pub default_return_url: Option<String>,
    pub metadata: Metadata,
    pub features: PortalFeatures,
}

impl PortalConfiguration {
    fn default_at(created: i64) -> Self {
        PortalConfiguration {
            id: DEFAULT_PORTAL_CONFIGURATION.to_owned(),
            created,
            name: None,
            default_return_url: None,
            metadata: Metadata::new(),
            features: PortalFeatures::default(),
        }
    }
}

impl Store {
    /// A configuration by id (the built-in default included).
    pub fn portal_configuration(&self, id: &str) -> Result<PortalConfiguration, ApiError> {
        if id == DEFAULT_PORTAL_CONFIGURATION {
            return Ok(self.default_portal_configuration());
        }
        self.portal_configurations
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::no_such("billing_portal.configuration", id, "configuration"))
    }

    /// The default configuration, as old as the catalogue.
    pub fn default_portal_configuration(&self) -> PortalConfiguration {
        let created = self.products.values().map(|p| p.created).min().unwrap_or(0);
        PortalConfiguration::default_at(created)
    }

    /// Every configuration, the default first.
    pub fn all_portal_configurations(&self) -> Vec<PortalConfiguration> {
        std::iter::once(self.default_portal_configuration())
            .chain(self.portal_configurations.values().cloned())
            .collect()
    }

    /// The configuration a session uses.
    pub fn session_configuration(&self, p: &PortalSession) -> PortalConfiguration {
        p.configuration
            .as_deref()
            .and_then(|id| self.portal_configuration(id).ok())
            .unwrap_or_else(|| self.default_portal_configuration())
    }

    pub fn render_portal_configuration(&self, c: &PortalConfiguration) -> Value {
        let f = &c.features;
        json!({
            "id": c.id,
            "object": "billing_portal.configuration",
            "active": true,
            "application": null,
            "business_profile": { "headline": null, "privacy_policy_url": null, "terms_of_service_url": null },
            "created": c.created,
            "default_return_url": c.default_return_url,
            "features": {
                "customer_update": { "allowed_updates": [], "enabled": false },
                "invoice_history": { "enabled": f.invoice_history },
                "payment_method_update": { "enabled": f.payment_method_update, "payment_method_configuration": null },
                "subscription_cancel": {
                    "cancellation_reason": { "enabled": false, "options": [] },
                    "enabled": f.subscription_cancel, "mode": f.cancel_mode, "proration_behavior": "none",
                },
                "subscription_update": {
                    "billing_cycle_anchor": null, "default_allowed_updates": f.allowed_updates,
                    "enabled": f.subscription_update, "products": null,
                    "proration_behavior": f.update_proration_behavior,
                    "schedule_at_period_end": { "conditions": [] },
                    "trial_update_behavior": "end_trial",
                },
            },
            "is_default": c.id == DEFAULT_PORTAL_CONFIGURATION,
            "livemode": false,
            "login_page": { "enabled": false, "url": null },
            "metadata": c.metadata,
            "name": c.name,
            "updated": c.created,
        })
    }

    pub fn render_portal(&self, p: &PortalSession) -> Value {
        json!({
            "id": p.id,
            "object": "billing_portal.session",
            "configuration": self.render_portal_configuration(&self.session_configuration(p)),
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
