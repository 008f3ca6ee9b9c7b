//! Command-line options: everything `closewise` accepts, with its help text.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use uuid::Uuid;

pub mod billing;
pub mod db;
pub mod teams;
pub mod users;

pub use self::billing::{BillingCommand, CouponsCommand, DunningCommand, PromoCodesCommand};
pub use self::db::DbSeedTeam;
pub use self::teams::{
    TeamDomainsCommand, TeamScimCommand, TeamSeatsCommand, TeamSetupLinksCommand, TeamSsoCommand,
    TeamsCommand,
};
pub use self::users::{UsersList, UsersMfaCommand};

/// Inspect and fix Closewise accounts, plans, subscriptions, teams, mail and webhooks.
///
/// Every command first prints the database it targets (never its password) on standard error.
/// Commands that change something ask first (--yes skips the question; without a terminal they
/// refuse unless --yes is given). Every change is written to the audit trail with who made it
/// (--actor or CLOSEWISE_ACTOR; on a local development database the OS user will do) and why
/// (--reason); `closewise users show EMAIL` lists it. Commands other than `db migrate` refuse a
/// database whose schema is behind. Exit codes: 0 done, 1 failure, 2 usage error.
#[derive(Parser, Debug)]
#[command(name = "closewise", version, about, long_about)]
pub struct Opt {
    #[command(flatten)]
    pub db: DbArgs,

    /// Who is making the change, for the audit trail. Required unless the target is a local
    /// development database, where the OS user ($USER) is used.
    ///
    /// Example: --actor ana@closewise.app
    #[arg(long, env = "CLOSEWISE_ACTOR", global = true)]
    pub actor: Option<String>,

    /// The environment the database belongs to: `production` marks even a local database as
    /// production (no `db seed`, --actor required). A database on another host always is.
    ///
    /// Example: APP_ENV=production closewise users show ana@example.com
    #[arg(
        long = "env",
        env = "APP_ENV",
        global = true,
        value_enum,
        default_value = "development"
    )]
    pub env: AppEnv,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AppEnv {
    Development,
    Production,
}

/// Where the data lives.
#[derive(Args, Debug)]
pub struct DbArgs {
    /// The database: sqlite://path or postgres://...
    ///
    /// Example: --database-url postgres://postgres@127.0.0.1/closewise
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = "sqlite://data/closewise.db",
        global = true,
        hide_env_values = true
    )]
    pub database_url: String,
}

/// How to print what a read command found.
#[derive(Args, Debug, Clone, Copy)]
pub struct Output {
    /// JSON for scripts instead of a table.
    ///
    /// Example: closewise users list --json | jq '.[].email'
    #[arg(long)]
    pub json: bool,
}

/// Why a change is made; recorded in the audit trail.
#[derive(Args, Debug, Clone)]
pub struct Reason {
    /// Why, for the audit trail.
    ///
    /// Example: --reason "ticket #1234: mail never arrived"
    #[arg(long)]
    pub reason: Option<String>,
}

/// Confirmation for commands that change something.
#[derive(Args, Debug, Clone, Copy)]
pub struct Confirm {
    /// Do it without asking (for scripts; required when standard input is not a terminal).
    ///
    /// Example: closewise users delete ana@example.com --yes
    #[arg(short = 'y', long)]
    pub yes: bool,
}

/// How to reach Stripe (or stripe-mock).
#[derive(Args, Debug, Clone)]
pub struct StripeArgs {
    /// Stripe's API, or stripe-mock's.
    ///
    /// Example: --stripe-api-base http://127.0.0.1:12111
    #[arg(long, env = "STRIPE_API_BASE", default_value = closewise_core::billing::DEV_STRIPE_API_BASE)]
    pub stripe_api_base: String,
    /// The secret API key.
    ///
    /// Example: STRIPE_SECRET_KEY=sk_live_... closewise subscriptions sync --all
    #[arg(long, env = "STRIPE_SECRET_KEY", default_value = closewise_core::billing::DEV_STRIPE_SECRET_KEY, hide_default_value = true, hide_env_values = true)]
    pub stripe_secret_key: String,
    /// Seconds to wait for each Stripe call (at most 10).
    ///
    /// Example: --stripe-timeout-secs 5
    #[arg(long, env = "STRIPE_TIMEOUT_SECS", default_value_t = 10)]
    pub stripe_timeout_secs: u64,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Accounts: list, explain, verify, sign out, delete.
    #[command(subcommand)]
    Users(UsersCommand),
    /// Plans: show and set by hand.
    #[command(subcommand)]
    Plans(PlansCommand),
    /// Subscriptions: compare with Stripe and repair.
    #[command(subcommand)]
    Subscriptions(SubscriptionsCommand),
    /// The mail outbox.
    #[command(subcommand)]
    Mail(MailCommand),
    /// Stripe webhook events received.
    #[command(subcommand)]
    Webhooks(WebhooksCommand),
    /// Coupons and promotion codes, made through Stripe's API.
    #[command(subcommand)]
    Billing(BillingCommand),
    /// The desktop app's calls: the Free Trial's meter and operators' grants.
    #[command(subcommand)]
    Usage(UsageCommand),
    /// Sales teams: list, explain, remove a member, transfer ownership, set seats.
    #[command(subcommand)]
    Teams(TeamsCommand),
    /// The database itself.
    #[command(subcommand)]
    Db(DbCommand),
    /// Sign-ups, verification, conversion, revenue and churn, with a per-day sign-up chart.
    ///
    /// Example: closewise stats --days 14
    Stats(StatsArgs),
    /// Every operator change, newest first (one account's: `closewise users show EMAIL`).
    ///
    /// Example: closewise audit --limit 20
    Audit(AuditArgs),
}

#[derive(Args, Debug)]
pub struct AuditArgs {
    /// At most this many.
    #[arg(long, default_value_t = 50)]
    pub limit: i64,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Subcommand, Debug)]
pub enum UsersCommand {
    /// Lists accounts, newest first.
    ///
    /// Example: closewise users list --unverified --since 2026-11-01
    List(UsersList),
    /// One screen that explains an account: verification, sessions, plan, subscription, last
    /// mails and the audit trail.
    ///
    /// Example: closewise users show ana@example.com
    Show(UserShow),
    /// Confirms the account's address by hand.
    ///
    /// Example: closewise users verify ana@example.com --reason "ticket #12: mail blocked" --yes
    Verify(UserChange),
    /// Ends every session of the account (it must sign in again everywhere).
    ///
    /// Example: closewise users sign-out ana@example.com --reason "lost laptop" --yes
    SignOut(UserDestructive),
    /// Deletes the account, its plan, sessions and subscription record; cancels a live
    /// subscription at Stripe first.
    ///
    /// Example: closewise users delete ana@example.com --reason "GDPR request" --yes
    Delete(UserDelete),
    /// The account's second factor: show it, or reset it for a customer locked out.
    #[command(subcommand)]
    Mfa(UsersMfaCommand),
}

#[derive(Args, Debug)]
pub struct UserShow {
    /// The account's e-mail address.
    pub email: String,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Args, Debug)]
pub struct UserChange {
    /// The account's e-mail address.
    pub email: String,
    #[command(flatten)]
    pub reason: Reason,
    #[command(flatten)]
    pub confirm: Confirm,
}

#[derive(Args, Debug)]
pub struct UserDestructive {
    /// The account's e-mail address.
    pub email: String,
    #[command(flatten)]
    pub reason: Reason,
    #[command(flatten)]
    pub confirm: Confirm,
}

#[derive(Args, Debug)]
pub struct UserDelete {
    /// The account's e-mail address.
    pub email: String,
    #[command(flatten)]
    pub reason: Reason,
    #[command(flatten)]
    pub confirm: Confirm,
    #[command(flatten)]
    pub stripe: StripeArgs,
}

#[derive(Subcommand, Debug)]
pub enum PlansCommand {
    /// The account's plan and the subscription behind it.
    ///
    /// Example: closewise plans show ana@example.com --json
    Show(UserShow),
    /// Sets the plan by hand (a later `subscriptions sync` puts back what Stripe says).
    ///
    /// Example: closewise plans set ana@example.com monthly --reason "paid by invoice"
    Set(PlanSet),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PlanArg {
    Free,
    Monthly,
}

impl PlanArg {
    pub fn as_str(self) -> &'static str {
        match self {
            PlanArg::Free => "free",
            PlanArg::Monthly => "monthly",
        }
    }
}

#[derive(Args, Debug)]
pub struct PlanSet {
    /// The account's e-mail address.
    pub email: String,
    /// The plan to set.
    #[arg(value_enum)]
    pub plan: PlanArg,
    /// Why, for the audit trail (required).
    ///
    /// Example: --reason "refund agreed on ticket #88"
    #[arg(long)]
    pub reason: String,
    #[command(flatten)]
    pub confirm: Confirm,
}

#[derive(Subcommand, Debug)]
pub enum UsageCommand {
    /// The account's entitlements, free calls used of its limit, grants, calls this month and
    /// the newest calls.
    ///
    /// Example: closewise usage show ana@example.com --json
    Show(UserShow),
    /// Grants the account more free calls (on top of the Free Trial's 5).
    ///
    /// Example: closewise usage grant ana@example.com --calls 2 --reason "ticket #7: calls dropped"
    Grant(UsageGrant),
}

#[derive(Args, Debug)]
pub struct UsageGrant {
    /// The account's e-mail address.
    pub email: String,
    /// How many calls to add (1 to 1000).
    #[arg(long, value_parser = clap::value_parser!(i64).range(1..=1000))]
    pub calls: i64,
    /// Why, for the audit trail (required).
    ///
    /// Example: --reason "ticket #7: the app crashed during two calls"
    #[arg(long)]
    pub reason: String,
    #[command(flatten)]
    pub confirm: Confirm,
}

#[derive(Subcommand, Debug)]
pub enum SubscriptionsCommand {
    /// Reads each subscription from Stripe and repairs the stored subscription and plan.
    ///
    /// Example: closewise subscriptions sync --all --dry-run
    Sync(SubscriptionSync),
}

#[derive(Args, Debug)]
pub struct SubscriptionSync {
    /// One account's e-mail address.
    #[arg(required_unless_present = "all", conflicts_with = "all")]
    pub email: Option<String>,
    /// Every account with a subscription (shows a progress bar on a terminal).
    #[arg(long)]
    pub all: bool,
    /// Show what would change; change nothing.
    #[arg(long)]
    pub dry_run: bool,
    #[command(flatten)]
    pub reason: Reason,
    #[command(flatten)]
    pub confirm: Confirm,
    #[command(flatten)]
    pub stripe: StripeArgs,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Subcommand, Debug)]
pub enum MailCommand {
    /// Lists mail, newest first.
    ///
    /// Example: closewise mail list --to ana@example.com --json
    List(MailList),
    /// One mail, with its text and delivery attempts. The text holds live links, so reading it
    /// is recorded in the audit trail.
    ///
    /// Example: closewise mail show 0193f1c2-... --reason "ticket #31: link never arrived"
    Show(MailShow),
    /// Puts a failed or pending mail back in the queue, due now.
    ///
    /// Example: closewise mail retry 0193f1c2-... --reason "SMTP fixed"
    Retry(MailRetry),
}

#[derive(Args, Debug)]
pub struct MailList {
    /// Only mail to this address.
    #[arg(long)]
    pub to: Option<String>,
    /// Only mail not yet delivered.
    #[arg(long, conflicts_with = "failed")]
    pub pending: bool,
    /// Only mail that could not be delivered.
    #[arg(long)]
    pub failed: bool,
    /// At most this many.
    #[arg(long, default_value_t = 50)]
    pub limit: i64,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Args, Debug)]
pub struct MailShow {
    /// The mail's id (from `closewise mail list`).
    pub id: Uuid,
    #[command(flatten)]
    pub reason: Reason,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Args, Debug)]
pub struct MailRetry {
    /// The mail's id (from `closewise mail list --failed`).
    pub id: Uuid,
    #[command(flatten)]
    pub reason: Reason,
    #[command(flatten)]
    pub confirm: Confirm,
}

#[derive(Subcommand, Debug)]
pub enum WebhooksCommand {
    /// Lists the Stripe events received, newest first.
    ///
    /// Example: closewise webhooks list --failed
    List(WebhooksList),
    /// Fetches the event from Stripe again and processes it through the API's own webhook
    /// path (signature, idempotency by event id, the subscription read back from Stripe). An
    /// event already processed changes nothing.
    ///
    /// Example: closewise webhooks replay evt_1QxYz... --reason "Stripe was down at 03:00"
    Replay(WebhookReplay),
}

#[derive(Args, Debug)]
pub struct WebhookReplay {
    /// Stripe's event id (`evt_...`, from `closewise webhooks list --failed`).
    pub event_id: String,
    #[command(flatten)]
    pub reason: Reason,
    #[command(flatten)]
    pub confirm: Confirm,
    #[command(flatten)]
    pub stripe: StripeArgs,
}

#[derive(Args, Debug)]
pub struct WebhooksList {
    /// Only events whose processing failed.
    #[arg(long)]
    pub failed: bool,
    /// At most this many.
    #[arg(long, default_value_t = 50)]
    pub limit: i64,
    #[command(flatten)]
    pub output: Output,
}

#[derive(Subcommand, Debug)]
pub enum DbCommand {
    /// Applies pending migrations (the API also does this when it starts). The only command
    /// that changes the schema; the others refuse a database whose schema is behind.
    ///
    /// Example: closewise db migrate --database-url postgres://localhost/closewise
    Migrate,
    /// Loads a set of users from a fixture file (users already there are left alone). Refuses a
    /// production database: APP_ENV=production, or a PostgreSQL server on another host.
    ///
    /// Example: closewise db seed fixtures/seed.json --yes
    Seed(DbSeed),
    /// Builds one team at scale for the bench (`just bench`): its members with one password, a
    /// year of their calls, audit rows and pending invites, in one transaction (on PostgreSQL then
    /// vacuumed, and the database analyzed, as after any bulk load). Refuses a production
    /// database, as `db seed` does.
    ///
    /// Example: closewise db seed-team --members 1000 --calls 100000 --audit 10000 --invites 200 --prefix t1000 --password Bench-password-42 --yes
    SeedTeam(DbSeedTeam),
    /// Deletes the rows that have stopped working, as the API does every SWEEP_INTERVAL_SECS:
    /// expired device sign-in requests and authorization codes, old e-mail links, the refresh
    /// tokens of ended sessions, ended rate-limit windows. Sessions, calls, the audit trail,
    /// webhook events, mail and team invites are never deleted. Safe while the API runs.
    ///
    /// Example: closewise db sweep --yes --reason "disk alert"
    Sweep(DbSweep),
}

#[derive(Args, Debug)]
pub struct DbSweep {
    #[command(flatten)]
    pub reason: Reason,
    #[command(flatten)]
    pub confirm: Confirm,
}

#[derive(Args, Debug)]
pub struct DbSeed {
    /// The fixture: {"users": [{"email", "password", "verified", "plan", "subscription"}]}.
    pub fixture: PathBuf,
    #[command(flatten)]
    pub confirm: Confirm,
}

#[derive(Args, Debug)]
pub struct StatsArgs {
    /// How many days back, today included.
    ///
    /// Example: --days 7
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=3660))]
    pub days: u32,
    #[command(flatten)]
    pub output: Output,
}

fn parse_date(s: &str) -> Result<time::Date, String> {
    time::Date::parse(s, time::macros::format_description!("[year]-[month]-[day]"))
        .map_err(|_| format!("{s:?} is not a date; write it as YYYY-MM-DD, e.g. 2026-11-01"))
}
