//! Cancelling a plan at the end of its period, with a way back: the short list of reasons a
//! subscriber may give (stored, and counted in the operators' figures), and when a cancellation
//! or a resumption may happen. The subscription keeps running until its period ends; until then
//! "Resume plan" sets it to renew again. A team's owner does the same for the team.

use std::fmt;

use time::OffsetDateTime;

use crate::subscription::SubscriptionStatus;
use crate::teams::Action;

/// Why a subscriber cancels. The codes are Stripe's `cancellation_details.feedback` names, so
/// the list reads the same in Stripe's dashboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CancellationReason {
    TooExpensive,
    Unused,
    MissingFeatures,
    SwitchedService,
    Other,
}

/// A reason that is not on the list.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Choose a reason from the list, or none.")]
pub struct InvalidReason;

impl InvalidReason {
    pub fn code(&self) -> &'static str {
        "invalid_reason"
    }
}

impl CancellationReason {
    /// The list, in the order the cancel dialog offers it.
    pub const ALL: [CancellationReason; 5] = [
        CancellationReason::TooExpensive,
        CancellationReason::Unused,
        CancellationReason::MissingFeatures,
        CancellationReason::SwitchedService,
        CancellationReason::Other,
    ];

    /// The code exactly (`too_expensive`...).
    pub fn parse(raw: &str) -> Result<CancellationReason, InvalidReason> {
        Self::ALL
            .into_iter()
            .find(|r| r.as_str() == raw)
            .ok_or(InvalidReason)
    }

    pub fn as_str(&self) -> &'static str {
        match self {
            CancellationReason::TooExpensive => "too_expensive",
            CancellationReason::Unused => "unused",
            CancellationReason::MissingFeatures => "missing_features",
            CancellationReason::SwitchedService => "switched_service",
            CancellationReason::Other => "other",
        }
    }

    /// How the dialog and the operators' figures say it.
    pub fn label(&self) -> &'static str {
        match self {
            CancellationReason::TooExpensive => "It costs too much",
            CancellationReason::Unused => "I don't use it enough",
            CancellationReason::MissingFeatures => "It lacks a feature I need",
            CancellationReason::SwitchedService => "I'm moving to another tool",
            CancellationReason::Other => "Something else",
        }
    }
}

impl fmt::Display for CancellationReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a cancellation or a resumption may not happen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum CancelRefusal {
    /// No subscription that still runs: nothing to cancel.
    #[error("You have no plan to cancel.")]
    NothingToCancel,
    #[error("Your plan is already set to end. Resume it to keep it.")]
    AlreadyCancelling,
    /// The subscription renews: there is no cancellation to take back.
    #[error("Your plan is not set to end: there is nothing to resume.")]
    NothingToResume,
    /// Its period is over (the end is on its way from Stripe): too late either way.
    #[error("Your plan's period is over: it can no longer be cancelled or resumed.")]
    PeriodOver,
}

impl CancelRefusal {
    pub fn code(&self) -> &'static str {
        match self {
            CancelRefusal::NothingToCancel => "nothing_to_cancel",
            CancelRefusal::AlreadyCancelling => "already_cancelling",
            CancelRefusal::NothingToResume => "nothing_to_resume",
            CancelRefusal::PeriodOver => "period_over",
        }
    }
}

/// What a cancellation or a resumption needs to know of the subscription.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Running {
    pub status: SubscriptionStatus,
    pub cancel_at_period_end: bool,
    /// Unix seconds; None when Stripe did not say.
    pub current_period_end: Option<i64>,
}

impl Running {
    /// Still running: subscribed, or past due while Stripe retries the payment.
    fn runs(&self) -> bool {
        self.status.counts_as_subscribed() || self.status == SubscriptionStatus::PastDue
    }

    fn period_over(&self, now: OffsetDateTime) -> bool {
        self.current_period_end
            .is_some_and(|end| end <= now.unix_timestamp())
    }
}

/// Whether the subscription may be set to end at its period's end now.
pub fn decide_cancel(current: Option<Running>, now: OffsetDateTime) -> Result<(), CancelRefusal> {
    let current = current
        .filter(Running::runs)
        .ok_or(CancelRefusal::NothingToCancel)?;
    if current.period_over(now) {
        return Err(CancelRefusal::PeriodOver);
    }
    if current.cancel_at_period_end {
        return Err(CancelRefusal::AlreadyCancelling);
    }
    Ok(())
}

/// Whether a cancellation may be taken back now: the subscription is set to end and its period
/// is not over.
pub fn decide_resume(current: Option<Running>, now: OffsetDateTime) -> Result<(), CancelRefusal> {
    let current = current
        .filter(Running::runs)
        .ok_or(CancelRefusal::NothingToResume)?;
    if !current.cancel_at_period_end {
        return Err(CancelRefusal::NothingToResume);
    }
    if current.period_over(now) {
        return Err(CancelRefusal::PeriodOver);
    }
    Ok(())
}

/// Whether a stored reason still holds once Stripe reports the subscription again: only while it
/// is still set to end (or has ended). A resumption clears it, and a cancellation made elsewhere
/// (Stripe's portal) starts without one.
pub fn reason_survives(cancel_at_period_end: bool, status: SubscriptionStatus) -> bool {
    cancel_at_period_end || status == SubscriptionStatus::Canceled
}

/// Who may cancel or resume a team's subscription: whoever may manage its billing
/// (`teams::may`), the owner.
pub const TEAM_CANCEL: Action = Action::ManageBilling;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::teams::{may, Role};
    use proptest::prelude::*;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-11-20 12:00 UTC);

    fn running(status: SubscriptionStatus, cancelling: bool, end: i64) -> Option<Running> {
        Some(Running {
            status,
            cancel_at_period_end: cancelling,
            current_period_end: Some(end),
        })
    }

    fn later() -> i64 {
        NOW.unix_timestamp() + 86_400
    }

    #[test]
    fn every_reason_parses_from_its_code_and_has_a_label() {
        for r in CancellationReason::ALL {
            assert_eq!(CancellationReason::parse(r.as_str()), Ok(r));
            assert!(!r.label().is_empty());
        }
        assert_eq!(
            CancellationReason::TooExpensive.label(),
            "It costs too much"
        );
    }

    #[test]
    fn a_reason_off_the_list_is_refused_with_its_code() {
        for bad in ["", "Too_expensive", "too expensive", "price", " other"] {
            assert_eq!(
                CancellationReason::parse(bad),
                Err(InvalidReason),
                "{bad:?}"
            );
        }
        assert_eq!(InvalidReason.code(), "invalid_reason");
    }

    #[test]
    fn a_running_subscription_may_be_cancelled_once() {
        use SubscriptionStatus::*;
        for status in [Active, Trialing, PastDue] {
            assert_eq!(
                decide_cancel(running(status, false, later()), NOW),
                Ok(()),
                "{status:?}"
            );
        }
        assert_eq!(
            decide_cancel(running(Active, true, later()), NOW),
            Err(CancelRefusal::AlreadyCancelling)
        );
    }

    #[test]
    fn nothing_running_has_nothing_to_cancel_or_resume() {
        use SubscriptionStatus::*;
        assert_eq!(
            decide_cancel(None, NOW),
            Err(CancelRefusal::NothingToCancel)
        );
        assert_eq!(
            decide_resume(None, NOW),
            Err(CancelRefusal::NothingToResume)
        );
        for status in [Canceled, Incomplete, IncompleteExpired, Unpaid, Paused] {
            assert_eq!(
                decide_cancel(running(status, false, later()), NOW),
                Err(CancelRefusal::NothingToCancel),
                "{status:?}"
            );
            assert_eq!(
                decide_resume(running(status, true, later()), NOW),
                Err(CancelRefusal::NothingToResume),
                "{status:?}"
            );
        }
    }

    #[test]
    fn only_a_cancelled_plan_may_be_resumed_before_its_period_ends() {
        use SubscriptionStatus::*;
        assert_eq!(decide_resume(running(Active, true, later()), NOW), Ok(()));
        assert_eq!(
            decide_resume(running(Active, false, later()), NOW),
            Err(CancelRefusal::NothingToResume)
        );
        let over = NOW.unix_timestamp();
        assert_eq!(
            decide_resume(running(Active, true, over), NOW),
            Err(CancelRefusal::PeriodOver)
        );
        assert_eq!(
            decide_cancel(running(Active, false, over), NOW),
            Err(CancelRefusal::PeriodOver)
        );
    }

    #[test]
    fn refusals_have_the_issues_codes() {
        assert_eq!(CancelRefusal::NothingToCancel.code(), "nothing_to_cancel");
        assert_eq!(
            CancelRefusal::AlreadyCancelling.code(),
            "already_cancelling"
        );
        assert_eq!(CancelRefusal::NothingToResume.code(), "nothing_to_resume");
        assert_eq!(CancelRefusal::PeriodOver.code(), "period_over");
    }

    #[test]
    fn a_reason_lasts_while_the_plan_is_set_to_end_or_has_ended() {
        use SubscriptionStatus::*;
        assert!(reason_survives(true, Active));
        assert!(reason_survives(false, Canceled));
        assert!(!reason_survives(false, Active));
        assert!(!reason_survives(false, PastDue));
    }

    #[test]
    fn only_the_owner_cancels_a_teams_plan() {
        assert!(may(Role::Owner, TEAM_CANCEL));
        assert!(!may(Role::Admin, TEAM_CANCEL));
        assert!(!may(Role::Member, TEAM_CANCEL));
    }

    proptest! {
        #[test]
        fn no_string_but_a_code_parses(raw in ".{0,20}") {
            let parsed = CancellationReason::parse(&raw);
            let known = CancellationReason::ALL.iter().any(|r| r.as_str() == raw);
            prop_assert_eq!(parsed.is_ok(), known);
        }
    }
}
