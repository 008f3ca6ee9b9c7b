//! The pre-migrated PostgreSQL template: a database with every migration of this source tree
//! applied, made once per migration set and copied (`CREATE DATABASE ... TEMPLATE`) for each test
//! that wants the current schema, instead of each test running every migration itself.
//!
//! - **One per migration set.** Its name is `cw_tpl_<digest>_<made>`: `<digest>` is taken from
//!   the migrations (each one's version, description and checksum, in order), so a new or changed
//!   migration gives a new template; `<made>` is when it was made (Unix seconds).
//! - **Made once across processes.** Under nextest each test is a process of its own: the first
//!   that finds no template takes an advisory lock and makes it, the others wait on the lock and
//!   then copy it. A template is marked `IS_TEMPLATE` only once every migration is in, so one left
//!   half-made by a killed process is never copied (the next maker drops it).
//! - **Never connected to once made** (`ALLOW_CONNECTIONS false`): PostgreSQL refuses to copy a
//!   database that has another session.
//! - **Swept when stale**: another migration set's template made more than an hour ago is dropped
//!   with the stale test databases. Another branch's run on the same server keeps its own template
//!   meanwhile; if its run outlasts the hour, its next test makes the template again.
//!
//! The migrations are read from `crates/core/migrations/postgres` with sqlx's migrator, which
//! computes the same checksums as the migrations the store embeds, so the store's own `migrate`
//! on a copy finds everything applied and does nothing.

use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sqlx::migrate::Migrator;
use sqlx::{Connection, PgConnection};

/// The migrations the store embeds for PostgreSQL.
const MIGRATIONS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../core/migrations/postgres");

/// The advisory lock held by the process making a template.
const TEMPLATE_LOCK: i64 = 0x636c_6f73_6574_706c;

/// How long another migration set's template is kept.
const STALE_AFTER: Duration = Duration::from_secs(3600);

/// This source tree's PostgreSQL migrations.
async fn migrator() -> Migrator {
    Migrator::new(Path::new(MIGRATIONS))
        .await
        .unwrap_or_else(|e| panic!("cannot read the migrations in {MIGRATIONS}: {e}"))
}

/// `cw_tpl_<digest>_`: the names of this migration set's templates start with it.
fn prefix(migrator: &Migrator) -> String {
    // FNV-1a, 64 bits: stable across Rust releases, unlike std's hasher.
    let mut digest: u64 = 0xcbf2_9ce4_8422_2325;
    for m in migrator.migrations.iter() {
        let parts: [&[u8]; 3] = [
            &m.version.to_le_bytes(),
            m.description.as_bytes(),
            &m.checksum,
        ];
        for byte in parts.into_iter().flatten() {
            digest ^= u64::from(*byte);
            digest = digest.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("cw_tpl_{digest:016x}_")
}

/// The name of this migration set's template, made first if there is none yet. `admin` is a
/// connection to the server's maintenance database.
pub(crate) async fn current(admin: &mut PgConnection) -> String {
    let migrator = migrator().await;
    let prefix = prefix(&migrator);
    if let Some(name) = ready(admin, &prefix).await {
        return name;
    }
    sqlx::query("SELECT pg_advisory_lock($1)")
        .bind(TEMPLATE_LOCK)
        .execute(&mut *admin)
        .await
        .expect("take the template lock");
    // Made by another process while this one waited for the lock.
    let name = match ready(admin, &prefix).await {
        Some(name) => name,
        None => make(admin, &prefix, &migrator).await,
    };
    sqlx::query("SELECT pg_advisory_unlock($1)")
        .bind(TEMPLATE_LOCK)
        .execute(&mut *admin)
        .await
        .expect("release the template lock");
    name
}

/// The newest finished template whose name starts with `prefix`.
async fn ready(admin: &mut PgConnection, prefix: &str) -> Option<String> {
    sqlx::query_scalar(
        "SELECT datname::text FROM pg_database \
         WHERE starts_with(datname::text, $1) AND datistemplate ORDER BY datname DESC LIMIT 1",
    )
    .bind(prefix)
    .fetch_optional(&mut *admin)
    .await
    .expect("look up the template")
}

/// Drops what a killed maker left, then makes the template: every migration applied, then marked
/// as a template no one connects to. Called with the template lock held.
async fn make(admin: &mut PgConnection, prefix: &str, migrator: &Migrator) -> String {
    let unfinished: Vec<String> = sqlx::query_scalar(
        "SELECT datname::text FROM pg_database WHERE starts_with(datname::text, $1)",
    )
    .bind(prefix)
    .fetch_all(&mut *admin)
    .await
    .expect("list unfinished templates");
    for name in unfinished {
        drop_database(admin, &name).await;
    }
    let made = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_secs();
    let name = format!("{prefix}{made}");
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut *admin)
        .await
        .expect("create the template database");
    let mut conn = PgConnection::connect(&crate::database_url(&name))
        .await
        .expect("connect to the template database");
    migrator
        .run(&mut conn)
        .await
        .unwrap_or_else(|e| panic!("migrate the template database {name}: {e}"));
    conn.close().await.expect("disconnect from the template");
    sqlx::query(&format!(
        "ALTER DATABASE {name} WITH ALLOW_CONNECTIONS false IS_TEMPLATE true"
    ))
    .execute(&mut *admin)
    .await
    .expect("mark the template");
    name
}

/// Drops other migration sets' templates made more than `STALE_AFTER` ago. Called with the sweep
/// lock held.
pub(crate) async fn drop_stale(admin: &mut PgConnection) {
    let current = prefix(&migrator().await);
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_secs();
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT datname::text FROM pg_database WHERE starts_with(datname::text, 'cw_tpl_')",
    )
    .fetch_all(&mut *admin)
    .await
    .unwrap_or_default();
    for name in names {
        if name.starts_with(&current) {
            continue;
        }
        let made = name.rsplit('_').next().and_then(|s| s.parse::<u64>().ok());
        if made.is_some_and(|made| now.saturating_sub(made) > STALE_AFTER.as_secs()) {
            drop_database(admin, &name).await;
        }
    }
}

/// Drops a template (or a half-made one), whoever is connected to it.
async fn drop_database(admin: &mut PgConnection, name: &str) {
    let _ = sqlx::query(&format!("ALTER DATABASE {name} WITH IS_TEMPLATE false"))
        .execute(&mut *admin)
        .await;
    let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .execute(&mut *admin)
        .await;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A copy of the migrations folder, changed by `change`.
    async fn prefix_of(change: impl FnOnce(&Path)) -> String {
        let dir = crate::TempDir::new();
        for entry in std::fs::read_dir(MIGRATIONS).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(&path, dir.0.join(path.file_name().unwrap())).unwrap();
        }
        change(&dir.0);
        prefix(&Migrator::new(dir.0.as_path()).await.unwrap())
    }

    #[tokio::test]
    async fn a_new_or_changed_migration_makes_another_template() {
        let current = prefix(&migrator().await);
        assert_eq!(prefix_of(|_| {}).await, current, "the same migrations");
        let added = prefix_of(|dir| {
            std::fs::write(dir.join("9999_later.sql"), "CREATE TABLE later (n INT);").unwrap();
        })
        .await;
        let changed = prefix_of(|dir| {
            let first = std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .min()
                .unwrap();
            let sql = std::fs::read_to_string(&first).unwrap();
            std::fs::write(&first, format!("{sql}\n-- edited\n")).unwrap();
        })
        .await;
        assert_ne!(added, current);
        assert_ne!(changed, current);
        assert_ne!(added, changed);
        assert!(current.starts_with("cw_tpl_") && current.len() == "cw_tpl_".len() + 17);
    }

    #[tokio::test]
    async fn a_copy_has_every_migration_applied_and_is_a_database_of_its_own() {
        let applied = |url: String| async move {
            let mut c = PgConnection::connect(&url).await.unwrap();
            let rows: Vec<(i64, Vec<u8>)> = sqlx::query_as(
                "SELECT version, checksum FROM _sqlx_migrations WHERE success ORDER BY version",
            )
            .fetch_all(&mut c)
            .await
            .unwrap();
            rows
        };
        let expected: Vec<(i64, Vec<u8>)> = migrator()
            .await
            .iter()
            .map(|m| (m.version, m.checksum.to_vec()))
            .collect();
        assert!(expected.len() >= 20, "{} migrations", expected.len());
        let a = crate::migrated_postgres_database("tpl").await;
        let b = crate::migrated_postgres_database("tpl").await;
        assert_ne!(a, b);
        assert_eq!(applied(a.clone()).await, expected);
        crate::execute(&a, "CREATE TABLE only_in_a (n INT)").await;
        let in_b = crate::scalar(
            &b,
            "SELECT COUNT(*) FROM pg_tables WHERE tablename = 'only_in_a'",
        )
        .await;
        assert_eq!(in_b, 0, "a copy is not shared");
        assert_eq!(applied(b).await, expected);
        let empty = crate::fresh_postgres_database("tpl").await;
        let tables = crate::scalar(
            &empty,
            "SELECT COUNT(*) FROM pg_tables WHERE schemaname = 'public'",
        )
        .await;
        assert_eq!(tables, 0, "a fresh database stays empty");
    }
}
