//! The operator CLI: a terminal adapter over `closewise_core`'s store and services (the same ones
//! the API's handlers call); it never writes SQL or rules of its own. Exit codes: 0 done, 1
//! failure, 2 usage error (clap's, and ours: see [`UsageError`]).

mod accounts;
mod billing;
mod ctx;
mod mail;
pub mod opt;
mod print;
mod replay;
mod seed;
mod stats;

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use closewise_core::store::Store;

use crate::ctx::Ctx;
use crate::opt::{
    Command, DbCommand, MailCommand, Opt, PlansCommand, SubscriptionsCommand, UsersCommand,
    WebhooksCommand,
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

pub async fn run(opt: Opt) -> anyhow::Result<()> {
    let store = Store::connect(&opt.db.database_url, Duration::from_secs(5)).await?;
    store.migrate().await.map_err(|e| {
        e.context(format!(
            "cannot migrate the {} database; check --database-url / DATABASE_URL and that the server is up",
            store.backend_name()
        ))
    })?;
    // --actor, else $USER (clap reads it), else $LOGNAME; "unknown" rather than refuse to work.
    let actor = opt
        .actor
        .or_else(|| std::env::var("LOGNAME").ok())
        .filter(|a| !a.trim().is_empty())
        .unwrap_or_else(|| "unknown".into());
    let ctx = Ctx { store, actor };
    let result = match opt.command {
        Command::Users(UsersCommand::List(a)) => accounts::list(&ctx, a).await,
        Command::Users(UsersCommand::Show(a)) => accounts::show(&ctx, a).await,
        Command::Users(UsersCommand::Verify(a)) => accounts::verify(&ctx, a).await,
        Command::Users(UsersCommand::SignOut(a)) => accounts::sign_out(&ctx, a).await,
        Command::Users(UsersCommand::Delete(a)) => accounts::delete(&ctx, a).await,
        Command::Plans(PlansCommand::Show(a)) => accounts::plan_show(&ctx, a).await,
        Command::Plans(PlansCommand::Set(a)) => accounts::plan_set(&ctx, a).await,
        Command::Subscriptions(SubscriptionsCommand::Sync(a)) => billing::sync(&ctx, a).await,
        Command::Mail(MailCommand::List(a)) => mail::list(&ctx, a).await,
        Command::Mail(MailCommand::Show(a)) => mail::show(&ctx, a).await,
        Command::Mail(MailCommand::Retry(a)) => mail::retry(&ctx, a).await,
        Command::Webhooks(WebhooksCommand::List(a)) => billing::webhooks_list(&ctx, a).await,
        Command::Webhooks(WebhooksCommand::Replay(a)) => replay::replay(&ctx, a).await,
        Command::Db(DbCommand::Migrate) => {
            println!("migrations applied ({})", ctx.store.backend_name());
            Ok(())
        }
        Command::Db(DbCommand::Seed(a)) => seed::seed(&ctx, a).await,
        Command::Stats(a) => stats::stats(&ctx, a).await,
        Command::Audit(a) => accounts::audit(&ctx, a).await,
    };
    ctx.store.close().await;
    result
}
