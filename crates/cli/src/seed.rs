//! `db seed FIXTURE`: users in every state from a JSON file shared with the end-to-end tests.
//!
//! Format: `{"users": [{"email", "password", "verified": bool, "plan": "free" | "monthly",
//! "subscription": null | {"status", "cancel_at_period_end": bool, "current_period_end_days": int,
//! "brand", "last4", "price_id"}}]}`. Users already registered are left as they are, so seeding
//! twice is harmless. Subscriptions get `cus_seed_…`/`sub_seed_…` ids that exist in no Stripe.

use closewise_core::seed::{SeedAccount, SeedSubscription};
use closewise_core::store::fixture::TeamFixture;
use closewise_domain::plan::PlanType;
use closewise_domain::subscription::SubscriptionStatus;
use serde::Deserialize;
use serde_json::json;

use crate::ctx::{parse_email, Ctx};
use crate::opt::{DbSeed, DbSeedTeam, Reason};
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
        let subscription = match &u.subscription {
            Some(s) => Some(SeedSubscription {
                status: SubscriptionStatus::parse(&s.status)
                    .map_err(|e| usage(format!("{at}: {e}")))?,
                cancel_at_period_end: s.cancel_at_period_end,
                current_period_end_days: s.current_period_end_days,
                brand: s.brand.clone(),
                last4: s.last4.clone(),
                price_id: s.price_id.clone(),
            }),
            None => None,
        };
        checked.push(SeedAccount {
            email: email.as_str().to_owned(),
            password: u.password.clone(),
            verified: u.verified,
            plan,
            subscription,
        });
    }

    ctx.confirm(
        a.confirm.yes,
        &format!("Create the {} user(s) of {path}?", checked.len()),
    )?;
    let operator = ctx.operator(&Reason {
        reason: Some(format!("db seed {path}")),
    })?;
    let (mut created, mut skipped) = (0, 0);
    for account in checked {
        if ctx.seeding.seed_account(&operator, &account).await? {
            created += 1;
        } else {
            skipped += 1;
        }
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
        // Set by the seeding service.
        password_hash: String::new(),
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
    let operator = ctx.operator(&Reason {
        reason: Some("db seed-team".into()),
    })?;
    let seeded = (ctx.seeding)
        .seed_team(&operator, fixture, &a.password)
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
