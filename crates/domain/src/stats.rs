//! The operator's figures (`closewise stats`): who counts as paying, as a live or a churned
//! subscription, and how the percentages and the monthly revenue are worked out. The store reads
//! the rows and parses them into the domain's types; these rules decide what they count as.

use crate::catalogue::PRICE_CENTS;
use crate::plan::{PlanStatus, PlanType};
use crate::subscription::SubscriptionStatus;

/// A user on the active paid plan now.
pub fn is_paying(plan_type: Option<PlanType>, plan_status: Option<PlanStatus>) -> bool {
    plan_type.is_some_and(|t| t.is_paid()) && plan_status == Some(PlanStatus::Active)
}

/// A subscription that counts towards the live ones (and the revenue): active or trialing.
pub fn is_live(status: Option<SubscriptionStatus>) -> bool {
    status.is_some_and(|s| s.counts_as_subscribed())
}

/// A subscription that ended (canceled, expired before it started) while `ended_in_window`: its
/// last change falls in the figures' window.
pub fn has_churned(status: Option<SubscriptionStatus>, ended_in_window: bool) -> bool {
    status.is_some_and(|s| s.is_terminal()) && ended_in_window
}

/// `part / whole` in percent, to one decimal; 0 when there is no whole.
pub fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        (part as f64 * 1000.0 / whole as f64).round() / 10.0
    }
}

/// Monthly recurring revenue in cents: the live subscriptions at the catalogue price.
pub fn mrr_cents(live_subscriptions: u64) -> i64 {
    live_subscriptions as i64 * PRICE_CENTS
}

/// Churn in percent: the churned among those live at the window's start (live now + churned).
pub fn churn_percent(churned: u64, live_subscriptions: u64) -> f64 {
    percent(churned, live_subscriptions + churned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_active_paid_plan_is_paying() {
        assert!(is_paying(Some(PlanType::Monthly), Some(PlanStatus::Active)));
        assert!(!is_paying(
            Some(PlanType::Monthly),
            Some(PlanStatus::Inactive)
        ));
        assert!(!is_paying(Some(PlanType::Free), Some(PlanStatus::Active)));
        assert!(!is_paying(None, Some(PlanStatus::Active)));
        assert!(!is_paying(Some(PlanType::Monthly), None));
    }

    #[test]
    fn active_and_trialing_are_live_and_nothing_else() {
        for s in SubscriptionStatus::ALL {
            let live = matches!(s, SubscriptionStatus::Active | SubscriptionStatus::Trialing);
            assert_eq!(is_live(Some(s)), live, "{s}");
        }
        assert!(!is_live(None));
    }

    #[test]
    fn churn_is_an_ended_subscription_inside_the_window() {
        assert!(has_churned(Some(SubscriptionStatus::Canceled), true));
        assert!(has_churned(
            Some(SubscriptionStatus::IncompleteExpired),
            true
        ));
        assert!(!has_churned(Some(SubscriptionStatus::Canceled), false));
        assert!(!has_churned(Some(SubscriptionStatus::PastDue), true));
        assert!(!has_churned(None, true));
    }

    #[test]
    fn percentages_round_to_one_decimal_and_never_divide_by_zero() {
        assert_eq!(percent(1, 3), 33.3);
        assert_eq!(percent(2, 3), 66.7);
        assert_eq!(percent(0, 0), 0.0);
        assert_eq!(churn_percent(1, 2), 33.3);
        assert_eq!(churn_percent(0, 0), 0.0);
    }

    #[test]
    fn revenue_is_the_live_subscriptions_at_the_catalogue_price() {
        assert_eq!(mrr_cents(0), 0);
        assert_eq!(mrr_cents(3), 3 * PRICE_CENTS);
    }
}
