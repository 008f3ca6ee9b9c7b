//! The test clock: what happens when time passes.

use super::{add_months, Origin, Store};
use crate::expand::Expand;

/// The next thing due on the clock.
enum Due {
    /// A subscription's period is over: (id, period end, cancel at period end, status).
    PeriodEnd(String, i64, bool, String),
    /// An open invoice's retry: (invoice id, when).
    Retry(String, i64),
}

impl Store {
    /// Moves the world to `now`: renews or ends subscriptions whose period is over (a trial's end
    /// bills its first period), retries failed renewals whose `next_payment_attempt` has come,
    /// sends trial reminders and marks sent invoices overdue, in the order they fall due, and
    /// expires checkout sessions past `expires_at`. Several periods may pass in one call.
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
            let period_end = self
                .subscriptions
                .values()
                .filter(|s| {
                    matches!(s.status.as_str(), "active" | "trialing" | "past_due")
                        && s.current_period_end <= now
                })
                .min_by_key(|s| (s.current_period_end, s.id.clone()))
                .map(|s| {
                    Due::PeriodEnd(
                        s.id.clone(),
                        s.current_period_end,
                        s.cancel_at_period_end,
                        s.status.clone(),
                    )
                });
            let retry = self
                .due_retry(now)
                .map(|(at, invoice)| Due::Retry(invoice, at));
            // Trial reminders and overdue invoices due before the next renewal or retry go first.
            let next_at = |d: &Option<Due>| match d {
                Some(Due::PeriodEnd(_, at, _, _)) | Some(Due::Retry(_, at)) => Some(*at),
                None => None,
            };
            let until = match (next_at(&period_end), next_at(&retry)) {
                (Some(a), Some(b)) => a.min(b),
                (Some(a), None) | (None, Some(a)) => a,
                (None, None) => now,
            };
            if let Some((at, id)) = self.next_trial_reminder(until) {
                self.send_trial_reminder(&id, at);
                continue;
            }
            if let Some((at, id)) = self.next_overdue(until) {
                self.mark_overdue(&id, at);
                continue;
            }
            let due = match (period_end, retry) {
                (Some(Due::PeriodEnd(id, end, cancel, status)), Some(Due::Retry(inv, at))) => {
                    if at <= end {
                        Due::Retry(inv, at)
                    } else {
                        Due::PeriodEnd(id, end, cancel, status)
                    }
                }
                (Some(d), _) | (None, Some(d)) => d,
                (None, None) => break,
            };
            match due {
                Due::Retry(invoice, at) => self.retry_invoice(&invoice, at),
                Due::PeriodEnd(id, period_end, cancel, status) => {
                    self.renew(&id, period_end, cancel || status == "past_due", &origin);
                }
            }
        }
    }

    /// A subscription's period is over: it ends (canceled at period end, or still past due
    /// when its next period comes round), or renews and charges its card. A failed charge
    /// leaves the invoice open for the retries and the subscription `past_due`, in Stripe's
    /// order: the new period, `invoice.payment_failed`, then the status.
    fn renew(&mut self, id: &str, period_end: i64, ends: bool, origin: &Origin) {
        if ends {
            let _ = self.end_subscription(id, origin, period_end);
            return;
        }
        // A subscription paid by invoice is sent one to pay; no card is charged.
        let send_invoice = self.subscriptions[id].days_until_due.is_some();
        let charge_fails = !send_invoice
            && self.subscriptions[id]
                .default_payment_method
                .as_ref()
                .and_then(|pm| self.payment_methods.get(pm))
                .is_some_and(|pm| pm.fails_charges);
        let price = self.subscriptions[id]
            .items
            .first()
            .map(|i| i.price.clone());
        let next_end = price.map_or_else(
            || add_months(period_end, 1),
            |p| self.period_end(&p, period_end),
        );
        let _ = self.update_subscription(id, origin, period_end, |s| {
            s.current_period_start = period_end;
            s.current_period_end = next_end;
            // A trial's first charge makes it active (a failed one past due, below).
            if s.status == "trialing" && !charge_fails {
                s.status = "active".to_owned();
            }
        });
        if send_invoice {
            let invoice_id =
                self.send_subscription_invoice(id, "subscription_cycle", origin, period_end);
            if let Some(s) = self.subscriptions.get_mut(id) {
                s.latest_invoice = Some(invoice_id);
            }
            return;
        }
        let invoice_id = self.create_invoice(id, "subscription_cycle", !charge_fails, period_end);
        if let Some(s) = self.subscriptions.get_mut(id) {
            s.latest_invoice = Some(invoice_id.clone());
        }
        let inv_json = self.render_invoice(&self.invoices[&invoice_id], &Expand::none());
        if !charge_fails {
            self.emit("invoice.paid", inv_json, None, origin, period_end);
            return;
        }
        self.emit("invoice.payment_failed", inv_json, None, origin, period_end);
        let _ = self.update_subscription(id, origin, period_end, |s| {
            s.status = "past_due".to_owned();
        });
        if self.invoices[&invoice_id].next_payment_attempt.is_none() {
            self.retries_exhausted(id, origin, period_end);
        }
    }
}
