//! Subscriptions: rendering, changes (each emits `customer.subscription.updated`) and ending.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{list, new_id, InvoiceLine, Metadata, Origin, PaymentMethod, Store};
use crate::cards::{Behaviour, Card};
use crate::error::ApiError;
use crate::expand::Expand;

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
    /// Prorations waiting for the next invoice (Stripe's pending invoice items).
    #[serde(default)]
    pub pending_invoice_items: Vec<InvoiceLine>,
    /// Discount ids, in the order they apply.
    #[serde(default)]
    pub discounts: Vec<String>,
    /// Stripe Tax computes the tax of its invoices (`automatic_tax[enabled]`).
    #[serde(default)]
    pub automatic_tax: bool,
    /// Why it was canceled when not at the customer's request (`payment_failed`).
    #[serde(default)]
    pub cancellation_reason: Option<String>,
    #[serde(default)]
    pub trial_start: Option<i64>,
    #[serde(default)]
    pub trial_end: Option<i64>,
    /// `customer.subscription.trial_will_end` was sent.
    #[serde(default)]
    pub trial_will_end_sent: bool,
    /// Set for `collection_method=send_invoice`: its invoices are sent, due this many days later,
    /// and never charged automatically.
    #[serde(default)]
    pub days_until_due: Option<i64>,
}

impl Subscription {
    pub fn collection_method(&self) -> &'static str {
        if self.days_until_due.is_some() {
            "send_invoice"
        } else {
            "charge_automatically"
        }
    }
}

impl Store {
    pub(crate) fn render_subscription_item(
        &self,
        s: &Subscription,
        item: &SubscriptionItem,
    ) -> Value {
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
            "automatic_tax": if s.automatic_tax { json!({ "disabled_reason": null, "enabled": true, "liability": { "type": "self" } }) } else { json!({ "disabled_reason": null, "enabled": false, "liability": null }) },
            "billing_cycle_anchor": s.billing_cycle_anchor,
            "billing_cycle_anchor_config": null,
            "billing_mode": { "flexible": null, "type": "classic" },
            "billing_schedules": [],
            "billing_thresholds": null,
            "cancel_at": s.cancel_at,
            "cancel_at_period_end": s.cancel_at_period_end,
            "canceled_at": s.canceled_at,
            "cancellation_details": { "comment": null, "feedback": null, "reason": match (&s.cancellation_reason, s.canceled_at) { (Some(r), _) => json!(r), (None, Some(_)) => json!("cancellation_requested"), (None, None) => Value::Null } },
            "collection_method": s.collection_method(),
            "created": s.created,
            "currency": s.currency,
            "current_period_end": s.current_period_end,
            "current_period_start": s.current_period_start,
            "customer": self.link(&Some(s.customer.clone()), "customer", exp),
            "days_until_due": s.days_until_due,
            "default_payment_method": self.link(&s.default_payment_method, "default_payment_method", exp),
            "default_source": null,
            "default_tax_rates": [],
            "description": null,
            "discounts": s.discounts.iter().map(|d| self.link(&Some(d.clone()), "discounts", exp)).collect::<Vec<_>>(),
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
            "trial_end": s.trial_end,
            "trial_settings": { "end_behavior": { "missing_payment_method": "create_invoice" } },
            "trial_start": s.trial_start,
        })
    }

    pub fn subscription(&self, id: &str) -> Result<&Subscription, ApiError> {
        self.subscriptions
            .get(id)
            .ok_or_else(|| ApiError::no_such("subscription", id, "id"))
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
        self.emit_subscription_updated(id, &before, origin, now);
        Ok(())
    }

    /// Emits `customer.subscription.updated` if the subscription's JSON changed since `before`,
    /// with the previous values of the fields that changed (`data.previous_attributes`).
    pub(crate) fn emit_subscription_updated(
        &mut self,
        id: &str,
        before: &Value,
        origin: &Origin,
        now: i64,
    ) {
        let after = self.render_subscription(&self.subscriptions[id], &Expand::none());
        let mut previous = serde_json::Map::new();
        if let (Value::Object(b), Value::Object(a)) = (before, &after) {
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
        // The same value again changes nothing (no new `canceled_at`, no event), as at Stripe.
        if self.subscription(id)?.cancel_at_period_end == cancel {
            return Ok(());
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
        .map_err(|e| e.message)?;
        self.charge_open_invoices(&sub.customer, None, &origin, now);
        Ok(())
    }
}
