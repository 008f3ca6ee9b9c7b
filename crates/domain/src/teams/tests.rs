use super::*;
use proptest::prelude::*;

#[test]
fn the_role_table() {
    use Action::*;
    let owner_only = [
        Rename,
        ManageBilling,
        StartCheckout,
        PreviewSeats,
        ChangeSeats,
        TransferOwnership,
        Delete,
        ConfigureDomainJoin,
        ManageDomains,
        ManageScim,
        ConfigureSso,
        RequireMfa,
    ];
    let admins = [
        Invite,
        ResendInvite,
        RevokeInvite,
        ApproveJoin,
        SetPolicy,
        ViewAdoption,
        ViewActivity,
    ];
    for a in owner_only {
        assert!(may(Role::Owner, a), "{a:?}");
        assert!(!may(Role::Admin, a), "{a:?}");
        assert!(!may(Role::Member, a), "{a:?}");
    }
    for a in admins {
        assert!(may(Role::Owner, a), "{a:?}");
        assert!(may(Role::Admin, a), "{a:?}");
        assert!(!may(Role::Member, a), "{a:?}");
    }
    for r in Role::ALL {
        assert!(may(r, View));
    }
    assert!(!may(Role::Owner, Leave));
    assert!(may(Role::Admin, Leave));
    assert!(may(Role::Member, Leave));
}

/// Who pays: each billing action by each role, written out as docs/teams.md's table has it.
#[test]
fn the_billing_table_gives_everything_that_charges_or_opens_billing_to_the_owner() {
    use Action::*;
    let table = [
        // (action, owner, admin, member)
        (StartCheckout, true, false, false),
        (ConfirmCheckout, true, true, true),
        (PreviewSeats, true, false, false),
        (ChangeSeats, true, false, false),
        (ManageBilling, true, false, false),
    ];
    assert_eq!(
        table.map(|row| row.0),
        Action::BILLING,
        "every billing action, once"
    );
    for (action, owner, admin, member) in table {
        assert_eq!(may(Role::Owner, action), owner, "owner {action:?}");
        assert_eq!(may(Role::Admin, action), admin, "admin {action:?}");
        assert_eq!(may(Role::Member, action), member, "member {action:?}");
    }
}

#[test]
fn who_removes_whom() {
    assert!(may_remove(Role::Owner, Role::Admin));
    assert!(may_remove(Role::Owner, Role::Member));
    assert!(!may_remove(Role::Owner, Role::Owner));
    assert!(may_remove(Role::Admin, Role::Member));
    assert!(!may_remove(Role::Admin, Role::Admin));
    assert!(!may_remove(Role::Admin, Role::Owner));
    for t in Role::ALL {
        assert!(!may_remove(Role::Member, t));
    }
    assert!(may_set_role(Role::Owner, Role::Member, Role::Admin));
    assert!(!may_set_role(Role::Owner, Role::Member, Role::Owner));
    assert!(!may_set_role(Role::Admin, Role::Member, Role::Admin));
}

#[test]
fn who_invites_as_what() {
    assert!(may_invite_as(Role::Owner, Role::Admin));
    assert!(may_invite_as(Role::Owner, Role::Member));
    assert!(may_invite_as(Role::Admin, Role::Member));
    // An admin making an admin would be a role change the owner never made.
    assert!(!may_invite_as(Role::Admin, Role::Admin));
    for r in Role::ALL {
        assert!(!may_invite_as(Role::Member, r));
        assert!(!may_invite_as(r, Role::Owner));
    }
}

#[test]
fn the_last_seat_and_the_spec_like_message() {
    let full = Seats {
        total: 5,
        members: 3,
        pending_invites: 2,
    };
    let err = full.check_invite().unwrap_err();
    assert_eq!(
        err.to_string(),
        "All 5 seats are taken. Add seats to invite more people."
    );
    assert_eq!(err.code(), "seats_taken");
    assert!(Seats {
        total: 5,
        members: 3,
        pending_invites: 1
    }
    .check_invite()
    .is_ok());
    assert_eq!(full.check_resize(4).unwrap_err().code(), "seats_in_use");
    assert_eq!(full.check_resize(0).unwrap_err(), SeatError::OutOfRange);
    assert_eq!(
        full.check_resize(MAX_SEATS + 1).unwrap_err(),
        SeatError::OutOfRange
    );
    assert!(full.check_resize(5).is_ok());
    assert!(
        full.check_resize(1200).is_ok(),
        "a thousand reps and their invites"
    );
    assert_eq!(
        SeatError::OutOfRange.to_string(),
        "A team has between 1 and 10000 seats."
    );
}

#[test]
fn names_invites_and_lifetimes() {
    assert_eq!(team_name("  Northwind Sales ").unwrap(), "Northwind Sales");
    assert!(team_name("   ").is_err());
    assert!(team_name(&"x".repeat(81)).is_err());
    assert!(team_name("a\u{0007}b").is_err());
    assert!(invite_matches("Ana@Example.com", "ana@example.com"));
    assert!(!invite_matches("ana@example.com", "bob@example.com"));
    let t = time::macros::datetime!(2026-11-23 12:00 UTC);
    assert_eq!(
        invite_expires_at(t),
        time::macros::datetime!(2026-11-30 12:00 UTC)
    );
    assert!(member_is_paid(Some(SubscriptionStatus::Active)));
    assert!(!member_is_paid(Some(SubscriptionStatus::Canceled)));
    assert!(!member_is_paid(None));
}

fn role() -> impl Strategy<Value = Role> {
    prop::sample::select(Role::ALL.to_vec())
}

proptest! {
    /// A higher role may do everything a lower one may, except leave (the owner must transfer).
    #[test]
    fn roles_are_monotonic(a in role(), b in role()) {
        for action in Action::ALL {
            if action != Action::Leave && a <= b && may(a, action) {
                prop_assert!(may(b, action), "{a:?} may {action:?} but {b:?} may not");
            }
        }
    }

    /// Whatever sequence of invites and resizes the rules allow, nobody is ever without a seat.
    #[test]
    fn seats_never_go_below_use(total in 1u32..=20, ops in prop::collection::vec((0u8..3, 1u32..=25), 0..40)) {
        let mut s = Seats { total, members: 0, pending_invites: 0 };
        for (op, n) in ops {
            match op {
                0 => if s.check_invite().is_ok() { s.pending_invites += 1 },
                1 => if s.pending_invites > 0 { s.pending_invites -= 1; s.members += 1 },
                _ => if s.check_resize(n).is_ok() { s.total = n },
            }
            prop_assert!(s.used() <= s.total);
            prop_assert!((1..=MAX_SEATS).contains(&s.total));
        }
    }

    /// An invitation never gives a role its inviter could not give a member by a role change,
    /// and only those who may invite do.
    #[test]
    fn an_invite_gives_no_more_than_a_role_change_would(a in role(), r in role()) {
        if may_invite_as(a, r) {
            prop_assert!(may(a, Action::Invite) && r.invitable());
            prop_assert!(r == Role::Member || may_set_role(a, Role::Member, r));
        }
    }

    #[test]
    fn an_invite_is_refused_exactly_when_no_seat_is_free(total in 0u32..50, m in 0u32..50, p in 0u32..50) {
        let s = Seats { total, members: m, pending_invites: p };
        prop_assert_eq!(s.check_invite().is_err(), m + p >= total);
    }
}
