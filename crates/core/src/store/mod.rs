//! Persistence on SQLite (default) and PostgreSQL behind one `Store`.
//!
//! Every query is plain SQL that both databases accept (`$n` placeholders, `ON CONFLICT`,
//! `RETURNING`); `dispatch!` compiles each method's body once per backend, so the types
//! (`Uuid`, `OffsetDateTime`) stay native on both. Time comparisons happen in Rust through the
//! domain's rules, except the mail worker's `due_at_ms`, an integer on both sides.

use std::str::FromStr;
use std::time::Duration;

use anyhow::Context;
use closewise_domain::plan::{PlanStatus, PlanType};
use closewise_domain::subscription::SubscriptionStatus;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{PgPool, SqlitePool};

pub mod admin;
pub mod audit;
pub(crate) mod begin;
pub mod billing;
pub mod db_errors;
pub mod fixture;
pub mod interval_quotes;
pub mod locks;
pub mod mail;
pub mod mfa;
pub mod mfa_reset;
pub mod oauth;
pub mod passkeys;
pub mod payment_failures;
pub mod plans;
pub mod ratelimits;
pub mod revocations;
pub mod schema;
pub mod sessions;
pub mod stats;
pub mod stream_rows;
pub mod stream_worker;
pub mod streams;
pub mod sweep;
pub mod teams;
pub mod tokens;
pub mod usage;
pub mod user_deletion;
pub mod users;
pub mod webhook_events;

pub use billing::{EventReceipt, Fulfilment, SubscriptionRecord, SubscriptionRow, WebhookEventRow};
pub use db_errors::{is_unavailable, DbError};
pub use mail::{MailRow, NewMail};
pub use plans::PlanRow;
pub use revocations::Revoked;
pub use sessions::{RefreshRow, SessionRow};
pub use tokens::EmailTokenRow;
pub use usage::{CallRow, GrantRow};
pub use users::UserRow;

#[derive(Clone, Debug)]
pub enum Pool {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

#[derive(Clone, Debug)]
pub struct Store {
    pub(crate) pool: Pool,
    /// PostgreSQL: the small pool advisory locks hold their transactions on (`locks`).
    pub(crate) locks: Option<PgPool>,
    /// Who writes: recorded on audit rows (`with_instance`, default `default_instance()`).
    pub(crate) instance: std::sync::Arc<str>,
    /// Who hears of this process's revocations (`revocations`).
    pub(crate) observers: std::sync::Arc<revocations::Observers>,
}

/// This process's name in the audit trail when none is given: `APP_INSTANCE`, else the host name.
pub fn default_instance() -> String {
    let named = |s: Option<String>| s.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty());
    named(std::env::var("APP_INSTANCE").ok())
        .or_else(|| named(std::fs::read_to_string("/proc/sys/kernel/hostname").ok()))
        .or_else(|| named(std::fs::read_to_string("/etc/hostname").ok()))
        .or_else(|| named(std::env::var("HOSTNAME").ok()))
        .unwrap_or_else(|| "unknown".into())
}

/// Connections kept for advisory locks: billing operations in flight at once per process.
const LOCK_CONNECTIONS: u32 = 8;

/// SQLite's page cache per pooled connection, and what a sort keeps in memory before spilling to
/// a temporary file (SQLite's default is 2,000 KiB each: 16 MiB for the pool). The database file's
/// pages stay in the kernel's page cache, outside the process, so a small cache costs a `pread`,
/// not a disk read (docs/performance.md, "Memory").
const SQLITE_CACHE_KIB: i64 = 512;

/// Runs `$body` with `$pool` bound to the concrete pool of either backend.
macro_rules! dispatch {
    ($store:expr, |$pool:ident| $body:expr) => {
        match &$store.pool {
            $crate::store::Pool::Sqlite($pool) => $body,
            $crate::store::Pool::Postgres($pool) => $body,
        }
    };
}
pub(crate) use dispatch;

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

/// The embedded migrations, ignoring applied versions this release does not know.
fn tolerant(embedded: &sqlx::migrate::Migrator) -> sqlx::migrate::Migrator {
    let mut migrator = sqlx::migrate::Migrator {
        migrations: embedded.migrations.clone(),
        ignore_missing: false,
        locking: embedded.locking,
        no_tx: embedded.no_tx,
    };
    migrator.set_ignore_missing(true);
    migrator
}

impl Store {
    /// Connects to `sqlite://path` (the file and its folder are created) or `postgres://...`.
    pub async fn connect(url: &str, acquire_timeout: Duration) -> anyhow::Result<Store> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let options = PgConnectOptions::from_str(url)
                .context("DATABASE_URL is not a valid PostgreSQL URL")?;
            let pool = PgPoolOptions::new()
                .max_connections(20)
                .acquire_timeout(acquire_timeout)
                .connect_lazy_with(options.clone());
            let locks = PgPoolOptions::new()
                .max_connections(LOCK_CONNECTIONS)
                .acquire_timeout(acquire_timeout)
                .connect_lazy_with(options);
            Ok(Store {
                pool: Pool::Postgres(pool),
                locks: Some(locks),
                instance: default_instance().into(),
                observers: Default::default(),
            })
        } else if url.starts_with("sqlite:") {
            sqlite_globals();
            let in_memory = url.contains(":memory:") || url.contains("mode=memory");
            let mut options = SqliteConnectOptions::from_str(url)
                .context("DATABASE_URL is not a valid SQLite URL")?
                .create_if_missing(true)
                .foreign_keys(true)
                .busy_timeout(Duration::from_secs(10))
                .pragma("cache_size", (-SQLITE_CACHE_KIB).to_string());
            if !in_memory {
                if let Some(parent) = options.get_filename().parent() {
                    if !parent.as_os_str().is_empty() {
                        std::fs::create_dir_all(parent).with_context(|| {
                            format!("cannot create the database folder {}", parent.display())
                        })?;
                    }
                }
                options = options
                    .journal_mode(SqliteJournalMode::Wal)
                    .synchronous(SqliteSynchronous::Normal);
            }
            // An in-memory database lives in one connection: more would each see an empty one.
            let max = if in_memory { 1 } else { 8 };
            let pool = SqlitePoolOptions::new()
                .max_connections(max)
                .acquire_timeout(acquire_timeout)
                .connect_with(options)
                .await
                .context("cannot open the SQLite database")?;
            Ok(Store {
                pool: Pool::Sqlite(pool),
                locks: None,
                instance: default_instance().into(),
                observers: Default::default(),
            })
        } else {
            anyhow::bail!("DATABASE_URL must start with sqlite:// or postgres://")
        }
    }

    /// The same store, writing `instance` as the author of its audit rows.
    pub fn with_instance(mut self, instance: &str) -> Store {
        self.instance = instance.into();
        self
    }

    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// Applies this release's migrations that are not applied yet. Migrations a newer release has
    /// already applied are not an error: during a rolling update the previous release's replicas
    /// keep (re)starting against the expanded schema (expand/contract, see docs/deploy.md).
    pub async fn migrate(&self) -> anyhow::Result<()> {
        match &self.pool {
            Pool::Sqlite(p) => tolerant(&SQLITE_MIGRATIONS).run(p).await?,
            Pool::Postgres(p) => tolerant(&POSTGRES_MIGRATIONS).run(p).await?,
        }
        Ok(())
    }

    pub fn backend_name(&self) -> &'static str {
        match self.pool {
            Pool::Sqlite(_) => "sqlite",
            Pool::Postgres(_) => "postgres",
        }
    }

    pub async fn ping(&self) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| sqlx::query("SELECT 1")
            .execute(p)
            .await
            .map(|_| ()))
    }

    pub async fn close(&self) {
        if let Some(locks) = &self.locks {
            locks.close().await;
        }
        dispatch!(self, |p| p.close().await)
    }
}

/// The SQL with the domain's values in place of `{subscribed}`, `{monthly}`, `{free}` and
/// `{active}`: constants of our own, never input.
pub(crate) fn domain_sql(template: &str) -> String {
    template
        .replace("{subscribed}", &subscribed_statuses())
        .replace("{monthly}", PlanType::Monthly.as_str())
        .replace("{free}", PlanType::Free.as_str())
        .replace("{active}", PlanStatus::Active.as_str())
}

fn subscribed_statuses() -> String {
    SubscriptionStatus::ALL
        .iter()
        .filter(|s| s.counts_as_subscribed())
        .map(|s| format!("'{}'", s.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// True when `e` is a unique-constraint violation.
pub(crate) fn is_unique_violation(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .map(|d| d.is_unique_violation())
        .unwrap_or(false)
}

/// SQLite's process-wide settings, before its first connection: no memory statistics. SQLite
/// keeps them by default, taking one global mutex around every allocation of every connection;
/// the pooled connections, each on its own thread, then wait on one another (the adoption
/// report at 1,000 members spent a third of its time in that contention). Nothing here reads the
/// statistics. Too late once a connection is open (SQLite then refuses, and nothing changes).
fn sqlite_globals() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: sqlite3_config with SQLITE_CONFIG_MEMSTATUS takes one int; it is only allowed
        // before SQLite initializes, and answers SQLITE_MISUSE (changing nothing) after.
        unsafe {
            libsqlite3_sys::sqlite3_config(
                libsqlite3_sys::SQLITE_CONFIG_MEMSTATUS,
                0 as std::ffi::c_int,
            );
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SQLite's default page cache is 2 MB per connection, and a sort keeps as much in memory
    /// before spilling: 8 pooled connections held about 28 MiB of the API's memory after the
    /// team pages (docs/performance.md, "Memory").
    #[tokio::test]
    async fn every_pooled_sqlite_connection_keeps_a_small_page_cache() {
        let dir = closewise_testkit::TempDir::new();
        let url = format!("sqlite://{}", dir.0.join("cache.db").display());
        let store = Store::connect(&url, Duration::from_secs(10)).await.unwrap();
        let Pool::Sqlite(pool) = &store.pool else {
            unreachable!()
        };
        // Every connection the pool opens, not only the first.
        let mut held = Vec::new();
        for _ in 0..3 {
            held.push(pool.acquire().await.unwrap());
        }
        for conn in &mut held {
            let (kib,): (i64,) = sqlx::query_as("PRAGMA cache_size")
                .fetch_one(&mut **conn)
                .await
                .unwrap();
            assert_eq!(kib, -SQLITE_CACHE_KIB, "negative: KiB, not pages");
        }
    }
}
