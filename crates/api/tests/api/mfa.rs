//! An authenticator app (TOTP) with recovery codes — enrolment, confirmation, new codes,
//! turning it off — with codes computed from the secret the API hands out and the manual clock.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::both;
use crate::helpers::*;
use closewise_domain::mfa::totp;

pub const PASSWORD: &str = "sales-pro-2026";

/// The code of `secret` (base32) at the app's clock, `steps` time steps away.
pub fn code(app: &TestApp, secret: &str, steps: i64) -> String {
    let key = totp::base32_decode(secret).unwrap();
    totp::code_at(&key, totp::time_step(app.state.clock.now()) + steps)
}

/// Moves the clock to the start of the next time step (a fresh code that is not a replay).
pub fn next_step(app: &TestApp) {
    let now = app.state.clock.now().unix_timestamp();
    app.advance(time::Duration::seconds(
        totp::PERIOD - now.rem_euclid(totp::PERIOD),
    ));
}

pub async fn delete_auth(
    app: &TestApp,
    path: &str,
    token: &str,
    json: Value,
) -> (StatusCode, Value) {
    body(
        app.client
            .delete(app.url(path))
            .bearer_auth(token)
            .json(&json)
            .send()
            .await
            .unwrap(),
    )
    .await
}

pub async fn status(app: &TestApp, token: &str) -> Value {
    let (s, v) = body(app.get_auth("/api/auth/mfa", token).await).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v
}

/// Signs `email` up and in, enrols and confirms an app: (access token, secret, recovery codes).
pub async fn enrolled(app: &TestApp, email: &str) -> (String, String, Vec<String>) {
    let session = crate::helpers::signed_in_account(app, email, PASSWORD).await;
    let token = session["access_token"].as_str().unwrap().to_string();
    let (s, e) = body(app.post_auth("/api/auth/mfa/totp", &token, json!({})).await).await;
    assert_eq!(s, StatusCode::OK, "{e}");
    let secret = e["secret"].as_str().unwrap().to_string();
    let (s, v) = body(
        app.post_auth(
            "/api/auth/mfa/totp/confirm",
            &token,
            json!({ "code": code(app, &secret, 0) }),
        )
        .await,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let codes = v["recovery_codes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    next_step(app);
    (token, secret, codes)
}

both!(
    async fn an_app_is_enrolled_pending_then_confirmed_with_its_first_code(app) {
        let session = crate::helpers::signed_in_account(&app, "ana@example.com", PASSWORD).await;
        let token = session["access_token"].as_str().unwrap();
        assert_eq!(status(&app, token).await, json!({ "totp": false, "recovery_codes_remaining": 0, "passkeys": 0, "required": false }));

        let (s, e) = body(app.post_auth("/api/auth/mfa/totp", token, json!({})).await).await;
        assert_eq!(s, StatusCode::OK, "{e}");
        let secret = e["secret"].as_str().unwrap();
        assert_eq!(totp::base32_decode(secret).unwrap().len(), 20);
        assert_eq!(e["otpauth_uri"], format!("otpauth://totp/Closewise:ana@example.com?secret={secret}&issuer=Closewise&algorithm=SHA1&digits=6&period=30"));
        // The secret is not stored in clear.
        let stored: String = sqlx_scalar(&app, "SELECT secret FROM mfa_totp").await;
        assert!(!stored.contains(secret));
        // Pending: not a factor yet.
        assert_eq!(status(&app, token).await["totp"], false);
        assert_eq!(app.signin("ana@example.com", PASSWORD).await.status(), StatusCode::OK);

        // A new enrolment replaces the pending one: the first secret's codes no longer confirm.
        let (_, e2) = body(app.post_auth("/api/auth/mfa/totp", token, json!({})).await).await;
        let secret2 = e2["secret"].as_str().unwrap();
        assert_ne!(secret, secret2);
        let (s, v) = body(app.post_auth("/api/auth/mfa/totp/confirm", token, json!({ "code": code(&app, secret, 0) })).await).await;
        assert_eq!((s, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_code"), "{v}");

        let (s, v) = body(app.post_auth("/api/auth/mfa/totp/confirm", token, json!({ "code": code(&app, secret2, 0) })).await).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let codes = v["recovery_codes"].as_array().unwrap();
        assert_eq!(codes.len(), 10);
        for c in codes {
            let c = c.as_str().unwrap();
            assert_eq!(c.len(), 11, "{c}");
            assert_eq!(&c[5..6], "-");
            assert!(c.chars().all(|ch| ch == '-' || "23456789abcdefghjkmnpqrstuvwxyz".contains(ch)), "{c}");
        }
        assert_eq!(status(&app, token).await, json!({ "totp": true, "recovery_codes_remaining": 10, "passkeys": 0, "required": false }));
        assert!(app.mails_to("ana@example.com").await.iter().any(|m| m.kind == "mfa_factor_added"));

        // Confirmed twice, or enrolling again: refused, nothing changed.
        let (s, v) = body(app.post_auth("/api/auth/mfa/totp/confirm", token, json!({ "code": code(&app, secret2, 1) })).await).await;
        assert_eq!((s, error_code(&v)), (StatusCode::CONFLICT, "mfa_already_enrolled"), "{v}");
        let (s, v) = body(app.post_auth("/api/auth/mfa/totp", token, json!({})).await).await;
        assert_eq!((s, error_code(&v)), (StatusCode::CONFLICT, "mfa_already_enrolled"), "{v}");
        assert_eq!(status(&app, token).await["recovery_codes_remaining"], 10);
    }
);

both!(
    async fn confirming_refuses_bad_codes_and_a_missing_enrolment_and_changes_nothing(app) {
        let session = crate::helpers::signed_in_account(&app, "bo@example.com", PASSWORD).await;
        let token = session["access_token"].as_str().unwrap();
        let (s, v) = body(app.post_auth("/api/auth/mfa/totp/confirm", token, json!({ "code": "123456" })).await).await;
        assert_eq!((s, error_code(&v)), (StatusCode::CONFLICT, "no_pending_enrolment"), "{v}");
        let (_, e) = body(app.post_auth("/api/auth/mfa/totp", token, json!({})).await).await;
        let secret = e["secret"].as_str().unwrap();
        for bad in [code(&app, secret, 2), code(&app, secret, -2), "12345".into(), "abcdef".into(), "".into(), "abcde-fghjk".into()] {
            let (s, v) = body(app.post_auth("/api/auth/mfa/totp/confirm", token, json!({ "code": bad })).await).await;
            assert_eq!((s, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_code"), "{bad:?}: {v}");
        }
        let (s, v) = body(app.post_auth("/api/auth/mfa/totp/confirm", token, json!({ "kode": 1 })).await).await;
        assert_eq!((s, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_code"), "{v}");
        assert_eq!(status(&app, token).await["totp"], false);
        // One step of drift either way confirms.
        let (s, v) = body(app.post_auth("/api/auth/mfa/totp/confirm", token, json!({ "code": code(&app, secret, -1) })).await).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
);

both!(
    async fn new_recovery_codes_void_the_old_ones_and_need_an_app_code(app) {
        let (token, secret, old) = enrolled(&app, "cy@example.com").await;
        let (s, v) = body(app.post_auth("/api/auth/mfa/recovery-codes", &token, json!({ "code": old[0] })).await).await;
        assert_eq!((s, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_code"), "a recovery code does not make new ones: {v}");
        let (s, v) = body(app.post_auth("/api/auth/mfa/recovery-codes", &token, json!({ "code": code(&app, &secret, 0) })).await).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let new: Vec<&str> = v["recovery_codes"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
        assert_eq!(new.len(), 10);
        assert!(new.iter().all(|c| !old.contains(&c.to_string())));
        assert!(app.mails_to("cy@example.com").await.iter().any(|m| m.kind == "mfa_recovery_codes_generated"));
        // The same app code again is a replay.
        let (s, v) = body(app.post_auth("/api/auth/mfa/recovery-codes", &token, json!({ "code": code(&app, &secret, 0) })).await).await;
        assert_eq!((s, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_code"), "{v}");
        // An old code no longer turns the app off; a new one does (typed in upper case, no dash).
        let (s, v) = delete_auth(&app, "/api/auth/mfa/totp", &token, json!({ "code": old[1] })).await;
        assert_eq!((s, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_code"), "{v}");
        assert_eq!(status(&app, &token).await["totp"], true);
        let typed = new[2].replace('-', "").to_uppercase();
        let (s, v) = delete_auth(&app, "/api/auth/mfa/totp", &token, json!({ "code": typed })).await;
        assert_eq!(s, StatusCode::NO_CONTENT, "{v}");
        assert_eq!(status(&app, &token).await, json!({ "totp": false, "recovery_codes_remaining": 0, "passkeys": 0, "required": false }));
        let kinds: Vec<String> = app.mails_to("cy@example.com").await.into_iter().map(|m| m.kind).collect();
        assert!(kinds.contains(&"mfa_factor_removed".into()) && kinds.contains(&"mfa_recovery_code_used".into()), "{kinds:?}");
        assert_eq!(app.signin("cy@example.com", PASSWORD).await.status(), StatusCode::OK, "no factor: the password alone signs in");
    }
);

both!(
    async fn turning_the_app_off_needs_a_recent_step_up_and_a_good_code(app) {
        let (token, secret, _) = enrolled(&app, "di@example.com").await;
        for bad in ["000000", "nope", ""] {
            let (s, v) = delete_auth(&app, "/api/auth/mfa/totp", &token, json!({ "code": bad })).await;
            assert_eq!((s, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_code"), "{bad:?}: {v}");
        }
        app.advance(time::Duration::minutes(16));
        let (s, v) = delete_auth(&app, "/api/auth/mfa/totp", &token, json!({ "code": code(&app, &secret, 0) })).await;
        assert_eq!((s, error_code(&v)), (StatusCode::FORBIDDEN, "reauthentication_required"), "{v}");
        assert_eq!(status(&app, &token).await["totp"], true);
    }
);

/// One text column of the only row a query returns.
async fn sqlx_scalar(app: &TestApp, sql: &str) -> String {
    use sqlx::Connection;
    if app.database_url.starts_with("sqlite") {
        let mut c = sqlx::SqliteConnection::connect(&app.database_url)
            .await
            .unwrap();
        sqlx::query_scalar(sql).fetch_one(&mut c).await.unwrap()
    } else {
        let mut c = sqlx::PgConnection::connect(&app.database_url)
            .await
            .unwrap();
        sqlx::query_scalar(sql).fetch_one(&mut c).await.unwrap()
    }
}
