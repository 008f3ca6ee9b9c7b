//! Migrations during a rolling update: a release's migrations are applied while replicas of the
//! previous release still run (expand/contract). An older binary must keep starting, and keep
//! migrating to its own version, against a schema that a newer release has already moved forward.

use std::time::Duration;

use closewise_core::store::Store;
use closewise_testkit::{both, Backend, TempDir};

/// Records a migration this binary does not know, as a newer release's `migrate` would have.
async fn apply_a_newer_release(url: &str) {
    use sqlx::Connection;
    let insert = "INSERT INTO _sqlx_migrations \
        (version, description, success, checksum, execution_time) \
        VALUES (99990101, 'a newer release', TRUE, $1, 1)";
    let checksum = vec![0u8; 48];
    if url.starts_with("postgres") {
        let mut c = sqlx::PgConnection::connect(url).await.unwrap();
        sqlx::query(insert)
            .bind(checksum)
            .execute(&mut c)
            .await
            .unwrap();
    } else {
        let mut c = sqlx::SqliteConnection::connect(url).await.unwrap();
        sqlx::query(insert)
            .bind(checksum)
            .execute(&mut c)
            .await
            .unwrap();
    }
}

async fn older_binary_still_starts(url: &str) {
    let store = Store::connect(url, Duration::from_secs(10)).await.unwrap();
    store.migrate().await.unwrap();
    apply_a_newer_release(url).await;
    // The old replica restarts (or the old CLI runs `db migrate`): it must not refuse.
    store
        .migrate()
        .await
        .expect("a schema a newer release moved forward is not an error");
}

both!(
    async fn an_older_release_starts_against_a_newer_schema(backend: Backend) {
        let db = backend.fresh_database("migrations").await;
        older_binary_still_starts(&db.url).await;
    }
);

/// Applies this release's migrations before `version` only, from a copy of the folder.
async fn migrate_before(url: &str, folder: &str, version: &str) {
    let dir = TempDir::new();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("migrations")
        .join(folder);
    for entry in std::fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().unwrap().to_str().unwrap() < version {
            std::fs::copy(&path, dir.0.join(path.file_name().unwrap())).unwrap();
        }
    }
    let migrator = sqlx::migrate::Migrator::new(dir.0.as_path()).await.unwrap();
    if url.starts_with("postgres") {
        migrator
            .run(&sqlx::PgPool::connect(url).await.unwrap())
            .await
            .unwrap();
    } else {
        migrator
            .run(&sqlx::SqlitePool::connect(url).await.unwrap())
            .await
            .unwrap();
    }
}

/// Migration 0020 gives the audit rows written before it their team: a team's
/// activity is read by `audit_log.team_id` now, and must not lose its history.
async fn team_audit_rows_keep_their_team(url: &str, folder: &str) {
    use sqlx::Connection;
    migrate_before(url, folder, "0020").await;
    let (row, other, team) = (
        uuid::Uuid::now_v7(),
        uuid::Uuid::now_v7(),
        uuid::Uuid::now_v7(),
    );
    let insert = "INSERT INTO audit_log (id, actor, action, details, created_at) \
        VALUES ($1, 'ana@example.com', $2, $3, $4)";
    let now = time::OffsetDateTime::now_utc();
    let team_details = format!(r#"{{"team_id":"{team}","name":"Sales"}}"#);
    let read = "SELECT team_id FROM audit_log WHERE id = $1";
    macro_rules! check {
        ($conn:ty) => {{
            let mut c = <$conn>::connect(url).await.unwrap();
            for (id, action, details) in [
                (row, "team.rename", team_details.as_str()),
                (other, "plan.set", "{}"),
            ] {
                sqlx::query(insert)
                    .bind(id)
                    .bind(action)
                    .bind(details)
                    .bind(now)
                    .execute(&mut c)
                    .await
                    .unwrap();
            }
            c.close().await.unwrap();
            let store = Store::connect(url, Duration::from_secs(10)).await.unwrap();
            store.migrate().await.unwrap();
            let mut c = <$conn>::connect(url).await.unwrap();
            let got: Option<uuid::Uuid> = sqlx::query_scalar(read)
                .bind(row)
                .fetch_one(&mut c)
                .await
                .unwrap();
            assert_eq!(got, Some(team), "the team row got its team");
            let got: Option<uuid::Uuid> = sqlx::query_scalar(read)
                .bind(other)
                .fetch_one(&mut c)
                .await
                .unwrap();
            assert_eq!(got, None, "a row about no team stays so");
            assert_eq!(store.team_audit(team, 10).await.unwrap().len(), 1);
        }};
    }
    if url.starts_with("postgres") {
        check!(sqlx::PgConnection)
    } else {
        check!(sqlx::SqliteConnection)
    }
}

both!(
    async fn migration_0020_fills_the_team_of_older_audit_rows(backend: Backend) {
        let db = backend.fresh_database("migrations").await;
        team_audit_rows_keep_their_team(&db.url, backend.name()).await;
    }
);

/// Migration 0022 fills `call_months` from the calls made before it: the usage report
/// reads each member's month from there now, and must not lose the months already recorded.
async fn calls_before_0022_are_in_their_months(url: &str, folder: &str) {
    use sqlx::Connection;
    migrate_before(url, folder, "0022").await;
    let user = uuid::Uuid::now_v7();
    let at = |s: &str| {
        time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339).unwrap()
    };
    // Two ended calls in October (one in its last second), one still going in November.
    let calls = [
        ("a", at("2026-10-03T09:00:00Z"), Some(61)),
        ("b", at("2026-10-31T23:59:59Z"), Some(120)),
        ("c", at("2026-11-02T10:00:00Z"), None::<i32>),
    ];
    macro_rules! check {
        ($conn:ty) => {{
            let mut c = <$conn>::connect(url).await.unwrap();
            sqlx::query(
                "INSERT INTO users (id, email, password_hash, created_at, updated_at) \
                 VALUES ($1, 'ana@example.com', 'x', $2, $2)",
            )
            .bind(user)
            .bind(calls[0].1)
            .execute(&mut c)
            .await
            .unwrap();
            for (id, started, seconds) in calls {
                sqlx::query(
                    "INSERT INTO calls (id, user_id, client_call_id, free, started_at, \
                     last_heartbeat_at, duration_seconds) VALUES ($1, $2, $3, true, $4, $4, $5)",
                )
                .bind(uuid::Uuid::now_v7())
                .bind(user)
                .bind(id)
                .bind(started)
                .bind(seconds)
                .execute(&mut c)
                .await
                .unwrap();
            }
            c.close().await.unwrap();
            let store = Store::connect(url, Duration::from_secs(10)).await.unwrap();
            store.migrate().await.unwrap();
            let mut c = <$conn>::connect(url).await.unwrap();
            let months: Vec<(String, i64, i64, Option<time::OffsetDateTime>)> = sqlx::query_as(
                "SELECT month, CAST(calls AS BIGINT), CAST(seconds AS BIGINT), last_started_at \
                 FROM call_months WHERE user_id = $1 ORDER BY month",
            )
            .bind(user)
            .fetch_all(&mut c)
            .await
            .unwrap();
            assert_eq!(
                months,
                [
                    ("2026-10".to_owned(), 2, 181, Some(calls[1].1)),
                    ("2026-11".to_owned(), 1, 0, Some(calls[2].1))
                ]
            );
        }};
    }
    if url.starts_with("postgres") {
        check!(sqlx::PgConnection)
    } else {
        check!(sqlx::SqliteConnection)
    }
}

both!(
    async fn migration_0022_counts_the_calls_already_made_in_their_months(backend: Backend) {
        let db = backend.fresh_database("migrations").await;
        calls_before_0022_are_in_their_months(&db.url, backend.name()).await;
    }
);
