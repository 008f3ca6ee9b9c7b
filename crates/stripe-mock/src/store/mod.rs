//! The mock's state: Stripe's objects kept as small structs, rendered to Stripe's JSON on the way
//! out (with every field async-stripe requires), plus the events every change emits. One file per
//! resource; this one holds the store itself and what they share.

use std::collections::{BTreeMap, HashMap};

use rand::distributions::Alphanumeric;
use rand::Rng;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::expand::Expand;

mod billing_portal;
mod catalogue;
mod checkout;
mod clock;
mod company;
mod coupons;
mod customers;
mod discounts;
mod dunning;
mod events;
mod invoices;
mod payment_methods;
mod prorations;
mod send_invoice;
mod subscriptions;
mod tax;
mod tax_ids;
mod trials;

pub use billing_portal::{
    PortalConfiguration, PortalFeatures, PortalSession, DEFAULT_PORTAL_CONFIGURATION,
};
pub use catalogue::{Price, Product, Recurring};
pub use checkout::{CheckoutSession, LineItem};
pub use company::{Collect, Company};
pub use coupons::{Coupon, Discount, PromotionCode};
pub use customers::{Address, Customer};
pub use discounts::{InvoiceDiscounts, SessionDiscount};
pub use dunning::{parse_retry_days, AfterRetries, DEFAULT_RETRY_DAYS};
pub use events::Event;
pub use invoices::{Invoice, InvoiceLine};
pub use payment_methods::PaymentMethod;
pub use prorations::{Change, ProrationBehavior, QuantityChange};
pub use send_invoice::{NewSubscription, SentInvoice};
pub use subscriptions::{Subscription, SubscriptionItem};
pub use tax::{automatic_tax, rate_of, InvoiceTaxes, DEFAULT_SELLER_COUNTRY};
pub use tax_ids::{normalise as normalise_tax_id, TaxId, TAX_ID_TYPES};

pub const API_VERSION: &str = "2026-09-30.endive";
pub const SEED_PRODUCT: &str = "prod_closewise_unlimited";
pub const SEED_PRICE: &str = "price_closewise_monthly";
/// The same product by the year: two months free.
pub const SEED_YEARLY_PRICE: &str = "price_closewise_yearly";

pub type Metadata = BTreeMap<String, String>;

pub fn new_id(prefix: &str) -> String {
    let suffix: String = rand::thread_rng()
        .sample_iter(&Alphanumeric)
        .take(24)
        .map(char::from)
        .collect();
    format!("{prefix}_{suffix}")
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
    /// Those created through the API; the default one is built in.
    #[serde(default)]
    pub portal_configurations: BTreeMap<String, PortalConfiguration>,
    #[serde(default)]
    pub coupons: BTreeMap<String, Coupon>,
    #[serde(default)]
    pub promotion_codes: BTreeMap<String, PromotionCode>,
    #[serde(default)]
    pub discounts: BTreeMap<String, Discount>,
    /// In creation order.
    pub events: Vec<Event>,
    pub idempotency: HashMap<String, StoredResponse>,
    pub invoice_counter: u64,
    #[serde(default)]
    pub tax_ids: BTreeMap<String, TaxId>,
    /// The invoices e-mailed to customers (`collection_method=send_invoice`), oldest first.
    #[serde(default)]
    pub sent_invoices: Vec<SentInvoice>,
    /// Events emitted since the webhook worker last looked; not persisted.
    #[serde(skip)]
    pub outbox: Vec<String>,
    /// Whether a webhook endpoint is configured (sets `pending_webhooks`).
    #[serde(skip)]
    pub webhooks_enabled: bool,
    /// Where the hosted pages are served (for invoice links); not persisted.
    #[serde(skip)]
    pub public_url: String,
    /// The seller's country for automatic tax (`Config::seller_country`); not persisted.
    #[serde(skip)]
    pub seller_country: String,
    /// The clock's time at the last catch-up, for what Stripe computes when rendering
    /// (a coupon's `valid`).
    #[serde(skip)]
    pub now: i64,
    /// Days after a renewal's first failure when it is retried (`Config::retry_days`).
    #[serde(skip)]
    pub retry_days: Vec<u32>,
    /// What the last failed retry does (`Config::after_retries`).
    #[serde(skip)]
    pub after_retries: AfterRetries,
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

pub(crate) fn list(data: Vec<Value>, has_more: bool, url: &str) -> Value {
    json!({ "object": "list", "data": data, "has_more": has_more, "url": url, "total_count": null })
}

pub(crate) fn opt_id(id: &Option<String>) -> Value {
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
        for (id, unit_amount, interval, nickname) in [
            (SEED_PRICE, 2000, "month", "Monthly"),
            (SEED_YEARLY_PRICE, 20_000, "year", "Yearly"),
        ] {
            store.prices.insert(
                id.to_owned(),
                Price {
                    id: id.to_owned(),
                    created: now,
                    product: SEED_PRODUCT.to_owned(),
                    unit_amount,
                    currency: "usd".to_owned(),
                    recurring: Some(Recurring {
                        interval: interval.to_owned(),
                        interval_count: 1,
                    }),
                    active: true,
                    nickname: Some(nickname.to_owned()),
                    lookup_key: None,
                    metadata: Metadata::new(),
                },
            );
        }
        store
    }

    /// The end of a billing period of `price` that starts at `from` (a month when the price is
    /// unknown or one-off).
    pub fn period_end(&self, price: &str, from: i64) -> i64 {
        let (interval, count) = self
            .prices
            .get(price)
            .and_then(|p| p.recurring.as_ref())
            .map_or(("month", 1), |r| (r.interval.as_str(), r.interval_count));
        let count = u32::try_from(count).unwrap_or(1);
        match interval {
            "day" => from + i64::from(count) * 86_400,
            "week" => from + i64::from(count) * 7 * 86_400,
            "year" => add_months(from, 12 * count),
            _ => add_months(from, count),
        }
    }

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
        if let Some(t) = self.tax_ids.get(id) {
            return Some(self.render_tax_id(t));
        }
        if let Some(c) = self.coupons.get(id) {
            return Some(self.render_coupon(c));
        }
        if let Some(p) = self.promotion_codes.get(id) {
            return Some(self.render_promotion_code(p, exp));
        }
        if let Some(d) = self.discounts.get(id) {
            return Some(self.render_discount(d, exp));
        }
        // Stripe has no GET for portal sessions; the handle's `object` shows them to tests.
        if let Some(p) = self.portal_sessions.get(id) {
            return Some(self.render_portal(p));
        }
        if let Ok(c) = self.portal_configuration(id) {
            return Some(self.render_portal_configuration(&c));
        }
        None
    }

    pub(crate) fn link(&self, id: &Option<String>, field: &str, exp: &Expand) -> Value {
        match (id, exp.child(field)) {
            (None, _) => Value::Null,
            (Some(id), Some(child)) => self.render_any(id, &child).unwrap_or_else(|| json!(id)),
            (Some(id), None) => json!(id),
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
