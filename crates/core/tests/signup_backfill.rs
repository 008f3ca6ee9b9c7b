//! Migration 0010 counts the sign-ups of addresses that were already unconfirmed
//! when it ran: each distinct password their verification links carry is one sign-up, so an address
//! signed up for twice before the upgrade asks for a password too.

use std::path::Path;
use std::time::Duration;

use closewise_core::store::Store;
use closewise_testkit::{both, Backend};
use sqlx::migrate::Migrator;
use sqlx::Connection;
use time::OffsetDateTime;
use uuid::Uuid;

/// (e-mail, confirmed, the password hashes its verification links carry)
const USERS: [(&str, bool, &[&str]); 4] = [
    ("twice@example.com", false, &["$h1", "$h2", "$h2"]),
    ("resent@example.com", false, &["$h1", "$h1"]),
    ("once@example.com", false, &["$h1"]),
    ("confirmed@example.com", true, &["$h1", "$h2"]),
];
const EXPECTED: [(&str, i64); 4] = [
    ("twice@example.com", 2),
    ("resent@example.com", 1),
    ("once@example.com", 1),
    ("confirmed@example.com", 1),
];

macro_rules! arrange {
    ($conn:expr) => {{
        let now = OffsetDateTime::now_utc();
        for (email, confirmed, hashes) in USERS {
            let user = Uuid::now_v7();
            sqlx::query(
                "INSERT INTO users (id, email, password_hash, email_confirmed_at, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $5)",
            )
            .bind(user)
            .bind(email)
            .bind(hashes[0])
            .bind(confirmed.then_some(now))
            .bind(now)
            .execute(&mut $conn)
            .await
            .unwrap();
            for hash in hashes {
                sqlx::query(
                    "INSERT INTO email_tokens (id, user_id, kind, token_hash, created_at, expires_at, password_hash) \
                     VALUES ($1, $2, 'verification', $3, $4, $4, $5)",
                )
                .bind(Uuid::now_v7())
                .bind(user)
                .bind(Uuid::now_v7().to_string())
                .bind(now)
                .bind(*hash)
                .execute(&mut $conn)
                .await
                .unwrap();
            }
        }
    }};
}

async fn until_0009(dir: &str) -> Migrator {
    let path = format!("{}/migrations/{dir}", env!("CARGO_MANIFEST_DIR"));
    let mut m = Migrator::new(Path::new(&path)).await.unwrap();
    m.migrations = m
        .migrations
        .iter()
        .filter(|m| m.version < 10)
        .cloned()
        .collect::<Vec<_>>()
        .into();
    m
}

async fn counted(url: &str) -> Vec<(String, i64)> {
    let store = Store::connect(url, Duration::from_secs(10)).await.unwrap();
    store.migrate().await.unwrap();
    let sql = "SELECT email, CAST(signup_passwords AS BIGINT) FROM users ORDER BY email";
    if url.starts_with("postgres") {
        let mut c = sqlx::PgConnection::connect(url).await.unwrap();
        sqlx::query_as(sql).fetch_all(&mut c).await.unwrap()
    } else {
        let mut c = sqlx::SqliteConnection::connect(url).await.unwrap();
        sqlx::query_as(sql).fetch_all(&mut c).await.unwrap()
    }
}

fn expected() -> Vec<(String, i64)> {
    let mut e: Vec<_> = EXPECTED.iter().map(|(m, n)| (m.to_string(), *n)).collect();
    e.sort();
    e
}

both!(
    async fn addresses_signed_up_for_twice_before_the_upgrade_disagree(backend: Backend) {
        let db = backend.fresh_database("signup_backfill").await;
        let before = until_0009(backend.name()).await;
        match backend {
            Backend::Sqlite => {
                let mut c = sqlx::SqliteConnection::connect(&db.url).await.unwrap();
                before.run(&mut c).await.unwrap();
                arrange!(c);
                c.close().await.unwrap();
            }
            Backend::Postgres => {
                let mut c = sqlx::PgConnection::connect(&db.url).await.unwrap();
                before.run(&mut c).await.unwrap();
                arrange!(c);
                c.close().await.unwrap();
            }
        }
        assert_eq!(counted(&db.url).await, expected());
    }
);
