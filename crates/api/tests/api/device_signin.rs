//! The desktop app's device sign-in (RFC 8628): request, lookup, approval or denial, the polls,
//! and the limits on guessing user codes.

use std::net::{IpAddr, Ipv4Addr};

use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

use crate::both;
use crate::helpers::*;

pub async fn request_device(app: &TestApp) -> Value {
    let res = app
        .post("/api/auth/device", json!({ "client_id": "closewise-desktop", "device_name": "Bo's PC", "platform": "windows" }))
        .await;
    let (status, v) = body(res).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

pub async fn poll(app: &TestApp, device_code: &str) -> (StatusCode, Value) {
    let res = app
        .post(
            "/api/auth/token?grant_type=urn:ietf:params:oauth:grant-type:device_code",
            json!({ "device_code": device_code, "client_id": "closewise-desktop" }),
        )
        .await;
    body(res).await
}

async fn code_call(
    app: &TestApp,
    client: &Client,
    what: &str,
    token: &str,
    code: &str,
) -> (StatusCode, Value) {
    let res = client
        .post(app.url(&format!("/api/auth/device/{what}")))
        .bearer_auth(token)
        .json(&json!({ "user_code": code }))
        .send()
        .await
        .unwrap();
    body(res).await
}

fn client_from(last: u8) -> Client {
    Client::builder()
        .local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, last)))
        .build()
        .unwrap()
}

async fn web_token(app: &TestApp, email: &str) -> String {
    crate::helpers::signed_in_account(app, email, "sales-pro-2026").await["access_token"]
        .as_str()
        .unwrap()
        .to_string()
}

/// A device session of `email` through the device flow: (access token, refresh token).
pub async fn device_session(app: &TestApp, token: &str) -> (String, String) {
    let d = request_device(app).await;
    let (status, v) = code_call(
        app,
        &app.client,
        "approve",
        token,
        d["user_code"].as_str().unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, s) = poll(app, d["device_code"].as_str().unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    (
        s["access_token"].as_str().unwrap().into(),
        s["refresh_token"].as_str().unwrap().into(),
    )
}

both!(
    async fn the_device_flow_gives_the_session_once_after_approval(app) {
        let token = web_token(&app, "bo@example.com").await;
        let d = request_device(&app).await;
        assert_eq!(d["expires_in"], 600);
        assert_eq!(d["interval"], 5);
        assert_eq!(d["verification_uri"], "http://127.0.0.1:8080/activate");
        let user_code = d["user_code"].as_str().unwrap();
        assert_eq!(d["verification_uri_complete"], format!("http://127.0.0.1:8080/activate?user_code={user_code}"));
        assert_eq!(user_code.len(), 9);
        assert!(user_code.chars().enumerate().all(|(i, c)| if i == 4 { c == '-' } else { "BCDFGHJKLMNPQRSTVWXZ".contains(c) }), "{user_code}");
        let device_code = d["device_code"].as_str().unwrap();
        assert_eq!(device_code.len(), 43);

        let (status, v) = poll(&app, device_code).await;
        assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("authorization_pending")), "{v}");

        // Typed in lower case, without the dash, with spaces: the same code.
        let typed = format!(" {} ", user_code.replace('-', "").to_lowercase());
        let (status, v) = code_call(&app, &app.client, "lookup", &token, &typed).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!((v["user_code"].as_str(), v["device_name"].as_str(), v["platform"].as_str(), v["status"].as_str()),
            (Some(user_code), Some("Bo's PC"), Some("windows"), Some("pending")));
        assert!(v["requested_at"].is_string() && v["expires_at"].is_string());
        let (status, v) = code_call(&app, &app.client, "approve", &token, &user_code.to_lowercase()).await;
        assert_eq!((status, v["status"].as_str()), (StatusCode::OK, Some("approved")), "{v}");

        app.advance(time::Duration::seconds(5));
        let res = app.client.post(app.url("/api/auth/token?grant_type=urn:ietf:params:oauth:grant-type:device_code"))
            .header("origin", app.state.settings.base_url.clone())
            .json(&json!({ "device_code": device_code, "client_id": "closewise-desktop" })).send().await.unwrap();
        assert!(res.headers().get("set-cookie").is_none());
        let (status, s) = body(res).await;
        assert_eq!(status, StatusCode::OK, "{s}");
        assert_eq!(s["user"]["email"], "bo@example.com");
        assert!(s["refresh_token"].is_string());
        assert_eq!(app.get_auth("/api/auth/user", s["access_token"].as_str().unwrap()).await.status(), StatusCode::OK);

        app.advance(time::Duration::seconds(5));
        let (status, v) = poll(&app, device_code).await;
        assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("invalid_grant")), "{v}");
        let (status, v) = code_call(&app, &app.client, "lookup", &token, user_code).await;
        assert_eq!((status, error_code(&v)), (StatusCode::CONFLICT, "user_code_used"));
        assert_eq!(error_message(&v), "That code has already been used.");
        let (status, v) = poll(&app, "unknown-device-code").await;
        assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("invalid_grant")), "{v}");
    }
);

both!(
    async fn polling_too_soon_slows_down_and_the_interval_grows(app) {
        let d = request_device(&app).await;
        let code = d["device_code"].as_str().unwrap();
        assert_eq!(poll(&app, code).await.1["error"], "authorization_pending");
        let (status, v) = poll(&app, code).await;
        assert_eq!((status, v["error"].as_str(), v["interval"].as_i64()), (StatusCode::BAD_REQUEST, Some("slow_down"), Some(10)), "{v}");
        app.advance(time::Duration::seconds(9));
        let (_, v) = poll(&app, code).await;
        assert_eq!((v["error"].as_str(), v["interval"].as_i64()), (Some("slow_down"), Some(15)), "{v}");
        app.advance(time::Duration::seconds(15));
        let (_, v) = poll(&app, code).await;
        assert_eq!(v["error"], "authorization_pending", "{v}");
        assert!(v.get("interval").is_none());
    }
);

both!(
    async fn of_polls_sent_at_once_only_one_is_pending_and_the_rest_slow_down(app) {
        let d = request_device(&app).await;
        let code = d["device_code"].as_str().unwrap();
        let (a, b, c, d, e) = tokio::join!(
            poll(&app, code),
            poll(&app, code),
            poll(&app, code),
            poll(&app, code),
            poll(&app, code)
        );
        let answers = [a, b, c, d, e];
        let mut errors: Vec<String> =
            answers.iter().map(|(_, v)| v["error"].as_str().unwrap_or("none").to_owned()).collect();
        errors.sort();
        assert_eq!(
            errors,
            ["authorization_pending", "slow_down", "slow_down", "slow_down", "slow_down"],
            "{answers:?}"
        );
        // Each slow_down grew the interval once: the next poll must wait 5 + 4 × 5 seconds.
        app.advance(time::Duration::seconds(24));
        let (_, v) = poll(&app, code).await;
        assert_eq!((v["error"].as_str(), v["interval"].as_i64()), (Some("slow_down"), Some(30)), "{v}");
        app.advance(time::Duration::seconds(30));
        assert_eq!(poll(&app, code).await.1["error"], "authorization_pending");
    }
);

both!(
    async fn a_denied_request_answers_access_denied(app) {
        let token = web_token(&app, "bo@example.com").await;
        let d = request_device(&app).await;
        let (status, v) = code_call(&app, &app.client, "deny", &token, d["user_code"].as_str().unwrap()).await;
        assert_eq!((status, v["status"].as_str()), (StatusCode::OK, Some("denied")), "{v}");
        let (status, v) = poll(&app, d["device_code"].as_str().unwrap()).await;
        assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("access_denied")), "{v}");
        let (status, _) = code_call(&app, &app.client, "approve", &token, d["user_code"].as_str().unwrap()).await;
        assert_eq!(status, StatusCode::CONFLICT, "a denied request cannot be approved after all");
    }
);

both!(
    async fn an_expired_request_answers_expired_token(app) {
        let token = web_token(&app, "bo@example.com").await;
        let d = request_device(&app).await;
        app.advance(time::Duration::seconds(600));
        let (status, v) = code_call(&app, &app.client, "approve", &token, d["user_code"].as_str().unwrap()).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "expired_user_code"));
        assert_eq!(error_message(&v), "That code has expired. Start the sign-in again in the app.");
        let (status, v) = poll(&app, d["device_code"].as_str().unwrap()).await;
        assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("expired_token")), "{v}");
    }
);

both!(
    async fn a_wrong_code_is_not_found(app) {
        let token = web_token(&app, "bo@example.com").await;
        for code in ["BCDF-GHJK", "nonsense", ""] {
            let (status, v) = code_call(&app, &app.client, "lookup", &token, code).await;
            assert_eq!((status, error_code(&v)), (StatusCode::NOT_FOUND, "invalid_user_code"), "{code}");
            assert_eq!(error_message(&v), "That code is not valid. Check the code shown in the app and try again.");
        }
    }
);

both!(
    async fn an_unverified_account_cannot_use_a_code(app) with |s| { s.allow_unverified_signin = true; } {
        assert_eq!(app.signup("new@example.com", "sales-pro-2026").await.status(), StatusCode::OK);
        let (_, session) = body(app.signin("new@example.com", "sales-pro-2026").await).await;
        let d = request_device(&app).await;
        let (status, v) = code_call(&app, &app.client, "approve", session["access_token"].as_str().unwrap(), d["user_code"].as_str().unwrap()).await;
        assert_eq!((status, error_code(&v)), (StatusCode::FORBIDDEN, "email_not_confirmed"), "{v}");
    }
);

both!(
    async fn bad_device_requests_are_refused(app) {
        for (b, code) in [
            (json!({ "client_id": "other", "device_name": "PC", "platform": "linux" }), "invalid_client"),
            (json!({ "client_id": "closewise-desktop", "device_name": "", "platform": "linux" }), "invalid_device_name"),
            (json!({ "client_id": "closewise-desktop", "device_name": "d".repeat(101), "platform": "linux" }), "invalid_device_name"),
            (json!({ "client_id": "closewise-desktop", "device_name": "PC", "platform": "p".repeat(41) }), "invalid_platform"),
            (json!({ "device_name": "PC", "platform": "linux" }), "invalid_client"),
            (json!({ "client_id": "closewise-desktop", "platform": "linux" }), "invalid_device_name"),
            (json!({ "client_id": "closewise-desktop", "device_name": "PC" }), "invalid_platform"),
        ] {
            let (status, v) = body(app.post("/api/auth/device", b.clone()).await).await;
            assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, code), "{b}");
        }
    }
);

both!(
    async fn device_requests_are_limited_per_ip(app) with |s| { s.limits.device_per_ip = 2; } {
        request_device(&app).await;
        request_device(&app).await;
        let res = app.post("/api/auth/device", json!({ "client_id": "closewise-desktop", "device_name": "PC", "platform": "linux" })).await;
        let (status, v) = body(res).await;
        assert_eq!((status, error_code(&v)), (StatusCode::TOO_MANY_REQUESTS, "rate_limited"));
    }
);

both!(
    async fn guessing_codes_is_limited_per_user(app) with |s| { s.limits.user_codes_per_user = 3; } {
        let token = web_token(&app, "bo@example.com").await;
        let d = request_device(&app).await;
        for _ in 0..3 {
            assert_eq!(code_call(&app, &app.client, "lookup", &token, "BCDF-GHJK").await.0, StatusCode::NOT_FOUND);
        }
        // Even the right code waits now, from any address.
        let (status, v) = code_call(&app, &client_from(2), "approve", &token, d["user_code"].as_str().unwrap()).await;
        assert_eq!((status, error_code(&v)), (StatusCode::TOO_MANY_REQUESTS, "rate_limited"), "{v}");
        // Another user is not affected.
        let other = web_token(&app, "cy@example.com").await;
        assert_eq!(code_call(&app, &app.client, "lookup", &other, d["user_code"].as_str().unwrap()).await.0, StatusCode::OK);
        app.advance(time::Duration::minutes(10));
        assert_eq!(code_call(&app, &app.client, "approve", &token, d["user_code"].as_str().unwrap()).await.0, StatusCode::BAD_REQUEST, "expired by now, but no longer limited");
    }
);

both!(
    async fn guessing_codes_is_limited_per_ip(app) with |s| { s.limits.user_codes_per_ip = 4; } {
        let (a, b) = (web_token(&app, "a@example.com").await, web_token(&app, "b@example.com").await);
        let attacker = client_from(2);
        for token in [&a, &a, &b, &b] {
            assert_eq!(code_call(&app, &attacker, "lookup", token, "BCDF-GHJK").await.0, StatusCode::NOT_FOUND);
        }
        let (status, v) = code_call(&app, &attacker, "lookup", &b, "BCDF-GHJK").await;
        assert_eq!((status, error_code(&v)), (StatusCode::TOO_MANY_REQUESTS, "rate_limited"), "{v}");
        // The same users from another address still may.
        assert_eq!(code_call(&app, &client_from(3), "lookup", &b, "BCDF-GHJK").await.0, StatusCode::NOT_FOUND);
    }
);

both!(
    async fn a_poll_from_another_client_is_invalid_client(app) {
        let d = request_device(&app).await;
        let res = app
            .post(
                "/api/auth/token?grant_type=urn:ietf:params:oauth:grant-type:device_code",
                json!({ "device_code": d["device_code"], "client_id": "other" }),
            )
            .await;
        let (status, v) = body(res).await;
        assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("invalid_client")), "{v}");
        assert!(v["error_description"].is_string());
    }
);
