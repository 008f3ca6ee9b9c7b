//! Paying for a team (docs/teams.md, "Billing"): how many seats a checkout may buy, when a team may
//! start one, where a member's paid access comes from, and when an owner may delete their account.
//! Pure rules; `closewise_core::teams::billing` applies them.

use time::OffsetDateTime;

use crate::subscription::SubscriptionStatus;
use crate::teams::{may, Action, Role, MAX_SEATS};
use crate::usage::{access, payment_failing, Access, BillingFacts};

/// A checkout's seats: at least everyone already seated (members and pending invites, and at least
/// one), at most [`MAX_SEATS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("Choose between {min} and {max} seats: everyone in the team needs one.", max = MAX_SEATS)]
pub struct InvalidSeats {
    pub min: u32,
}

impl InvalidSeats {
    pub fn code(&self) -> &'static str {
        "invalid_seats"
    }
}

pub fn checkout_seats(requested: u32, used: u32) -> Result<u32, InvalidSeats> {
    let range = seat_range(used);
    if !range.contains(&requested) {
        return Err(InvalidSeats {
            min: *range.start(),
        });
    }
    Ok(requested)
}

/// The seats a team with `used` seats in use may hold: everyone seated (and at least one) up to
/// [`MAX_SEATS`]. A checkout and a seat change both take a count in it.
pub fn seat_range(used: u32) -> std::ops::RangeInclusive<u32> {
    used.max(1)..=MAX_SEATS
}

/// The seats form a member of the team is offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatsForm {
    /// A checkout of a new subscription ([`may_start_checkout`]).
    Buy,
    /// A change of the subscription the team has.
    Change,
}

/// Which seats form `role` is offered: the owner, who pays, buys seats while the team may start a
/// checkout and changes them otherwise; nobody else touches them.
pub fn seats_form(role: Role, team_subscription: Option<SubscriptionStatus>) -> Option<SeatsForm> {
    if !may(role, Action::StartCheckout) {
        return None;
    }
    Some(if may_start_checkout(team_subscription) {
        SeatsForm::Buy
    } else {
        SeatsForm::Change
    })
}

/// The team's last payment failed: its subscription is past due, unpaid or paused, and the team
/// is told so (the owner to fix the card, the others to ask the owner).
pub fn payment_failed(team_subscription: Option<SubscriptionStatus>) -> bool {
    matches!(
        team_subscription,
        Some(SubscriptionStatus::PastDue | SubscriptionStatus::Unpaid | SubscriptionStatus::Paused)
    )
}

/// A team with a subscription that has not ended (live, or failing to pay) buys no second one:
/// seats change on the subscription it has. An abandoned first payment (`incomplete`) may retry.
pub fn may_start_checkout(team_subscription: Option<SubscriptionStatus>) -> bool {
    match team_subscription {
        None => true,
        Some(s) => s.is_terminal() || s == SubscriptionStatus::Incomplete,
    }
}

/// A subscription whose seats can change: one that has not ended.
pub fn has_live_subscription(team_subscription: Option<SubscriptionStatus>) -> bool {
    team_subscription.is_some_and(|s| !s.is_terminal())
}

/// The owner's account may go only when the team goes with it harmlessly: nobody else in it and
/// no subscription that has not ended. Otherwise they transfer the team or delete it first.
pub fn owner_may_delete_account(
    other_members: u32,
    team_subscription: Option<SubscriptionStatus>,
) -> bool {
    other_members == 0 && !has_live_subscription(team_subscription)
}

/// When a seat change is prorated if the client named no moment: now, moved into the item's
/// current period `(start, end)` (Unix seconds), since Stripe refuses a date outside it and our
/// clock may be a moment behind Stripe's just after checkout, or ahead of it at renewal.
pub fn proration_date(now: i64, period: Option<(i64, i64)>) -> i64 {
    match period {
        Some((start, end)) if start < end => now.clamp(start, end - 1),
        _ => now,
    }
}

/// How long a preview's `proration_date` may be sent back to change the seats at that price.
pub const PRORATION_QUOTE_TTL_MS: i64 = 10 * 60 * 1_000;

/// Whether a seat change may be prorated at a date the client sent: only one a preview of this
/// team issued (`issued_at_ms`, when it did) within [`PRORATION_QUOTE_TTL_MS`] before `now_ms`.
/// Any other date would let a client pick its own proration.
pub fn proration_date_accepted(issued_at_ms: Option<i64>, now_ms: i64) -> bool {
    issued_at_ms.is_some_and(|at| at <= now_ms && now_ms - at <= PRORATION_QUOTE_TTL_MS)
}

pub const TEAM_OWNER_MESSAGE: &str =
    "Transfer the team to another member or delete it before deleting your account.";
pub const NO_TEAM_SUBSCRIPTION_MESSAGE: &str = "Buy seats for the team first.";
pub const TEAM_ALREADY_SUBSCRIBED_MESSAGE: &str =
    "The team already has a subscription. Change its seats instead.";

/// Where a user's paid access comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Personal,
    Team,
}

impl Source {
    pub fn as_str(&self) -> &'static str {
        match self {
            Source::Personal => "personal",
            Source::Team => "team",
        }
    }
}

/// The subscription of the team whose seat the user holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TeamSubscriptionFacts {
    pub status: Option<SubscriptionStatus>,
    pub current_period_end: Option<OffsetDateTime>,
}

/// Access through a team seat: paid while the team's subscription counts as subscribed
/// (`teams::member_is_paid`), paid with the warning while its payment fails and it has not ended
/// (the personal rule), free otherwise.
pub fn team_access(team: &TeamSubscriptionFacts, now: OffsetDateTime) -> Access {
    let facts = BillingFacts {
        plan_type: crate::plan::PlanType::Free,
        plan_status: crate::plan::PlanStatus::Active,
        subscription: team.status,
        current_period_end: team.current_period_end,
    };
    if crate::teams::member_is_paid(team.status) {
        return Access::Paid { warning: None };
    }
    if payment_failing(&facts, now) {
        return access(&facts, now);
    }
    Access::Free
}

/// The user's access from their own plan and their team's seat, and where it comes from: paid
/// without a warning wins over paid with one; between equals the personal plan wins. `None` on
/// the Free Trial.
pub fn access_with_team(
    personal: &BillingFacts,
    team: Option<&TeamSubscriptionFacts>,
    now: OffsetDateTime,
) -> (Access, Option<Source>) {
    let own = access(personal, now);
    let seat = team.map_or(Access::Free, |t| team_access(t, now));
    let clean = |a: &Access| matches!(a, Access::Paid { warning: None });
    let candidates = [(own, Source::Personal), (seat, Source::Team)];
    let pick = candidates
        .iter()
        .find(|(a, _)| clean(a))
        .or_else(|| candidates.iter().find(|(a, _)| *a != Access::Free));
    match pick {
        Some((a, source)) => (*a, Some(*source)),
        None => (Access::Free, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{PlanStatus, PlanType};
    use crate::usage::Warning;
    use proptest::prelude::*;
    use time::macros::datetime;
    use time::Duration;

    const T0: OffsetDateTime = datetime!(2026-11-23 12:00 UTC);

    fn personal(plan: PlanType, sub: Option<SubscriptionStatus>) -> BillingFacts {
        BillingFacts {
            plan_type: plan,
            plan_status: PlanStatus::Active,
            subscription: sub,
            current_period_end: None,
        }
    }

    fn team(status: Option<SubscriptionStatus>) -> TeamSubscriptionFacts {
        TeamSubscriptionFacts {
            status,
            current_period_end: Some(T0 + Duration::days(10)),
        }
    }

    #[test]
    fn a_checkout_buys_at_least_the_seats_in_use_and_at_most_the_maximum() {
        assert_eq!(checkout_seats(3, 2), Ok(3));
        assert_eq!(checkout_seats(2, 2), Ok(2));
        assert_eq!(checkout_seats(1, 2), Err(InvalidSeats { min: 2 }));
        assert_eq!(checkout_seats(0, 0), Err(InvalidSeats { min: 1 }));
        assert!(checkout_seats(MAX_SEATS, 1).is_ok());
        assert!(checkout_seats(MAX_SEATS + 1, 1).is_err());
        // A sales floor of a thousand reps with 200 pending invites (the bench's team).
        assert_eq!(checkout_seats(1200, 1200), Ok(1200));
        assert_eq!(MAX_SEATS, 10_000);
        assert_eq!(
            InvalidSeats { min: 2 }.to_string(),
            "Choose between 2 and 10000 seats: everyone in the team needs one."
        );
    }

    #[test]
    fn the_owner_buys_seats_until_the_team_has_a_subscription_then_changes_them() {
        use SubscriptionStatus::*;
        assert_eq!(seats_form(Role::Owner, None), Some(SeatsForm::Buy));
        for s in [Canceled, IncompleteExpired, Incomplete] {
            assert_eq!(
                seats_form(Role::Owner, Some(s)),
                Some(SeatsForm::Buy),
                "{s}"
            );
        }
        for s in [Active, Trialing, PastDue, Unpaid, Paused] {
            assert_eq!(
                seats_form(Role::Owner, Some(s)),
                Some(SeatsForm::Change),
                "{s}"
            );
        }
        for role in [Role::Admin, Role::Member] {
            assert_eq!(seats_form(role, None), None);
            assert_eq!(seats_form(role, Some(Active)), None);
        }
        assert_eq!(seat_range(0), 1..=MAX_SEATS);
        assert_eq!(seat_range(4), 4..=MAX_SEATS);
        let failed: Vec<_> = [
            None,
            Some(Active),
            Some(Trialing),
            Some(PastDue),
            Some(Unpaid),
            Some(Paused),
            Some(Canceled),
            Some(Incomplete),
        ]
        .into_iter()
        .filter(|s| payment_failed(*s))
        .collect();
        assert_eq!(failed, [Some(PastDue), Some(Unpaid), Some(Paused)]);
    }

    #[test]
    fn a_team_member_is_paid_through_the_team_and_says_so() {
        let free = personal(PlanType::Free, None);
        let active = team(Some(SubscriptionStatus::Active));
        assert_eq!(
            access_with_team(&free, Some(&active), T0),
            (Access::Paid { warning: None }, Some(Source::Team))
        );
        assert_eq!(access_with_team(&free, None, T0), (Access::Free, None));
        let ended = team(Some(SubscriptionStatus::Canceled));
        assert_eq!(
            access_with_team(&free, Some(&ended), T0),
            (Access::Free, None)
        );
        assert_eq!(
            access_with_team(&free, Some(&team(None)), T0),
            (Access::Free, None)
        );
    }

    #[test]
    fn a_failing_team_payment_warns_like_a_personal_one_until_the_period_ends() {
        let free = personal(PlanType::Free, None);
        let past_due = team(Some(SubscriptionStatus::PastDue));
        let warned = Access::Paid {
            warning: Some(Warning::PaymentFailed),
        };
        assert_eq!(
            access_with_team(&free, Some(&past_due), T0),
            (warned, Some(Source::Team))
        );
        let unpaid = team(Some(SubscriptionStatus::Unpaid));
        assert_eq!(access_with_team(&free, Some(&unpaid), T0).0, warned);
        assert_eq!(
            access_with_team(&free, Some(&unpaid), T0 + Duration::days(10)),
            (Access::Free, None)
        );
    }

    #[test]
    fn paid_without_a_warning_wins_and_the_personal_plan_wins_between_equals() {
        let paying = personal(PlanType::Monthly, Some(SubscriptionStatus::Active));
        let active = team(Some(SubscriptionStatus::Active));
        assert_eq!(
            access_with_team(&paying, Some(&active), T0).1,
            Some(Source::Personal)
        );
        let failing = personal(PlanType::Free, Some(SubscriptionStatus::PastDue));
        assert_eq!(
            access_with_team(&failing, Some(&active), T0),
            (Access::Paid { warning: None }, Some(Source::Team))
        );
    }

    #[test]
    fn who_may_check_out_and_who_may_delete_their_account() {
        assert!(may_start_checkout(None));
        assert!(may_start_checkout(Some(SubscriptionStatus::Canceled)));
        assert!(may_start_checkout(Some(SubscriptionStatus::Incomplete)));
        assert!(!may_start_checkout(Some(SubscriptionStatus::Active)));
        assert!(!may_start_checkout(Some(SubscriptionStatus::PastDue)));
        assert!(owner_may_delete_account(0, None));
        assert!(owner_may_delete_account(
            0,
            Some(SubscriptionStatus::Canceled)
        ));
        assert!(!owner_may_delete_account(1, None));
        assert!(!owner_may_delete_account(
            0,
            Some(SubscriptionStatus::Active)
        ));
        assert!(!owner_may_delete_account(
            0,
            Some(SubscriptionStatus::Unpaid)
        ));
    }

    fn status() -> impl Strategy<Value = Option<SubscriptionStatus>> {
        prop::option::of(prop::sample::select(SubscriptionStatus::ALL.to_vec()))
    }

    fn plan() -> impl Strategy<Value = PlanType> {
        prop::sample::select(vec![PlanType::Free, PlanType::Monthly])
    }

    proptest! {
        /// A seat never takes access away: with a team, the user is paid whenever they would be
        /// without one, and never gets a warning they would not have had on their own plan unless
        /// the team gives nothing better.
        #[test]
        fn a_seat_only_adds_access(p in plan(), own in status(), t in status(), days in -40i64..40) {
            let mine = personal(p, own);
            let facts = TeamSubscriptionFacts { status: t, current_period_end: Some(T0 + Duration::days(days)) };
            let alone = access_with_team(&mine, None, T0);
            let with = access_with_team(&mine, Some(&facts), T0);
            prop_assert_eq!(alone.0, access(&mine, T0));
            if alone.0 != Access::Free {
                prop_assert!(with.0 != Access::Free);
            }
            prop_assert_eq!(with.0 == Access::Free, with.1.is_none());
            if crate::teams::member_is_paid(t) {
                prop_assert_eq!(with.0, Access::Paid { warning: None });
            }
        }

        /// Every valid checkout holds everyone seated, and every refused one names its minimum.
        #[test]
        fn checkout_seats_hold_everyone(requested in 0u32..1200, used in 0u32..1200) {
            match checkout_seats(requested, used) {
                Ok(n) => prop_assert!(n >= used && (1..=MAX_SEATS).contains(&n)),
                Err(e) => prop_assert!(requested < e.min || requested > MAX_SEATS),
            }
        }
    }

    #[test]
    fn a_proration_date_is_taken_only_when_issued_in_the_last_ten_minutes() {
        assert!(proration_date_accepted(Some(1_000), 1_000));
        assert!(proration_date_accepted(
            Some(1_000),
            1_000 + PRORATION_QUOTE_TTL_MS
        ));
        assert!(!proration_date_accepted(
            Some(1_000),
            1_001 + PRORATION_QUOTE_TTL_MS
        ));
        assert!(!proration_date_accepted(None, 1_000));
        assert!(
            !proration_date_accepted(Some(2_000), 1_000),
            "issued in the future"
        );
    }

    #[test]
    fn the_proration_date_falls_inside_the_current_period() {
        let period = Some((1_000, 2_000));
        assert_eq!(proration_date(1_500, period), 1_500);
        assert_eq!(
            proration_date(999, period),
            1_000,
            "our clock a moment behind Stripe's"
        );
        assert_eq!(
            proration_date(2_000, period),
            1_999,
            "at the renewal instant"
        );
        assert_eq!(proration_date(1_500, None), 1_500);
        assert_eq!(proration_date(1_500, Some((2_000, 2_000))), 1_500);
    }
}
