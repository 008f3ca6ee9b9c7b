//! Many requests at once: the rows they leave must be exactly those that serial requests leave.

use std::collections::HashSet;
use std::sync::Arc;

use reqwest::StatusCode;
use serde_json::json;
use tokio::task::JoinSet;

use crate::both;
use crate::support::{assert_no_half_made_accounts, bounded, scalar};

const PASSWORD: &str = "Closewise-resilience-7f3";

both!(async fn two_hundred_concurrent_signups_leave_exactly_the_right_rows(app) with |s| {
    // On a busy two-core machine SQLite's writers queue for seconds; the default 3 s acquire
    // timeout would turn some of them into 503s (see docs/performance.md). A client retries a
    // 503 after its Retry-After; either way the rows must come out exact.
    s.db_acquire_timeout = std::time::Duration::from_secs(10);
} {
    let app = Arc::new(app);
    bounded(120, "200 concurrent sign-ups", async {
        let mut set = JoinSet::new();
        for i in 0..200 {
            // 50 for one address, 150 for distinct ones; mixed case and spaces normalise alike.
            let email = if i < 50 {
                if i % 2 == 0 { "Same@Example.com ".to_string() } else { "same@example.com".to_string() }
            } else {
                format!("user{i}@example.com")
            };
            let app = app.clone();
            set.spawn(async move {
                let mut tries = 0;
                loop {
                    let (status, body) = body(app.signup(&email, PASSWORD).await).await;
                    tries += 1;
                    if status != StatusCode::SERVICE_UNAVAILABLE || tries == 3 {
                        break (email, status, body);
                    }
                    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                }
            });
        }
        while let Some(done) = set.join_next().await {
            let (email, status, body) = done.unwrap();
            assert_eq!(status, StatusCode::OK, "{email}: {body}");
            assert_eq!(body["email"], email.trim().to_lowercase());
        }
    })
    .await;
    let db = &app.database_url;
    assert_eq!(scalar(db, "SELECT COUNT(*) FROM users").await, 151);
    assert_eq!(scalar(db, "SELECT COUNT(*) FROM user_plans").await, 151);
    assert_eq!(
        scalar(db, "SELECT COUNT(*) FROM users WHERE email = 'same@example.com'").await,
        1
    );
    assert_eq!(assert_no_half_made_accounts(db).await, 151);
    // One verification mail each: the 49 repeats fall inside the owner's one-a-minute window.
    assert_eq!(scalar(db, "SELECT COUNT(*) FROM mail_outbox").await, 151);
    assert_eq!(
        scalar(db, "SELECT COUNT(*) FROM mail_outbox WHERE to_email = 'same@example.com'").await,
        1
    );
    assert_eq!(
        scalar(db, "SELECT COUNT(*) FROM email_tokens WHERE kind = 'verification'").await,
        151
    );
    // And the one account works: its single link verifies it.
    let token = app.token_from_mail("same@example.com", "verification").await;
    assert_eq!(
        app.post("/api/auth/verify", json!({ "token": token })).await.status(),
        StatusCode::OK
    );
});

both!(async fn fifty_concurrent_uses_of_one_refresh_token_leave_one_chain(app) {
    let session = app.signed_in_user("chain@example.com", PASSWORD).await;
    let first = session["refresh_token"].as_str().unwrap().to_string();
    let app = Arc::new(app);
    let answers = bounded(60, "50 concurrent refreshes", async {
        let mut set = JoinSet::new();
        for _ in 0..50 {
            let app = app.clone();
            let first = first.clone();
            set.spawn(async move { body(app.refresh(&first).await).await });
        }
        let mut answers = Vec::new();
        while let Some(done) = set.join_next().await {
            answers.push(done.unwrap());
        }
        answers
    })
    .await;
    let mut successors = HashSet::new();
    for (status, body) in &answers {
        assert_eq!(*status, StatusCode::OK, "within the grace every racer gets the pair: {body}");
        successors.insert(body["refresh_token"].as_str().unwrap().to_string());
    }
    assert_eq!(successors.len(), 1, "one successor, not a fork: {successors:?}");
    let db = &app.database_url;
    assert_eq!(scalar(db, "SELECT COUNT(*) FROM sessions").await, 1);
    assert_eq!(
        scalar(db, "SELECT COUNT(*) FROM refresh_tokens").await,
        2,
        "the first token and its one successor"
    );
    assert_eq!(
        scalar(db, "SELECT COUNT(*) FROM refresh_tokens WHERE rotated_at IS NULL").await,
        1
    );
    // The chain goes on from the successor.
    let next = successors.into_iter().next().unwrap();
    let (status, body) = body(app.refresh(&next).await).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let access = body["access_token"].as_str().unwrap();
    assert_eq!(app.get_auth("/api/auth/user", access).await.status(), StatusCode::OK);
});

both!(async fn fifty_concurrent_wrong_passwords_get_no_more_tries_than_the_limit(app) with |s| {
    s.limits.failed_signins_per_account_ip = 5;
} {
    app.signed_in_user("target@example.com", PASSWORD).await;
    let app = Arc::new(app);
    let statuses = bounded(60, "50 concurrent wrong passwords", async {
        let mut set = JoinSet::new();
        for i in 0..50 {
            let app = app.clone();
            set.spawn(async move {
                body(app.signin("target@example.com", &format!("wrong-guess-{i}")).await).await
            });
        }
        let mut out = Vec::new();
        while let Some(done) = set.join_next().await {
            out.push(done.unwrap());
        }
        out
    })
    .await;
    let checked = statuses
        .iter()
        .filter(|(s, b)| *s == StatusCode::BAD_REQUEST && error_code(b) == "invalid_credentials")
        .count();
    let refused = statuses
        .iter()
        .filter(|(s, b)| *s == StatusCode::TOO_MANY_REQUESTS && error_code(b) == "rate_limited")
        .count();
    assert_eq!(checked, 5, "exactly the budget was checked: {statuses:?}");
    assert_eq!(refused, 45, "{statuses:?}");
    // Even the right password waits for the window from this address: its budget is spent.
    let (status, _) = body(app.signin("target@example.com", PASSWORD).await).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    app.advance(time::Duration::hours(1) + time::Duration::seconds(1));
    let (status, body) = body(app.signin("target@example.com", PASSWORD).await).await;
    assert_eq!(status, StatusCode::OK, "{body}");
});
