//! The one test harness, shared by every suite: a fresh PostgreSQL database per test (never
//! skipped: an unreachable server fails the test and says how to start it), empty or copied from
//! a template with every migration applied (`template`), a sweep of databases left by crashed
//! test processes and of stale templates, temporary folders removed on drop, queries against either
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
mod template;

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

/// Creates a new, empty database and returns its URL: for the tests of the migrations themselves
/// and of what runs them. Names are `cw_test_<pid>_<tag><n>`, so the sweep can tell which test
/// process made them.
pub async fn fresh_postgres_database(tag: &str) -> String {
    let mut admin = admin_connection().await;
    let name = new_database_name(&mut admin, tag).await;
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await
        .expect("create test database");
    database_url(&name)
}

/// Creates a new database with every migration applied and returns its URL: a copy of this
/// migration set's template (`template`), made once for all test processes. The store's
/// `migrate` on it finds nothing to do. Named as `fresh_postgres_database` names them.
pub async fn migrated_postgres_database(tag: &str) -> String {
    let mut admin = admin_connection().await;
    let name = new_database_name(&mut admin, tag).await;
    let mut attempt = 0;
    loop {
        let template = template::current(&mut admin).await;
        match sqlx::query(&format!("CREATE DATABASE {name} TEMPLATE {template}"))
            .execute(&mut admin)
            .await
        {
            Ok(_) => return database_url(&name),
            // Dropped as stale by another branch's run on the same server between the look-up
            // and the copy: made again.
            Err(e) if attempt < 3 && is_missing_database(&e) => attempt += 1,
            Err(e) => panic!("copy the template {template} to {name}: {e}"),
        }
    }
}

fn is_missing_database(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .and_then(|d| d.code())
        .is_some_and(|code| code == "3D000")
}

/// A connection to the server's maintenance database, or a panic that says how to start it.
async fn admin_connection() -> sqlx::PgConnection {
    let admin = postgres_admin_url();
    sqlx::PgConnection::connect(&admin).await.unwrap_or_else(|e| {
        panic!(
            "PostgreSQL tests need a server at {admin} (set TEST_POSTGRES_URL): {e}. \
             Start it with: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start"
        )
    })
}

/// The next database name of this process (`cw_test_<pid>_<tag><n>`), nothing of that name left;
/// the first call of a process sweeps first.
async fn new_database_name(admin: &mut sqlx::PgConnection, tag: &str) -> String {
    drop_stale_databases(admin).await;
    let name = format!(
        "cw_test_{}_{tag}{}",
        std::process::id(),
        DB_COUNTER.fetch_add(1, Ordering::SeqCst)
    );
    sqlx::query(&format!("DROP DATABASE IF EXISTS {name}"))
        .execute(&mut *admin)
        .await
        .expect("drop old test database");
    name
}

/// The URL of database `name` on the test server.
fn database_url(name: &str) -> String {
    let admin = postgres_admin_url();
    let base = admin
        .rsplit_once('/')
        .map(|(b, _)| b.to_string())
        .unwrap_or(admin.clone());
    format!("{base}/{name}")
}

/// Drops databases left by test processes that no longer run, and stale templates (once per
/// process).
async fn drop_stale_databases(conn: &mut sqlx::PgConnection) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    let mut first = false;
    ONCE.call_once(|| first = true);
    if !first {
        return;
    }
    // Oldest first, a few per process, each claimed with an advisory lock on its name so that no
    // two processes drop the same one. Each DROP DATABASE waits for a checkpoint (a second or
    // more while other tests write) and the test waits for its sweep: one process dropping all
    // that a busy run has left kept a test sweeping for minutes, past its time bound, and one
    // sweeper at a time could not keep up with a run. Drops running at once share checkpoints.
    let names: Vec<(String,)> = sqlx::query_as(
        "SELECT datname::text FROM pg_database WHERE datname LIKE 'cw_test_%' ORDER BY oid",
    )
    .fetch_all(&mut *conn)
    .await
    .unwrap_or_default();
    let stale = names.into_iter().filter(|(name,)| {
        let pid = name.split('_').nth(2).and_then(|p| p.parse::<u32>().ok());
        pid.is_some_and(|pid| {
            pid != std::process::id() && !std::path::Path::new(&format!("/proc/{pid}")).exists()
        })
    });
    let mut dropped = 0;
    for (name,) in stale {
        if dropped == SWEEP_BATCH {
            break;
        }
        let claimed =
            sqlx::query_scalar::<_, bool>("SELECT pg_try_advisory_lock($1, hashtext($2))")
                .bind(SWEEP_LOCK_CLASS)
                .bind(&name)
                .fetch_one(&mut *conn)
                .await
                .unwrap_or(false);
        if !claimed {
            continue;
        }
        let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .execute(&mut *conn)
            .await;
        let _ = sqlx::query("SELECT pg_advisory_unlock($1, hashtext($2))")
            .bind(SWEEP_LOCK_CLASS)
            .bind(&name)
            .execute(&mut *conn)
            .await;
        dropped += 1;
    }
    // Stale templates, by one process at a time (rarely any).
    let claimed = sqlx::query_scalar::<_, bool>("SELECT pg_try_advisory_lock($1)")
        .bind(SWEEP_LOCK)
        .fetch_one(&mut *conn)
        .await
        .unwrap_or(false);
    if claimed {
        template::drop_stale(conn).await;
        let _ = sqlx::query("SELECT pg_advisory_unlock($1)")
            .bind(SWEEP_LOCK)
            .execute(&mut *conn)
            .await;
    }
}

/// How many stale test databases one process drops.
const SWEEP_BATCH: usize = 2;

/// The advisory lock held by the process sweeping stale templates.
const SWEEP_LOCK: i64 = 0x636c_6f73_6577_6973;

/// The first key of the advisory locks claiming a stale test database (the second is a hash of
/// its name).
const SWEEP_LOCK_CLASS: i32 = 0x6377_7377;

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
