//! Failed renewals and their retries, like Stripe's Smart Retries with a fixed schedule: the
//! renewal's first failed charge makes the subscription `past_due` and leaves its invoice `open`
//! with `next_payment_attempt` set; each retry (days after that first failure, `retry_days`)
//! charges the subscription's card again and emits `invoice.payment_failed` with the new
//! `attempt_count` (and `next_payment_attempt` null after the last), or `invoice.paid` and the
//! subscription back to `active`. After the last failure the subscription is canceled
//! (`customer.subscription.deleted`, `cancellation_details.reason: payment_failed`) or marked
//! `unpaid`, as `after_retries` says. A new default card (portal or API) is charged at once.

use serde::{Deserialize, Serialize};

use super::{Origin, Store};
use crate::expand::Expand;

/// Stripe's recommended schedule, as days after the first failure.
pub const DEFAULT_RETRY_DAYS: [u32; 4] = [1, 3, 5, 7];

/// What Stripe's "Manage failed payments" setting does once every retry failed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AfterRetries {
    /// Cancel the subscription.
    #[default]
    Cancel,
    /// Mark the subscription unpaid (it stays, its invoice stays open).
    Unpaid,
}

impl AfterRetries {
    pub fn parse(raw: &str) -> Result<Self, String> {
        match raw {
            "cancel" => Ok(Self::Cancel),
            "unpaid" => Ok(Self::Unpaid),
            other => Err(format!("expected cancel or unpaid, not {other:?}")),
        }
    }
}

/// Parses a retry schedule such as `1,3,5,7` (days after the first failure, increasing; empty
/// for no retries).
pub fn parse_retry_days(raw: &str) -> Result<Vec<u32>, String> {
    let days: Vec<u32> = raw
        .split(',')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| {
            d.parse::<u32>()
                .map_err(|_| format!("not a number of days: {d:?}"))
        })
        .collect::<Result<_, _>>()?;
    if days.windows(2).any(|w| w[0] >= w[1]) || days.first() == Some(&0) {
        return Err("retry days must be increasing and after day 0".to_owned());
    }
    Ok(days)
}

impl Store {
    /// When an invoice first failed at `first_failure` and has been tried `attempts` times, the
    /// next retry (None: none left).
    pub(crate) fn next_retry(&self, first_failure: i64, attempts: u64) -> Option<i64> {
        let index = usize::try_from(attempts).ok()?.checked_sub(1)?;
        self.retry_days
            .get(index)
            .map(|d| first_failure + i64::from(*d) * 86_400)
    }

    /// The earliest retry that is due at `now`: (when, invoice id).
    pub(crate) fn due_retry(&self, now: i64) -> Option<(i64, String)> {
        self.invoices
            .values()
            .filter(|i| i.status == "open")
            .filter_map(|i| i.next_payment_attempt.map(|at| (at, i.id.clone())))
            .filter(|(at, _)| *at <= now)
            .min()
    }

    /// Charges an open invoice's subscription card again, as the retry due `at`.
    pub(crate) fn retry_invoice(&mut self, id: &str, at: i64) {
        let origin = Origin::default();
        let Some(invoice) = self.invoices.get(id).cloned() else {
            return;
        };
        let sub = invoice
            .subscription
            .as_deref()
            .and_then(|s| self.subscriptions.get(s))
            .cloned();
        let Some(sub) = sub.filter(|s| s.status == "past_due") else {
            // Nothing left to collect for: the subscription ended or was paid another way.
            if let Some(i) = self.invoices.get_mut(id) {
                i.next_payment_attempt = None;
            }
            return;
        };
        let fails = sub
            .default_payment_method
            .as_ref()
            .and_then(|pm| self.payment_methods.get(pm))
            .is_none_or(|pm| pm.fails_charges);
        if !fails {
            self.collect_invoice(id, None, &origin, at);
            return;
        }
        let next = self.next_retry(invoice.created, invoice.attempt_count + 1);
        let stored = self.invoices.get_mut(id).expect("read above");
        stored.attempt_count += 1;
        stored.next_payment_attempt = next;
        stored
            .payment_method
            .clone_from(&sub.default_payment_method);
        let json = self.render_invoice(&self.invoices[id], &Expand::none());
        self.emit("invoice.payment_failed", json, None, &origin, at);
        if next.is_none() {
            self.retries_exhausted(&sub.id, &origin, at);
        }
    }

    /// The last retry failed: the subscription ends or becomes unpaid, per `after_retries`.
    pub(crate) fn retries_exhausted(&mut self, sub_id: &str, origin: &Origin, at: i64) {
        match self.after_retries {
            AfterRetries::Cancel => {
                if let Some(s) = self.subscriptions.get_mut(sub_id) {
                    s.cancellation_reason = Some("payment_failed".to_owned());
                }
                let _ = self.end_subscription(sub_id, origin, at);
            }
            AfterRetries::Unpaid => {
                let _ = self
                    .update_subscription(sub_id, origin, at, |s| s.status = "unpaid".to_owned());
            }
        }
    }

    /// Marks an open invoice paid (its subscription's card was charged): `invoice.paid`, then
    /// the subscription back to `active` if it was past due or unpaid.
    pub(crate) fn collect_invoice(
        &mut self,
        id: &str,
        card: Option<String>,
        origin: &Origin,
        at: i64,
    ) {
        let Some(stored) = self.invoices.get_mut(id) else {
            return;
        };
        stored.attempt_count += 1;
        stored.status = "paid".to_owned();
        stored.amount_paid = stored.amount_due();
        stored.paid_at = Some(at);
        stored.next_payment_attempt = None;
        let sub = stored.subscription.clone();
        let card = card.or_else(|| {
            sub.as_deref()
                .and_then(|s| self.subscriptions.get(s))
                .and_then(|s| s.default_payment_method.clone())
        });
        if let Some(pm) = card {
            self.invoices
                .get_mut(id)
                .expect("read above")
                .payment_method = Some(pm);
        }
        let json = self.render_invoice(&self.invoices[id], &Expand::none());
        self.emit("invoice.paid", json, None, origin, at);
        if let Some(sub) = sub.as_deref() {
            let failing = self
                .subscriptions
                .get(sub)
                .is_some_and(|s| matches!(s.status.as_str(), "past_due" | "unpaid"));
            if failing {
                let _ =
                    self.update_subscription(sub, origin, at, |s| s.status = "active".to_owned());
            }
        }
    }

    /// A new default card for `customer` (the portal's "Update card", or the API): the open
    /// invoices of its past-due or unpaid subscriptions are charged with it at once, as Stripe
    /// retries when a customer updates their payment method. `card` is the card to charge; None
    /// charges each subscription's own default.
    pub(crate) fn charge_open_invoices(
        &mut self,
        customer: &str,
        card: Option<&str>,
        origin: &Origin,
        now: i64,
    ) {
        let mut open: Vec<(i64, String)> = self
            .invoices
            .values()
            .filter(|i| i.customer == customer && i.status == "open")
            .filter(|i| {
                i.subscription
                    .as_deref()
                    .and_then(|s| self.subscriptions.get(s))
                    .is_some_and(|s| matches!(s.status.as_str(), "past_due" | "unpaid"))
            })
            .map(|i| (i.created, i.id.clone()))
            .collect();
        open.sort();
        for (_, id) in open {
            let pm = card.map(str::to_owned).or_else(|| {
                self.invoices[&id]
                    .subscription
                    .as_deref()
                    .and_then(|s| self.subscriptions.get(s))
                    .and_then(|s| s.default_payment_method.clone())
            });
            let Some(pm) = pm.filter(|pm| {
                self.payment_methods
                    .get(pm)
                    .is_some_and(|m| !m.fails_charges)
            }) else {
                continue;
            };
            self.collect_invoice(&id, Some(pm), origin, now);
        }
    }

    /// The customer's `invoice_settings.default_payment_method` changed through the API.
    pub(crate) fn use_customer_default_card(&mut self, customer: &str, origin: &Origin, now: i64) {
        let card = self
            .customers
            .get(customer)
            .and_then(|c| c.default_payment_method.clone());
        if let Some(card) = card {
            self.charge_open_invoices(customer, Some(&card), origin, now);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_retry_schedule_parses_from_days_separated_by_commas() {
        assert_eq!(parse_retry_days("1,3,5,7"), Ok(vec![1, 3, 5, 7]));
        assert_eq!(parse_retry_days(" 2, 4 "), Ok(vec![2, 4]));
        assert_eq!(parse_retry_days(""), Ok(vec![]));
        assert!(parse_retry_days("3,1").is_err());
        assert!(parse_retry_days("0,1").is_err());
        assert!(parse_retry_days("1,x").is_err());
    }

    #[test]
    fn retries_follow_the_schedule_from_the_first_failure_then_stop() {
        let store = Store {
            retry_days: DEFAULT_RETRY_DAYS.to_vec(),
            ..Store::default()
        };
        let day = 86_400;
        let tries: Vec<_> = (1..=5).map(|n| store.next_retry(1_000, n)).collect();
        assert_eq!(
            tries,
            [
                Some(1_000 + day),
                Some(1_000 + 3 * day),
                Some(1_000 + 5 * day),
                Some(1_000 + 7 * day),
                None
            ]
        );
    }

    #[test]
    fn after_retries_parses_stripes_two_choices() {
        assert_eq!(AfterRetries::parse("cancel"), Ok(AfterRetries::Cancel));
        assert_eq!(AfterRetries::parse("unpaid"), Ok(AfterRetries::Unpaid));
        assert!(AfterRetries::parse("pause").is_err());
    }
}
