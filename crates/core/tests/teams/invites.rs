//! Invitations: single use, for their address only, voided by a resend (even mid-accept),
//! declined, revoked, expired; who invites as what, and never someone already in the team.

use closewise_core::sessions::opaque_tokens::hash_token;
use closewise_core::store::mail::MailFilter;
use closewise_core::store::teams::seats::AcceptOutcome;
use closewise_domain::teams::may_invite_as;

use super::*;

both!(
    async fn an_invite_is_single_use_and_for_its_address_only(fx: Fx) from fixture {
        let crew = fx.crew("inv").await;
        // No enumeration: an address with an account and one without get the same answer.
        fx.user("has-account@x.test").await;
        let known = fx
            .teams
            .invite(&m(crew.admins[0]), "has-account@x.test", Role::Member)
            .await;
        let unknown = fx
            .teams
            .invite(&m(crew.admins[0]), "nobody@x.test", Role::Member)
            .await;
        assert!(known.is_ok() && unknown.is_ok());
        // Admins invite members; only the owner invites admins (`teams::may_invite_as`).
        assert_eq!(
            code(
                fx.teams
                    .invite(&m(crew.admins[0]), "adm@x.test", Role::Admin)
                    .await
            ),
            "forbidden_role"
        );
        let (t, invite) = (&fx.teams, fx.pending(&crew, "Rep@NorthWind.test").await);
        assert_eq!(invite.email, "rep@northwind.test");
        let lookup = t.lookup(&invite.token).await.unwrap();
        assert_eq!(
            (lookup.team_name.as_str(), lookup.role),
            ("Team inv", Role::Member)
        );
        let other = fx.user("other@x.test").await;
        let err = t.accept(&m(other), &invite.token).await.unwrap_err();
        assert_eq!(err.code(), "invite_other_address");
        assert_eq!(
            err.to_string(),
            "This invitation is for another e-mail address. Sign in with the address it was sent to."
        );
        assert_eq!(
            code(t.decline(&m(other), &invite.token).await),
            "invite_other_address"
        );
        let rep = fx.user("rep@northwind.test").await;
        let view = t.accept(&m(rep), &invite.token).await.unwrap();
        assert_eq!((view.id, view.role), (crew.id, Role::Member));
        assert!(view.invites.is_empty(), "members see no invites");
        assert_eq!(code(t.accept(&m(rep), &invite.token).await), "invite_used");
        assert_eq!(code(t.decline(&m(rep), &invite.token).await), "invite_used");
        assert_eq!(code(t.lookup("no-such-token").await), "invite_not_found");
        // A resend voids the old link; a declined or revoked invite is over.
        let first = fx.pending(&crew, "second@x.test").await;
        // An accept that read the invite by its old link just before a resend cannot spend it.
        let read_before = fx
            .store
            .team_invite_by_hash(&hash_token(&first.token))
            .await
            .unwrap()
            .unwrap();
        let resent = t.resend(&m(crew.admins[1]), first.invite_id).await.unwrap();
        assert_eq!(code(t.lookup(&first.token).await), "invite_not_found");
        let late = fx.user("late@x.test").await;
        let raced = fx
            .store
            .accept_team_invite(
                &read_before,
                &hash_token(&first.token),
                late,
                fx.clock.now(),
                None,
            )
            .await
            .unwrap();
        assert_eq!(raced, AcceptOutcome::Spent, "the old link's accept");
        let second = fx.user("second@x.test").await;
        t.decline(&m(second), &resent.token).await.unwrap();
        assert_eq!(
            code(t.accept(&m(second), &resent.token).await),
            "invite_used"
        );
        let third = fx.pending(&crew, "third@x.test").await;
        t.revoke(&m(crew.owner), third.invite_id).await.unwrap();
        assert_eq!(code(t.lookup(&third.token).await), "invite_not_found");
        assert_eq!(
            code(t.resend(&m(crew.owner), third.invite_id).await),
            "team_not_found"
        );
        assert_eq!(
            code(t.invite(&m(crew.owner), "x@x.test", Role::Owner).await),
            "invalid_role"
        );
        assert_eq!(
            code(
                t.invite(&m(crew.owner), "not an address", Role::Member)
                    .await
            ),
            "invalid_email"
        );
    }
);

both!(
    async fn an_expired_invite_holds_no_seat_and_cannot_be_accepted(fx: Fx) from fixture {
        let crew = fx.crew("exp").await;
        let t = &fx.teams;
        fx.record_seats(crew.owner, 6).await.unwrap();
        let old = fx.pending(&crew, "late@x.test").await;
        assert_eq!(t.view(crew.owner).await.unwrap().seats.free, 0);
        fx.clock.advance(time::Duration::days(7));
        let late = fx.user("late@x.test").await;
        assert_eq!(code(t.accept(&m(late), &old.token).await), "invite_expired");
        assert_eq!(code(t.lookup(&old.token).await), "invite_expired");
        let view = t.view(crew.owner).await.unwrap();
        assert_eq!(view.seats.free, 1);
        assert!(view
            .invites
            .iter()
            .any(|i| i.id == old.invite_id && i.expired));
        // Its seat went to someone else: reviving it needs a free seat again.
        let fresh = fx.pending(&crew, "fresh@x.test").await;
        assert_eq!(
            code(t.resend(&m(crew.owner), old.invite_id).await),
            "seats_taken"
        );
        t.revoke(&m(crew.owner), fresh.invite_id).await.unwrap();
        let revived = t.resend(&m(crew.owner), old.invite_id).await.unwrap();
        assert_eq!(
            t.accept(&m(late), &revived.token)
                .await
                .unwrap()
                .members
                .len(),
            6
        );
    }
);

both!(
    /// Who invites as what (`teams::may_invite_as`): a refused invite holds no seat and sends no
    /// mail; the owner's two and the admin's member invite are the pending ones.
    async fn who_invites_as_what_follows_the_domain(fx: Fx) from fixture {
        let crew = fx.crew("as").await;
        for role in Role::ALL {
            for as_role in [Role::Admin, Role::Member] {
                let email = format!("as-{role:?}-{as_role:?}@x.test").to_lowercase();
                let got = fx.teams.invite(&m(crew.by(role, false)), &email, as_role).await;
                let sent = fx.store.list_mail(Some(&email), MailFilter::All, 10).await.unwrap();
                if may_invite_as(role, as_role) {
                    assert!(got.is_ok(), "{role:?} invites as {as_role:?}: {got:?}");
                    assert_eq!(sent.len(), 1, "{role:?} invites as {as_role:?}: mailed");
                } else {
                    assert_eq!(code(got), "forbidden_role", "{role:?} invites as {as_role:?}");
                    assert!(sent.is_empty(), "{role:?} invites as {as_role:?}: no mail");
                }
            }
        }
        let view = fx.teams.view(crew.owner).await.unwrap();
        assert_eq!(view.invites.len(), 3, "{:?}", view.invites);
        assert_eq!((view.seats.total, view.seats.used), (10, 8));
    }
);

both!(
    /// Inviting someone already in the team (by any spelling of the address, the owner included)
    /// is refused with their address, takes no seat and sends nothing.
    async fn inviting_a_member_again_is_refused_and_takes_no_seat(fx: Fx) from fixture {
        let crew = fx.crew("again").await;
        let before = fx.teams.view(crew.owner).await.unwrap().seats;
        for email in ["M1-again@Northwind.test", "owner-again@northwind.test"] {
            let shown = email.to_lowercase();
            let mails = || fx.store.list_mail(Some(&shown), MailFilter::All, 10);
            let mailed = mails().await.unwrap().len();
            let err = fx.teams.invite(&m(crew.owner), email, Role::Admin).await.unwrap_err();
            assert_eq!(err.code(), "already_member", "{email}");
            assert_eq!(err.to_string(), format!("{shown} is already a member of this team."));
            assert_eq!(mails().await.unwrap().len(), mailed, "{email}: nothing sent");
        }
        let after = fx.teams.view(crew.owner).await.unwrap();
        assert_eq!((after.seats.used, after.seats.free), (before.used, before.free), "no seat taken");
        assert!(after.invites.is_empty());
    }
);
