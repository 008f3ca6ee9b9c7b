//! The teams service on both databases: every role × action pair as `teams::may` says, who removes
//! whom and who changes roles, another team's anything is not found, the last seat goes to exactly
//! one of concurrent invites, invites are single use and for their address only, expire, and a
//! member's paid access and seat follow their membership and their account.

use std::time::Duration;

use closewise_core::clock::Clock;
use closewise_core::limits::unlimited;
use closewise_core::store::teams::removal::Removal;
use closewise_core::store::teams::CheckedRoles;
use closewise_core::store::usage::{CallTerms, NewCall};
use closewise_core::store::{Store, SubscriptionRecord};
use closewise_core::teams::{Invitation, Teams, TeamsError};
use closewise_domain::subscription::SubscriptionStatus;
use closewise_domain::teams::{may, may_remove, may_set_role, Action, Role};
use closewise_testkit::{both, migrated_postgres_database, Backend, TempDir};
use sqlx::{PgPool, SqlitePool};
use uuid::Uuid;

mod changes;
mod domains;
mod invites;
mod seat_use;
use changes::*;

enum Db {
    Pg(PgPool),
    Lite(SqlitePool),
}

struct Fx {
    teams: Teams,
    store: Store,
    clock: Clock,
    db: Db,
    _dir: TempDir,
}

/// A team of five with 10 seats: the owner, two admins and two members.
struct Crew {
    id: Uuid,
    owner: Uuid,
    admins: [Uuid; 2],
    members: [Uuid; 2],
}

impl Crew {
    /// The first user with `role`; `second`: another one with the same role (the owner is one).
    fn by(&self, role: Role, second: bool) -> Uuid {
        let i = usize::from(second);
        match role {
            Role::Owner => self.owner,
            Role::Admin => self.admins[i],
            Role::Member => self.members[i],
        }
    }
}

async fn fixture(backend: Backend) -> Fx {
    let postgres = backend == Backend::Postgres;
    let dir = TempDir::new();
    let url = if postgres {
        migrated_postgres_database("teams").await
    } else {
        format!("sqlite://{}/core.db", dir.0.display())
    };
    let store = Store::connect(&url, Duration::from_secs(10)).await.unwrap();
    store.migrate().await.unwrap();
    let db = if postgres {
        Db::Pg(PgPool::connect(&url).await.unwrap())
    } else {
        Db::Lite(SqlitePool::connect(&url).await.unwrap())
    };
    let now = time::OffsetDateTime::now_utc()
        .replace_nanosecond(0)
        .unwrap();
    let clock = Clock::manual(now);
    Fx {
        teams: service(&store, &clock, unlimited()),
        store,
        clock,
        db,
        _dir: dir,
    }
}

fn code<T: std::fmt::Debug>(r: Result<T, TeamsError>) -> &'static str {
    r.expect_err("refused").code()
}

impl Fx {
    /// A user with a verified address.
    async fn user(&self, email: &str) -> Uuid {
        let (id, now) = (Uuid::now_v7(), self.clock.now());
        let sql = "INSERT INTO users (id, email, password_hash, email_confirmed_at, created_at, \
                   updated_at) VALUES ($1, $2, 'x', $3, $3, $3)";
        let done = match &self.db {
            Db::Pg(p) => sqlx::query(sql)
                .bind(id)
                .bind(email)
                .bind(now)
                .execute(p)
                .await
                .map(drop),
            Db::Lite(p) => sqlx::query(sql)
                .bind(id)
                .bind(email)
                .bind(now)
                .execute(p)
                .await
                .map(drop),
        };
        done.unwrap();
        id
    }

    /// A new user who joins the team of `inviter` with `role` through an invite.
    async fn join(&self, inviter: Uuid, email: &str, role: Role) -> Uuid {
        let invite = self.teams.invite(&m(inviter), email, role).await.unwrap();
        let user = self.user(email).await;
        self.teams.accept(&m(user), &invite.token).await.unwrap();
        user
    }

    async fn crew(&self, tag: &str) -> Crew {
        let owner = self.user(&format!("owner-{tag}@northwind.test")).await;
        let team = self
            .teams
            .create(&m(owner), &format!("Team {tag}"))
            .await
            .unwrap();
        self.record_seats(owner, 10).await.unwrap();
        let mut people = Vec::new();
        for (who, role) in [("a1", Role::Admin), ("a2", Role::Admin)]
            .into_iter()
            .chain([("m1", Role::Member), ("m2", Role::Member)])
        {
            let email = format!("{who}-{tag}@northwind.test");
            people.push(self.join(owner, &email, role).await);
        }
        Crew {
            id: team.id,
            owner,
            admins: [people[0], people[1]],
            members: [people[2], people[3]],
        }
    }

    async fn pending(&self, crew: &Crew, email: &str) -> Invitation {
        self.teams
            .invite(&m(crew.owner), email, Role::Member)
            .await
            .unwrap()
    }
}

both!(
    /// Every action this slice has an operation for, by every role, compared with `teams::may`.
    async fn every_role_and_action_follows_the_domain(fx: Fx) from fixture {
        let mut n = 0;
        for role in Role::ALL {
            for action in Action::ALL {
                n += 1;
                let crew = fx.crew(&n.to_string()).await;
                let actor = crew.by(role, false);
                let t = &fx.teams;
                let result = match action {
                    Action::View => t.view(actor).await.map(drop),
                    Action::Rename => t.rename(&m(actor), "Renamed").await.map(drop),
                    Action::TransferOwnership => t.transfer(&m(actor), None, crew.members[1]).await,
                    Action::Invite => {
                        let email = format!("new-{n}@northwind.test");
                        t.invite(&m(actor), &email, Role::Member).await.map(drop)
                    }
                    Action::ResendInvite => {
                        let invite = fx.pending(&crew, &format!("p-{n}@x.test")).await;
                        t.resend(&m(actor), invite.invite_id).await.map(drop)
                    }
                    Action::RevokeInvite => {
                        let invite = fx.pending(&crew, &format!("p-{n}@x.test")).await;
                        t.revoke(&m(actor), invite.invite_id).await
                    }
                    Action::Leave => t.leave(&m(actor)).await,
                    Action::ApproveJoin => t.join_requests(actor).await.map(drop),
                    // Turning domain join off needs no verified domain: only the role decides.
                    Action::ConfigureDomainJoin => t.set_join_domain(&m(actor), None).await.map(drop),
                    // Billing's (`teams::billing`, through the API) and the console's reads (the
                    // API's `team::may` and `team::roles` tests).
                    Action::ManageBilling
                    | Action::ChangeSeats
                    | Action::StartCheckout
                    | Action::ConfirmCheckout
                    | Action::PreviewSeats
                    | Action::Delete
                    | Action::RequireMfa
                    | Action::ManageDomains
                    | Action::ManageScim
                    | Action::ManageStreams
                    | Action::ConfigureSso
                    | Action::ViewAdoption
                    | Action::ViewActivity
                    | Action::ViewInvoices
                    | Action::ViewSecondFactors
                    | Action::EditBillingDetails
                    | Action::SetPolicy => continue,
                };
                match (may(role, action), result) {
                    (true, Ok(())) => {}
                    (false, Err(e)) => assert_eq!(e.code(), "forbidden_role", "{role:?} {action:?}"),
                    (allowed, r) => panic!("{role:?} {action:?}: may = {allowed}, got {r:?}"),
                }
            }
        }
    }
);

both!(
    /// Who removes whom (`teams::may_remove`) and who gives which role (`teams::may_set_role`).
    async fn removing_members_and_changing_roles_follow_the_domain(fx: Fx) from fixture {
        for actor_role in Role::ALL {
            for target_role in Role::ALL {
                let crew = fx.crew(&format!("{actor_role:?}{target_role:?}")).await;
                let actor = crew.by(actor_role, false);
                let target = crew.by(target_role, actor_role == target_role);
                for new_role in Role::ALL {
                    let result = fx.teams.set_role(&m(actor), target, new_role).await;
                    let allowed = may_set_role(actor_role, target_role, new_role);
                    match (allowed, result) {
                        (true, Ok(_)) => {
                            let view = fx.teams.view(crew.owner).await.unwrap();
                            let row = view.members.iter().find(|m| m.user_id == target);
                            assert_eq!(row.unwrap().role, new_role);
                            fx.teams
                                .set_role(&m(crew.owner), target, target_role)
                                .await
                                .unwrap();
                        }
                        (false, Err(e)) => assert_eq!(e.code(), "forbidden_role"),
                        (a, r) => {
                            panic!("{actor_role:?} sets {target_role:?} to {new_role:?}: {a} {r:?}")
                        }
                    }
                }
                let result = fx.teams.remove_member(&m(actor), None, target).await;
                match (may_remove(actor_role, target_role), result) {
                    (true, Ok(_)) => assert_eq!(code(fx.teams.view(target).await), "team_not_found"),
                    (false, Err(e)) => assert_eq!(e.code(), "forbidden_role"),
                    (a, r) => panic!("{actor_role:?} removes {target_role:?}: {a} {r:?}"),
                }
            }
        }

        // A change decided on roles that changed before it landed is not made, and deciding again
        // follows the new roles: an admin's removal of a member the owner just promoted, a demoted
        // admin's removal of a member.
        let crew = fx.crew("race").await;
        let (admin, member) = (crew.admins[0], crew.members[0]);
        let stale = CheckedRoles {
            actor: admin,
            actor_role: Role::Admin,
            target_role: Role::Member,
        };
        fx.teams
            .set_role(&m(crew.owner), member, Role::Admin)
            .await
            .unwrap();
        // The change is recorded with the role before it and the role after.
        let query = closewise_core::teams::adoption::ActivityQuery {
            cursor: None,
            limit: None,
            action: Some("team.member_role"),
        };
        let page = fx.teams.activity(crew.owner, &query).await.unwrap();
        let details: serde_json::Value = serde_json::from_str(&page.entries[0].details).unwrap();
        assert_eq!(
            (details["from"].as_str(), details["role"].as_str()),
            (Some("member"), Some("admin"))
        );
        assert!(!fx
            .store
            .remove_from_team(
                crew.id,
                member,
                Removal::ByTeam(&stale),
                None,
                fx.clock.now()
            )
            .await
            .unwrap());
        assert!(!fx
            .store
            .set_team_member_role(crew.id, member, Role::Member, &stale, None)
            .await
            .unwrap());
        assert_eq!(
            code(fx.teams.remove_member(&m(admin), None, member).await),
            "forbidden_role"
        );
        fx.teams
            .set_role(&m(crew.owner), member, Role::Member)
            .await
            .unwrap();
        fx.teams
            .set_role(&m(crew.owner), admin, Role::Member)
            .await
            .unwrap();
        assert!(!fx
            .store
            .remove_from_team(
                crew.id,
                member,
                Removal::ByTeam(&stale),
                None,
                fx.clock.now()
            )
            .await
            .unwrap());
        assert_eq!(
            code(fx.teams.remove_member(&m(admin), None, member).await),
            "forbidden_role"
        );
        assert!(fx.teams.view(member).await.is_ok(), "still in the team");
    }
);

both!(
    async fn another_teams_members_and_invites_are_not_found(fx: Fx) from fixture {
        let (ours, theirs) = (fx.crew("ours").await, fx.crew("theirs").await);
        let their_invite = fx.pending(&theirs, "pending@x.test").await;
        let (t, me, them) = (&fx.teams, ours.owner, theirs.members[0]);
        assert_eq!(
            code(t.remove_member(&m(me), None, them).await),
            "team_not_found"
        );
        assert_eq!(
            code(t.set_role(&m(me), them, Role::Admin).await),
            "team_not_found"
        );
        assert_eq!(code(t.transfer(&m(me), None, them).await), "team_not_found");
        assert_eq!(
            code(t.resend(&m(me), their_invite.invite_id).await),
            "team_not_found"
        );
        assert_eq!(
            code(t.revoke(&m(me), their_invite.invite_id).await),
            "team_not_found"
        );
        assert_eq!(
            code(t.resend(&m(me), Uuid::now_v7()).await),
            "team_not_found"
        );
        // Nothing of theirs changed.
        let view = t.view(theirs.owner).await.unwrap();
        assert_eq!(view.members.len(), 5);
        assert_eq!(view.invites.len(), 1);
        // Someone in no team has no team, and cannot join a second one.
        let loner = fx.user("loner@x.test").await;
        assert_eq!(code(t.view(loner).await), "team_not_found");
        assert_eq!(
            code(t.invite(&m(loner), "a@x.test", Role::Member).await),
            "team_not_found"
        );
        assert_eq!(code(t.create(&m(me), "Second").await), "already_in_team");
        let invite = fx.pending(&theirs, "owner-ours@northwind.test").await;
        assert_eq!(
            code(t.accept(&m(me), &invite.token).await),
            "already_in_team"
        );
    }
);

both!(
    async fn the_last_seat_goes_to_exactly_one_of_concurrent_invites(fx: Fx) from fixture {
        let crew = fx.crew("race").await;
        fx.record_seats(crew.owner, 6).await.unwrap();
        let inviters = [crew.owner, crew.admins[0], crew.admins[1]];
        let tasks: Vec<_> = (0..9)
            .map(|i| {
                let (teams, inviter) = (fx.teams.clone(), inviters[i % 3]);
                tokio::spawn(async move {
                    let email = format!("rep{i}@northwind.test");
                    teams.invite(&m(inviter), &email, Role::Member).await
                })
            })
            .collect();
        let mut won = 0;
        for task in tasks {
            match task.await.unwrap() {
                Ok(_) => won += 1,
                Err(e) => {
                    assert_eq!(e.code(), "seats_taken");
                    let msg = "All 6 seats are taken. Add seats to invite more people.";
                    assert_eq!(e.to_string(), msg);
                }
            }
        }
        assert_eq!(won, 1);
        let seats = fx.teams.view(crew.owner).await.unwrap().seats;
        assert_eq!((seats.total, seats.used, seats.free), (6, 6, 0));
        // Seats never go below members plus pending invites; up is fine.
        assert_eq!(fx.record_seats(crew.owner, 5).await, Err("seats_in_use"));
        assert_eq!(fx.record_seats(crew.owner, 0).await, Err("invalid_seats"));
        fx.record_seats(crew.owner, 7).await.unwrap();
        assert_eq!(fx.teams.view(crew.owner).await.unwrap().seats.free, 1);
    }
);

both!(
    async fn paid_access_and_seats_follow_membership_and_accounts(fx: Fx) from fixture {
        let crew = fx.crew("paid").await;
        let (t, now) = (&fx.teams, fx.clock.now());
        assert!(
            !t.member_paid(crew.members[0]).await.unwrap(),
            "no subscription yet"
        );
        let s = &fx.store;
        // Stripe's view of the team's subscription, stored as its webhooks store it (10 seats kept).
        let stripe = |status| SubscriptionRecord {
            customer_id: "cus_paid".into(),
            subscription_id: "sub_paid".into(),
            price_id: None,
            status,
            cancel_at_period_end: false,
            current_period_end: None,
            payment_method_brand: None,
            payment_method_last4: None,
            discount: None,
        };
        let active = stripe(SubscriptionStatus::Active);
        assert!(s
            .apply_team_subscription(crew.id, &active, 10, now)
            .await
            .unwrap());
        for user in [crew.owner, crew.admins[0], crew.members[0], crew.members[1]] {
            assert!(t.member_paid(user).await.unwrap());
        }
        t.remove_member(&m(crew.admins[0]), None, crew.members[0])
            .await
            .unwrap();
        assert!(!t.member_paid(crew.members[0]).await.unwrap(), "removed");
        t.leave(&m(crew.admins[1])).await.unwrap();
        assert!(!t.member_paid(crew.admins[1]).await.unwrap(), "left");
        let canceled = stripe(SubscriptionStatus::Canceled);
        assert!(s
            .apply_team_subscription(crew.id, &canceled, 10, now)
            .await
            .unwrap());
        assert!(
            !t.member_paid(crew.owner).await.unwrap(),
            "the team's subscription ended"
        );
        // Calls this month per member, and a deleted account frees its seat.
        let call = NewCall {
            user_id: crew.members[1],
            client_call_id: "call-1",
            session_id: None,
            now,
        };
        let terms = CallTerms {
            free: false,
            max_seconds: None,
        };
        s.start_call(&call, |_| Some(terms)).await.unwrap();
        let view = t.view(crew.owner).await.unwrap();
        let calls = |v: &closewise_core::teams::TeamView, u: Uuid| {
            v.members
                .iter()
                .find(|m| m.user_id == u)
                .map(|m| m.calls_this_month)
        };
        assert_eq!(calls(&view, crew.members[1]), Some(1));
        assert_eq!(calls(&view, crew.owner), Some(0));
        assert_eq!(view.seats.used, 3);
        assert_eq!(
            s.delete_user(crew.members[1]).await.unwrap(),
            closewise_core::store::user_deletion::UserDeletion::Deleted
        );
        let view = t.view(crew.owner).await.unwrap();
        assert_eq!((view.seats.used, view.members.len()), (2, 2));
        // Ownership moves to an admin; the old owner becomes an admin and may leave.
        t.transfer(&m(crew.owner), None, crew.admins[0])
            .await
            .unwrap();
        assert_eq!(t.view(crew.admins[0]).await.unwrap().role, Role::Owner);
        assert_eq!(t.view(crew.owner).await.unwrap().role, Role::Admin);
        t.leave(&m(crew.owner)).await.unwrap();
        assert_eq!(code(t.leave(&m(crew.admins[0])).await), "forbidden_role");
    }
);
