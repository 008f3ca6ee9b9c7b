//! The one test harness, shared by every suite: a fresh PostgreSQL database per test (never
//! skipped: an unreachable server fails the test and says how to start it), a sweep of databases
//! left by crashed test processes, temporary folders removed on drop, queries against either
//! database, the two kinds of database and `both!`, which runs a test on each (`backend`), with
//! the `core` feature the core's services over either database (`services`), with the `dns`
//! feature a local DNS server (`dns`, also the `closewise-test-dns` binary), and with the `app`
//! feature the API spawned on either database (`app`).

#[cfg(feature = "app")]
pub mod app;
mod backend;
#[cfg(feature = "dns")]
pub mod dns;
#[cfg(feature = "core")]
pub mod services;

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

use sqlx::Connection;

pub use backend::{Backend, FreshDatabase};

static DB_COUNTER: AtomicU32 = AtomicU32::new(0);

/// The PostgreSQL server used by tests (`TEST_POSTGRES_URL`).
pub fn postgres_admin_url() -> String {
    std::env::var("TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into())
}

/// Creates a new, empty database and returns its URL. Names are `cw_test_<pid>_<tag><n>`, so the
/// sweep can tell which test process made them.
pub async fn fresh_postgres_database(tag: &str) -> String {
    let admin = postgres_admin_url();
    let mut conn = sqlx::PgConnection::connect(&admin).await.unwrap_or_else(|e| {
        panic!(
            "PostgreSQL tests need a server at {admin} (set TEST_POSTGRES_URL): {e}. \
             Start it with: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start"
        )
    });
    drop_stale_databases(&mut conn).await;
    let name = format!(
        "cw_test_{}_{tag}{}",
        std::process::id(),
        DB_COUNTER.fetch_add(1, Ordering::SeqCst)
    );
    sqlx::query(&format!("DROP DATABASE IF EXISTS {name}"))
        .execute(&mut conn)
        .await
        .expect("drop old test database");
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut conn)
        .await
        .expect("create test database");
    let base = admin
        .rsplit_once('/')
        .map(|(b, _)| b.to_string())
        .unwrap_or(admin.clone());
    format!("{base}/{name}")
}

/// Drops databases left by test processes that no longer run (once per process).
async fn drop_stale_databases(conn: &mut sqlx::PgConnection) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    let mut first = false;
    ONCE.call_once(|| first = true);
    if !first {
        return;
    }
    // Under nextest every test is a process of its own: one of them sweeps at a time and the
    // others go on, rather than each waiting on the same DROPs (each waits for a checkpoint).
    let swept_elsewhere = !sqlx::query_scalar::<_, bool>("SELECT pg_try_advisory_lock($1)")
        .bind(SWEEP_LOCK)
        .fetch_one(&mut *conn)
        .await
        .unwrap_or(false);
    if swept_elsewhere {
        return;
    }
    let names: Vec<(String,)> =
        sqlx::query_as("SELECT datname FROM pg_database WHERE datname LIKE 'cw_test_%'")
            .fetch_all(&mut *conn)
            .await
            .unwrap_or_default();
    for (name,) in names {
        let pid = name.split('_').nth(2).and_then(|p| p.parse::<u32>().ok());
        if let Some(pid) = pid {
            if pid != std::process::id() && !std::path::Path::new(&format!("/proc/{pid}")).exists()
            {
                let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                    .execute(&mut *conn)
                    .await;
            }
        }
    }
    let _ = sqlx::query("SELECT pg_advisory_unlock($1)")
        .bind(SWEEP_LOCK)
        .execute(&mut *conn)
        .await;
}

/// The advisory lock held by the process sweeping stale test databases.
const SWEEP_LOCK: i64 = 0x636c_6f73_6577_6973;

/// A temporary folder, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new() -> Self {
        let p = std::env::temp_dir().join(format!("closewise-test-{}", uuid::Uuid::now_v7()));
        std::fs::create_dir_all(&p).expect("temp dir");
        TempDir(p)
    }
}

impl Default for TempDir {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs one scalar query (e.g. `SELECT COUNT(*) ...`) against a database URL of either kind.
pub async fn scalar(database_url: &str, sql: &str) -> i64 {
    if database_url.starts_with("postgres") {
        let mut c = sqlx::PgConnection::connect(database_url).await.unwrap();
        sqlx::query_scalar::<_, i64>(sql)
            .fetch_one(&mut c)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"))
    } else {
        let mut c = sqlx::SqliteConnection::connect(database_url).await.unwrap();
        sqlx::query_scalar::<_, i64>(sql)
            .fetch_one(&mut c)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"))
    }
}

/// Runs one statement against a database URL of either kind (to arrange what no store method
/// writes).
pub async fn execute(database_url: &str, sql: &str) {
    if database_url.starts_with("postgres") {
        let mut c = sqlx::PgConnection::connect(database_url).await.unwrap();
        sqlx::query(sql)
            .execute(&mut c)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    } else {
        let mut c = sqlx::SqliteConnection::connect(database_url).await.unwrap();
        sqlx::query(sql)
            .execute(&mut c)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
}
