//! The test clock: what happens when time passes.

use super::{add_months, Origin, Store};
use crate::expand::Expand;

impl Store {
    /// Moves the world to `now`: renews or ends subscriptions whose period is over (a trial's
    /// end bills its first period), sends trial reminders and marks sent invoices overdue, in
    /// the order they fall due, and expires checkout sessions past `expires_at`. Several
    /// periods may pass in one call.
    pub fn catch_up(&mut self, now: i64) {
        self.now = now;
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
            // Trial reminders and overdue invoices due before the next renewal go first.
            let until = due.as_ref().map_or(now, |d| d.1);
            if let Some((at, id)) = self.next_trial_reminder(until) {
                self.send_trial_reminder(&id, at);
                continue;
            }
            if let Some((at, id)) = self.next_overdue(until) {
                self.mark_overdue(&id, at);
                continue;
            }
            let Some((id, period_end, cancel, status)) = due else {
                break;
            };
            if cancel || status == "past_due" {
                // A past-due subscription whose next period comes round is ended too (Stripe's
                // default "cancel the subscription" after failed retries).
                let _ = self.end_subscription(&id, &origin, period_end);
                continue;
            }
            let send_invoice = self.subscriptions[&id].days_until_due.is_some();
            let charge_fails = !send_invoice
                && self.subscriptions[&id]
                    .default_payment_method
                    .as_ref()
                    .and_then(|pm| self.payment_methods.get(pm))
                    .is_some_and(|pm| pm.fails_charges);
            let price = self.subscriptions[&id]
                .items
                .first()
                .map(|i| i.price.clone());
            let next_end = price.map_or_else(
                || add_months(period_end, 1),
                |p| self.period_end(&p, period_end),
            );
            let _ = self.update_subscription(&id, &origin, period_end, |s| {
                s.current_period_start = period_end;
                s.current_period_end = next_end;
                // The first charge of a trial makes it active (or past due), like a renewal's.
                s.status = if charge_fails { "past_due" } else { "active" }.to_owned();
            });
            if send_invoice {
                let invoice_id =
                    self.send_subscription_invoice(&id, "subscription_cycle", &origin, period_end);
                if let Some(s) = self.subscriptions.get_mut(&id) {
                    s.latest_invoice = Some(invoice_id);
                }
                continue;
            }
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
