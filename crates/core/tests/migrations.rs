//! Migrations during a rolling update: a release's migrations are applied while replicas of the
//! previous release still run (expand/contract). An older binary must keep starting, and keep
//! migrating to its own version, against a schema that a newer release has already moved forward.

use std::time::Duration;

use closewise_core::store::Store;
use closewise_testkit::{fresh_postgres_database, TempDir};

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

#[tokio::test]
async fn an_older_release_starts_against_a_newer_schema_on_sqlite() {
    let dir = TempDir::new();
    older_binary_still_starts(&format!("sqlite://{}", dir.0.join("db.sqlite").display())).await;
}

#[tokio::test]
async fn an_older_release_starts_against_a_newer_schema_on_postgres() {
    older_binary_still_starts(&fresh_postgres_database("migrations").await).await;
}
