//! Who is new, active or idle in the adoption report (`idle_seats::seat_use`), with the totals and
//! the reclaim offer agreeing with the lines; who is told which members have a second factor.

use closewise_core::teams::pages::PageQuery;
use closewise_domain::idle_seats::SeatUse;

use super::*;

both!(
    async fn members_are_new_for_thirty_days_then_idle_without_a_call_or_a_sign_in(fx: Fx) from fixture {
        let crew = fx.crew("seat").await;
        let first = PageQuery::default();
        let report = || fx.teams.adoption(crew.owner, None, &first);
        let r = report().await.unwrap();
        assert!(r.members.iter().all(|m| m.state == SeatUse::New && !m.idle), "{:?}", r.members);
        assert_eq!((r.totals.new, r.totals.idle), (5, 0));
        assert!(r.idle_user_ids.is_empty(), "nobody new is reclaimed");
        assert_eq!(r.reclaim.idle_members, 0);

        // A month on, nobody has called or signed in (the fixture's members have no session):
        // everyone is idle, and every one of them but the owner is offered for a reclaim.
        fx.clock.advance(time::Duration::days(31));
        let r = report().await.unwrap();
        assert!(r.members.iter().all(|m| m.state == SeatUse::Idle && m.idle), "{:?}", r.members);
        assert_eq!((r.totals.new, r.totals.idle), (0, 5));
        assert_eq!(r.idle_user_ids.len(), 4);
        assert!(!r.idle_user_ids.contains(&crew.owner));
        assert_eq!(r.reclaim.idle_members, 4);
    }
);

both!(
    async fn only_the_owner_and_admins_are_told_who_has_a_second_factor(fx: Fx) from fixture {
        let crew = fx.crew("factor").await;
        for who in [crew.owner, crew.admins[0]] {
            let view = fx.teams.view(who).await.unwrap();
            assert_eq!(view.members_with_mfa, Some(0));
            assert!(view.members.iter().all(|m| m.mfa == Some(false)), "{:?}", view.members);
        }
        let view = fx.teams.view(crew.members[0]).await.unwrap();
        assert_eq!(view.members_with_mfa, None);
        assert!(view.members.iter().all(|m| m.mfa.is_none()), "{:?}", view.members);
        let page = fx
            .teams
            .members_page(crew.members[0], &PageQuery::default())
            .await
            .unwrap();
        assert!(page.members.iter().all(|l| l.member.mfa.is_none()));
    }
);
