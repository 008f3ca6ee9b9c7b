//! Fixtures for development databases (`closewise db seed`, `db seed-team`): accounts in every
//! state, and one team at scale, each recorded in the audit trail as the operator's.

use anyhow::Context;
use closewise_domain::plan::PlanType;
use closewise_domain::subscription::SubscriptionStatus;
use serde_json::json;
use uuid::Uuid;

use crate::actor::Actor;
use crate::clock::Clock;
use crate::password::Hasher;
use crate::store::admin::{SeedOutcome, SeedUser};
use crate::store::fixture::{SeededTeam, TeamFixture};
use crate::store::{Store, SubscriptionRecord};

/// An account as a fixture describes it, already checked.
pub struct SeedAccount {
    pub email: String,
    pub password: String,
    pub verified: bool,
    pub plan: PlanType,
    pub subscription: Option<SeedSubscription>,
}

/// Its subscription: ids `cus_seed_…`/`sub_seed_…` that exist in no Stripe.
pub struct SeedSubscription {
    pub status: SubscriptionStatus,
    pub cancel_at_period_end: bool,
    pub current_period_end_days: i64,
    pub brand: Option<String>,
    pub last4: Option<String>,
    pub price_id: Option<String>,
}

#[derive(Clone)]
pub struct Seeding {
    store: Store,
    clock: Clock,
    hasher: Hasher,
}

impl Seeding {
    pub fn new(store: Store, clock: Clock, hasher: Hasher) -> Self {
        Seeding {
            store,
            clock,
            hasher,
        }
    }

    /// Creates the account (`user.seed`); false, and nothing changed, when the address is
    /// registered already.
    pub async fn seed_account(&self, actor: &Actor, u: &SeedAccount) -> anyhow::Result<bool> {
        let now = self.clock.now();
        let id = Uuid::now_v7();
        let user = SeedUser {
            id,
            email: u.email.clone(),
            password_hash: self.hasher.hash(&u.password).await?,
            verified: u.verified,
            plan_type: u.plan.as_str(),
            now,
        };
        let details = json!({
            "verified": u.verified,
            "plan": u.plan.as_str(),
            "subscription": u.subscription.as_ref().map(|s| s.status.as_str()),
        });
        let audit = actor.audit("user.seed", Some(id), Some(u.email.clone()), details, now);
        if self.store.seed_user(&user, &audit).await? == SeedOutcome::AlreadyRegistered {
            return Ok(false);
        }
        let Some(s) = &u.subscription else {
            return Ok(true);
        };
        let key = id.simple();
        let record = SubscriptionRecord {
            customer_id: format!("cus_seed_{key}"),
            subscription_id: format!("sub_seed_{key}"),
            price_id: Some(
                s.price_id
                    .clone()
                    .unwrap_or_else(|| closewise_domain::catalogue::DEFAULT_PRICE_ID.to_owned()),
            ),
            status: s.status,
            cancel_at_period_end: s.cancel_at_period_end,
            current_period_end: Some(now.unix_timestamp() + s.current_period_end_days * 86_400),
            payment_method_brand: s.brand.clone(),
            payment_method_last4: s.last4.clone(),
            discount: None,
        };
        (self.store)
            .save_stripe_customer(id, &record.customer_id, now)
            .await?;
        (self.store)
            .apply_subscription(id, &record, now)
            .await
            .with_context(|| format!("cannot store the subscription of {}", u.email))?;
        // The fixture's plan wins, even when it disagrees with the subscription: fixtures
        // describe drifted accounts on purpose.
        let current = self.store.plan_of(id).await?.map(|p| p.plan_type);
        if current.map(|p| p.as_str()) != Some(u.plan.as_str()) {
            self.store.set_plan(id, u.plan.as_str(), now, None).await?;
        }
        Ok(true)
    }

    /// Builds the team (`team.seed`), every member signing in with `password`; `fixture`'s hash
    /// and time are set here.
    pub async fn seed_team(
        &self,
        actor: &Actor,
        mut fixture: TeamFixture,
        password: &str,
    ) -> anyhow::Result<SeededTeam> {
        fixture.password_hash = self.hasher.hash(password).await?;
        fixture.now = self.clock.now();
        let now = fixture.now;
        let audit = |seeded: &SeededTeam| {
            let details = json!({
                "team_id": seeded.team_id, "members": fixture.members, "calls": fixture.calls,
                "audit": fixture.audit, "invites": fixture.invites,
            });
            let email = Some(seeded.owner_email.clone());
            actor.audit("team.seed", Some(seeded.owner_id), email, details, now)
        };
        let seeded = (self.store)
            .seed_team_audited(&fixture, Some(&audit))
            .await
            .with_context(|| {
                format!(
                    "cannot seed the team {} (is the prefix taken?)",
                    fixture.prefix
                )
            })?;
        Ok(seeded)
    }
}
