//! The mock's state: Stripe's objects kept as small structs, rendered to Stripe's JSON on the way
//! out (with every field async-stripe requires), plus the events every change emits.

use std::collections::{BTreeMap, HashMap};

use rand::distributions::Alphanumeric;
use rand::Rng;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::cards::{Behaviour, Card};
use crate::error::ApiError;
use crate::expand::Expand;

pub const API_VERSION: &str = "2026-09-30.endive";
pub const SEED_PRODUCT: &str = "prod_closewise_unlimited";
pub const SEED_PRICE: &str = "price_closewise_monthly";

pub type Metadata = BTreeMap<String, String>;

pub fn new_id(prefix: &str) -> String {
    let suffix: String = rand::thread_rng()
        .sample_iter(&Alphanumeric)
        .take(24)
        .map(char::from)
        .collect();
    format!("{prefix}_{suffix}")
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
}

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

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LineItem {
    pub id: String,
    pub price: String,
    pub quantity: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CheckoutSession {
    pub id: String,
    pub created: i64,
    pub expires_at: i64,
    pub mode: String,
    pub status: String,
    pub payment_status: String,
    pub customer: Option<String>,
    pub customer_email: Option<String>,
    /// The e-mail typed on the hosted page (Stripe's `customer_details.email`).
    pub details_email: Option<String>,
    pub client_reference_id: Option<String>,
    pub metadata: Metadata,
    pub subscription_metadata: Metadata,
    pub success_url: Option<String>,
    pub cancel_url: Option<String>,
    pub line_items: Vec<LineItem>,
    pub currency: String,
    pub subscription: Option<String>,
    pub invoice: Option<String>,
    pub payment_intent: Option<String>,
    pub url: String,
}

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

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SubscriptionItem {
    pub id: String,
    pub created: i64,
    pub price: String,
    pub quantity: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Subscription {
    pub id: String,
    pub created: i64,
    pub customer: String,
    pub status: String,
    pub cancel_at_period_end: bool,
    pub cancel_at: Option<i64>,
    pub canceled_at: Option<i64>,
    pub ended_at: Option<i64>,
    pub current_period_start: i64,
    pub current_period_end: i64,
    pub start_date: i64,
    pub billing_cycle_anchor: i64,
    pub default_payment_method: Option<String>,
    pub items: Vec<SubscriptionItem>,
    pub latest_invoice: Option<String>,
    pub metadata: Metadata,
    pub currency: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct InvoiceLine {
    pub id: String,
    pub price: String,
    pub quantity: u64,
    pub amount: i64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Invoice {
    pub id: String,
    pub number: String,
    pub created: i64,
    pub customer: String,
    pub subscription: Option<String>,
    pub status: String,
    pub billing_reason: String,
    pub currency: String,
    pub total: i64,
    pub amount_paid: i64,
    pub attempt_count: u64,
    pub period_start: i64,
    pub period_end: i64,
    pub paid_at: Option<i64>,
    pub payment_method: Option<String>,
    pub lines: Vec<InvoiceLine>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PortalSession {
    pub id: String,
    pub created: i64,
    pub customer: String,
    pub return_url: Option<String>,
    pub url: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Event {
    pub id: String,
    pub created: i64,
    #[serde(rename = "type")]
    pub kind: String,
    pub object: Value,
    pub previous_attributes: Option<Value>,
    pub request_id: Option<String>,
    pub idempotency_key: Option<String>,
    pub pending_webhooks: i64,
}

/// Who caused a change: an API request (its id and idempotency key) or the mock itself.
#[derive(Debug, Clone, Default)]
pub struct Origin {
    pub request_id: Option<String>,
    pub idempotency_key: Option<String>,
}

/// Stored answer for an `Idempotency-Key`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredResponse {
    /// When the key was first used (mock clock); Stripe forgets keys after 24 hours.
    #[serde(default)]
    pub created: i64,
    pub fingerprint: String,
    pub status: u16,
    pub body: String,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Store {
    pub customers: BTreeMap<String, Customer>,
    pub products: BTreeMap<String, Product>,
    pub prices: BTreeMap<String, Price>,
    pub sessions: BTreeMap<String, CheckoutSession>,
    pub payment_methods: BTreeMap<String, PaymentMethod>,
    pub subscriptions: BTreeMap<String, Subscription>,
    pub invoices: BTreeMap<String, Invoice>,
    pub portal_sessions: BTreeMap<String, PortalSession>,
    /// In creation order.
    pub events: Vec<Event>,
    pub idempotency: HashMap<String, StoredResponse>,
    pub invoice_counter: u64,
    /// Events emitted since the webhook worker last looked; not persisted.
    #[serde(skip)]
    pub outbox: Vec<String>,
    /// Whether a webhook endpoint is configured (sets `pending_webhooks`).
    #[serde(skip)]
    pub webhooks_enabled: bool,
}

/// A months-later timestamp with the day clamped (Jan 31 + 1 month = Feb 28/29), like Stripe.
pub fn add_months(ts: i64, months: u32) -> i64 {
    use time::{Date, OffsetDateTime};
    let Ok(dt) = OffsetDateTime::from_unix_timestamp(ts) else {
        return ts + i64::from(months) * 30 * 86_400;
    };
    let total = dt.year() * 12 + (dt.month() as i32 - 1) + months as i32;
    let (year, month0) = (total.div_euclid(12), total.rem_euclid(12));
    let month = time::Month::try_from(month0 as u8 + 1).expect("month in range");
    let day = dt.day().min(month.length(year));
    match Date::from_calendar_date(year, month, day) {
        Ok(date) => dt.replace_date(date).unix_timestamp(),
        Err(_) => ts + i64::from(months) * 30 * 86_400,
    }
}

fn list(data: Vec<Value>, has_more: bool, url: &str) -> Value {
    json!({ "object": "list", "data": data, "has_more": has_more, "url": url, "total_count": null })
}

fn opt_id(id: &Option<String>) -> Value {
    id.as_ref().map_or(Value::Null, |s| json!(s))
}

impl Store {
    pub fn seeded(now: i64) -> Self {
        let mut store = Store::default();
        store.products.insert(
            SEED_PRODUCT.to_owned(),
            Product {
                id: SEED_PRODUCT.to_owned(),
                created: now,
                updated: now,
                name: "Unlimited Sales Copilot".to_owned(),
                description: Some(
                    "Unlimited usage, advanced AI insights, priority support and CRM integrations."
                        .to_owned(),
                ),
                active: true,
                metadata: Metadata::new(),
            },
        );
        store.prices.insert(
            SEED_PRICE.to_owned(),
            Price {
                id: SEED_PRICE.to_owned(),
                created: now,
                product: SEED_PRODUCT.to_owned(),
                unit_amount: 2000,
                currency: "usd".to_owned(),
                recurring: Some(Recurring {
                    interval: "month".to_owned(),
                    interval_count: 1,
                }),
                active: true,
                nickname: Some("Monthly".to_owned()),
                lookup_key: None,
                metadata: Metadata::new(),
            },
        );
        store
    }

    // ---------------------------------------------------------------- events

    pub fn emit(
        &mut self,
        kind: &str,
        object: Value,
        previous: Option<Value>,
        origin: &Origin,
        now: i64,
    ) {
        let id = new_id("evt");
        self.events.push(Event {
            id: id.clone(),
            created: now,
            kind: kind.to_owned(),
            object,
            previous_attributes: previous,
            request_id: origin.request_id.clone(),
            idempotency_key: origin.idempotency_key.clone(),
            pending_webhooks: i64::from(self.webhooks_enabled),
        });
        self.outbox.push(id);
    }

    pub fn render_event(&self, e: &Event) -> Value {
        let mut data = json!({ "object": e.object });
        if let Some(prev) = &e.previous_attributes {
            data["previous_attributes"] = prev.clone();
        }
        json!({
            "id": e.id,
            "object": "event",
            "api_version": API_VERSION,
            "created": e.created,
            "data": data,
            "livemode": false,
            "pending_webhooks": e.pending_webhooks,
            "request": { "id": e.request_id, "idempotency_key": e.idempotency_key },
            "type": e.kind,
        })
    }

    // ---------------------------------------------------------------- rendering

    /// Renders any stored object by id (used by `expand`).
    pub fn render_any(&self, id: &str, exp: &Expand) -> Option<Value> {
        if let Some(c) = self.customers.get(id) {
            return Some(self.render_customer(c, exp));
        }
        if let Some(p) = self.products.get(id) {
            return Some(self.render_product(p));
        }
        if let Some(p) = self.prices.get(id) {
            return Some(self.render_price(p, exp));
        }
        if let Some(s) = self.sessions.get(id) {
            return Some(self.render_session(s, exp));
        }
        if let Some(p) = self.payment_methods.get(id) {
            return Some(self.render_payment_method(p, exp));
        }
        if let Some(s) = self.subscriptions.get(id) {
            return Some(self.render_subscription(s, exp));
        }
        if let Some(i) = self.invoices.get(id) {
            return Some(self.render_invoice(i, exp));
        }
        None
    }

    fn link(&self, id: &Option<String>, field: &str, exp: &Expand) -> Value {
        match (id, exp.child(field)) {
            (None, _) => Value::Null,
            (Some(id), Some(child)) => self.render_any(id, &child).unwrap_or_else(|| json!(id)),
            (Some(id), None) => json!(id),
        }
    }

    pub fn render_customer(&self, c: &Customer, exp: &Expand) -> Value {
        json!({
            "id": c.id,
            "object": "customer",
            "address": null,
            "balance": 0,
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
    fn render_plan(&self, p: &Price) -> Value {
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

    pub fn line_item_amount(&self, li: &LineItem) -> i64 {
        self.prices
            .get(&li.price)
            .map_or(0, |p| p.unit_amount * li.quantity as i64)
    }

    pub fn render_line_item(&self, li: &LineItem, currency: &str) -> Value {
        let amount = self.line_item_amount(li);
        let price = self.prices.get(&li.price);
        let description = price
            .and_then(|p| self.products.get(&p.product))
            .map(|p| p.name.clone());
        json!({
            "id": li.id,
            "object": "item",
            "amount_discount": 0,
            "amount_subtotal": amount,
            "amount_tax": 0,
            "amount_total": amount,
            "currency": currency,
            "description": description,
            "price": price.map(|p| self.render_price(p, &Expand::none())),
            "quantity": li.quantity,
        })
    }

    pub fn session_total(&self, s: &CheckoutSession) -> i64 {
        s.line_items
            .iter()
            .map(|li| self.line_item_amount(li))
            .sum()
    }

    pub fn render_session(&self, s: &CheckoutSession, exp: &Expand) -> Value {
        let total = self.session_total(s);
        let completed = s.status == "complete";
        let email = s
            .details_email
            .clone()
            .or_else(|| s.customer_email.clone())
            .or_else(|| {
                s.customer
                    .as_ref()
                    .and_then(|c| self.customers.get(c))
                    .and_then(|c| c.email.clone())
            });
        let mut v = json!({
            "id": s.id,
            "object": "checkout.session",
            "adaptive_pricing": null,
            "after_expiration": null,
            "allow_promotion_codes": null,
            "amount_subtotal": total,
            "amount_total": total,
            "automatic_tax": { "enabled": false, "liability": null, "provider": null, "status": null },
            "billing_address_collection": null,
            "cancel_url": s.cancel_url,
            "client_reference_id": s.client_reference_id,
            "client_secret": null,
            "consent": null,
            "consent_collection": null,
            "created": s.created,
            "currency": s.currency,
            "custom_fields": [],
            "custom_text": { "after_submit": null, "shipping_address": null, "submit": null, "terms_of_service_acceptance": null },
            "customer": self.link(&s.customer, "customer", exp),
            "customer_creation": if s.customer.is_none() || s.mode == "subscription" { json!("always") } else { Value::Null },
            "customer_details": if completed { json!({
                "address": null, "email": email, "name": null, "phone": null,
                "tax_exempt": "none", "tax_ids": [],
            }) } else { Value::Null },
            "customer_email": s.customer_email,
            "discounts": [],
            "expires_at": s.expires_at,
            "invoice": self.link(&s.invoice, "invoice", exp),
            "invoice_creation": null,
            "livemode": false,
            "locale": null,
            "metadata": s.metadata,
            "mode": s.mode,
            "payment_intent": opt_id(&s.payment_intent),
            "payment_link": null,
            "payment_method_collection": "always",
            "payment_method_options": {},
            "payment_method_types": ["card"],
            "payment_status": s.payment_status,
            "phone_number_collection": { "enabled": false },
            "recovered_from": null,
            "setup_intent": null,
            "shipping_address_collection": null,
            "shipping_cost": null,
            "shipping_options": [],
            "status": s.status,
            "submit_type": null,
            "subscription": self.link(&s.subscription, "subscription", exp),
            "success_url": s.success_url,
            "total_details": { "amount_discount": 0, "amount_shipping": 0, "amount_tax": 0 },
            "ui_mode": "hosted_page",
            "url": if s.status == "open" { json!(s.url) } else { Value::Null },
        });
        if exp.child("line_items").is_some() {
            let data = s
                .line_items
                .iter()
                .map(|li| self.render_line_item(li, &s.currency))
                .collect();
            v["line_items"] = list(
                data,
                false,
                &format!("/v1/checkout/sessions/{}/line_items", s.id),
            );
        }
        v
    }

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

    fn render_subscription_item(&self, s: &Subscription, item: &SubscriptionItem) -> Value {
        let price = self.prices.get(&item.price);
        json!({
            "id": item.id,
            "object": "subscription_item",
            "billing_thresholds": null,
            "created": item.created,
            "current_period_end": s.current_period_end,
            "current_period_start": s.current_period_start,
            "discounts": [],
            "metadata": {},
            "plan": price.map(|p| self.render_plan(p)),
            "price": price.map(|p| self.render_price(p, &Expand::none())),
            "quantity": item.quantity,
            "subscription": s.id,
            "tax_rates": [],
        })
    }

    pub fn render_subscription(&self, s: &Subscription, exp: &Expand) -> Value {
        let items: Vec<Value> = s
            .items
            .iter()
            .map(|i| self.render_subscription_item(s, i))
            .collect();
        let first_price = s.items.first().and_then(|i| self.prices.get(&i.price));
        json!({
            "id": s.id,
            "object": "subscription",
            "application": null,
            "application_fee_percent": null,
            "automatic_tax": { "disabled_reason": null, "enabled": false, "liability": null },
            "billing_cycle_anchor": s.billing_cycle_anchor,
            "billing_cycle_anchor_config": null,
            "billing_mode": { "flexible": null, "type": "classic" },
            "billing_schedules": [],
            "billing_thresholds": null,
            "cancel_at": s.cancel_at,
            "cancel_at_period_end": s.cancel_at_period_end,
            "canceled_at": s.canceled_at,
            "cancellation_details": { "comment": null, "feedback": null, "reason": if s.canceled_at.is_some() { json!("cancellation_requested") } else { Value::Null } },
            "collection_method": "charge_automatically",
            "created": s.created,
            "currency": s.currency,
            "current_period_end": s.current_period_end,
            "current_period_start": s.current_period_start,
            "customer": self.link(&Some(s.customer.clone()), "customer", exp),
            "days_until_due": null,
            "default_payment_method": self.link(&s.default_payment_method, "default_payment_method", exp),
            "default_source": null,
            "default_tax_rates": [],
            "description": null,
            "discounts": [],
            "ended_at": s.ended_at,
            "invoice_settings": { "account_tax_ids": null, "issuer": { "type": "self" } },
            "items": list(items, false, &format!("/v1/subscription_items?subscription={}", s.id)),
            "latest_invoice": self.link(&s.latest_invoice, "latest_invoice", exp),
            "livemode": false,
            "metadata": s.metadata,
            "next_pending_invoice_item_invoice": null,
            "on_behalf_of": null,
            "pause_collection": null,
            "payment_settings": { "payment_method_options": null, "payment_method_types": null, "save_default_payment_method": "off" },
            "pending_invoice_item_interval": null,
            "pending_setup_intent": null,
            "pending_update": null,
            "plan": first_price.map(|p| self.render_plan(p)),
            "quantity": s.items.first().map(|i| i.quantity),
            "schedule": null,
            "start_date": s.start_date,
            "status": s.status,
            "test_clock": null,
            "transfer_data": null,
            "trial_end": null,
            "trial_settings": { "end_behavior": { "missing_payment_method": "create_invoice" } },
            "trial_start": null,
        })
    }

    pub fn render_invoice(&self, i: &Invoice, exp: &Expand) -> Value {
        let lines: Vec<Value> = i
            .lines
            .iter()
            .map(|l| {
                let price = self.prices.get(&l.price);
                let product_name = price
                    .and_then(|p| self.products.get(&p.product))
                    .map_or(String::new(), |p| p.name.clone());
                json!({
                    "id": l.id,
                    "object": "line_item",
                    "amount": l.amount,
                    "currency": i.currency,
                    "description": format!("{} × {}", l.quantity, product_name),
                    "discount_amounts": [],
                    "discountable": true,
                    "discounts": [],
                    "invoice": i.id,
                    "livemode": false,
                    "metadata": {},
                    "parent": i.subscription.as_ref().map(|sub| json!({
                        "type": "subscription_item_details",
                        "invoice_item_details": null,
                        "subscription_item_details": {
                            "invoice_item": null, "proration": false, "proration_details": { "credited_items": null },
                            "subscription": sub, "subscription_item": self.subscriptions.get(sub).and_then(|s| s.items.first()).map(|it| it.id.clone()),
                        },
                    })),
                    "period": { "end": i.period_end, "start": i.period_start },
                    "pretax_credit_amounts": [],
                    "pricing": { "type": "price_details", "price_details": { "price": l.price, "product": price.map(|p| p.product.clone()) }, "unit_amount_decimal": price.map(|p| p.unit_amount.to_string()) },
                    "quantity": l.quantity,
                    "subtotal": l.amount,
                    "taxes": [],
                })
            })
            .collect();
        let customer = self.customers.get(&i.customer);
        let paid = i.status == "paid";
        json!({
            "id": i.id,
            "object": "invoice",
            "account_country": "US",
            "account_name": "Closewise (stripe-mock)",
            "amount_due": i.total,
            "amount_overpaid": 0,
            "amount_paid": i.amount_paid,
            "amount_remaining": i.total - i.amount_paid,
            "amount_shipping": 0,
            "attempt_count": i.attempt_count,
            "attempted": i.attempt_count > 0,
            "auto_advance": !paid,
            "automatic_tax": { "disabled_reason": null, "enabled": false, "liability": null, "provider": null, "status": null },
            "billing_reason": i.billing_reason,
            "collection_method": "charge_automatically",
            "created": i.created,
            "currency": i.currency,
            "customer": self.link(&Some(i.customer.clone()), "customer", exp),
            "customer_email": customer.and_then(|c| c.email.clone()),
            "customer_name": customer.and_then(|c| c.name.clone()),
            "default_payment_method": null,
            "default_source": null,
            "default_tax_rates": [],
            "description": null,
            "discounts": [],
            "due_date": null,
            "ending_balance": 0,
            "hosted_invoice_url": null,
            "invoice_pdf": null,
            "issuer": { "type": "self" },
            "last_finalization_error": null,
            "lines": list(lines, false, &format!("/v1/invoices/{}/lines", i.id)),
            "livemode": false,
            "metadata": {},
            "number": i.number,
            "paid": paid,
            "parent": i.subscription.as_ref().map(|sub| json!({
                "type": "subscription_details",
                "quote_details": null,
                "subscription_details": { "metadata": {}, "subscription": sub },
            })),
            "payment_settings": { "default_mandate": null, "payment_method_options": null, "payment_method_types": null },
            "period_end": i.period_end,
            "period_start": i.period_start,
            "post_payment_credit_notes_amount": 0,
            "pre_payment_credit_notes_amount": 0,
            "starting_balance": 0,
            "status": i.status,
            "status_transitions": {
                "finalized_at": i.created, "marked_uncollectible_at": null,
                "paid_at": i.paid_at, "voided_at": null,
            },
            "subscription": opt_id(&i.subscription),
            "subtotal": i.total,
            "total": i.total,
            "total_discount_amounts": [],
            "total_taxes": [],
        })
    }

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

    // ---------------------------------------------------------------- lookups

    pub fn customer(&self, id: &str, param: &str) -> Result<&Customer, ApiError> {
        self.customers
            .get(id)
            .ok_or_else(|| ApiError::no_such("customer", id, param))
    }

    pub fn price(&self, id: &str, param: &str) -> Result<&Price, ApiError> {
        self.prices
            .get(id)
            .ok_or_else(|| ApiError::no_such("price", id, param))
    }

    pub fn session(&self, id: &str) -> Result<&CheckoutSession, ApiError> {
        self.sessions
            .get(id)
            .ok_or_else(|| ApiError::no_such("checkout.session", id, "session"))
    }

    pub fn subscription(&self, id: &str) -> Result<&Subscription, ApiError> {
        self.subscriptions
            .get(id)
            .ok_or_else(|| ApiError::no_such("subscription", id, "id"))
    }

    // ---------------------------------------------------------------- operations

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
        };
        let id = customer.id.clone();
        let object = self.render_customer(&customer, &Expand::none());
        self.customers.insert(id.clone(), customer);
        self.emit("customer.created", object, None, origin, now);
        id
    }

    fn next_invoice_number(&mut self) -> String {
        self.invoice_counter += 1;
        format!("CW-{:06}", self.invoice_counter)
    }

    /// A subscription invoice for the current period, paid when the card can be charged.
    fn create_invoice(&mut self, sub_id: &str, reason: &str, paid: bool, now: i64) -> String {
        let sub = self.subscriptions[sub_id].clone();
        let lines: Vec<InvoiceLine> = sub
            .items
            .iter()
            .map(|it| InvoiceLine {
                id: new_id("il"),
                price: it.price.clone(),
                quantity: it.quantity,
                amount: self
                    .prices
                    .get(&it.price)
                    .map_or(0, |p| p.unit_amount * it.quantity as i64),
            })
            .collect();
        let total = lines.iter().map(|l| l.amount).sum();
        let invoice = Invoice {
            id: new_id("in"),
            number: self.next_invoice_number(),
            created: now,
            customer: sub.customer.clone(),
            subscription: Some(sub.id.clone()),
            status: if paid { "paid" } else { "open" }.to_owned(),
            billing_reason: reason.to_owned(),
            currency: sub.currency.clone(),
            total,
            amount_paid: if paid { total } else { 0 },
            attempt_count: 1,
            period_start: sub.current_period_start,
            period_end: sub.current_period_end,
            paid_at: paid.then_some(now),
            payment_method: sub.default_payment_method.clone(),
            lines,
        };
        let id = invoice.id.clone();
        self.invoices.insert(id.clone(), invoice);
        id
    }

    /// The hosted checkout page's "Subscribe"/"Pay": charges the card and completes the session.
    /// Returns the success URL to redirect to, or the message to show on the page.
    pub fn complete_checkout(
        &mut self,
        session_id: &str,
        email: &str,
        name: Option<String>,
        card: Card,
        behaviour: Behaviour,
        now: i64,
    ) -> Result<String, String> {
        let session = self
            .sessions
            .get(session_id)
            .cloned()
            .ok_or_else(|| "This checkout session does not exist.".to_owned())?;
        match session.status.as_str() {
            "complete" => return Err("This checkout session is already complete.".to_owned()),
            "expired" => return Err("This checkout session has expired.".to_owned()),
            _ => {}
        }
        match behaviour {
            Behaviour::Succeeds => {}
            // A first charge with 0341 fails just like a plain decline.
            Behaviour::Declined | Behaviour::AttachesThenFails => {
                return Err(crate::cards::DECLINED.to_owned())
            }
            Behaviour::InsufficientFunds => return Err(crate::cards::INSUFFICIENT_FUNDS.to_owned()),
        }
        let origin = Origin::default();
        let email = email.trim().to_owned();
        let customer_id = match &session.customer {
            Some(id) => id.clone(),
            None => self.create_customer(
                Some(email.clone()),
                name.clone(),
                None,
                Metadata::new(),
                &origin,
                now,
            ),
        };
        let pm = PaymentMethod {
            id: new_id("pm"),
            created: now,
            customer: Some(customer_id.clone()),
            card,
            name,
            email: Some(email.clone()),
            fails_charges: false,
        };
        let pm_id = pm.id.clone();
        self.payment_methods.insert(pm_id.clone(), pm);

        let mut updated = session.clone();
        updated.customer = Some(customer_id.clone());
        updated.details_email = Some(email);
        updated.status = "complete".to_owned();
        updated.payment_status = "paid".to_owned();

        if session.mode == "subscription" {
            let sub = Subscription {
                id: new_id("sub"),
                created: now,
                customer: customer_id.clone(),
                status: "active".to_owned(),
                cancel_at_period_end: false,
                cancel_at: None,
                canceled_at: None,
                ended_at: None,
                current_period_start: now,
                current_period_end: add_months(now, 1),
                start_date: now,
                billing_cycle_anchor: now,
                default_payment_method: Some(pm_id.clone()),
                items: session
                    .line_items
                    .iter()
                    .map(|li| SubscriptionItem {
                        id: new_id("si"),
                        created: now,
                        price: li.price.clone(),
                        quantity: li.quantity,
                    })
                    .collect(),
                latest_invoice: None,
                metadata: session.subscription_metadata.clone(),
                currency: session.currency.clone(),
            };
            let sub_id = sub.id.clone();
            self.subscriptions.insert(sub_id.clone(), sub);
            let invoice_id = self.create_invoice(&sub_id, "subscription_create", true, now);
            if let Some(s) = self.subscriptions.get_mut(&sub_id) {
                s.latest_invoice = Some(invoice_id.clone());
            }
            updated.subscription = Some(sub_id.clone());
            updated.invoice = Some(invoice_id.clone());
            let sub_json = self.render_subscription(&self.subscriptions[&sub_id], &Expand::none());
            self.emit(
                "customer.subscription.created",
                sub_json,
                None,
                &origin,
                now,
            );
            let inv_json = self.render_invoice(&self.invoices[&invoice_id], &Expand::none());
            self.emit("invoice.paid", inv_json, None, &origin, now);
        } else {
            updated.payment_intent = Some(new_id("pi"));
        }
        let success = updated
            .success_url
            .clone()
            .unwrap_or_default()
            .replace("{CHECKOUT_SESSION_ID}", &updated.id);
        self.sessions.insert(updated.id.clone(), updated.clone());
        let session_json = self.render_session(&updated, &Expand::none());
        self.emit(
            "checkout.session.completed",
            session_json,
            None,
            &origin,
            now,
        );
        Ok(success)
    }

    /// Expires an open session (API `expire` or the clock passing `expires_at`).
    pub fn expire_session(&mut self, id: &str, origin: &Origin, now: i64) -> Result<(), ApiError> {
        let session = self.session(id)?;
        if session.status != "open" {
            return Err(ApiError::invalid_request(format!(
                "Only Checkout Sessions with a status in [\"open\"] can be expired. This Checkout Session has a status of \"{}\".",
                session.status
            )));
        }
        let session = self.sessions.get_mut(id).expect("checked above");
        session.status = "expired".to_owned();
        let json = self.render_session(&self.sessions[id], &Expand::none());
        self.emit("checkout.session.expired", json, None, origin, now);
        Ok(())
    }

    /// Applies a change to a subscription and emits `customer.subscription.updated` with the
    /// previous values of the fields that changed.
    pub fn update_subscription(
        &mut self,
        id: &str,
        origin: &Origin,
        now: i64,
        change: impl FnOnce(&mut Subscription),
    ) -> Result<(), ApiError> {
        let before = self.render_subscription(self.subscription(id)?, &Expand::none());
        let sub = self.subscriptions.get_mut(id).expect("checked above");
        change(sub);
        let after = self.render_subscription(&self.subscriptions[id], &Expand::none());
        let mut previous = serde_json::Map::new();
        if let (Value::Object(b), Value::Object(a)) = (&before, &after) {
            for (k, v) in b {
                if a.get(k) != Some(v) {
                    previous.insert(k.clone(), v.clone());
                }
            }
        }
        if !previous.is_empty() {
            self.emit(
                "customer.subscription.updated",
                after,
                Some(Value::Object(previous)),
                origin,
                now,
            );
        }
        Ok(())
    }

    pub fn set_cancel_at_period_end(
        &mut self,
        id: &str,
        cancel: bool,
        origin: &Origin,
        now: i64,
    ) -> Result<(), ApiError> {
        let status = self.subscription(id)?.status.clone();
        if status == "canceled" || status == "incomplete_expired" {
            return Err(ApiError::invalid_request(
                "A canceled subscription can only update its cancellation_details and metadata.",
            ));
        }
        self.update_subscription(id, origin, now, |s| {
            s.cancel_at_period_end = cancel;
            if cancel {
                s.cancel_at = Some(s.current_period_end);
                s.canceled_at = Some(now);
            } else {
                s.cancel_at = None;
                s.canceled_at = None;
            }
        })
    }

    /// Ends a subscription now (API `DELETE`, or the clock reaching a period end set to cancel).
    pub fn end_subscription(
        &mut self,
        id: &str,
        origin: &Origin,
        now: i64,
    ) -> Result<(), ApiError> {
        let sub = self.subscription(id)?;
        if sub.status == "canceled" {
            return Err(ApiError::invalid_request(format!(
                "No such subscription: '{id}'; it has already been canceled."
            )));
        }
        let sub = self.subscriptions.get_mut(id).expect("checked above");
        sub.status = "canceled".to_owned();
        sub.ended_at = Some(now);
        if sub.canceled_at.is_none() {
            sub.canceled_at = Some(now);
        }
        let json = self.render_subscription(&self.subscriptions[id], &Expand::none());
        self.emit("customer.subscription.deleted", json, None, origin, now);
        Ok(())
    }

    /// Attaches a new card to the subscription's customer and makes it the default.
    pub fn replace_card(
        &mut self,
        sub_id: &str,
        card: Card,
        behaviour: Behaviour,
        now: i64,
    ) -> Result<(), String> {
        match behaviour {
            Behaviour::Succeeds | Behaviour::AttachesThenFails => {}
            Behaviour::Declined => return Err(crate::cards::DECLINED.to_owned()),
            Behaviour::InsufficientFunds => return Err(crate::cards::INSUFFICIENT_FUNDS.to_owned()),
        }
        let sub = self.subscription(sub_id).map_err(|e| e.message)?.clone();
        let email = self
            .customers
            .get(&sub.customer)
            .and_then(|c| c.email.clone());
        let pm = PaymentMethod {
            id: new_id("pm"),
            created: now,
            customer: Some(sub.customer.clone()),
            card,
            name: None,
            email,
            fails_charges: behaviour == Behaviour::AttachesThenFails,
        };
        let pm_id = pm.id.clone();
        let pm_json = self.render_payment_method(&pm, &Expand::none());
        self.payment_methods.insert(pm_id.clone(), pm);
        let origin = Origin::default();
        self.emit("payment_method.attached", pm_json, None, &origin, now);
        self.update_subscription(sub_id, &origin, now, |s| {
            s.default_payment_method = Some(pm_id)
        })
        .map_err(|e| e.message)
    }

    /// Moves the world to `now`: renews or ends subscriptions whose period is over and expires
    /// checkout sessions past `expires_at`. Several periods may pass in one call.
    pub fn catch_up(&mut self, now: i64) {
        let origin = Origin::default();
        let expired: Vec<String> = self
            .sessions
            .values()
            .filter(|s| s.status == "open" && s.expires_at <= now)
            .map(|s| s.id.clone())
            .collect();
        for id in expired {
            let at = self.sessions[&id].expires_at;
            let _ = self.expire_session(&id, &origin, at);
        }
        loop {
            let due = self
                .subscriptions
                .values()
                .filter(|s| {
                    matches!(s.status.as_str(), "active" | "trialing" | "past_due")
                        && s.current_period_end <= now
                })
                .min_by_key(|s| (s.current_period_end, s.id.clone()))
                .map(|s| {
                    (
                        s.id.clone(),
                        s.current_period_end,
                        s.cancel_at_period_end,
                        s.status.clone(),
                    )
                });
            let Some((id, period_end, cancel, status)) = due else {
                break;
            };
            if cancel || status == "past_due" {
                // A past-due subscription whose next period comes round is ended too (Stripe's
                // default "cancel the subscription" after failed retries).
                let _ = self.end_subscription(&id, &origin, period_end);
                continue;
            }
            let charge_fails = self.subscriptions[&id]
                .default_payment_method
                .as_ref()
                .and_then(|pm| self.payment_methods.get(pm))
                .is_some_and(|pm| pm.fails_charges);
            let _ = self.update_subscription(&id, &origin, period_end, |s| {
                s.current_period_start = period_end;
                s.current_period_end = add_months(period_end, 1);
                if charge_fails {
                    s.status = "past_due".to_owned();
                }
            });
            let invoice_id =
                self.create_invoice(&id, "subscription_cycle", !charge_fails, period_end);
            if let Some(s) = self.subscriptions.get_mut(&id) {
                s.latest_invoice = Some(invoice_id.clone());
            }
            let inv_json = self.render_invoice(&self.invoices[&invoice_id], &Expand::none());
            let kind = if charge_fails {
                "invoice.payment_failed"
            } else {
                "invoice.paid"
            };
            self.emit(kind, inv_json, None, &origin, period_end);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adding_a_month_clamps_the_day() {
        // 2027-01-31T12:00:00Z -> 2027-02-28T12:00:00Z
        assert_eq!(add_months(1_801_396_800, 1), 1_803_816_000);
        // 2026-11-22T00:00:00Z -> 2026-12-22T00:00:00Z
        assert_eq!(add_months(1_795_305_600, 1), 1_795_305_600 + 30 * 86_400);
    }
}
