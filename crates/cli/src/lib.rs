//! The operator CLI: a terminal adapter over `closewise_core`'s services, built by the same
//! composition root as the API's (`closewise_core::app::Services`); it never writes SQL, rules or
//! audit rows of its own. Exit codes: 0 done, 1
//! failure, 2 usage error (clap's, and ours: see [`UsageError`]).
//!
//! Before any command runs: the target is printed (never its password); `db seed` refuses a
//! production database; commands that write an audit row resolve the actor; every command but
//! `db migrate` refuses a schema that is behind. Changes then ask for confirmation (`Ctx::confirm`).

mod accounts;
mod audit;
mod billing;
mod coupons;
mod ctx;
mod dunning;
mod mail;
pub mod opt;
mod print;
mod replay;
mod seed;
mod stats;
mod sweep;
mod team_changes;
mod team_domains;
mod team_scim;
mod team_setup_links;
mod team_sso;
mod team_streams;
mod teams;
mod usage;
mod users_mfa;

use std::process::ExitCode;
use std::time::Duration;

use anyhow::bail;
use clap::Parser;
use closewise_core::app::{ServiceSettings, Services};
use closewise_core::clock::Clock;
use closewise_core::store::schema::Target;
use closewise_core::store::Store;

use crate::ctx::Ctx;
use crate::opt::teams::TeamStreamsCommand;
use crate::opt::{
    AppEnv, BillingCommand, Command, CouponsCommand, DbCommand, DunningCommand, MailCommand, Opt,
    PlansCommand, PromoCodesCommand, StripeArgs, SubscriptionsCommand, TeamDomainsCommand,
    TeamScimCommand, TeamSeatsCommand, TeamSetupLinksCommand, TeamSsoCommand, TeamsCommand,
    UsageCommand, UsersCommand, UsersMfaCommand, WebhooksCommand,
};

/// The input was wrong (a malformed address, a bad file): exit code 2, like clap's own errors.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

pub fn main() -> ExitCode {
    let opt = Opt::parse();
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start: {e}");
            return ExitCode::from(1);
        }
    };
    match runtime.block_on(run(opt)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            if e.downcast_ref::<UsageError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}

/// What a command does to the database, which decides what it needs before it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Effect {
    /// Reads only.
    Read,
    /// Reads something sensitive and records who did (`mail show`): needs the actor.
    AuditedRead,
    /// Changes data and records it: needs the actor and a confirmation.
    Change,
    /// `db migrate`: changes the schema, the one command allowed on a schema that is behind.
    Migrate,
}

fn effect(command: &Command) -> Effect {
    match command {
        Command::Users(
            UsersCommand::List(_)
            | UsersCommand::Show(_)
            | UsersCommand::Mfa(UsersMfaCommand::Show(_)),
        )
        | Command::Plans(PlansCommand::Show(_))
        | Command::Usage(UsageCommand::Show(_))
        | Command::Teams(
            TeamsCommand::List(_)
            | TeamsCommand::Show(_)
            | TeamsCommand::Sso(TeamSsoCommand::Show(_))
            | TeamsCommand::Domains(TeamDomainsCommand::Show(_))
            | TeamsCommand::Scim(TeamScimCommand::Show(_))
            | TeamsCommand::SetupLinks(TeamSetupLinksCommand::List(_))
            | TeamsCommand::Streams(_),
        )
        | Command::Mail(MailCommand::List(_))
        | Command::Webhooks(WebhooksCommand::List(_))
        | Command::Stats(_)
        | Command::Billing(
            BillingCommand::Coupons(CouponsCommand::List(_))
            | BillingCommand::PromoCodes(PromoCodesCommand::List(_))
            | BillingCommand::Dunning(DunningCommand::List(_)),
        )
        | Command::Audit(_) => Effect::Read,
        Command::Subscriptions(SubscriptionsCommand::Sync(a)) if a.dry_run => Effect::Read,
        Command::Mail(MailCommand::Show(_)) => Effect::AuditedRead,
        Command::Db(DbCommand::Migrate) => Effect::Migrate,
        Command::Users(
            UsersCommand::Verify(_)
            | UsersCommand::SignOut(_)
            | UsersCommand::Delete(_)
            | UsersCommand::Mfa(UsersMfaCommand::Reset(_)),
        )
        | Command::Plans(PlansCommand::Set(_))
        | Command::Usage(UsageCommand::Grant(_))
        | Command::Teams(
            TeamsCommand::RemoveMember(_)
            | TeamsCommand::Transfer(_)
            | TeamsCommand::Seats(TeamSeatsCommand::Set(_))
            | TeamsCommand::Sso(TeamSsoCommand::Disable(_))
            | TeamsCommand::Domains(TeamDomainsCommand::Disable(_))
            | TeamsCommand::Scim(TeamScimCommand::Disable(_))
            | TeamsCommand::SetupLinks(TeamSetupLinksCommand::Revoke(_)),
        )
        | Command::Subscriptions(SubscriptionsCommand::Sync(_))
        | Command::Mail(MailCommand::Retry(_))
        | Command::Webhooks(WebhooksCommand::Replay(_))
        | Command::Billing(
            BillingCommand::Coupons(CouponsCommand::Create(_))
            | BillingCommand::PromoCodes(
                PromoCodesCommand::Create(_) | PromoCodesCommand::Deactivate(_),
            ),
        )
        | Command::Db(DbCommand::Seed(_) | DbCommand::SeedTeam(_) | DbCommand::Sweep(_)) => {
            Effect::Change
        }
    }
}

/// Why the target is not a local development database, if it is not.
fn production(target: &Target, env: AppEnv) -> Option<String> {
    if env == AppEnv::Production {
        Some("APP_ENV=production".into())
    } else if !target.is_local() {
        Some(format!("{target} is not on this machine"))
    } else {
        None
    }
}

/// `--actor` or `CLOSEWISE_ACTOR`; on a local development database the OS user will do.
fn actor(
    given: Option<String>,
    production: Option<&str>,
    target: &Target,
) -> anyhow::Result<String> {
    let named = |a: &String| !a.trim().is_empty();
    if let Some(a) = given.filter(named) {
        return Ok(a.trim().to_owned());
    }
    if production.is_none() {
        let os_user = ["USER", "LOGNAME"]
            .iter()
            .filter_map(|v| std::env::var(v).ok())
            .find(named);
        if let Some(a) = os_user {
            return Ok(a.trim().to_owned());
        }
    }
    let why = production.unwrap_or("no OS user is set");
    Err(UsageError(format!(
        "say who is making this change, for the audit trail: --actor NAME or CLOSEWISE_ACTOR=NAME \
         (required on {target}: {why})"
    ))
    .into())
}

pub async fn run(opt: Opt) -> anyhow::Result<()> {
    let target = Target::of(&opt.db.database_url).map_err(|e| UsageError(format!("{e:#}")))?;
    eprintln!("closewise: target {target}");
    let effect = effect(&opt.command);
    let production = production(&target, opt.env);
    if let (Command::Db(DbCommand::Seed(_) | DbCommand::SeedTeam(_)), Some(why)) =
        (&opt.command, &production)
    {
        bail!(
            "db seed refuses a production database ({why}): fixtures create accounts with \
             known passwords. Seed a local development database instead"
        );
    }
    let actor = match effect {
        Effect::Read | Effect::Migrate => None,
        Effect::AuditedRead | Effect::Change => {
            Some(actor(opt.actor, production.as_deref(), &target)?)
        }
    };
    // Opening a SQLite file creates it: only `db migrate` may do that.
    if let Target::Sqlite { path } = &target {
        if effect != Effect::Migrate && !std::path::Path::new(path).exists() {
            bail!(
                "there is no database at {path}; check --database-url / DATABASE_URL, or create \
                 it with `closewise db migrate --database-url {}`",
                opt.db.database_url
            );
        }
    }
    let store = Store::connect(&opt.db.database_url, Duration::from_secs(5)).await?;
    let ctx = Ctx {
        services: services(store, &opt.command)?,
        target,
        actor,
    };
    let result = match effect {
        Effect::Migrate => migrate(&ctx).await,
        _ => match schema_is_current(&ctx).await {
            Ok(()) => dispatch(&ctx, opt.command).await,
            Err(e) => Err(e),
        },
    };
    ctx.ops.close().await;
    result
}

/// The composition root for one command: Stripe as the command's flags say (their defaults for
/// the commands without them), links in mail to `APP_BASE_URL` when this shell knows it.
fn services(store: Store, command: &Command) -> anyhow::Result<Services> {
    let base_url = std::env::var("APP_BASE_URL").unwrap_or_else(|_| "http://localhost:8080".into());
    if closewise_domain::passkeys::RelyingParty::from_base_url(&base_url).is_none() {
        return Err(UsageError(format!(
            "APP_BASE_URL {base_url:?} is not an http(s) URL with a host; write it as https://app.example.com \
             (or unset it for http://localhost:8080)"
        ))
        .into());
    }
    let stripe = match stripe_args(command) {
        Some(a) => billing::client(a)?,
        // Unused by the command: the development defaults.
        None => billing::client(&StripeArgs {
            stripe_api_base: closewise_core::billing::DEV_STRIPE_API_BASE.into(),
            stripe_secret_key: closewise_core::billing::DEV_STRIPE_SECRET_KEY.into(),
            stripe_timeout_secs: 10,
        })?,
    };
    let settings = ServiceSettings::offline(&base_url, stripe, Clock::System);
    Ok(Services::new(store, settings))
}

fn stripe_args(command: &Command) -> Option<&StripeArgs> {
    match command {
        Command::Users(UsersCommand::Delete(a)) => Some(&a.stripe),
        Command::Subscriptions(SubscriptionsCommand::Sync(a)) => Some(&a.stripe),
        Command::Webhooks(WebhooksCommand::Replay(a)) => Some(&a.stripe),
        Command::Teams(TeamsCommand::Seats(TeamSeatsCommand::Set(a))) => Some(&a.stripe),
        Command::Billing(b) => coupons::stripe_args(b),
        _ => None,
    }
}

/// Refuses a schema that is behind, rather than migrating it as a side effect of a read.
async fn schema_is_current(ctx: &Ctx) -> anyhow::Result<()> {
    let pending = ctx.ops.pending_migrations().await.map_err(|e| {
        e.context(format!(
            "cannot read {}; check --database-url / DATABASE_URL and that the server is up",
            ctx.target
        ))
    })?;
    if pending.is_empty() {
        return Ok(());
    }
    let names: Vec<String> = pending
        .iter()
        .map(|m| format!("{} {}", m.version, m.description))
        .collect();
    bail!(
        "the schema of {} is behind ({} migration(s) not applied: {}); run `closewise db migrate` \
         with the same --database-url first",
        ctx.target,
        pending.len(),
        names.join(", ")
    )
}

async fn migrate(ctx: &Ctx) -> anyhow::Result<()> {
    let pending = ctx.ops.pending_migrations().await?;
    ctx.ops.migrate().await.map_err(|e| {
        e.context(format!(
            "cannot migrate {}; check --database-url / DATABASE_URL and that the server is up",
            ctx.target
        ))
    })?;
    if pending.is_empty() {
        println!("The schema of {} is current; nothing to apply.", ctx.target);
    } else {
        println!("Applied {} migration(s) to {}:", pending.len(), ctx.target);
        for m in pending {
            println!("  {} {}", m.version, m.description);
        }
    }
    Ok(())
}

async fn dispatch(ctx: &Ctx, command: Command) -> anyhow::Result<()> {
    match command {
        Command::Users(UsersCommand::List(a)) => accounts::list(ctx, a).await,
        Command::Users(UsersCommand::Show(a)) => accounts::show(ctx, a).await,
        Command::Users(UsersCommand::Verify(a)) => accounts::verify(ctx, a).await,
        Command::Users(UsersCommand::SignOut(a)) => accounts::sign_out(ctx, a).await,
        Command::Users(UsersCommand::Delete(a)) => accounts::delete(ctx, a).await,
        Command::Users(UsersCommand::Mfa(UsersMfaCommand::Show(a))) => {
            users_mfa::show(ctx, a).await
        }
        Command::Users(UsersCommand::Mfa(UsersMfaCommand::Reset(a))) => {
            users_mfa::reset(ctx, a).await
        }
        Command::Plans(PlansCommand::Show(a)) => accounts::plan_show(ctx, a).await,
        Command::Plans(PlansCommand::Set(a)) => accounts::plan_set(ctx, a).await,
        Command::Subscriptions(SubscriptionsCommand::Sync(a)) => billing::sync(ctx, a).await,
        Command::Mail(MailCommand::List(a)) => mail::list(ctx, a).await,
        Command::Mail(MailCommand::Show(a)) => mail::show(ctx, a).await,
        Command::Mail(MailCommand::Retry(a)) => mail::retry(ctx, a).await,
        Command::Webhooks(WebhooksCommand::List(a)) => billing::webhooks_list(ctx, a).await,
        Command::Webhooks(WebhooksCommand::Replay(a)) => replay::replay(ctx, a).await,
        Command::Billing(b) => coupons::run(ctx, b).await,
        Command::Usage(UsageCommand::Show(a)) => usage::show(ctx, a).await,
        Command::Usage(UsageCommand::Grant(a)) => usage::grant(ctx, a).await,
        Command::Teams(TeamsCommand::List(a)) => teams::list(ctx, a).await,
        Command::Teams(TeamsCommand::Show(a)) => teams::show(ctx, a).await,
        Command::Teams(TeamsCommand::RemoveMember(a)) => team_changes::remove_member(ctx, a).await,
        Command::Teams(TeamsCommand::Transfer(a)) => team_changes::transfer(ctx, a).await,
        Command::Teams(TeamsCommand::Sso(TeamSsoCommand::Show(a))) => team_sso::show(ctx, a).await,
        Command::Teams(TeamsCommand::Sso(TeamSsoCommand::Disable(a))) => {
            team_sso::disable(ctx, a).await
        }
        Command::Teams(TeamsCommand::Seats(TeamSeatsCommand::Set(a))) => {
            team_changes::seats_set(ctx, a).await
        }
        Command::Teams(TeamsCommand::Domains(TeamDomainsCommand::Show(a))) => {
            team_domains::show(ctx, a).await
        }
        Command::Teams(TeamsCommand::Domains(TeamDomainsCommand::Disable(a))) => {
            team_domains::disable(ctx, a).await
        }
        Command::Teams(TeamsCommand::Scim(TeamScimCommand::Show(a))) => {
            team_scim::show(ctx, a).await
        }
        Command::Teams(TeamsCommand::Scim(TeamScimCommand::Disable(a))) => {
            team_scim::disable(ctx, a).await
        }
        Command::Teams(TeamsCommand::SetupLinks(TeamSetupLinksCommand::List(a))) => {
            team_setup_links::list(ctx, a).await
        }
        Command::Teams(TeamsCommand::SetupLinks(TeamSetupLinksCommand::Revoke(a))) => {
            team_setup_links::revoke(ctx, a).await
        }
        Command::Teams(TeamsCommand::Streams(TeamStreamsCommand::List(a))) => {
            team_streams::list(ctx, a).await
        }
        Command::Teams(TeamsCommand::Streams(TeamStreamsCommand::Deliveries(a))) => {
            team_streams::deliveries(ctx, a).await
        }
        Command::Db(DbCommand::Migrate) => migrate(ctx).await,
        Command::Db(DbCommand::Seed(a)) => seed::seed(ctx, a).await,
        Command::Db(DbCommand::SeedTeam(a)) => seed::seed_team(ctx, a).await,
        Command::Db(DbCommand::Sweep(a)) => sweep::sweep(ctx, a).await,
        Command::Stats(a) => stats::stats(ctx, a).await,
        Command::Audit(a) => audit::audit(ctx, a).await,
    }
}
