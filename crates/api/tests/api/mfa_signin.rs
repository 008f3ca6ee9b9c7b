//! Signing in with a second factor (`401 mfa_required`, then `grant_type=mfa`), its
//! token's limits, recovery codes at sign-in, and step-up with the factor.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::both;
use crate::helpers::*;
use crate::mfa::{code, enrolled, next_step, PASSWORD};

async fn grant(app: &TestApp, grant: &str, body: Value, site: bool) -> (StatusCode, Value) {
    let mut req = app
        .client
        .post(app.url(&format!("/api/auth/token?grant_type={grant}")))
        .json(&body);
    if site {
        req = req.header("origin", app.state.settings.base_url.clone());
    }
    crate::helpers::body(req.send().await.unwrap()).await
}

/// The password step of an account with a factor: its mfa_token.
async fn mfa_token(app: &TestApp, email: &str, site: bool) -> String {
    let (s, v) = grant(
        app,
        "password",
        json!({ "email": email, "password": PASSWORD }),
        site,
    )
    .await;
    assert_eq!(
        (s, error_code(&v)),
        (StatusCode::UNAUTHORIZED, "mfa_required"),
        "{v}"
    );
    v["error"]["mfa_token"].as_str().unwrap().to_string()
}

both!(
    async fn a_password_sign_in_with_a_factor_asks_for_the_code_then_answers_the_session(app) {
        let (_, secret, _) = enrolled(&app, "ana@example.com").await;
        let (s, v) = grant(&app, "password", json!({ "email": "ana@example.com", "password": PASSWORD }), false).await;
        assert_eq!(s, StatusCode::UNAUTHORIZED, "{v}");
        assert_eq!(v["error"]["code"], "mfa_required");
        assert_eq!(v["error"]["message"], "Enter the 6-digit code from your authenticator app.");
        assert_eq!(v["error"]["methods"], json!(["totp", "recovery_code"]));
        assert!(v.get("access_token").is_none());
        let token = v["error"]["mfa_token"].as_str().unwrap();
        // A wrong password still answers as for any account.
        let (s, w) = grant(&app, "password", json!({ "email": "ana@example.com", "password": "wrong-password-1" }), false).await;
        assert_eq!((s, error_code(&w)), (StatusCode::BAD_REQUEST, "invalid_credentials"), "{w}");

        let (s, session) = grant(&app, "mfa", json!({ "mfa_token": token, "code": code(&app, &secret, 0) }), false).await;
        assert_eq!(s, StatusCode::OK, "{session}");
        assert!(session["refresh_token"].is_string(), "native: the refresh token in the body");
        assert_eq!(session["user"]["email"], "ana@example.com");
        let access = session["access_token"].as_str().unwrap();
        assert_eq!(app.get_auth("/api/auth/user", access).await.status(), StatusCode::OK);
        // Single use.
        next_step(&app);
        let (s, v) = grant(&app, "mfa", json!({ "mfa_token": token, "code": code(&app, &secret, 0) }), false).await;
        assert_eq!((s, error_code(&v)), (StatusCode::UNAUTHORIZED, "invalid_mfa_token"), "{v}");
        // Re-authenticating with the password alone is not enough for an account with a factor.
        let (s, v) = body(app.post_auth("/api/auth/reauthenticate", access, json!({ "password": PASSWORD })).await).await;
        assert_eq!((s, error_code(&v)), (StatusCode::UNAUTHORIZED, "mfa_required"), "{v}");
    }
);

both!(
    async fn the_site_gets_the_cookie_and_its_token_is_its_own(app) {
        let (_, secret, _) = enrolled(&app, "bo@example.com").await;
        let native = mfa_token(&app, "bo@example.com", false).await;
        let (s, v) = grant(&app, "mfa", json!({ "mfa_token": native, "code": code(&app, &secret, 0) }), true).await;
        assert_eq!((s, error_code(&v)), (StatusCode::UNAUTHORIZED, "invalid_mfa_token"), "a native client's token at the site: {v}");
        let site = mfa_token(&app, "bo@example.com", true).await;
        let res = app.client.post(app.url("/api/auth/token?grant_type=mfa"))
            .header("origin", app.state.settings.base_url.clone())
            .json(&json!({ "mfa_token": site, "code": code(&app, &secret, 0) })).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        let cookie = res.headers().get("set-cookie").unwrap().to_str().unwrap().to_string();
        assert!(cookie.starts_with("cw_refresh="), "{cookie}");
        let (_, v) = body(res).await;
        assert!(v.get("refresh_token").is_none(), "{v}");
        for (token, case) in [("", "empty"), ("not-a-token", "unknown")] {
            let (s, v) = grant(&app, "mfa", json!({ "mfa_token": token, "code": "123456" }), false).await;
            assert_eq!((s, error_code(&v)), (StatusCode::UNAUTHORIZED, "invalid_mfa_token"), "{case}: {v}");
        }
        let (s, v) = grant(&app, "mfa", json!("nope"), false).await;
        assert_eq!((s, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_json"), "{v}");
    }
);

both!(
    async fn five_wrong_codes_void_the_token_and_it_lives_five_minutes(app) {
        let (_, secret, _) = enrolled(&app, "cy@example.com").await;
        let token = mfa_token(&app, "cy@example.com", false).await;
        for bad in ["000000", "12345", "abcde-fghjk", code(&app, &secret, 3).as_str(), "999999"] {
            let (s, v) = grant(&app, "mfa", json!({ "mfa_token": token, "code": bad }), false).await;
            assert_eq!((s, error_code(&v)), (StatusCode::UNAUTHORIZED, "invalid_code"), "{bad}: {v}");
        }
        let (s, v) = grant(&app, "mfa", json!({ "mfa_token": token, "code": code(&app, &secret, 0) }), false).await;
        assert_eq!((s, error_code(&v)), (StatusCode::UNAUTHORIZED, "invalid_mfa_token"), "voided: {v}");

        let token = mfa_token(&app, "cy@example.com", false).await;
        app.advance(time::Duration::minutes(5));
        let (s, v) = grant(&app, "mfa", json!({ "mfa_token": token, "code": code(&app, &secret, 0) }), false).await;
        assert_eq!((s, error_code(&v)), (StatusCode::UNAUTHORIZED, "invalid_mfa_token"), "expired: {v}");
        // The right code was not spent by the refused attempts: it still signs in.
        let token = mfa_token(&app, "cy@example.com", false).await;
        let (s, v) = grant(&app, "mfa", json!({ "mfa_token": token, "code": code(&app, &secret, 0) }), false).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
);

both!(
    async fn a_code_is_not_accepted_twice_nor_for_another_account(app) {
        let (_, ana_secret, _) = enrolled(&app, "ana@example.com").await;
        let (_, bo_secret, _) = enrolled(&app, "bo@example.com").await;
        let token = mfa_token(&app, "ana@example.com", false).await;
        let (s, v) = grant(&app, "mfa", json!({ "mfa_token": token, "code": code(&app, &bo_secret, 0) }), false).await;
        assert_eq!((s, error_code(&v)), (StatusCode::UNAUTHORIZED, "invalid_code"), "bo's code for ana's token: {v}");
        let ana_code = code(&app, &ana_secret, 0);
        let (s, _) = grant(&app, "mfa", json!({ "mfa_token": token, "code": ana_code }), false).await;
        assert_eq!(s, StatusCode::OK);
        let again = mfa_token(&app, "ana@example.com", false).await;
        let (s, v) = grant(&app, "mfa", json!({ "mfa_token": again, "code": ana_code }), false).await;
        assert_eq!((s, error_code(&v)), (StatusCode::UNAUTHORIZED, "invalid_code"), "replayed: {v}");
        let (s, _) = grant(&app, "mfa", json!({ "mfa_token": again, "code": code(&app, &ana_secret, 1) }), false).await;
        assert_eq!(s, StatusCode::OK, "the next step's code (drift) is fresh");
    }
);

both!(
    async fn a_recovery_code_signs_in_once_and_the_account_is_told_how_many_are_left(app) {
        let (_, _, codes) = enrolled(&app, "di@example.com").await;
        let token = mfa_token(&app, "di@example.com", false).await;
        let (s, v) = grant(&app, "mfa", json!({ "mfa_token": token, "code": format!("  {}  ", codes[0].to_uppercase()) }), false).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let mail = app.mails_to("di@example.com").await.into_iter().find(|m| m.kind == "mfa_recovery_code_used").unwrap();
        assert!(mail.text_body.contains("You have 9 unused codes left"), "{}", mail.text_body);
        let token = mfa_token(&app, "di@example.com", false).await;
        let (s, v) = grant(&app, "mfa", json!({ "mfa_token": token, "code": codes[0] }), false).await;
        assert_eq!((s, error_code(&v)), (StatusCode::UNAUTHORIZED, "invalid_code"), "{v}");
    }
);

both!(
    async fn wrong_codes_spend_the_accounts_sign_in_budget(app) with |s| {
        s.limits.failed_signins_per_account_ip = 3;
    } {
        let (_, secret, _) = enrolled(&app, "ed@example.com").await;
        let token = mfa_token(&app, "ed@example.com", false).await;
        for _ in 0..3 {
            let (s, v) = grant(&app, "mfa", json!({ "mfa_token": token, "code": "000000" }), false).await;
            assert_eq!((s, error_code(&v)), (StatusCode::UNAUTHORIZED, "invalid_code"), "{v}");
        }
        let (s, v) = grant(&app, "mfa", json!({ "mfa_token": token, "code": code(&app, &secret, 0) }), false).await;
        assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    }
);

both!(
    async fn step_up_asks_for_the_factor_of_an_account_that_has_one(app) {
        let (token, secret, codes) = enrolled(&app, "fy@example.com").await;
        app.advance(time::Duration::minutes(16));
        let d = crate::device_signin::request_device(&app).await;
        let approve = |t: String| { let app = &app; let uc = d["user_code"].clone(); async move {
            body(app.post_auth("/api/auth/device/approve", &t, json!({ "user_code": uc })).await).await } };
        let (s, v) = approve(token.clone()).await;
        assert_eq!((s, error_code(&v)), (StatusCode::FORBIDDEN, "reauthentication_required"), "{v}");

        let (s, v) = body(app.post_auth("/api/auth/reauthenticate", &token, json!({ "password": PASSWORD })).await).await;
        assert_eq!((s, error_code(&v)), (StatusCode::UNAUTHORIZED, "mfa_required"), "{v}");
        assert_eq!(v["error"]["methods"], json!(["totp", "recovery_code"]));
        assert!(v["error"].get("mfa_token").is_none(), "{v}");
        assert_eq!(approve(token.clone()).await.0, StatusCode::FORBIDDEN, "the password alone opened nothing");
        let (s, v) = body(app.post_auth("/api/auth/reauthenticate", &token, json!({ "password": PASSWORD, "code": "000000" })).await).await;
        assert_eq!((s, error_code(&v)), (StatusCode::UNAUTHORIZED, "invalid_code"), "{v}");
        let (s, v) = body(app.post_auth("/api/auth/reauthenticate", &token, json!({ "password": "wrong-password-1", "code": code(&app, &secret, 0) })).await).await;
        assert_eq!((s, error_code(&v)), (StatusCode::UNAUTHORIZED, "invalid_credentials"), "{v}");
        let (s, v) = body(app.post_auth("/api/auth/reauthenticate", &token, json!({ "password": PASSWORD, "code": code(&app, &secret, 0) })).await).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let (s, v) = approve(token.clone()).await;
        assert_eq!(s, StatusCode::OK, "{v}");

        // A recovery code serves for step-up too.
        app.advance(time::Duration::minutes(16));
        let (s, v) = body(app.post_auth("/api/auth/reauthenticate", &token, json!({ "password": PASSWORD, "code": codes[4] })).await).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
);

both!(
    async fn a_password_change_of_an_account_with_a_factor_needs_the_factor_in_the_window(app) {
        let (token, secret, _) = enrolled(&app, "gu@example.com").await;
        app.advance(time::Duration::minutes(16));
        let change = json!({ "current_password": PASSWORD, "password": "a-new-sales-pass-27" });
        let (s, v) = body(app.post_auth("/api/auth/password", &token, change.clone()).await).await;
        assert_eq!((s, error_code(&v)), (StatusCode::FORBIDDEN, "reauthentication_required"), "{v}");
        assert_eq!(app.signin("gu@example.com", "a-new-sales-pass-27").await.status(), StatusCode::BAD_REQUEST, "unchanged");
        let (s, v) = body(app.post_auth("/api/auth/reauthenticate", &token, json!({ "password": PASSWORD, "code": code(&app, &secret, 0) })).await).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let (s, v) = body(app.post_auth("/api/auth/password", &token, change).await).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
);
