//! Stripe subscription statuses and what they mean for a user's plan.
//!
//! Spec: "active and trialing both count as subscribed"; `cancel_at_period_end` labels the period
//! end date "Expires", otherwise "Renews".

use std::fmt;

use crate::plan::PlanType;

/// A subscription's status as Stripe reports it (Stripe's snake_case names), plus `not_started`
/// for a subscription record that exists before Stripe created one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SubscriptionStatus {
    Active,
    Trialing,
    Canceled,
    Incomplete,
    IncompleteExpired,
    PastDue,
    Unpaid,
    Paused,
    NotStarted,
}

/// A string that names no [`SubscriptionStatus`].
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
#[error("unknown subscription status {0:?}")]
pub struct UnknownSubscriptionStatus(pub String);

impl SubscriptionStatus {
    pub const ALL: [SubscriptionStatus; 9] = [
        SubscriptionStatus::Active,
        SubscriptionStatus::Trialing,
        SubscriptionStatus::Canceled,
        SubscriptionStatus::Incomplete,
        SubscriptionStatus::IncompleteExpired,
        SubscriptionStatus::PastDue,
        SubscriptionStatus::Unpaid,
        SubscriptionStatus::Paused,
        SubscriptionStatus::NotStarted,
    ];

    /// Parses Stripe's name exactly (`"past_due"`, `"incomplete_expired"`, ...).
    pub fn parse(stripe_str: &str) -> Result<Self, UnknownSubscriptionStatus> {
        Self::ALL
            .into_iter()
            .find(|status| status.as_str() == stripe_str)
            .ok_or_else(|| UnknownSubscriptionStatus(stripe_str.to_owned()))
    }

    pub fn as_str(&self) -> &'static str {
        match self {
            SubscriptionStatus::Active => "active",
            SubscriptionStatus::Trialing => "trialing",
            SubscriptionStatus::Canceled => "canceled",
            SubscriptionStatus::Incomplete => "incomplete",
            SubscriptionStatus::IncompleteExpired => "incomplete_expired",
            SubscriptionStatus::PastDue => "past_due",
            SubscriptionStatus::Unpaid => "unpaid",
            SubscriptionStatus::Paused => "paused",
            SubscriptionStatus::NotStarted => "not_started",
        }
    }

    /// Active and trialing subscriptions give the user the paid plan.
    pub fn counts_as_subscribed(&self) -> bool {
        matches!(
            self,
            SubscriptionStatus::Active | SubscriptionStatus::Trialing
        )
    }

    /// The paid plan stays: while subscribed, and through a failed payment's retries (past
    /// due, the grace) until Stripe ends the subscription or marks it unpaid.
    pub fn keeps_plan(&self) -> bool {
        self.counts_as_subscribed() || *self == SubscriptionStatus::PastDue
    }

    /// Statuses a subscription never leaves.
    pub fn is_terminal(&self) -> bool {
        matches!(
            self,
            SubscriptionStatus::Canceled | SubscriptionStatus::IncompleteExpired
        )
    }
}

impl fmt::Display for SubscriptionStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl TryFrom<String> for SubscriptionStatus {
    type Error = UnknownSubscriptionStatus;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Self::parse(&s)
    }
}

impl std::str::FromStr for SubscriptionStatus {
    type Err = UnknownSubscriptionStatus;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

/// How the end of the current billing period is labelled.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize)]
pub enum PeriodLabel {
    Renews,
    Expires,
}

impl PeriodLabel {
    pub fn as_str(&self) -> &'static str {
        match self {
            PeriodLabel::Renews => "Renews",
            PeriodLabel::Expires => "Expires",
        }
    }
}

impl fmt::Display for PeriodLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// "Expires" when the subscription is set to cancel at the period end, otherwise "Renews".
pub fn period_label(cancel_at_period_end: bool) -> PeriodLabel {
    if cancel_at_period_end {
        PeriodLabel::Expires
    } else {
        PeriodLabel::Renews
    }
}

/// What plan a user should have given the subscription Stripe reports (None = no subscription).
pub fn plan_for_subscription(status: Option<SubscriptionStatus>) -> PlanType {
    match status {
        Some(status) if status.keeps_plan() => PlanType::Monthly,
        _ => PlanType::Free,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn stripe_names_parse_to_their_statuses() {
        assert_eq!(
            SubscriptionStatus::parse("active"),
            Ok(SubscriptionStatus::Active)
        );
        assert_eq!(
            SubscriptionStatus::parse("past_due"),
            Ok(SubscriptionStatus::PastDue)
        );
        assert_eq!(
            SubscriptionStatus::parse("incomplete_expired"),
            Ok(SubscriptionStatus::IncompleteExpired)
        );
        assert_eq!(
            SubscriptionStatus::parse("not_started"),
            Ok(SubscriptionStatus::NotStarted)
        );
    }

    #[test]
    fn every_status_round_trips_through_its_name_and_json() {
        for status in SubscriptionStatus::ALL {
            assert_eq!(SubscriptionStatus::parse(status.as_str()), Ok(status));
            let json = serde_json::to_string(&status).unwrap();
            assert_eq!(json, format!("\"{}\"", status.as_str()));
            assert_eq!(
                serde_json::from_str::<SubscriptionStatus>(&json).unwrap(),
                status
            );
        }
    }

    #[test]
    fn unknown_or_differently_spelled_names_are_refused() {
        for bad in ["", "Active", "cancelled", "past-due", "pastDue", "ended"] {
            assert_eq!(
                SubscriptionStatus::parse(bad),
                Err(UnknownSubscriptionStatus(bad.to_owned())),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn only_active_and_trialing_count_as_subscribed() {
        let subscribed: Vec<_> = SubscriptionStatus::ALL
            .into_iter()
            .filter(|s| s.counts_as_subscribed())
            .collect();
        assert_eq!(
            subscribed,
            [SubscriptionStatus::Active, SubscriptionStatus::Trialing]
        );
    }

    #[test]
    fn only_canceled_and_incomplete_expired_are_terminal() {
        let terminal: Vec<_> = SubscriptionStatus::ALL
            .into_iter()
            .filter(|s| s.is_terminal())
            .collect();
        assert_eq!(
            terminal,
            [
                SubscriptionStatus::Canceled,
                SubscriptionStatus::IncompleteExpired
            ]
        );
    }

    #[test]
    fn a_subscription_set_to_cancel_expires_and_otherwise_renews() {
        assert_eq!(period_label(true), PeriodLabel::Expires);
        assert_eq!(period_label(false), PeriodLabel::Renews);
        assert_eq!(PeriodLabel::Expires.as_str(), "Expires");
        assert_eq!(PeriodLabel::Renews.to_string(), "Renews");
    }

    #[test]
    fn the_plan_follows_the_subscription() {
        assert_eq!(plan_for_subscription(None), PlanType::Free);
        assert_eq!(
            plan_for_subscription(Some(SubscriptionStatus::Active)),
            PlanType::Monthly
        );
        assert_eq!(
            plan_for_subscription(Some(SubscriptionStatus::Trialing)),
            PlanType::Monthly
        );
        assert_eq!(
            plan_for_subscription(Some(SubscriptionStatus::PastDue)),
            PlanType::Monthly,
            "Pro stays through the retries"
        );
        for status in [
            SubscriptionStatus::Canceled,
            SubscriptionStatus::Incomplete,
            SubscriptionStatus::IncompleteExpired,
            SubscriptionStatus::Unpaid,
            SubscriptionStatus::Paused,
            SubscriptionStatus::NotStarted,
        ] {
            assert_eq!(
                plan_for_subscription(Some(status)),
                PlanType::Free,
                "{status}"
            );
        }
    }

    #[test]
    fn no_status_is_both_subscribed_and_terminal() {
        for status in SubscriptionStatus::ALL {
            assert!(
                !(status.counts_as_subscribed() && status.is_terminal()),
                "{status}"
            );
        }
    }

    proptest! {
        #[test]
        fn a_name_parses_exactly_when_it_is_one_of_the_nine(raw in "[a-z_]{0,20}") {
            let known = SubscriptionStatus::ALL.iter().any(|s| s.as_str() == raw);
            prop_assert_eq!(SubscriptionStatus::parse(&raw).is_ok(), known);
        }

    }
}
