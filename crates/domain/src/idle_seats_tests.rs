use proptest::prelude::*;
use time::macros::datetime;
use time::Duration;
use uuid::Uuid;

use super::*;
use crate::teams::{Role, SeatError, Seats};

fn seats(total: u32, members: u32, pending_invites: u32) -> Seats {
    Seats {
        total,
        members,
        pending_invites,
    }
}

#[test]
fn idle_is_thirty_days_in_the_team_without_a_call_and_without_a_sign_in() {
    let now = datetime!(2026-11-26 12:00 UTC);
    let long_ago = now - Duration::days(90);
    let just_over = now - Duration::days(30) - Duration::seconds(1);
    assert_eq!(
        seat_use(long_ago, None, None, now),
        SeatUse::Idle,
        "never called nor signed in"
    );
    assert_eq!(
        seat_use(long_ago, Some(just_over), Some(just_over), now),
        SeatUse::Idle
    );
    assert_eq!(
        seat_use(long_ago, Some(now - Duration::days(30)), None, now),
        SeatUse::Active,
        "a call exactly 30 days ago is recent"
    );
    assert_eq!(
        seat_use(long_ago, None, Some(now - Duration::hours(1)), now),
        SeatUse::Active,
        "signed in today without a call (an owner at the console) is not idle"
    );
    assert_eq!(
        seat_use(long_ago, Some(now - Duration::hours(1)), None, now),
        SeatUse::Active
    );
}

#[test]
fn a_member_who_joined_less_than_thirty_days_ago_is_new_whatever_they_did() {
    let now = datetime!(2026-11-26 12:00 UTC);
    assert_eq!(
        seat_use(now - Duration::minutes(1), None, None, now),
        SeatUse::New
    );
    assert_eq!(
        seat_use(now - Duration::days(29), Some(now), Some(now), now),
        SeatUse::New
    );
    assert_eq!(
        seat_use(now - Duration::days(30), None, None, now),
        SeatUse::New
    );
    assert_eq!(
        seat_use(
            now - Duration::days(30) - Duration::seconds(1),
            None,
            None,
            now
        ),
        SeatUse::Idle
    );
    assert_eq!(SeatUse::New.as_str(), "new");
}

#[test]
fn money_reads_as_currency() {
    assert_eq!(money(4000, "usd"), "40.00 USD");
    assert_eq!(money(-1234, "eur"), "-12.34 EUR");
}

#[test]
fn minutes_count_a_started_minute() {
    assert_eq!(minutes(0), 0);
    assert_eq!(minutes(1), 1);
    assert_eq!(minutes(60), 1);
    assert_eq!(minutes(61), 2);
    assert_eq!(minutes(-5), 0);
}

#[test]
fn months_parse_and_step() {
    let m = Month::parse("2026-01").unwrap();
    assert_eq!(m.to_string(), "2026-01");
    assert_eq!(m.previous().to_string(), "2025-12");
    assert_eq!(m.previous().next(), m);
    assert_eq!(
        Month::parse("2026-12").unwrap().next().to_string(),
        "2027-01"
    );
    assert_eq!(m.start(), datetime!(2026-01-01 0:00 UTC));
    for bad in [
        "2026-13", "2026-00", "26-01", "2026-1", "2026/01", "", "abcd-ef", "1999-12", "+026-01",
    ] {
        assert_eq!(Month::parse(bad), Err(InvalidMonth), "{bad}");
    }
    assert_eq!(
        Month::of(datetime!(2026-11-30 23:59:59 UTC)).to_string(),
        "2026-11"
    );
    assert!(m.contains(datetime!(2026-01-31 23:59:59 UTC)));
    assert!(!m.contains(datetime!(2026-02-01 0:00 UTC)));
}

#[test]
fn weeks_are_iso_weeks() {
    assert_eq!(week_of(datetime!(2026-11-26 12:00 UTC)), "2026-W48");
    // 2027-01-01 is a Friday: still the last ISO week of 2026.
    assert_eq!(week_of(datetime!(2027-01-01 12:00 UTC)), "2026-W53");
    assert_eq!(
        week_of(datetime!(2026-11-23 0:00 UTC)),
        week_of(datetime!(2026-11-29 23:59 UTC))
    );
}

#[test]
fn the_offer_drops_idle_and_free_seats_at_the_seat_price() {
    // 10 seats, 7 members, 1 pending invite, 3 idle: 8 used, 5 after, 5 seats saved.
    let offer = reclaim_offer(&seats(10, 7, 1), 3, 2000);
    assert_eq!(
        offer,
        ReclaimOffer {
            idle_members: 3,
            seats: 5,
            seats_freed: 5,
            monthly_saving: 10_000
        }
    );
    // Nobody idle, nothing free: nothing saved.
    assert_eq!(reclaim_offer(&seats(4, 4, 0), 0, 2000).monthly_saving, 0);
    // Never below one seat.
    assert_eq!(reclaim_offer(&seats(3, 1, 0), 1, 2000).seats, 1);
}

#[test]
fn a_reclaim_removes_members_the_actor_may_remove_and_lowers_seats() {
    let (owner, admin, rep) = (Uuid::from_u128(1), Uuid::from_u128(2), Uuid::from_u128(3));
    let members = [
        (owner, Role::Owner),
        (admin, Role::Admin),
        (rep, Role::Member),
    ];
    let s = seats(5, 3, 0);
    assert_eq!(
        check_reclaim(Role::Owner, &members, &[rep], &s, 2),
        Ok(seats(2, 2, 0))
    );
    assert_eq!(
        check_reclaim(Role::Owner, &members, &[rep, admin], &s, 1),
        Ok(seats(1, 1, 0))
    );
    assert_eq!(
        check_reclaim(Role::Owner, &members, &[owner], &s, 2),
        Err(ReclaimRefusal::MayNotRemove(owner))
    );
    assert_eq!(
        check_reclaim(Role::Admin, &members, &[admin], &s, 2),
        Err(ReclaimRefusal::MayNotRemove(admin))
    );
    let stranger = Uuid::from_u128(9);
    assert_eq!(
        check_reclaim(Role::Owner, &members, &[stranger], &s, 2),
        Err(ReclaimRefusal::NotAMember(stranger))
    );
    assert_eq!(
        check_reclaim(Role::Owner, &members, &[rep, rep], &s, 2),
        Err(ReclaimRefusal::NotAMember(rep))
    );
    assert_eq!(
        check_reclaim(Role::Owner, &members, &[rep], &s, 6),
        Err(ReclaimRefusal::SeatsNotLower { total: 5 })
    );
    assert_eq!(
        check_reclaim(Role::Owner, &members, &[rep], &s, 1),
        Err(ReclaimRefusal::Seats(SeatError::BelowUsed {
            used: 2,
            members: 2,
            pending: 0
        }))
    );
    assert_eq!(
        check_reclaim(Role::Owner, &members, &[rep], &s, 0),
        Err(ReclaimRefusal::Seats(SeatError::OutOfRange))
    );
    assert_eq!(ReclaimRefusal::MayNotRemove(owner).code(), "forbidden_role");
}

fn role() -> impl Strategy<Value = Role> {
    prop_oneof![Just(Role::Admin), Just(Role::Member)]
}

proptest! {
    #[test]
    fn idle_flips_once_as_time_passes(
        joined_ago in 0i64..120,
        call_ago in prop::option::of(0i64..120),
        seen_ago in prop::option::of(0i64..120),
        later in 0i64..90,
    ) {
        let now = datetime!(2026-11-26 12:00 UTC);
        let ago = |d: i64| now - Duration::days(d);
        let (joined, call, seen) = (ago(joined_ago), call_ago.map(ago), seen_ago.map(ago));
        let state = seat_use(joined, call, seen, now);
        // Once idle, a member stays idle as time goes on without a call or a sign-in.
        if state == SeatUse::Idle {
            prop_assert_eq!(seat_use(joined, call, seen, now + Duration::days(later)), SeatUse::Idle);
        }
        let recent = |d: Option<i64>| d.is_some_and(|d| d <= IDLE_DAYS);
        prop_assert_eq!(state == SeatUse::New, joined_ago <= IDLE_DAYS);
        prop_assert_eq!(
            state == SeatUse::Idle,
            joined_ago > IDLE_DAYS && !recent(call_ago) && !recent(seen_ago)
        );
    }

    #[test]
    fn months_round_trip(year in 2000i32..9999, month in 1u8..=12) {
        let raw = format!("{year:04}-{month:02}");
        let m = Month::parse(&raw).unwrap();
        prop_assert_eq!(m.to_string(), raw);
        prop_assert!(m.contains(m.start()));
        prop_assert!(!m.contains(m.next().start()));
        prop_assert_eq!(m.next().previous(), m);
        prop_assert!(m.previous().start() < m.start());
    }

    #[test]
    fn an_accepted_reclaim_seats_everyone_left_and_never_raises_seats(
        roles in prop::collection::vec(role(), 0..8),
        pick in prop::collection::vec(any::<bool>(), 8),
        pending in 0u32..3,
        extra in 0u32..4,
        new_total in 0u32..16,
    ) {
        let owner = Uuid::from_u128(1000);
        let mut members = vec![(owner, Role::Owner)];
        members.extend(roles.iter().enumerate().map(|(i, r)| (Uuid::from_u128(i as u128), *r)));
        let chosen: Vec<Uuid> = members.iter().skip(1).zip(&pick).filter(|(_, p)| **p).map(|((id, _), _)| *id).collect();
        let n = members.len() as u32;
        let s = seats(n + pending + extra, n, pending);
        match check_reclaim(Role::Owner, &members, &chosen, &s, new_total) {
            Ok(after) => {
                prop_assert_eq!(after.total, new_total);
                prop_assert!(after.total <= s.total);
                prop_assert!(after.total >= after.used().max(1));
                prop_assert_eq!(after.members, n - chosen.len() as u32);
            }
            Err(ReclaimRefusal::SeatsNotLower { .. }) => prop_assert!(new_total > s.total),
            Err(ReclaimRefusal::Seats(_)) => {
                prop_assert!(new_total == 0 || new_total < s.used() - chosen.len() as u32);
            }
            Err(other) => prop_assert!(false, "unexpected {other:?}"),
        }
    }

    #[test]
    fn the_offer_is_what_a_reclaim_of_the_idle_would_accept(
        members in 1u32..20, pending in 0u32..3, extra in 0u32..5, idle in 0u32..20, price in 0i64..5000,
    ) {
        let idle = idle.min(members - 1);
        let s = seats(members + pending + extra, members, pending);
        let offer = reclaim_offer(&s, idle, price);
        prop_assert!(offer.seats <= s.total);
        prop_assert_eq!(offer.seats_freed, s.total - offer.seats);
        prop_assert_eq!(offer.monthly_saving, i64::from(offer.seats_freed) * price);
        let after = seats(s.total, members - idle, pending);
        prop_assert!(after.check_resize(offer.seats).is_ok(), "{offer:?} {after:?}");
    }
}
