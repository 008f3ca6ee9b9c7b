//! The read path's cache of verified tokens never outlives a revocation: for every
//! way a session ends, the very next request with its access token, whose check the cache
//! already holds, is refused. On both databases, in one process; `tests/replicas` covers other
//! processes.

use closewise_core::sessions::auth_cache::AuthCache;
use closewise_core::store::audit::NewAudit;
use closewise_core::store::Store;
use reqwest::StatusCode;
use serde_json::{json, Value};
use uuid::Uuid;

use crate::both;
use crate::desktop_signin::{allowed_code, exchange, REDIRECT, VERIFIER};
use crate::device_signin::device_session;
use crate::helpers::*;

const PASSWORD: &str = "sales-pro-2026";

/// Uses `token` until the cache holds its check (on PostgreSQL once the channel listens).
pub async fn warm(app: &TestApp, token: &str) {
    let key = AuthCache::key(token);
    for _ in 0..200 {
        let status = app.get_auth("/api/auth/user", token).await.status();
        assert_eq!(status, StatusCode::OK);
        let now = app.state.clock.now().unix_timestamp();
        if app.state.auth_cache.get(&key, now).is_some() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!("the cache never held the token");
}

async fn refused(app: &TestApp, token: &str, what: &str) {
    let (status, v) = body(app.get_auth("/api/auth/user", token).await).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{what}: {v}");
    let (status, _) = body(app.get_auth("/api/plan", token).await).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{what}: /api/plan");
}

fn access(session: &Value) -> String {
    session["access_token"].as_str().unwrap().to_owned()
}

fn user_id(app: &TestApp, token: &str) -> Uuid {
    app.state
        .keys
        .verify(token, app.state.clock.now())
        .unwrap()
        .sub
}

async fn second_session(app: &TestApp, email: &str) -> String {
    let (status, s) = body(app.signin(email, PASSWORD).await).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    access(&s)
}

both!(
    async fn signing_out_ends_the_cached_token_at_once(app) {
        let token = access(&crate::helpers::signed_in_account(&app, "ana@example.com", PASSWORD).await);
        warm(&app, &token).await;
        let res = app.client.post(app.url("/api/auth/logout")).bearer_auth(&token).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::NO_CONTENT);
        refused(&app, &token, "signed out").await;
    }
);

both!(
    async fn signing_out_everywhere_ends_every_cached_token_at_once(app) {
        let here = access(&crate::helpers::signed_in_account(&app, "ana@example.com", PASSWORD).await);
        let there = second_session(&app, "ana@example.com").await;
        let other = access(&crate::helpers::signed_in_account(&app, "bo@example.com", PASSWORD).await);
        for t in [&here, &there, &other] {
            warm(&app, t).await;
        }
        let res = app.client.post(app.url("/api/auth/logout?scope=global")).bearer_auth(&here).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::NO_CONTENT);
        refused(&app, &there, "the other session").await;
        refused(&app, &here, "this session").await;
        assert_eq!(app.get_auth("/api/auth/user", &other).await.status(), StatusCode::OK, "another user's");
    }
);

both!(
    async fn a_password_change_ends_the_other_cached_tokens_at_once(app) {
        let here = access(&crate::helpers::signed_in_account(&app, "ana@example.com", PASSWORD).await);
        let there = second_session(&app, "ana@example.com").await;
        warm(&app, &here).await;
        warm(&app, &there).await;
        let body = json!({ "current_password": PASSWORD, "password": "brand-new-pass-7" });
        assert_eq!(app.post_auth("/api/auth/password", &here, body).await.status(), StatusCode::OK);
        refused(&app, &there, "the other session").await;
        assert_eq!(app.get_auth("/api/auth/user", &here).await.status(), StatusCode::OK, "the kept one");
    }
);

both!(
    async fn a_password_reset_ends_the_cached_token_at_once(app) {
        let token = access(&crate::helpers::signed_in_account(&app, "ana@example.com", PASSWORD).await);
        warm(&app, &token).await;
        app.post("/api/auth/recover", json!({ "email": "ana@example.com" })).await;
        let reset = app.token_from_mail("ana@example.com", "reset").await;
        let res = app.post("/api/auth/reset", json!({ "token": reset, "password": "brand-new-pass-7" })).await;
        assert_eq!(res.status(), StatusCode::OK);
        refused(&app, &token, "reset").await;
    }
);

both!(
    async fn a_reused_refresh_token_ends_the_cached_token_at_once(app) {
        let s = crate::helpers::signed_in_account(&app, "ana@example.com", PASSWORD).await;
        let first = s["refresh_token"].as_str().unwrap();
        let next = body(app.refresh(first).await).await.1;
        let token = access(&next);
        warm(&app, &token).await;
        app.advance(time::Duration::seconds(11));
        let (status, v) = body(app.refresh(first).await).await;
        assert_eq!((status, error_code(&v)), (StatusCode::UNAUTHORIZED, "refresh_token_reused"));
        refused(&app, &token, "reuse detected").await;
    }
);

both!(
    async fn signing_a_device_out_ends_its_cached_token_at_once(app) {
        let web = access(&crate::helpers::signed_in_account(&app, "bo@example.com", PASSWORD).await);
        let (device, _) = device_session(&app, &web).await;
        warm(&app, &device).await;
        let list = body(app.get_auth("/api/auth/devices", &web).await).await.1;
        let id = list["devices"][0]["id"].as_str().unwrap().to_owned();
        let res = app.client.delete(app.url(&format!("/api/auth/devices/{id}"))).bearer_auth(&web).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::NO_CONTENT);
        refused(&app, &device, "device signed out").await;
    }
);

both!(
    async fn a_replayed_authorization_code_ends_the_cached_token_at_once(app) {
        let (_, code) = allowed_code(&app, "ana@example.com").await;
        let (status, session) = body(exchange(&app, &code, VERIFIER, REDIRECT).await).await;
        assert_eq!(status, StatusCode::OK);
        let token = access(&session);
        warm(&app, &token).await;
        let (status, _) = body(exchange(&app, &code, VERIFIER, REDIRECT).await).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        refused(&app, &token, "code replayed").await;
    }
);

both!(
    async fn deleting_the_account_ends_the_cached_token_at_once(app) {
        let token = access(&crate::helpers::signed_in_account(&app, "ana@example.com", PASSWORD).await);
        warm(&app, &token).await;
        let res = app.client.delete(app.url("/api/account")).bearer_auth(&token)
            .json(&json!({ "password": PASSWORD })).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::NO_CONTENT);
        refused(&app, &token, "account deleted").await;
    }
);

both!(
    async fn confirming_the_email_ends_the_cached_tokens_of_before_at_once(app) with |s| {
        s.allow_unverified_signin = true;
    } {
        assert_eq!(app.signup("ana@example.com", PASSWORD).await.status(), StatusCode::OK);
        let token = second_session(&app, "ana@example.com").await;
        warm(&app, &token).await;
        let link = app.token_from_mail("ana@example.com", "verification").await;
        assert_eq!(app.post("/api/auth/verify", json!({ "token": link })).await.status(), StatusCode::OK);
        refused(&app, &token, "e-mail confirmed").await;
    }
);

fn operator(user_id: Uuid, now: time::OffsetDateTime) -> NewAudit {
    NewAudit {
        actor: "operator".into(),
        action: "user.sign_out",
        user_id: Some(user_id),
        target_email: None,
        reason: Some("test".into()),
        details: json!({}),
        now,
    }
}

both!(
    async fn an_operators_sign_out_in_this_process_ends_the_cached_token_at_once(app) {
        let token = access(&crate::helpers::signed_in_account(&app, "ana@example.com", PASSWORD).await);
        warm(&app, &token).await;
        let uid = user_id(&app, &token);
        let n = app.state.store.sign_out_user(uid, &operator(uid, app.state.clock.now())).await.unwrap();
        assert_eq!(n, 1);
        refused(&app, &token, "operator").await;
    }
);

both!(
    async fn an_operators_sign_out_from_another_process_ends_the_cached_token_within_a_second(app) {
        let token = access(&crate::helpers::signed_in_account(&app, "ana@example.com", PASSWORD).await);
        warm(&app, &token).await;
        let uid = user_id(&app, &token);
        // What the CLI does: its own store on the same database, no observer of this process's.
        let cli = Store::connect(&app.database_url, std::time::Duration::from_secs(5)).await.unwrap();
        cli.sign_out_user(uid, &operator(uid, app.state.clock.now())).await.unwrap();
        let started = std::time::Instant::now();
        while app.get_auth("/api/auth/user", &token).await.status() != StatusCode::UNAUTHORIZED {
            assert!(started.elapsed() < std::time::Duration::from_secs(1), "still served after 1 s");
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        cli.close().await;
    }
);
