//! Seats never fall below members. Our own seat changes refuse that
//! (`Seats::check_resize`), but Stripe can still lower a team's quantity (its dashboard, a portal
//! configured elsewhere). Then nobody is dropped: the team is *over seats*, nobody new gets in
//! (invites, accepting one, domain-join approvals: `409 team_over_seats`) until the seats cover
//! the members again, and the owner is told, on `/team` and once by mail.

use crate::teams::Seats;

/// What `GET /api/team` says about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverSeats {
    pub over_seats: bool,
    /// Seats to buy (or members to remove) until the seats cover the members; 0 when not over.
    pub seats_missing: u32,
}

impl Seats {
    /// The seats missing when fewer are bought than the team has members. A team with none bought
    /// (0: before its first checkout) is not over seats; pending invites do not count, since
    /// nobody is in the team through them yet.
    pub fn over_seats(&self) -> Option<u32> {
        (self.total >= 1 && self.members > self.total).then(|| self.members - self.total)
    }

    pub fn standing(&self) -> OverSeats {
        let missing = self.over_seats().unwrap_or(0);
        OverSeats {
            over_seats: missing > 0,
            seats_missing: missing,
        }
    }
}

/// Whether a change of seats (Stripe's, stored under the team's lock) starts an episode of being
/// over seats: the owner is mailed then, and not again until the seats have covered the members
/// in between.
pub fn episode_starts(before: &Seats, after: &Seats) -> bool {
    before.over_seats().is_none() && after.over_seats().is_some()
}

/// The mail's words: what happened and the two ways out.
pub fn owner_notice(team: &str, after: &Seats) -> Option<String> {
    let missing = after.over_seats()?;
    let seats = |n: u32| {
        if n == 1 {
            "1 seat".to_owned()
        } else {
            format!("{n} seats")
        }
    };
    Some(format!(
        "{team} now has {} for {} members: {} missing. Nobody was removed, but nobody can be \
         invited or join the team until every member has a seat. Buy {missing} more, or remove \
         members.",
        seats(after.total),
        after.members,
        seats(missing),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::teams::SeatError;
    use proptest::prelude::*;

    fn seats(total: u32, members: u32, pending_invites: u32) -> Seats {
        Seats {
            total,
            members,
            pending_invites,
        }
    }

    #[test]
    fn fewer_seats_than_members_is_over_seats_and_stops_invites_with_its_own_code() {
        let s = seats(1, 3, 0);
        assert_eq!(s.over_seats(), Some(2));
        assert_eq!(
            s.standing(),
            OverSeats {
                over_seats: true,
                seats_missing: 2
            }
        );
        let e = s.check_invite().unwrap_err();
        assert_eq!(e, SeatError::OverSeats { missing: 2 });
        assert_eq!(e.code(), "team_over_seats");
        assert_eq!(
            e.to_string(),
            "The team has fewer seats than members (2 missing). Add seats or remove members before anyone else joins."
        );
    }

    #[test]
    fn before_the_first_checkout_and_when_seats_cover_members_it_is_not() {
        assert_eq!(seats(0, 1, 0).over_seats(), None);
        assert_eq!(
            seats(0, 1, 0).check_invite().unwrap_err().code(),
            "seats_taken"
        );
        assert_eq!(seats(3, 3, 0).over_seats(), None);
        assert_eq!(
            seats(3, 2, 2).over_seats(),
            None,
            "invites hold no one's seat yet"
        );
        assert_eq!(
            seats(3, 3, 0).check_invite().unwrap_err().code(),
            "seats_taken"
        );
        assert!(seats(4, 3, 0).check_invite().is_ok());
    }

    #[test]
    fn an_episode_starts_only_when_crossing_below_the_members() {
        assert!(episode_starts(&seats(3, 3, 0), &seats(1, 3, 0)));
        assert!(
            !episode_starts(&seats(2, 3, 0), &seats(1, 3, 0)),
            "already over"
        );
        assert!(!episode_starts(&seats(1, 3, 0), &seats(3, 3, 0)), "cleared");
        assert!(
            !episode_starts(&seats(0, 1, 0), &seats(2, 1, 0)),
            "first checkout"
        );
    }

    #[test]
    fn the_owner_is_told_how_many_seats_are_missing_and_what_to_do() {
        assert_eq!(
            owner_notice("Northwind", &seats(1, 3, 0)).unwrap(),
            "Northwind now has 1 seat for 3 members: 2 seats missing. Nobody was removed, but \
             nobody can be invited or join the team until every member has a seat. Buy 2 more, or \
             remove members."
        );
        assert_eq!(owner_notice("Northwind", &seats(3, 3, 0)), None);
    }

    proptest! {
        #[test]
        fn over_seats_is_exactly_members_above_bought_seats(total in 0u32..20, m in 0u32..20, p in 0u32..5) {
            let s = seats(total, m, p);
            prop_assert_eq!(s.over_seats().is_some(), total >= 1 && m > total);
            if let Some(missing) = s.over_seats() {
                prop_assert_eq!(total + missing, m);
                prop_assert_eq!(s.check_invite(), Err(SeatError::OverSeats { missing }));
            }
        }
    }
}
