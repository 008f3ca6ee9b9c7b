//! Every change is one command taking its actor, and writes its audit row (an invitation also its
//! mail) in the change's own transaction: when the row cannot be written, nothing changed.

use std::sync::{Arc, Mutex};

use closewise_core::actor::Actor;
use closewise_core::limits::{Limit, LimitError, Limits, RateLimits, SpendFuture};
use closewise_core::mail::Composer;
use closewise_core::store::audit::AuditRow;
use closewise_core::store::mail::MailFilter;
use closewise_core::store::teams::seats::SeatOutcome;

use super::*;

/// A member acting; their address names them on the audit row.
pub(crate) fn m(user_id: Uuid) -> Actor {
    Actor::member(user_id, format!("{user_id}@member.test"))
}

/// The teams service of the tests, its links to `http://app.test`.
pub(crate) fn service(store: &Store, clock: &Clock, limits: Limits) -> Teams {
    let mail = Composer::new("http://app.test");
    Teams::new(store.clone(), clock.clone(), mail, limits)
}

impl Fx {
    /// Records the seats of `owner`'s team as the operator's `closewise teams seats set` does for a
    /// team Stripe does not bill (`Store::set_team_seats`); `Err` is the refusal's code.
    pub(crate) async fn record_seats(&self, owner: Uuid, seats: u32) -> Result<(), &'static str> {
        let (team, _) = self
            .store
            .membership_of(owner)
            .await
            .unwrap()
            .expect("a team");
        let outcome = self.store.set_team_seats(team, seats, self.clock.now());
        match outcome.await.unwrap() {
            SeatOutcome::Done(true) => Ok(()),
            SeatOutcome::Done(false) => Err("team_already_subscribed"),
            SeatOutcome::Refused(e) => Err(e.code()),
            SeatOutcome::NoTeam => Err("team_not_found"),
        }
    }

    async fn sql(&self, sql: &str) {
        match &self.db {
            Db::Pg(p) => sqlx::query(sql).execute(p).await.map(drop),
            Db::Lite(p) => sqlx::query(sql).execute(p).await.map(drop),
        }
        .unwrap();
    }

    /// The audit trail goes away (and comes back): a change that writes its row fails meanwhile.
    async fn audit_log_gone(&self, gone: bool) {
        let (from, to) = if gone {
            ("audit_log", "audit_log_away")
        } else {
            ("audit_log_away", "audit_log")
        };
        self.sql(&format!("ALTER TABLE {from} RENAME TO {to}"))
            .await;
    }

    async fn trail(&self, team_id: Uuid, action: &str) -> Vec<AuditRow> {
        let rows = self.store.team_audit(team_id, 100).await.unwrap();
        rows.into_iter().filter(|r| r.action == action).collect()
    }

    async fn in_team(&self, user_id: Uuid) -> bool {
        self.store.membership_of(user_id).await.unwrap().is_some()
    }
}

both!(
    async fn a_members_and_an_operators_removal_are_audited_with_the_change(fx: Fx) from fixture {
        let crew = fx.crew("rm").await;
        let t = &fx.teams;
        let (admin, owner) = (m(crew.admins[0]), m(crew.owner));
        // Without its audit row the removal does not happen either.
        fx.audit_log_gone(true).await;
        let failed = t.remove_member(&admin, None, crew.members[0]);
        assert_eq!(code(failed.await), "internal");
        fx.audit_log_gone(false).await;
        assert!(fx.in_team(crew.members[0]).await, "nothing changed");
        assert!(fx.trail(crew.id, "team.member_remove").await.is_empty());

        let role = t.remove_member(&admin, None, crew.members[0]);
        assert_eq!(role.await.unwrap(), Role::Member);
        let ops = Actor::operator("ops-alice", Some("ticket 7".into()));
        let role = t.remove_member(&ops, Some(crew.id), crew.admins[1]);
        assert_eq!(role.await.unwrap(), Role::Admin);
        // Nobody removes the owner, an operator neither; a member names no other team.
        assert_eq!(
            code(t.remove_member(&ops, Some(crew.id), crew.owner).await),
            "forbidden_role"
        );
        let other = fx.crew("rm2").await;
        let elsewhere = t.remove_member(&owner, Some(other.id), other.members[0]);
        assert_eq!(code(elsewhere.await), "team_not_found");

        let rows = fx.trail(crew.id, "team.member_remove").await;
        assert_eq!(rows.len(), 2, "{rows:?}");
        let by_operator = &rows[0];
        assert_eq!(
            (by_operator.actor.as_str(), by_operator.reason.as_deref()),
            ("ops-alice", Some("ticket 7"))
        );
        assert_eq!(by_operator.user_id, Some(crew.admins[1]));
        let by_member = &rows[1];
        assert_eq!(by_member.actor, format!("{}@member.test", crew.admins[0]));
        assert_eq!(by_member.user_id, Some(crew.members[0]));
        let details: serde_json::Value = serde_json::from_str(&by_member.details).unwrap();
        assert_eq!(
            (details["team_id"].as_str(), details["role"].as_str()),
            (Some(crew.id.to_string().as_str()), Some("member"))
        );
        assert!(!fx.in_team(crew.members[0]).await && !fx.in_team(crew.admins[1]).await);
    }
);

both!(
    async fn an_invite_writes_its_mail_and_audit_row_with_it(fx: Fx) from fixture {
        let crew = fx.crew("mail").await;
        let t = &fx.teams;
        let store = &fx.store;
        let mails = move |to: &'static str| async move {
            let all = store.list_mail(Some(to), MailFilter::All, 10).await;
            all.unwrap()
        };
        let admin = m(crew.admins[0]);
        fx.audit_log_gone(true).await;
        let failed = t.invite(&admin, "new@x.test", Role::Member);
        assert_eq!(code(failed.await), "internal");
        fx.audit_log_gone(false).await;
        assert!(
            mails("new@x.test").await.is_empty(),
            "no mail without the invite"
        );
        let view = t.view(crew.owner).await.unwrap();
        assert!(view.invites.iter().all(|i| i.email != "new@x.test"));

        let inv = t.invite(&admin, "new@x.test", Role::Member);
        let inv = inv.await.unwrap();
        let sent = mails("new@x.test").await;
        assert_eq!(sent.len(), 1);
        assert_eq!(sent[0].kind, "team_invite");
        let link = format!("http://app.test/invite?token={}", inv.token);
        assert_eq!(sent[0].link.as_deref(), Some(link.as_str()));
        let rows = fx.trail(crew.id, "team.invite").await;
        assert_eq!(rows.len(), 5, "four joins and this one: {rows:?}");
        assert_eq!(rows[0].target_email.as_deref(), Some("new@x.test"));

        // A resend's new link goes out with its row; a revoke writes its own.
        let resent = t.resend(&m(crew.owner), inv.invite_id).await.unwrap();
        let sent = mails("new@x.test").await;
        let link = format!("http://app.test/invite?token={}", resent.token);
        assert_eq!(sent[0].link.as_deref(), Some(link.as_str()));
        assert_eq!(fx.trail(crew.id, "team.invite_resend").await.len(), 1);
        t.revoke(&m(crew.owner), inv.invite_id).await.unwrap();
        assert_eq!(fx.trail(crew.id, "team.invite_revoke").await.len(), 1);
    }
);

/// Counts what is spent and refuses once `allowed` are.
struct Budget {
    spent: Mutex<Vec<(Limit, String)>>,
    allowed: usize,
}

impl RateLimits for Budget {
    fn spend<'a>(&'a self, limit: Limit, key: &'a str) -> SpendFuture<'a> {
        let mut spent = self.spent.lock().unwrap();
        let refused = spent.len() >= self.allowed;
        spent.push((limit, key.to_owned()));
        Box::pin(async move {
            match refused {
                true => Err(LimitError::Limited { retry_after: 60 }),
                false => Ok(()),
            }
        })
    }
}

both!(
    async fn an_invite_spends_its_budgets_only_once_the_inviter_may_send_it(fx: Fx) from fixture {
        let crew = fx.crew("lim").await;
        let budget = Arc::new(Budget {
            spent: Mutex::new(Vec::new()),
            allowed: 2,
        });
        let t = service(&fx.store, &fx.clock, budget.clone());
        let member = m(crew.members[0]);
        assert_eq!(
            code(t.invite(&member, "a@x.test", Role::Member).await),
            "forbidden_role"
        );
        assert!(
            budget.spent.lock().unwrap().is_empty(),
            "a refusal spends nothing"
        );
        t.invite(&m(crew.admins[0]), "A@x.test", Role::Member)
            .await
            .unwrap();
        let spent = budget.spent.lock().unwrap().clone();
        let inviter = crew.admins[0].to_string();
        let address = format!("{}:a@x.test", crew.id);
        assert_eq!(
            spent,
            [
                (Limit::InvitePerInviter, inviter),
                (Limit::InvitePerAddress, address)
            ]
        );
        let limited = t.invite(&m(crew.admins[0]), "b@x.test", Role::Member).await;
        assert_eq!(code(limited), "rate_limited");
        let view = fx.teams.view(crew.owner).await.unwrap();
        assert!(
            view.invites.iter().all(|i| i.email != "b@x.test"),
            "not invited"
        );
    }
);
