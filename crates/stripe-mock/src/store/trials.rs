//! Trials: the subscription starts `trialing` with a $0 invoice, Stripe's
//! `customer.subscription.trial_will_end` goes out three days before `trial_end`, and at
//! `trial_end` the clock bills the first period like a renewal (`store/clock.rs`).

use super::{new_id, Invoice, InvoiceLine, Origin, Store};
use crate::expand::Expand;

/// How long before `trial_end` Stripe sends `customer.subscription.trial_will_end`.
pub const TRIAL_WILL_END_BEFORE: i64 = 3 * 86_400;

impl Store {
    /// The invoice a trial starts with: each item at $0 ("Trial period for …"), paid.
    pub(crate) fn trial_invoice(&mut self, sub_id: &str, now: i64) -> String {
        let sub = self.subscriptions[sub_id].clone();
        let end = sub.trial_end.unwrap_or(sub.current_period_end);
        let lines = sub
            .items
            .iter()
            .map(|it| {
                let product = self
                    .prices
                    .get(&it.price)
                    .and_then(|p| self.products.get(&p.product))
                    .map_or_else(String::new, |p| p.name.clone());
                InvoiceLine {
                    id: new_id("il"),
                    price: it.price.clone(),
                    quantity: it.quantity,
                    amount: 0,
                    description: Some(format!("Trial period for {product}")),
                    proration: false,
                    period: Some((now, end)),
                    subscription_item: Some(it.id.clone()),
                }
            })
            .collect();
        let invoice = Invoice {
            id: new_id("in"),
            number: self.next_invoice_number(),
            created: now,
            customer: sub.customer.clone(),
            subscription: Some(sub.id.clone()),
            status: "paid".to_owned(),
            billing_reason: "subscription_create".to_owned(),
            currency: sub.currency.clone(),
            total: 0,
            starting_balance: 0,
            amount_paid: 0,
            attempt_count: 0,
            period_start: now,
            period_end: now,
            paid_at: Some(now),
            payment_method: sub.default_payment_method.clone(),
            lines,
            billed_to: Some(self.billed_to(&sub.customer)),
            discounts: Default::default(),
            taxes: Default::default(),
            due_date: None,
            overdue: false,
            next_payment_attempt: None,
        };
        let id = invoice.id.clone();
        self.invoices.insert(id.clone(), invoice);
        id
    }

    /// When the earliest trial reminder not sent yet is due, if it is due by `until`.
    pub(crate) fn next_trial_reminder(&self, until: i64) -> Option<(i64, String)> {
        self.subscriptions
            .values()
            .filter(|s| s.status == "trialing" && !s.trial_will_end_sent)
            .filter_map(|s| {
                // A trial shorter than three days is told at once.
                let at = (s.trial_end? - TRIAL_WILL_END_BEFORE).max(s.trial_start?);
                Some((at, s.id.clone()))
            })
            .filter(|(at, _)| *at <= until)
            .min()
    }

    /// Sends `customer.subscription.trial_will_end` for the subscription, at `at`.
    pub(crate) fn send_trial_reminder(&mut self, id: &str, at: i64) {
        let Some(sub) = self.subscriptions.get_mut(id) else {
            return;
        };
        sub.trial_will_end_sent = true;
        let json = self.render_subscription(&self.subscriptions[id], &Expand::none());
        self.emit(
            "customer.subscription.trial_will_end",
            json,
            None,
            &Origin::default(),
            at,
        );
    }
}
