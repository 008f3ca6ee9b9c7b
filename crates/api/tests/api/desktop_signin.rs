//! The desktop app's browser sign-in (RFC 8252 loopback + PKCE): consent, the
//! `authorization_code` grant, and what a replayed, expired or mismatched code gets.

use closewise_domain::oauth::s256_challenge;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::both;
use crate::helpers::*;

pub const REDIRECT: &str = "http://127.0.0.1:53682/callback";
pub const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";

/// The query of a valid authorization request, with `extra` added or replacing.
pub fn authorize_query(extra: &[(&str, &str)]) -> Vec<(String, String)> {
    let challenge = s256_challenge(VERIFIER);
    let mut q: Vec<(String, String)> = [
        ("response_type", "code"),
        ("client_id", "closewise-desktop"),
        ("redirect_uri", REDIRECT),
        ("code_challenge", challenge.as_str()),
        ("code_challenge_method", "S256"),
        ("state", "st8 &=?"),
        ("device_name", "Ana's MacBook"),
        ("platform", "macos"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    for (k, v) in extra {
        q.retain(|(key, _)| key != k);
        q.push((k.to_string(), v.to_string()));
    }
    q
}

pub async fn authorize(
    app: &TestApp,
    token: &str,
    extra: &[(&str, &str)],
    decision: &str,
) -> (StatusCode, Value) {
    let mut b: serde_json::Map<String, Value> = authorize_query(extra)
        .into_iter()
        .map(|(k, v)| (k, Value::String(v)))
        .collect();
    b.insert("decision".into(), json!(decision));
    body(
        app.post_auth("/api/auth/authorize", token, Value::Object(b))
            .await,
    )
    .await
}

/// The code in an allowed request's `redirect_to`.
pub fn code_of(redirect_to: &str) -> String {
    let query = redirect_to.split_once('?').expect("a query").1;
    url::form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == "code")
        .expect("a code")
        .1
        .into_owned()
}

pub async fn exchange(
    app: &TestApp,
    code: &str,
    verifier: &str,
    redirect_uri: &str,
) -> reqwest::Response {
    app.post(
        "/api/auth/token?grant_type=authorization_code",
        json!({ "code": code, "code_verifier": verifier, "redirect_uri": redirect_uri, "client_id": "closewise-desktop" }),
    )
    .await
}

/// Signs `email` in on the web, allows a desktop request, and returns (web access token, code).
pub async fn allowed_code(app: &TestApp, email: &str) -> (String, String) {
    let web = crate::helpers::signed_in_account(app, email, "sales-pro-2026").await;
    let token = web["access_token"].as_str().unwrap().to_string();
    let (status, v) = authorize(app, &token, &[], "allow").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let code = code_of(v["redirect_to"].as_str().unwrap());
    (token, code)
}

both!(
    async fn the_full_pkce_flow_signs_the_app_in_as_a_named_device(app) {
        let web = crate::helpers::signed_in_account(&app, "ana@example.com", "sales-pro-2026").await;
        let token = web["access_token"].as_str().unwrap();
        let info = app.client.get(app.url("/api/auth/authorize")).query(&authorize_query(&[])).send().await.unwrap();
        let (status, info) = body(info).await;
        assert_eq!(status, StatusCode::OK, "{info}");
        assert_eq!(info, json!({ "client_id": "closewise-desktop", "client_name": "Closewise for desktop",
            "redirect_uri": REDIRECT, "device_name": "Ana's MacBook", "platform": "macos", "requested_from": "127.0.0.1" }));

        let (status, v) = authorize(&app, token, &[], "allow").await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let to = v["redirect_to"].as_str().unwrap();
        assert!(to.starts_with(&format!("{REDIRECT}?code=")), "{to}");
        assert!(to.ends_with("&state=st8+%26%3D%3F"), "the state comes back verbatim: {to}");
        let code = code_of(to);
        assert_eq!(code.len(), 43, "256 bits, base64url");

        // Even from a browser page of ours, this grant answers in the body and sets no cookie.
        let res = app.client.post(app.url("/api/auth/token?grant_type=authorization_code"))
            .header("origin", app.state.settings.base_url.clone())
            .json(&json!({ "code": code, "code_verifier": VERIFIER, "redirect_uri": REDIRECT, "client_id": "closewise-desktop" }))
            .send().await.unwrap();
        assert!(res.headers().get("set-cookie").is_none());
        let (status, session) = body(res).await;
        assert_eq!(status, StatusCode::OK, "{session}");
        assert_eq!(session["user"]["email"], "ana@example.com");
        let access = session["access_token"].as_str().unwrap();
        let refresh = session["refresh_token"].as_str().expect("the refresh token is in the body");
        assert_eq!(app.get_auth("/api/auth/user", access).await.status(), StatusCode::OK);
        let (status, devices) = body(app.get_auth("/api/auth/devices", access).await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(devices["devices"][0]["name"], "Ana's MacBook");
        assert_eq!(devices["devices"][0]["platform"], "macos");
        assert_eq!(app.refresh(refresh).await.status(), StatusCode::OK);
    }
);

both!(
    async fn a_code_without_a_device_name_makes_a_device_named_desktop_app(app) {
        let web = crate::helpers::signed_in_account(&app, "ana@example.com", "sales-pro-2026").await;
        let token = web["access_token"].as_str().unwrap();
        let (_, v) = authorize(&app, token, &[("device_name", ""), ("platform", "")], "allow").await;
        let (status, session) = body(exchange(&app, &code_of(v["redirect_to"].as_str().unwrap()), VERIFIER, REDIRECT).await).await;
        assert_eq!(status, StatusCode::OK, "{session}");
        let (_, devices) = body(app.get_auth("/api/auth/devices", session["access_token"].as_str().unwrap()).await).await;
        assert_eq!(devices["devices"][0]["name"], "Desktop app");
        assert_eq!(devices["devices"][0]["platform"], "unknown");
    }
);

both!(
    async fn a_wrong_verifier_is_invalid_grant_and_spends_the_code(app) {
        let (_, code) = allowed_code(&app, "ana@example.com").await;
        let (status, v) = body(exchange(&app, &code, &"x".repeat(43), REDIRECT).await).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(v["error"], "invalid_grant", "{v}");
        assert!(v["error_description"].is_string());
        let (status, v) = body(exchange(&app, &code, VERIFIER, REDIRECT).await).await;
        assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("invalid_grant")));
    }
);

both!(
    async fn another_redirect_uri_or_client_at_the_exchange_is_invalid_grant(app) {
        let (_, code) = allowed_code(&app, "ana@example.com").await;
        let (status, v) = body(exchange(&app, &code, VERIFIER, "http://127.0.0.1:1/callback").await).await;
        assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("invalid_grant")), "{v}");
        let web = app.signin("ana@example.com", "sales-pro-2026").await;
        let token = body(web).await.1["access_token"].as_str().unwrap().to_string();
        let (_, v) = authorize(&app, &token, &[], "allow").await;
        let res = app.post("/api/auth/token?grant_type=authorization_code",
            json!({ "code": code_of(v["redirect_to"].as_str().unwrap()), "code_verifier": VERIFIER, "redirect_uri": REDIRECT, "client_id": "other" })).await;
        let (status, v) = body(res).await;
        assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("invalid_grant")), "{v}");
        let (status, v) = body(app.post("/api/auth/token?grant_type=authorization_code", json!({ "code": "x" })).await).await;
        assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("invalid_request")), "{v}");
    }
);

both!(
    async fn a_replayed_code_revokes_the_session_it_produced(app) {
        let (_, code) = allowed_code(&app, "ana@example.com").await;
        let (status, session) = body(exchange(&app, &code, VERIFIER, REDIRECT).await).await;
        assert_eq!(status, StatusCode::OK);
        let access = session["access_token"].as_str().unwrap();
        let refresh = session["refresh_token"].as_str().unwrap();
        let (status, v) = body(exchange(&app, &code, VERIFIER, REDIRECT).await).await;
        assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("invalid_grant")));
        assert_eq!(app.get_auth("/api/auth/user", access).await.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(app.refresh(refresh).await.status(), StatusCode::UNAUTHORIZED);
    }
);

both!(
    async fn a_code_expires_after_sixty_seconds(app) {
        let (_, code) = allowed_code(&app, "ana@example.com").await;
        app.advance(time::Duration::seconds(60));
        let (status, v) = body(exchange(&app, &code, VERIFIER, REDIRECT).await).await;
        assert_eq!((status, v["error"].as_str()), (StatusCode::BAD_REQUEST, Some("invalid_grant")), "{v}");
    }
);

both!(
    async fn non_loopback_redirect_uris_are_refused_and_never_redirected_to(app) {
        let web = crate::helpers::signed_in_account(&app, "ana@example.com", "sales-pro-2026").await;
        let token = web["access_token"].as_str().unwrap();
        for uri in ["http://localhost:53682/callback", "https://127.0.0.1:53682/callback", "http://127.0.0.1:53682/other",
            "http://127.0.0.1:53682/callback?x=1", "http://127.0.0.1:53682/callback#f", "http://a@127.0.0.1:53682/callback",
            "http://evil.example/callback", "http://127.0.0.2:53682/callback", "http://127.0.0.1:0/callback", "http://127.0.0.1:053682/callback"] {
            let res = app.client.get(app.url("/api/auth/authorize")).query(&authorize_query(&[("redirect_uri", uri)])).send().await.unwrap();
            assert!(res.headers().get("location").is_none(), "{uri}");
            let (status, v) = body(res).await;
            assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_redirect_uri"), "{uri}");
            assert_eq!(error_message(&v), "This sign-in link cannot send you back to the app. Start the sign-in again from the app.");
            for decision in ["allow", "deny"] {
                let (status, v) = authorize(&app, token, &[("redirect_uri", uri)], decision).await;
                assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_redirect_uri"), "{uri} {decision}");
                assert!(v.get("redirect_to").is_none());
            }
        }
        assert_eq!(closewise_testkit::scalar(&app.database_url, "SELECT COUNT(*) FROM oauth_codes").await, 0);
    }
);

both!(
    async fn other_malformed_requests_name_what_is_wrong(app) {
        for (extra, code, named) in [
            (("client_id", "other"), "invalid_client", "not from the Closewise app"),
            (("response_type", "token"), "invalid_request", "response_type"),
            (("code_challenge", "short"), "invalid_request", "code_challenge"),
            (("code_challenge_method", "plain"), "invalid_request", "code_challenge_method"),
            (("state", ""), "invalid_request", "state"),
        ] {
            let res = app.client.get(app.url("/api/auth/authorize")).query(&authorize_query(&[extra])).send().await.unwrap();
            let (status, v) = body(res).await;
            assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, code), "{extra:?}");
            assert!(error_message(&v).contains(named), "{extra:?}: {v}");
        }
    }
);

both!(
    async fn deny_sends_access_denied_back_with_the_state(app) {
        let web = crate::helpers::signed_in_account(&app, "ana@example.com", "sales-pro-2026").await;
        let (status, v) = authorize(&app, web["access_token"].as_str().unwrap(), &[("state", "abc")], "deny").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(v["redirect_to"], format!("{REDIRECT}?error=access_denied&state=abc"));
        assert_eq!(closewise_testkit::scalar(&app.database_url, "SELECT COUNT(*) FROM oauth_codes").await, 0);
    }
);

both!(
    async fn an_unverified_account_cannot_allow_a_desktop_sign_in(app) with |s| { s.allow_unverified_signin = true; } {
        assert_eq!(app.signup("new@example.com", "sales-pro-2026").await.status(), StatusCode::OK);
        let (_, session) = body(app.signin("new@example.com", "sales-pro-2026").await).await;
        let (status, v) = authorize(&app, session["access_token"].as_str().unwrap(), &[], "allow").await;
        assert_eq!((status, error_code(&v)), (StatusCode::FORBIDDEN, "email_not_confirmed"), "{v}");
        let (status, _) = authorize(&app, "not-a-token", &[], "allow").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
);

both!(
    async fn ten_simultaneous_exchanges_of_one_code_give_exactly_one_session(app) {
        let (_, code) = allowed_code(&app, "ana@example.com").await;
        let mut tasks = Vec::new();
        for _ in 0..10 {
            let (client, url, code) = (app.client.clone(), app.url("/api/auth/token?grant_type=authorization_code"), code.clone());
            tasks.push(tokio::spawn(async move {
                client.post(url).json(&json!({ "code": code, "code_verifier": VERIFIER, "redirect_uri": REDIRECT, "client_id": "closewise-desktop" }))
                    .send().await.unwrap().status()
            }));
        }
        let mut ok = 0;
        for t in tasks {
            let status = t.await.unwrap();
            assert!(status == StatusCode::OK || status == StatusCode::BAD_REQUEST, "{status}");
            ok += usize::from(status == StatusCode::OK);
        }
        assert_eq!(ok, 1);
        assert_eq!(closewise_testkit::scalar(&app.database_url, "SELECT COUNT(*) FROM sessions WHERE client_id IS NOT NULL").await, 1);
    }
);

both!(
    async fn the_code_grant_also_reads_a_form_body_as_rfc_6749_clients_send(app) {
        let (_, code) = allowed_code(&app, "ana@example.com").await;
        let form = [("code", code.as_str()), ("code_verifier", VERIFIER), ("redirect_uri", REDIRECT), ("client_id", "closewise-desktop")];
        let res = app.client.post(app.url("/api/auth/token?grant_type=authorization_code")).form(&form).send().await.unwrap();
        let (status, session) = body(res).await;
        assert_eq!(status, StatusCode::OK, "{session}");
        assert!(session["refresh_token"].is_string());
    }
);
