//! Revocation across replicas with the read path's token cache on: whatever ends a
//! session — the API on the other replica, or the CLI's store in no replica at all — ends its
//! access token on every replica within a second, and a revocation channel that dropped comes
//! back by itself.

use std::time::{Duration, Instant};

use closewise_core::store::audit::NewAudit;
use closewise_core::store::Store;
use reqwest::StatusCode;
use serde_json::json;
use sqlx::Connection;
use uuid::Uuid;

use crate::cluster::Cluster;
use crate::support::bounded;

const PASSWORD: &str = "Closewise-replicas-7f3";
const LISTENING: &str = "listening for session revocations";

/// Waits until replica `i` has listened on the channel `times` times.
pub(crate) async fn listening(c: &Cluster, i: usize, times: usize) {
    bounded(15, "the revocation channel listens", async {
        while c.log(i).matches(LISTENING).count() < times {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
}

/// Uses `token` on both replicas (a second use is served from each one's cache).
pub(crate) async fn warm(c: &Cluster, token: &str) {
    for i in [0, 1, 0, 1] {
        let (status, v) = c.get(c.direct(i, "/api/auth/user"), token).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
}

/// Asserts the token fails on both replicas within `limit` of now.
async fn ends_everywhere_within(c: &Cluster, token: &str, limit: Duration) {
    let started = Instant::now();
    for i in [0, 1] {
        loop {
            let (status, _) = c.get(c.direct(i, "/api/auth/user"), token).await;
            if status == StatusCode::UNAUTHORIZED {
                break;
            }
            assert!(
                started.elapsed() < limit,
                "still {status} on replica {i} after {limit:?}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

async fn user_id(c: &Cluster, email: &str) -> Uuid {
    let mut db = sqlx::PgConnection::connect(&c.database_url).await.unwrap();
    sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
        .bind(email)
        .fetch_one(&mut db)
        .await
        .unwrap()
}

async fn sign_in(c: &Cluster, email: &str) -> String {
    let creds = json!({ "email": email, "password": PASSWORD });
    let (status, v) = c
        .post(c.url("/api/auth/token?grant_type=password"), None, creds)
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v["access_token"].as_str().unwrap().to_owned()
}

/// What `closewise users sign-out` does: the core's store, in no replica.
async fn operator_signs_out(c: &Cluster, email: &str) {
    let uid = user_id(c, email).await;
    let store = Store::connect(&c.database_url, Duration::from_secs(5))
        .await
        .unwrap();
    let audit = NewAudit {
        actor: "operator".into(),
        action: "user.sign_out",
        user_id: Some(uid),
        target_email: Some(email.into()),
        reason: Some("replica suite".into()),
        details: json!({}),
        now: time::OffsetDateTime::now_utc(),
    };
    assert_eq!(store.sign_out_user(uid, &audit).await.unwrap(), 1);
    store.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sign_out_by_the_cli_ends_the_token_on_both_replicas_within_a_second() {
    let c = Cluster::start(&[]).await;
    listening(&c, 0, 1).await;
    listening(&c, 1, 1).await;
    let token = c.user("ana@example.com").await;
    warm(&c, &token).await;
    operator_signs_out(&c, "ana@example.com").await;
    ends_everywhere_within(&c, &token, Duration::from_secs(1)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_password_change_on_one_replica_ends_the_other_sessions_on_the_other_within_a_second() {
    let c = Cluster::start(&[]).await;
    listening(&c, 1, 1).await;
    let here = c.user("ana@example.com").await;
    let there = sign_in(&c, "ana@example.com").await;
    warm(&c, &there).await;
    let (status, v) = c
        .post(
            c.direct(0, "/api/auth/password"),
            Some(&here),
            json!({ "current_password": PASSWORD, "password": "Closewise-replicas-8g4" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let changed = Instant::now();
    loop {
        let (status, _) = c.get(c.direct(1, "/api/auth/user"), &there).await;
        if status == StatusCode::UNAUTHORIZED {
            break;
        }
        assert!(
            changed.elapsed() < Duration::from_secs(1),
            "still {status} on B after 1 s"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (status, _) = c.get(c.direct(1, "/api/auth/user"), &here).await;
    assert_eq!(
        status,
        StatusCode::OK,
        "the session that changed it goes on"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_revocation_channel_cut_off_listens_again_and_still_ends_tokens() {
    let c = Cluster::start(&[]).await;
    listening(&c, 0, 1).await;
    listening(&c, 1, 1).await;
    let token = c.user("ana@example.com").await;
    warm(&c, &token).await;
    // Cut both replicas' LISTEN connections, as a network blip or a failover would.
    let mut db = sqlx::PgConnection::connect(&c.database_url).await.unwrap();
    let cut: Vec<bool> = sqlx::query_scalar(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = current_database() AND query LIKE 'LISTEN%'",
    )
    .fetch_all(&mut db)
    .await
    .unwrap();
    assert_eq!(cut, [true, true], "each replica listens on one connection");
    // Meanwhile the token still works (from the database, the cache being bypassed).
    for i in [0, 1] {
        let (status, _) = c.get(c.direct(i, "/api/auth/user"), &token).await;
        assert_eq!(status, StatusCode::OK);
    }
    listening(&c, 0, 2).await;
    listening(&c, 1, 2).await;
    warm(&c, &token).await;
    operator_signs_out(&c, "ana@example.com").await;
    ends_everywhere_within(&c, &token, Duration::from_secs(1)).await;
    for i in [0, 1] {
        assert!(c.log(i).contains("the revocation channel dropped"));
    }
}
