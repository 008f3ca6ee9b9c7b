//! Failed payments (dunning): what a Stripe event about a subscription's collection means for a
//! stored failed payment, and how its dates read in the mails. Stripe retries a failed renewal on
//! its schedule; Pro stays through the retries (the grace, `SubscriptionStatus::keeps_plan`) and
//! ends when Stripe ends the subscription.

use time::OffsetDateTime;

use crate::subscription::SubscriptionStatus;

/// What to do with a subscription's failed payment after an event, the invoice and the
/// subscription read back from Stripe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CollectionStep {
    /// A charge failed and Stripe is collecting: store the attempt, mail the payer.
    Failed,
    /// The open invoice was paid: end the failed payment, mail a receipt.
    Recovered,
    /// Stripe gave up (the subscription ended, or is unpaid): end the failed payment, mail how to
    /// come back.
    Ended,
    /// Nothing about a failed payment.
    Nothing,
}

/// The step an event leads to. `invoice_status` is the invoice's as read back (None for an event
/// that names no invoice); `subscription` the subscription's as read back.
pub fn collection_step(
    event: &str,
    invoice_status: Option<&str>,
    subscription: SubscriptionStatus,
) -> CollectionStep {
    if subscription.is_terminal() || subscription == SubscriptionStatus::Unpaid {
        return CollectionStep::Ended;
    }
    match (event, invoice_status) {
        ("invoice.payment_failed", Some("open")) if subscription == SubscriptionStatus::PastDue => {
            CollectionStep::Failed
        }
        ("invoice.paid" | "invoice.payment_succeeded", Some("paid"))
            if subscription.counts_as_subscribed() =>
        {
            CollectionStep::Recovered
        }
        _ => CollectionStep::Nothing,
    }
}

/// A day as the mails write it: `December 3, 2026` (UTC).
pub fn day_label(unix: i64) -> String {
    let Ok(at) = OffsetDateTime::from_unix_timestamp(unix) else {
        return String::new();
    };
    format!("{} {}, {}", at.month(), at.day(), at.year())
}

#[cfg(test)]
mod tests {
    use super::*;
    use SubscriptionStatus::*;

    #[test]
    fn a_failed_charge_of_a_past_due_subscription_is_a_failure_to_follow() {
        assert_eq!(
            collection_step("invoice.payment_failed", Some("open"), PastDue),
            CollectionStep::Failed
        );
        assert_eq!(
            collection_step("invoice.payment_failed", Some("paid"), Active),
            CollectionStep::Nothing,
            "paid since the event was sent"
        );
    }

    #[test]
    fn a_paid_invoice_of_a_live_subscription_recovers_it() {
        for s in [Active, Trialing] {
            assert_eq!(
                collection_step("invoice.paid", Some("paid"), s),
                CollectionStep::Recovered
            );
        }
        assert_eq!(
            collection_step("invoice.paid", Some("open"), PastDue),
            CollectionStep::Nothing
        );
    }

    #[test]
    fn an_ended_or_unpaid_subscription_ends_the_failed_payment_whatever_the_event() {
        for s in [Canceled, IncompleteExpired, Unpaid] {
            assert_eq!(
                collection_step("invoice.payment_failed", Some("open"), s),
                CollectionStep::Ended
            );
            assert_eq!(
                collection_step("customer.subscription.deleted", None, s),
                CollectionStep::Ended
            );
        }
        assert_eq!(
            collection_step("customer.subscription.updated", None, PastDue),
            CollectionStep::Nothing
        );
    }

    #[test]
    fn days_read_as_month_day_year() {
        // 2026-12-03T10:00:00Z
        assert_eq!(day_label(1_796_292_000), "December 3, 2026");
    }
}
