//! Test support shared by every suite that needs a real database: a fresh PostgreSQL database per
//! test (never skipped: an unreachable server fails the test and says how to start it), a sweep
//! of databases left by crashed test processes, and temporary folders removed on drop.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

use sqlx::Connection;

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
}

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
