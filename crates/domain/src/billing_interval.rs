//! Yearly billing: how often a subscription is billed, and the rules for switching it. The
//! catalogue sells the same plan by the month and by the year (`catalogue`); a subscriber (or the
//! owner of a paid team) switches between the two with a prorated preview first, the way seats
//! change: Stripe resets the billing cycle to the switch, credits the unused time and charges the
//! new period at once.

use std::fmt;

use crate::subscription::SubscriptionStatus;
use crate::teams::Action;

/// How often the plan is billed, in Stripe's words (`recurring[interval]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Interval {
    Month,
    Year,
}

/// An interval the catalogue does not sell.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("The billing interval must be month or year.")]
pub struct InvalidInterval;

impl InvalidInterval {
    pub fn code(&self) -> &'static str {
        "invalid_interval"
    }
}

impl Interval {
    pub const ALL: [Interval; 2] = [Interval::Month, Interval::Year];

    /// Stripe's name exactly: `month` or `year`.
    pub fn parse(raw: &str) -> Result<Interval, InvalidInterval> {
        Self::ALL
            .into_iter()
            .find(|i| i.as_str() == raw)
            .ok_or(InvalidInterval)
    }

    pub fn as_str(&self) -> &'static str {
        match self {
            Interval::Month => "month",
            Interval::Year => "year",
        }
    }

    /// The adverb of the dashboard's "Renews yearly on …".
    pub fn adverb(&self) -> &'static str {
        match self {
            Interval::Month => "monthly",
            Interval::Year => "yearly",
        }
    }
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a switch of interval may not happen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum IntervalRefusal {
    /// No subscription that is still running (none, or ended): nothing to switch.
    #[error("You have no subscription to switch.")]
    NoSubscription,
    /// The subscription ends at the period's end: resume it first.
    #[error("Your subscription is set to end. Resume it before switching how it is billed.")]
    Ending,
    #[error("Your subscription is already billed {0}.")]
    AlreadyBilled(&'static str),
}

impl IntervalRefusal {
    pub fn code(&self) -> &'static str {
        match self {
            IntervalRefusal::NoSubscription => "no_subscription",
            IntervalRefusal::Ending => "subscription_ending",
            IntervalRefusal::AlreadyBilled(_) => "same_interval",
        }
    }
}

/// What a switch needs to know of the subscription.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Billed {
    pub status: SubscriptionStatus,
    pub cancel_at_period_end: bool,
    /// The interval of its price; None when its price is not one the catalogue sells.
    pub interval: Option<Interval>,
}

/// Whether a subscription may switch to `to`: it counts as subscribed (active or trialing; a
/// past-due one pays its invoice first), does not end at the period's end, and is billed
/// otherwise now. A price the catalogue does not know may switch to either.
pub fn decide_switch(current: Option<Billed>, to: Interval) -> Result<(), IntervalRefusal> {
    let Some(current) = current.filter(|c| c.status.counts_as_subscribed()) else {
        return Err(IntervalRefusal::NoSubscription);
    };
    if current.cancel_at_period_end {
        return Err(IntervalRefusal::Ending);
    }
    if current.interval == Some(to) {
        return Err(IntervalRefusal::AlreadyBilled(to.adverb()));
    }
    Ok(())
}

/// Who may preview a team's switch and make it: the owner, as for seats (`teams::may`); the card
/// that pays is theirs.
pub const TEAM_PREVIEW: Action = Action::PreviewSeats;
pub const TEAM_SWITCH: Action = Action::ChangeSeats;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::teams::{may, Role};
    use proptest::prelude::*;

    fn billed(status: SubscriptionStatus, interval: Interval) -> Option<Billed> {
        Some(Billed {
            status,
            cancel_at_period_end: false,
            interval: Some(interval),
        })
    }

    #[test]
    fn intervals_parse_from_stripes_names_only() {
        assert_eq!(Interval::parse("month"), Ok(Interval::Month));
        assert_eq!(Interval::parse("year"), Ok(Interval::Year));
        for bad in ["", "Year", "yearly", "week", " year"] {
            assert_eq!(Interval::parse(bad), Err(InvalidInterval), "{bad:?}");
        }
        assert_eq!(InvalidInterval.code(), "invalid_interval");
        assert_eq!(
            serde_json::to_value(Interval::Year).unwrap(),
            serde_json::json!("year")
        );
    }

    #[test]
    fn a_monthly_subscriber_may_switch_to_yearly_and_back() {
        use SubscriptionStatus::*;
        assert_eq!(
            decide_switch(billed(Active, Interval::Month), Interval::Year),
            Ok(())
        );
        assert_eq!(
            decide_switch(billed(Trialing, Interval::Year), Interval::Month),
            Ok(())
        );
    }

    #[test]
    fn the_same_interval_is_refused_in_words() {
        let refusal = decide_switch(
            billed(SubscriptionStatus::Active, Interval::Year),
            Interval::Year,
        )
        .unwrap_err();
        assert_eq!(refusal.code(), "same_interval");
        assert_eq!(
            refusal.to_string(),
            "Your subscription is already billed yearly."
        );
    }

    #[test]
    fn no_running_subscription_has_nothing_to_switch() {
        use SubscriptionStatus::*;
        assert_eq!(
            decide_switch(None, Interval::Year),
            Err(IntervalRefusal::NoSubscription)
        );
        for status in [
            Canceled,
            PastDue,
            Unpaid,
            Incomplete,
            IncompleteExpired,
            Paused,
        ] {
            assert_eq!(
                decide_switch(billed(status, Interval::Month), Interval::Year),
                Err(IntervalRefusal::NoSubscription),
                "{status:?}"
            );
        }
        assert_eq!(IntervalRefusal::NoSubscription.code(), "no_subscription");
    }

    #[test]
    fn a_subscription_set_to_end_is_resumed_first() {
        let ending = Some(Billed {
            status: SubscriptionStatus::Active,
            cancel_at_period_end: true,
            interval: Some(Interval::Month),
        });
        assert_eq!(
            decide_switch(ending, Interval::Year),
            Err(IntervalRefusal::Ending)
        );
    }

    #[test]
    fn an_unknown_price_may_switch_to_either_interval() {
        for to in Interval::ALL {
            let current = Some(Billed {
                status: SubscriptionStatus::Active,
                cancel_at_period_end: false,
                interval: None,
            });
            assert_eq!(decide_switch(current, to), Ok(()));
        }
    }

    #[test]
    fn only_the_owner_previews_and_switches_a_teams_interval() {
        for role in [Role::Owner, Role::Admin, Role::Member] {
            let owner = role == Role::Owner;
            assert_eq!(may(role, TEAM_PREVIEW), owner, "{role:?}");
            assert_eq!(may(role, TEAM_SWITCH), owner, "{role:?}");
        }
    }

    proptest! {
        #[test]
        fn a_running_subscription_may_switch_exactly_when_the_interval_differs(
            yearly_now in any::<bool>(), to_year in any::<bool>()
        ) {
            let (now, to) = (
                if yearly_now { Interval::Year } else { Interval::Month },
                if to_year { Interval::Year } else { Interval::Month },
            );
            let outcome = decide_switch(billed(SubscriptionStatus::Active, now), to);
            prop_assert_eq!(outcome.is_ok(), now != to);
        }
    }
}
