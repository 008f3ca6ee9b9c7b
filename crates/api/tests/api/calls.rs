//! `POST /api/calls`, `/api/calls/{id}/heartbeat`, `/api/calls/{id}/end`: the Free Trial's meter,
//! idempotent and exact under concurrency, the 5-minute cap, stale calls, other users' calls.

use reqwest::StatusCode;
use serde_json::{json, Value};
use time::Duration;

use crate::both;
use crate::helpers::*;

pub const PASSWORD: &str = "sales-pro-2026";

/// Signs up and in; returns (access token, user id).
pub async fn user(app: &TestApp, email: &str) -> (String, uuid::Uuid) {
    let s = crate::helpers::signed_in_account(app, email, PASSWORD).await;
    (
        s["access_token"].as_str().unwrap().to_owned(),
        s["user"]["id"].as_str().unwrap().parse().unwrap(),
    )
}

/// Another sign-in of the same account: another session (another device).
pub async fn another_session(app: &TestApp, email: &str) -> String {
    let (status, s) = body(app.signin(email, PASSWORD).await).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    s["access_token"].as_str().unwrap().to_owned()
}

pub async fn start(app: &TestApp, token: &str, client_call_id: &str) -> (StatusCode, Value) {
    body(
        app.post_auth(
            "/api/calls",
            token,
            json!({ "client_call_id": client_call_id }),
        )
        .await,
    )
    .await
}

/// Starts a call that must start; returns its id.
pub async fn started(app: &TestApp, token: &str, client_call_id: &str) -> String {
    let (status, v) = start(app, token, client_call_id).await;
    assert_eq!(status, StatusCode::CREATED, "{client_call_id}: {v}");
    v["call_id"].as_str().unwrap().to_owned()
}

pub async fn call_post(app: &TestApp, token: &str, path: &str) -> (StatusCode, Value) {
    let res = app
        .client
        .post(app.url(path))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    body(res).await
}

pub async fn heartbeat(app: &TestApp, token: &str, id: &str) -> (StatusCode, Value) {
    call_post(app, token, &format!("/api/calls/{id}/heartbeat")).await
}

pub async fn end(app: &TestApp, token: &str, id: &str) -> (StatusCode, Value) {
    call_post(app, token, &format!("/api/calls/{id}/end")).await
}

pub async fn entitlements(app: &TestApp, token: &str) -> Value {
    let (status, v) = body(app.get_auth("/api/entitlements", token).await).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

fn seconds_between(from: &Value, to: &Value) -> i64 {
    let parse = |v: &Value| {
        time::OffsetDateTime::parse(
            v.as_str().unwrap(),
            &time::format_description::well_known::Rfc3339,
        )
        .unwrap()
    };
    (parse(to) - parse(from)).whole_seconds()
}

both!(
    async fn a_free_user_starts_five_calls_and_then_is_told_to_upgrade(app) {
        let (token, _) = user(&app, "ana@example.com").await;
        for n in 0..5 {
            let (status, v) = start(&app, &token, &format!("call-{n}")).await;
            assert_eq!(status, StatusCode::CREATED, "call {n}: {v}");
            assert_eq!(v["max_seconds"], 300);
            assert!(v["started_at"].is_string() && v["call_id"].is_string());
        }
        let (status, v) = start(&app, &token, "call-5").await;
        assert_eq!((status, error_code(&v)), (StatusCode::FORBIDDEN, "free_calls_used_up"));
        assert_eq!(
            error_message(&v),
            "You have used your 5 free calls. Upgrade to keep getting live hints."
        );
        let e = entitlements(&app, &token).await;
        assert_eq!(e["calls"], json!({ "limit": 5, "used": 5, "remaining": 0 }));
        assert_eq!(e["calls_this_month"], 5);
    }
);

both!(
    async fn the_same_client_call_id_is_the_same_call_and_counts_once(app) {
        let (token, _) = user(&app, "ana@example.com").await;
        let (status, first) = start(&app, &token, "desk-1").await;
        assert_eq!(status, StatusCode::CREATED);
        app.advance(Duration::seconds(5));
        let (status, again) = start(&app, &token, "desk-1").await;
        assert_eq!(status, StatusCode::OK, "{again}");
        assert_eq!(again, first, "the same call, with its own start");
        let other_device = another_session(&app, "ana@example.com").await;
        let (status, third) = start(&app, &other_device, "desk-1").await;
        assert_eq!((status, &third), (StatusCode::OK, &first));
        assert_eq!(entitlements(&app, &token).await["calls"]["used"], 1);
    }
);

both!(
    async fn malformed_client_call_ids_are_refused(app) {
        let (token, _) = user(&app, "ana@example.com").await;
        let long = "x".repeat(65);
        for bad in ["", "a b", "call/1", "é", long.as_str()] {
            let (status, v) = start(&app, &token, bad).await;
            assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_client_call_id"), "{bad:?}");
        }
        let (status, v) = body(app.post_auth("/api/calls", &token, json!({})).await).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_json"));
        assert_eq!(entitlements(&app, &token).await["calls"]["used"], 0);
    }
);

both!(
    async fn twenty_simultaneous_starts_from_two_devices_with_two_calls_left_let_exactly_two_through(app) {
        let (laptop, _) = user(&app, "ana@example.com").await;
        let desktop = another_session(&app, "ana@example.com").await;
        for n in 0..3 {
            started(&app, &laptop, &format!("earlier-{n}")).await;
        }
        let mut tasks = Vec::new();
        for n in 0..20 {
            let token = if n % 2 == 0 { laptop.clone() } else { desktop.clone() };
            let client = app.client.clone();
            let url = app.url("/api/calls");
            tasks.push(tokio::spawn(async move {
                let res = client
                    .post(url)
                    .bearer_auth(token)
                    .json(&json!({ "client_call_id": format!("rush-{n}") }))
                    .send()
                    .await
                    .unwrap();
                body(res).await
            }));
        }
        let mut created = 0;
        let mut refused = 0;
        for task in tasks {
            let (status, v) = task.await.unwrap();
            match status {
                StatusCode::CREATED => created += 1,
                StatusCode::FORBIDDEN => {
                    assert_eq!(error_code(&v), "free_calls_used_up");
                    refused += 1
                }
                other => panic!("unexpected {other}: {v}"),
            }
        }
        assert_eq!((created, refused), (2, 18));
        let e = entitlements(&app, &laptop).await;
        assert_eq!(e["calls"], json!({ "limit": 5, "used": 5, "remaining": 0 }));
        // Ana is the only user with calls.
        let stored = closewise_testkit::scalar(&app.database_url, "SELECT COUNT(*) FROM calls").await;
        assert_eq!(stored, 5);
    }
);

both!(
    async fn a_free_call_is_stopped_at_five_minutes_and_ends_there(app) {
        let (token, _) = user(&app, "ana@example.com").await;
        let id = started(&app, &token, "long-call").await;
        for n in 1..=9 {
            app.advance(Duration::seconds(30));
            let (status, v) = heartbeat(&app, &token, &id).await;
            assert_eq!(status, StatusCode::OK, "beat {n}: {v}");
            assert_eq!(v["elapsed_seconds"], 30 * n);
            assert_eq!((v["max_seconds"].as_i64(), v["ended_at"].is_null()), (Some(300), true));
            assert_eq!(v["call_id"].as_str(), Some(id.as_str()));
        }
        app.advance(Duration::seconds(30));
        let (status, v) = heartbeat(&app, &token, &id).await;
        assert_eq!((status, error_code(&v)), (StatusCode::CONFLICT, "call_time_limit_reached"));
        assert_eq!(error_message(&v), "Your free call has reached its 5-minute limit.");

        app.advance(Duration::seconds(45));
        let (status, v) = end(&app, &token, &id).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["duration_seconds"], 300);
        assert_eq!(seconds_between(&v["started_at"], &v["ended_at"]), 300);
    }
);

both!(
    async fn a_heartbeat_on_an_ended_call_is_refused(app) {
        let (token, _) = user(&app, "ana@example.com").await;
        let id = started(&app, &token, "short").await;
        app.advance(Duration::seconds(42));
        let (status, first) = end(&app, &token, &id).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(first["duration_seconds"], 42);
        let (status, v) = heartbeat(&app, &token, &id).await;
        assert_eq!((status, error_code(&v)), (StatusCode::CONFLICT, "call_ended"));
        assert_eq!(error_message(&v), "This call has already ended.");

        app.advance(Duration::seconds(60));
        let (status, again) = end(&app, &token, &id).await;
        assert_eq!((status, &again), (StatusCode::OK, &first), "ending twice answers the same");
    }
);

both!(
    async fn a_call_without_heartbeats_for_two_minutes_ends_at_its_last_heartbeat(app) {
        let (token, _) = user(&app, "ana@example.com").await;
        let id = started(&app, &token, "dropped").await;
        app.advance(Duration::seconds(30));
        assert_eq!(heartbeat(&app, &token, &id).await.0, StatusCode::OK);
        app.advance(Duration::seconds(120));
        let (status, v) = heartbeat(&app, &token, &id).await;
        assert_eq!((status, error_code(&v)), (StatusCode::CONFLICT, "call_ended"));
        let (status, v) = end(&app, &token, &id).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(v["duration_seconds"], 30);
        assert_eq!(seconds_between(&v["started_at"], &v["ended_at"]), 30);

        // Abandoned without a word: the next entitlements request ends it.
        let quiet = started(&app, &token, "quiet").await;
        app.advance(Duration::seconds(200));
        entitlements(&app, &token).await;
        let open = closewise_testkit::scalar(
            &app.database_url,
            "SELECT COUNT(*) FROM calls WHERE ended_at IS NULL",
        )
        .await;
        assert_eq!(open, 0, "ended lazily");
        let (_, v) = end(&app, &token, &quiet).await;
        assert_eq!(v["duration_seconds"], 0);
    }
);

both!(
    async fn another_users_call_or_an_unknown_id_is_not_found(app) {
        let (ana, _) = user(&app, "ana@example.com").await;
        let (bo, _) = user(&app, "bo@example.com").await;
        let id = started(&app, &ana, "mine").await;
        let unknown = uuid::Uuid::now_v7().to_string();
        for (token, call) in [(&bo, id.as_str()), (&ana, unknown.as_str()), (&ana, "not-a-uuid")] {
            for (status, v) in [heartbeat(&app, token, call).await, end(&app, token, call).await] {
                assert_eq!((status, error_code(&v)), (StatusCode::NOT_FOUND, "call_not_found"), "{call}");
            }
        }
        app.advance(Duration::seconds(10));
        assert_eq!(heartbeat(&app, &ana, &id).await.0, StatusCode::OK, "untouched by bo");
        assert_eq!(
            call_post(&app, "", "/api/calls").await.0,
            StatusCode::UNAUTHORIZED
        );
    }
);
