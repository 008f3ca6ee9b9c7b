//! `db seed FIXTURE`: users in every state from a JSON file shared with the end-to-end tests.
//!
//! Format: `{"users": [{"email", "password", "verified": bool, "plan": "free" | "monthly",
//! "subscription": null | {"status", "cancel_at_period_end": bool, "current_period_end_days": int,
//! "brand", "last4", "price_id"}}]}`. Users already registered are left as they are, so seeding
//! twice is harmless. Subscriptions get `cus_seed_…`/`sub_seed_…` ids that exist in no Stripe.

use anyhow::Context;
use closewise_core::password::Hasher;
use closewise_core::store::admin::{SeedOutcome, SeedUser};
use closewise_core::store::audit::NewAudit;
use closewise_core::store::fixture::TeamFixture;
use closewise_core::store::SubscriptionRecord;
use closewise_domain::plan::PlanType;
use closewise_domain::subscription::SubscriptionStatus;
use serde::Deserialize;
use serde_json::json;
use uuid::Uuid;

use crate::ctx::{parse_email, Ctx};
use crate::opt::{DbSeed, DbSeedTeam};
use crate::UsageError;

#[derive(Deserialize)]
struct Fixture {
    users: Vec<FixtureUser>,
}

#[derive(Deserialize)]
struct FixtureUser {
    email: String,
    password: String,
    #[serde(default)]
    verified: bool,
    #[serde(default = "free")]
    plan: String,
    #[serde(default)]
    subscription: Option<FixtureSubscription>,
}

fn free() -> String {
    "free".into()
}

#[derive(Deserialize)]
struct FixtureSubscription {
    status: String,
    #[serde(default)]
    cancel_at_period_end: bool,
    #[serde(default)]
    current_period_end_days: i64,
    brand: Option<String>,
    last4: Option<String>,
    price_id: Option<String>,
}

fn usage(msg: String) -> anyhow::Error {
    UsageError(msg).into()
}

pub async fn seed(ctx: &Ctx, a: DbSeed) -> anyhow::Result<()> {
    let path = a.fixture.display().to_string();
    let text = std::fs::read_to_string(&a.fixture)
        .map_err(|e| usage(format!("cannot read the fixture {path}: {e}")))?;
    let fixture: Fixture = serde_json::from_str(&text).map_err(|e| {
        usage(format!(
            "{path} is not a seed fixture ({e}); expected {{\"users\": [{{\"email\", \"password\", \"verified\", \"plan\", \"subscription\"}}]}}"
        ))
    })?;
    // Everything is checked before anything is written.
    let mut checked = Vec::with_capacity(fixture.users.len());
    for (i, u) in fixture.users.iter().enumerate() {
        let at = format!("{path}: users[{i}]");
        let email = parse_email(&u.email).map_err(|e| usage(format!("{at}: {e}")))?;
        // The sign-up rules apply: a fixture user must be able to sign in through the web app.
        closewise_domain::password::Password::parse(&u.password)
            .map_err(|e| usage(format!("{at}: {e}")))?;
        let plan = PlanType::parse(&u.plan).map_err(|e| usage(format!("{at}: {e}")))?;
        let status = match &u.subscription {
            Some(s) => Some(
                SubscriptionStatus::parse(&s.status).map_err(|e| usage(format!("{at}: {e}")))?,
            ),
            None => None,
        };
        checked.push((email, plan, status, u));
    }

    ctx.confirm(
        a.confirm.yes,
        &format!("Create the {} user(s) of {path}?", checked.len()),
    )?;
    let actor = ctx.actor()?;
    let hasher = Hasher::new();
    let (mut created, mut skipped) = (0, 0);
    for (email, plan, status, u) in checked {
        let now = ctx.now();
        let id = Uuid::now_v7();
        let user = SeedUser {
            id,
            email: email.as_str().to_owned(),
            password_hash: hasher.hash(&u.password).await?,
            verified: u.verified,
            plan_type: plan.as_str(),
            now,
        };
        let audit = NewAudit {
            actor: actor.clone(),
            action: "user.seed",
            user_id: Some(id),
            target_email: Some(user.email.clone()),
            reason: Some(format!("db seed {path}")),
            details: json!({
                "verified": u.verified,
                "plan": plan.as_str(),
                "subscription": u.subscription.as_ref().map(|s| s.status.clone()),
            }),
            now,
        };
        if ctx.store.seed_user(&user, &audit).await? == SeedOutcome::AlreadyRegistered {
            skipped += 1;
            continue;
        }
        if let (Some(s), Some(status)) = (&u.subscription, status) {
            let key = id.simple();
            let record = SubscriptionRecord {
                customer_id: format!("cus_seed_{key}"),
                subscription_id: format!("sub_seed_{key}"),
                price_id: Some(
                    s.price_id.clone().unwrap_or_else(|| {
                        closewise_domain::catalogue::DEFAULT_PRICE_ID.to_owned()
                    }),
                ),
                status,
                cancel_at_period_end: s.cancel_at_period_end,
                current_period_end: Some(now.unix_timestamp() + s.current_period_end_days * 86_400),
                payment_method_brand: s.brand.clone(),
                payment_method_last4: s.last4.clone(),
            };
            ctx.store
                .save_stripe_customer(id, &record.customer_id, now)
                .await?;
            ctx.store
                .apply_subscription(id, &record, now)
                .await
                .with_context(|| format!("cannot store the subscription of {email}"))?;
            // The fixture's plan wins, even when it disagrees with the subscription: fixtures
            // describe drifted accounts on purpose.
            let current = ctx.store.plan_of(id).await?.map(|p| p.plan_type);
            if current.map(|p| p.as_str()) != Some(plan.as_str()) {
                ctx.store.set_plan(id, plan.as_str(), now, None).await?;
            }
        }
        created += 1;
    }
    println!("Seeded from {path}: {created} created, {skipped} already there.");
    Ok(())
}

/// `db seed-team`: one team at scale (`Store::seed_team_fixture`), with one audit row saying so.
pub async fn seed_team(ctx: &Ctx, a: DbSeedTeam) -> anyhow::Result<()> {
    closewise_domain::password::Password::parse(&a.password)
        .map_err(|e| usage(format!("--password: {e}")))?;
    let fixture = TeamFixture {
        prefix: a.prefix.clone(),
        domain: a.domain.clone(),
        members: a.members,
        calls: a.calls,
        audit: a.audit,
        invites: a.invites,
        password_hash: Hasher::new().hash(&a.password).await?,
        now: ctx.now(),
    };
    parse_email(&fixture.owner_email()).map_err(|e| usage(format!("--prefix/--domain: {e}")))?;
    ctx.confirm(
        a.confirm.yes,
        &format!(
            "Create the team {} with {} members, {} calls, {} audit rows and {} invites?",
            a.prefix, a.members, a.calls, a.audit, a.invites
        ),
    )?;
    let started = std::time::Instant::now();
    let seeded = ctx
        .store
        .seed_team_fixture(&fixture)
        .await
        .with_context(|| format!("cannot seed the team {} (is the prefix taken?)", a.prefix))?;
    ctx.store
        .record_audit(&NewAudit {
            actor: ctx.actor()?,
            action: "team.seed",
            user_id: Some(seeded.owner_id),
            target_email: Some(seeded.owner_email.clone()),
            reason: Some("db seed-team".into()),
            details: json!({
                "team_id": seeded.team_id, "members": a.members, "calls": a.calls,
                "audit": a.audit, "invites": a.invites,
            }),
            now: ctx.now(),
        })
        .await?;
    if a.json {
        println!(
            "{}",
            json!({
                "team_id": seeded.team_id,
                "owner_email": seeded.owner_email,
                "member_email": seeded.member_email,
            })
        );
    } else {
        println!(
            "Seeded team {} ({}): {} members, {} calls, {} audit rows, {} invites in {:.1} s; owner {}.",
            a.prefix,
            seeded.team_id,
            a.members,
            a.calls,
            a.audit,
            a.invites,
            started.elapsed().as_secs_f64(),
            seeded.owner_email
        );
    }
    Ok(())
}
