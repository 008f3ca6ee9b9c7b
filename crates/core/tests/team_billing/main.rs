//! Team billing's core on both databases (Stripe is not reached here; the API suite runs the
//! Stripe side against stripe-mock): entitlements through a team seat and their source, Stripe's
//! view of a team's subscription stored on the team (an ended older one never replaces the live
//! one), and an owner's account deletion refused while the team needs them.

use std::time::Duration;

use closewise_core::accounts::{AccountDeletion, AccountError};
use closewise_core::billing::Billing;
use closewise_core::clock::Clock;
use closewise_core::store::teams::billing::ResizeOutcome;
use closewise_core::store::teams::seats::SeatOutcome;
use closewise_core::store::user_deletion::UserDeletion;
use closewise_core::store::{Store, SubscriptionRecord};
use closewise_core::teams::Teams;
use closewise_core::usage::Usage;
use closewise_domain::subscription::SubscriptionStatus;
use closewise_domain::team_billing::Source;
use closewise_domain::teams::Role;
use closewise_testkit::services::core_fixture;
use closewise_testkit::{both, Backend, TempDir};
use uuid::Uuid;

enum Db {
    Pg(sqlx::PgPool),
    Lite(sqlx::SqlitePool),
}

struct Fx {
    db: Db,
    store: Store,
    teams: Teams,
    usage: Usage,
    accounts: AccountDeletion,
    billing: Billing,
    clock: Clock,
    _dir: TempDir,
}

async fn fixture(backend: Backend) -> Fx {
    let core = core_fixture(backend, "team_billing").await;
    let db = if backend == Backend::Postgres {
        Db::Pg(sqlx::PgPool::connect(&core.url).await.unwrap())
    } else {
        Db::Lite(sqlx::SqlitePool::connect(&core.url).await.unwrap())
    };
    let (store, clock, billing) = (core.store, core.clock, core.billing);
    Fx {
        db,
        teams: Teams::new(
            store.clone(),
            clock.clone(),
            closewise_core::mail::Composer::new("http://localhost"),
            closewise_core::limits::unlimited(),
        ),
        usage: Usage::new(store.clone(), clock.clone()),
        accounts: AccountDeletion::new(store.clone(), billing.clone()),
        billing,
        store,
        clock,
        _dir: core.dir,
    }
}

impl Fx {
    /// Records the seats of `owner`'s team as the operator's `closewise teams seats set` does for a
    /// team Stripe does not bill (`Store::set_team_seats`); `Err` is the refusal's code.
    async fn record_seats(&self, owner: Uuid, seats: u32) -> Result<(), &'static str> {
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

    /// The user `id` acting as a member.
    async fn member(&self, id: Uuid) -> closewise_core::actor::Actor {
        let user = self.store.user_by_id(id).await.unwrap().expect("a user");
        closewise_core::actor::Actor::member(id, user.email)
    }

    async fn user(&self, email: &str) -> Uuid {
        let id = Uuid::now_v7();
        let sql = "INSERT INTO users (id, email, password_hash, email_confirmed_at, created_at, \
                   updated_at) VALUES ($1, $2, 'x', $3, $3, $3)";
        let now = self.clock.now();
        match &self.db {
            Db::Pg(p) => drop(
                sqlx::query(sql)
                    .bind(id)
                    .bind(email)
                    .bind(now)
                    .execute(p)
                    .await
                    .unwrap(),
            ),
            Db::Lite(p) => drop(
                sqlx::query(sql)
                    .bind(id)
                    .bind(email)
                    .bind(now)
                    .execute(p)
                    .await
                    .unwrap(),
            ),
        }
        id
    }

    /// An owner with a team of `seats` recorded, and a member who joined by invite.
    async fn team(&self, tag: &str) -> (Uuid, Uuid, Uuid) {
        let owner = self.user(&format!("owner-{tag}@northwind.test")).await;
        let team = self
            .teams
            .create(
                &closewise_core::actor::Actor::member(owner, ""),
                "Northwind",
            )
            .await
            .unwrap();
        self.record_seats(owner, 3).await.unwrap();
        let email = format!("rep-{tag}@northwind.test");
        let invite = self
            .teams
            .invite(
                &closewise_core::actor::Actor::member(owner, ""),
                &email,
                Role::Member,
            )
            .await
            .unwrap();
        let member = self.user(&email).await;
        self.teams
            .accept(
                &closewise_core::actor::Actor::member(member, ""),
                &invite.token,
            )
            .await
            .unwrap();
        (team.id, owner, member)
    }

    /// The user's address no longer confirmed.
    async fn unverify(&self, user: Uuid) {
        let sql = "UPDATE users SET email_confirmed_at = NULL WHERE id = $1";
        match &self.db {
            Db::Pg(p) => drop(sqlx::query(sql).bind(user).execute(p).await.unwrap()),
            Db::Lite(p) => drop(sqlx::query(sql).bind(user).execute(p).await.unwrap()),
        }
    }

    fn record(&self, subscription: &str, status: SubscriptionStatus) -> SubscriptionRecord {
        SubscriptionRecord {
            customer_id: "cus_team".into(),
            subscription_id: subscription.into(),
            price_id: Some("price_closewise_monthly".into()),
            status,
            cancel_at_period_end: false,
            current_period_end: Some(self.clock.now().unix_timestamp() + 30 * 86_400),
            payment_method_brand: None,
            payment_method_last4: None,
            discount: None,
        }
    }
}

both!(
    async fn paid_through_a_team_seat_while_the_team_pays(fx: Fx) from fixture {
        let (team, owner, member) = fx.team("a").await;
        let e = fx.usage.entitlements(member, None).await.unwrap();
        assert!(!e.entitlements.unlimited);
        assert_eq!(e.source, None);
        assert_eq!(
            e.team.as_ref().map(|t| t.id),
            Some(team),
            "in the team, unpaid"
        );

        assert!(fx
            .store
            .apply_team_subscription(
                team,
                &fx.record("sub_1", SubscriptionStatus::Active),
                3,
                fx.clock.now()
            )
            .await
            .unwrap());
        for who in [owner, member] {
            let e = fx.usage.entitlements(who, None).await.unwrap();
            assert!(e.entitlements.unlimited);
            assert_eq!(e.source, Some(Source::Team));
        }
        // An older, ended subscription never replaces the live one.
        assert!(!fx
            .store
            .apply_team_subscription(
                team,
                &fx.record("sub_0", SubscriptionStatus::Canceled),
                1,
                fx.clock.now()
            )
            .await
            .unwrap());
        assert_eq!(fx.store.team_by_id(team).await.unwrap().unwrap().seats, 3);

        fx.store
            .apply_team_subscription(
                team,
                &fx.record("sub_1", SubscriptionStatus::PastDue),
                3,
                fx.clock.now(),
            )
            .await
            .unwrap();
        let e = fx.usage.entitlements(member, None).await.unwrap();
        assert!(e.entitlements.unlimited && e.entitlements.warning.is_some());

        fx.teams
            .remove_member(
                &closewise_core::actor::Actor::member(owner, ""),
                None,
                member,
            )
            .await
            .unwrap();
        let e = fx.usage.entitlements(member, None).await.unwrap();
        assert!(!e.entitlements.unlimited && e.team.is_none());
    }
);

both!(
    /// A first payment abandoned (`incomplete`) may be retried with a new checkout
    /// (`team_billing::may_start_checkout`): the retry's subscription takes over, and the abandoned
    /// one's later events never replace it.
    async fn a_retried_checkout_takes_over_from_an_abandoned_one(fx: Fx) from fixture {
        let (team, _owner, member) = fx.team("c").await;
        let apply = |sub: &'static str, status, seats| {
            let record = fx.record(sub, status);
            let (store, now) = (fx.store.clone(), fx.clock.now());
            async move {
                store
                    .apply_team_subscription(team, &record, seats, now)
                    .await
                    .unwrap()
            }
        };
        assert!(apply("sub_abandoned", SubscriptionStatus::Incomplete, 3).await);
        assert!(
            !fx.usage
                .entitlements(member, None)
                .await
                .unwrap()
                .entitlements
                .unlimited
        );

        assert!(
            apply("sub_retry", SubscriptionStatus::Active, 4).await,
            "the paid retry is the team's"
        );
        let row = fx.store.team_by_id(team).await.unwrap().unwrap();
        assert_eq!(
            (row.subscription_id.as_deref(), row.seats),
            (Some("sub_retry"), 4)
        );
        assert!(
            fx.usage
                .entitlements(member, None)
                .await
                .unwrap()
                .entitlements
                .unlimited
        );

        assert!(!apply("sub_abandoned", SubscriptionStatus::IncompleteExpired, 3).await);
        assert!(
            !apply("sub_other", SubscriptionStatus::Incomplete, 1).await,
            "a live one is never replaced"
        );
        let row = fx.store.team_by_id(team).await.unwrap().unwrap();
        assert_eq!(
            (
                row.subscription_id.as_deref(),
                row.subscription_status.as_deref()
            ),
            (Some("sub_retry"), Some("active"))
        );
    }
);

both!(
    async fn an_owner_goes_only_with_a_team_nobody_needs(fx: Fx) from fixture {
        let (team, owner, member) = fx.team("b").await;
        let refused = fx.accounts.delete(owner, None).await.unwrap_err();
        assert!(matches!(refused, AccountError::TeamOwner));
        assert_eq!(refused.code(), "team_owner");
        assert!(
            fx.accounts.delete(member, None).await.unwrap().deleted,
            "a member just goes"
        );
        fx.store
            .apply_team_subscription(
                team,
                &fx.record("sub_2", SubscriptionStatus::Active),
                3,
                fx.clock.now(),
            )
            .await
            .unwrap();
        assert!(
            matches!(
                fx.accounts.delete(owner, None).await,
                Err(AccountError::TeamOwner)
            ),
            "a paid team"
        );
        fx.store
            .apply_team_subscription(
                team,
                &fx.record("sub_2", SubscriptionStatus::Canceled),
                3,
                fx.clock.now(),
            )
            .await
            .unwrap();
        // The team has a Stripe customer: its open checkouts are expired before it goes, and with
        // Stripe out of reach nothing goes (the API suite deletes it against stripe-mock).
        assert!(matches!(
            fx.accounts.delete(owner, None).await,
            Err(AccountError::SubscriptionNotCancelled(_))
        ));
        assert!(fx.store.team_by_id(team).await.unwrap().is_some());
    }
);

mod cancel;
mod flows;
mod interval;
mod races;
