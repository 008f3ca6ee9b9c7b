//! What the resilience tests share beyond the workspace's harness (`closewise_testkit`): time
//! bounds, row counts and invariants, timing statistics.

use std::future::Future;
use std::net::Ipv4Addr;
use std::time::Duration;

use sqlx::Connection;

/// This test process's own loopback address (all of 127.0.0.0/8 reaches `lo`), from its process
/// id. A test that picks a free port, releases it and binds it again later (a killed API started
/// again on its port, a proxy or a mail server cut and restored) picks it here: every other test
/// binds 127.0.0.1 or an address of its own, so none can take the port in between, and these
/// tests run beside the rest of the suite. cargo-nextest runs each test in its own process.
pub fn own_loopback() -> Ipv4Addr {
    let pid = std::process::id();
    // Process ids are below 2^22: the second octet keeps 6 bits (192..=255, apart from the
    // replica suite's 127.100-199), the last two octets the other 16.
    Ipv4Addr::new(
        127,
        192 | ((pid >> 16) & 0x3f) as u8,
        (pid >> 8) as u8,
        pid as u8,
    )
}

/// A port free now on [`own_loopback`].
pub fn free_port() -> u16 {
    std::net::TcpListener::bind((own_loopback(), 0))
        .expect("bind this test's loopback address")
        .local_addr()
        .unwrap()
        .port()
}

/// Fails the test when `fut` takes longer than `secs`: a hang is a failure, never a stuck suite.
pub async fn bounded<T>(secs: u64, what: &str, fut: impl Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(secs), fut)
        .await
        .unwrap_or_else(|_| panic!("{what} did not finish within {secs} s"))
}

pub use closewise_testkit::scalar;

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

pub use closewise_testkit::TempDir;

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
