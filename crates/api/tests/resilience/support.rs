//! What the resilience tests share beyond the API suite's harness: time bounds, row counts,
//! concurrent fan-out, a fresh PostgreSQL database and an app built with chosen options.

use std::future::Future;
use std::time::Duration;

use closewise_api::config::Settings;
use closewise_api::jwt::Keys;
use closewise_api::{Application, BuildOptions};
use closewise_core::clock::Clock;
use closewise_core::password::Hasher;
use sqlx::Connection;

use crate::helpers::{test_settings, Backend};

/// Fails the test when `fut` takes longer than `secs`: a hang is a failure, never a stuck suite.
pub async fn bounded<T>(secs: u64, what: &str, fut: impl Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(secs), fut)
        .await
        .unwrap_or_else(|_| panic!("{what} did not finish within {secs} s"))
}

/// Runs one scalar query (e.g. `SELECT COUNT(*) ...`) against a database URL.
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

/// Every user's e-mail in a database.
pub async fn user_emails(database_url: &str) -> Vec<String> {
    let sql = "SELECT email FROM users ORDER BY email";
    if database_url.starts_with("postgres") {
        let mut c = sqlx::PgConnection::connect(database_url).await.unwrap();
        sqlx::query_scalar(sql).fetch_all(&mut c).await.unwrap()
    } else {
        let mut c = sqlx::SqliteConnection::connect(database_url).await.unwrap();
        sqlx::query_scalar(sql).fetch_all(&mut c).await.unwrap()
    }
}

/// The invariant of a sign-up: no user without exactly one plan row, a verification token and a
/// verification mail. Returns how many users there are.
pub async fn assert_no_half_made_accounts(database_url: &str) -> i64 {
    let users = scalar(database_url, "SELECT COUNT(*) FROM users").await;
    let without_plan = scalar(
        database_url,
        "SELECT COUNT(*) FROM users u WHERE (SELECT COUNT(*) FROM user_plans p WHERE p.user_id = u.id) <> 1",
    )
    .await;
    let without_token = scalar(
        database_url,
        "SELECT COUNT(*) FROM users u WHERE NOT EXISTS \
         (SELECT 1 FROM email_tokens t WHERE t.user_id = u.id AND t.kind = 'verification')",
    )
    .await;
    let without_mail = scalar(
        database_url,
        "SELECT COUNT(*) FROM users u WHERE NOT EXISTS \
         (SELECT 1 FROM mail_outbox m WHERE m.to_email = u.email AND m.kind = 'verification')",
    )
    .await;
    let orphan_plans = scalar(
        database_url,
        "SELECT COUNT(*) FROM user_plans p WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = p.user_id)",
    )
    .await;
    assert_eq!(
        (without_plan, without_token, without_mail, orphan_plans),
        (0, 0, 0, 0),
        "half-made accounts among {users} users: (users without exactly one plan, without a token, \
         without a mail, plans without a user)"
    );
    users
}

/// A new, empty PostgreSQL database on the test server.
pub async fn fresh_postgres_database() -> String {
    closewise_testkit::fresh_postgres_database("r").await
}

pub use closewise_testkit::TempDir;

/// An in-process app like `spawn_app_with`, but with the hasher chosen by the test (the timing
/// tests need the production argon2 parameters).
pub async fn spawn_with_hasher(
    backend: Backend,
    hasher: Hasher,
    configure: impl FnOnce(&mut Settings),
) -> OwnApp {
    let dir = TempDir::new();
    let database_url = match backend {
        Backend::Sqlite => format!("sqlite://{}/test.db", dir.0.display()),
        Backend::Postgres => fresh_postgres_database().await,
    };
    let mut settings = test_settings(&dir.0, database_url.clone());
    configure(&mut settings);
    let start = time::OffsetDateTime::now_utc()
        .replace_nanosecond(0)
        .unwrap();
    let options = BuildOptions {
        clock: Clock::manual(start),
        hasher,
        keys: Some(Keys::generate(&settings.base_url).unwrap()),
    };
    let app = Application::build_with(settings, options)
        .await
        .expect("app builds");
    let address = format!("http://{}", app.local_addr());
    let state = app.state();
    tokio::spawn(app.run());
    OwnApp {
        address,
        client: reqwest::Client::new(),
        state,
        database_url,
        _dir: dir,
    }
}

/// An app started by `spawn_with_hasher`.
#[allow(dead_code)]
pub struct OwnApp {
    pub address: String,
    pub client: reqwest::Client,
    pub state: closewise_api::state::AppState,
    pub database_url: String,
    _dir: TempDir,
}

impl OwnApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.address, path)
    }

    pub async fn post(&self, path: &str, json: serde_json::Value) -> reqwest::Response {
        self.client
            .post(self.url(path))
            .json(&json)
            .send()
            .await
            .unwrap()
    }

    pub fn advance(&self, by: time::Duration) {
        self.state.clock.advance(by);
    }
}

/// Median of durations in milliseconds.
pub fn median_ms(samples: &mut [Duration]) -> f64 {
    samples.sort();
    let n = samples.len();
    let mid = if n % 2 == 1 {
        samples[n / 2]
    } else {
        (samples[n / 2 - 1] + samples[n / 2]) / 2
    };
    mid.as_secs_f64() * 1000.0
}
