//! Invoices sent to be paid (`collection_method=send_invoice`): finalized open with a
//! `due_date`, e-mailed (kept in [`Store::sent_invoices`], readable at `/_mock/sent_invoices`),
//! paid on their hosted page, and `invoice.overdue` (the subscription `past_due`) when still
//! open at the due date.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{new_id, Origin, PaymentMethod, Store};
use crate::cards::{Behaviour, Card, DECLINED, INSUFFICIENT_FUNDS};
use crate::expand::Expand;

/// The e-mail Stripe sends with an invoice: to whom, which invoice, what and by when.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SentInvoice {
    pub invoice: String,
    pub customer: String,
    pub to: Option<String>,
    pub sent_at: i64,
}

impl Store {
    /// Bills the subscription's current period with an invoice to be paid within its
    /// `days_until_due`: open, sent to the customer (`invoice.sent`); an invoice with nothing
    /// to pay is paid at once (`invoice.paid`).
    pub(crate) fn send_subscription_invoice(
        &mut self,
        sub_id: &str,
        reason: &str,
        origin: &Origin,
        now: i64,
    ) -> String {
        let days = self.subscriptions[sub_id].days_until_due.unwrap_or(30);
        let id = self.invoice_with(sub_id, reason, false, now, true);
        let invoice = self.invoices.get_mut(&id).expect("just created");
        invoice.attempt_count = 0;
        invoice.payment_method = None;
        // Paid by the customer, not charged: Stripe never retries a sent invoice.
        invoice.next_payment_attempt = None;
        invoice.due_date = Some(now + days * 86_400);
        if invoice.amount_due() == 0 {
            invoice.status = "paid".to_owned();
            invoice.paid_at = Some(now);
            let json = self.render_invoice(&self.invoices[&id], &Expand::none());
            self.emit("invoice.paid", json, None, origin, now);
            return id;
        }
        let customer = invoice.customer.clone();
        let to = self.customers.get(&customer).and_then(|c| c.email.clone());
        self.sent_invoices.push(SentInvoice {
            invoice: id.clone(),
            customer,
            to,
            sent_at: now,
        });
        let json = self.render_invoice(&self.invoices[&id], &Expand::none());
        self.emit("invoice.sent", json, None, origin, now);
        id
    }

    /// The sent invoice e-mails, newest first, as `/_mock/sent_invoices` lists them.
    pub fn render_sent_invoices(&self) -> Value {
        let data: Vec<Value> = self
            .sent_invoices
            .iter()
            .rev()
            .map(|m| {
                let invoice = self.invoices.get(&m.invoice);
                json!({
                    "invoice": m.invoice,
                    "customer": m.customer,
                    "to": m.to,
                    "sent_at": m.sent_at,
                    "number": invoice.map(|i| i.number.clone()),
                    "amount_due": invoice.map(|i| i.amount_due()),
                    "currency": invoice.map(|i| i.currency.clone()),
                    "due_date": invoice.and_then(|i| i.due_date),
                    "status": invoice.map(|i| i.status.clone()),
                    "hosted_invoice_url": format!("{}/i/{}", self.public_url, m.invoice),
                })
            })
            .collect();
        json!({ "object": "list", "data": data })
    }

    /// When the earliest open sent invoice not yet overdue falls due, if by `until`.
    pub(crate) fn next_overdue(&self, until: i64) -> Option<(i64, String)> {
        self.invoices
            .values()
            .filter(|i| i.status == "open" && !i.overdue)
            .filter_map(|i| Some((i.due_date?, i.id.clone())))
            .filter(|(at, _)| *at <= until)
            .min()
    }

    /// The invoice is still open at its due date: `invoice.overdue`, and its subscription, when
    /// active, becomes `past_due`.
    pub(crate) fn mark_overdue(&mut self, id: &str, at: i64) {
        let Some(invoice) = self.invoices.get_mut(id) else {
            return;
        };
        invoice.overdue = true;
        let sub = invoice.subscription.clone();
        let origin = Origin::default();
        let json = self.render_invoice(&self.invoices[id], &Expand::none());
        self.emit("invoice.overdue", json, None, &origin, at);
        if let Some(sub) = sub.filter(|s| {
            self.subscriptions
                .get(s)
                .is_some_and(|s| s.status == "active")
        }) {
            let _ = self.update_subscription(&sub, &origin, at, |s| {
                s.status = "past_due".to_owned();
            });
        }
    }

    /// The hosted invoice page's "Pay": the card typed is attached to the customer and charged.
    /// Returns the message to show when it cannot be.
    pub fn pay_invoice_with_card(
        &mut self,
        id: &str,
        card: Card,
        behaviour: Behaviour,
        now: i64,
    ) -> Result<(), String> {
        let invoice = self.invoice(id).map_err(|e| e.message)?;
        if invoice.status != "open" {
            return Err("This invoice cannot be paid.".to_owned());
        }
        match behaviour {
            Behaviour::Succeeds => {}
            Behaviour::Declined | Behaviour::AttachesThenFails => return Err(DECLINED.to_owned()),
            Behaviour::InsufficientFunds => return Err(INSUFFICIENT_FUNDS.to_owned()),
        }
        let customer = invoice.customer.clone();
        let email = self.customers.get(&customer).and_then(|c| c.email.clone());
        let pm = PaymentMethod {
            id: new_id("pm"),
            created: now,
            customer: Some(customer),
            card,
            name: None,
            email,
            fails_charges: false,
        };
        let pm_id = pm.id.clone();
        self.payment_methods.insert(pm_id.clone(), pm);
        self.pay_invoice(id, Some(pm_id), &Origin::default(), now)
            .map_err(|e| e.message)
    }
}

/// A subscription as `POST /v1/subscriptions` asks for it.
pub struct NewSubscription {
    pub customer: String,
    /// (price, quantity)
    pub items: Vec<(String, u64)>,
    /// `collection_method=send_invoice`'s `days_until_due`; `None`: charged automatically.
    pub days_until_due: Option<i64>,
    pub default_payment_method: Option<String>,
    pub metadata: super::Metadata,
}

impl Store {
    /// Starts a subscription now. Sent invoices: active at once, its first invoice open and
    /// sent. Charged automatically: the first invoice is charged to the card (`invoice.paid`), or
    /// the subscription is `incomplete` with the invoice open (`invoice.payment_failed`).
    pub fn create_subscription(
        &mut self,
        new: NewSubscription,
        origin: &Origin,
        now: i64,
    ) -> Result<String, crate::error::ApiError> {
        use crate::error::ApiError;
        let customer = self.customer(&new.customer, "customer")?.clone();
        let Some((first_price, _)) = new.items.first() else {
            return Err(ApiError::missing_param("items"));
        };
        let mut currency = None;
        for (i, (price, _)) in new.items.iter().enumerate() {
            let p = self.price(price, &format!("items[{i}][price]"))?;
            if p.recurring.is_none() {
                return Err(ApiError::invalid_param(
                    &format!("items[{i}][price]"),
                    format!("The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`: {price}."),
                ));
            }
            if currency.as_ref().is_some_and(|c| *c != p.currency) {
                return Err(ApiError::invalid_param(
                    "items",
                    "All prices on a subscription must have the same currency.",
                ));
            }
            currency = Some(p.currency.clone());
        }
        let card = match &new.default_payment_method {
            Some(pm) => {
                let found = self.payment_methods.get(pm).ok_or_else(|| {
                    ApiError::no_such("PaymentMethod", pm, "default_payment_method")
                })?;
                if found.customer.as_deref() != Some(customer.id.as_str()) {
                    return Err(ApiError::invalid_param(
                        "default_payment_method",
                        format!("The customer does not have a payment method with the ID {pm}. The payment method must be attached to the customer."),
                    ));
                }
                Some(pm.clone())
            }
            None => customer.default_payment_method.clone(),
        };
        if new.days_until_due.is_none() && card.is_none() {
            return Err(ApiError::invalid_request(
                "This customer has no attached payment source or default payment method. Please consider adding a default payment method.",
            ));
        }
        let sub = super::Subscription {
            id: new_id("sub"),
            created: now,
            customer: customer.id.clone(),
            status: "active".to_owned(),
            cancel_at_period_end: false,
            cancel_at: None,
            canceled_at: None,
            ended_at: None,
            current_period_start: now,
            current_period_end: self.period_end(first_price, now),
            start_date: now,
            billing_cycle_anchor: now,
            default_payment_method: card.clone(),
            items: new
                .items
                .iter()
                .map(|(price, quantity)| super::SubscriptionItem {
                    id: new_id("si"),
                    created: now,
                    price: price.clone(),
                    quantity: *quantity,
                })
                .collect(),
            latest_invoice: None,
            metadata: new.metadata,
            currency: currency.unwrap_or_else(|| "usd".to_owned()),
            pending_invoice_items: Vec::new(),
            discounts: Vec::new(),
            automatic_tax: false,
            trial_start: None,
            trial_end: None,
            trial_will_end_sent: false,
            days_until_due: new.days_until_due,
            cancellation_reason: None,
        };
        let sub_id = sub.id.clone();
        self.subscriptions.insert(sub_id.clone(), sub);
        if new.days_until_due.is_some() {
            let json = self.render_subscription(&self.subscriptions[&sub_id], &Expand::none());
            self.emit("customer.subscription.created", json, None, origin, now);
            let invoice =
                self.send_subscription_invoice(&sub_id, "subscription_create", origin, now);
            if let Some(s) = self.subscriptions.get_mut(&sub_id) {
                s.latest_invoice = Some(invoice);
            }
            return Ok(sub_id);
        }
        let fails = card
            .as_ref()
            .and_then(|pm| self.payment_methods.get(pm))
            .is_some_and(|pm| pm.fails_charges);
        if fails {
            if let Some(s) = self.subscriptions.get_mut(&sub_id) {
                s.status = "incomplete".to_owned();
            }
        }
        let invoice = self.create_invoice(&sub_id, "subscription_create", !fails, now);
        if let Some(s) = self.subscriptions.get_mut(&sub_id) {
            s.latest_invoice = Some(invoice.clone());
        }
        let json = self.render_subscription(&self.subscriptions[&sub_id], &Expand::none());
        self.emit("customer.subscription.created", json, None, origin, now);
        let json = self.render_invoice(&self.invoices[&invoice], &Expand::none());
        let kind = if fails {
            "invoice.payment_failed"
        } else {
            "invoice.paid"
        };
        self.emit(kind, json, None, origin, now);
        Ok(sub_id)
    }
}
