//! A passkey is the second factor of step-up. An account with any factor (a passkey,
//! an app, both) gives it to `POST /api/auth/reauthenticate` as `passkey: {challenge_id,
//! credential}`, the answer to a `step_up` challenge that `POST /api/auth/passkeys/challenge`
//! issues the signed-in caller; another account's passkey, a sign-in challenge or a spent one is
//! `invalid_passkey` and opens nothing.

use reqwest::StatusCode;
use serde_json::{json, Value};

use super::*;
use crate::both;
use crate::helpers::*;

async fn step_up_challenge(app: &TestApp, token: &str) -> (StatusCode, Value) {
    body(
        app.post_auth("/api/auth/passkeys/challenge", token, json!({}))
            .await,
    )
    .await
}

async fn reauthenticate(app: &TestApp, token: &str, req: Value) -> (StatusCode, Value) {
    body(app.post_auth("/api/auth/reauthenticate", token, req).await).await
}

fn with_passkey(c: &Value, credential: Value) -> Value {
    json!({ "password": PASSWORD, "passkey": { "challenge_id": c["challenge_id"], "credential": credential } })
}

both!(
    async fn a_passkey_gives_the_second_factor_of_step_up(app) {
        let token = signed_in(&app, "stepup@example.com").await;
        let mut authn = our_authenticator(&app);
        let p = register(&app, &token, &mut authn, "MacBook").await;
        let other = signed_in(&app, "stranger@example.com").await;
        let mut other_authn = our_authenticator(&app);
        register(&app, &other, &mut other_authn, "Theirs").await;

        app.advance(time::Duration::minutes(16));
        let (status, v) = remove(&app, &token, p["id"].as_str().unwrap()).await;
        assert_eq!((status, error_code(&v)), (StatusCode::FORBIDDEN, "reauthentication_required"), "{v}");
        // The password alone no longer opens the window of an account with a passkey.
        let (status, v) = reauthenticate(&app, &token, json!({ "password": PASSWORD })).await;
        assert_eq!((status, error_code(&v)), (StatusCode::UNAUTHORIZED, "mfa_required"), "{v}");
        assert_eq!(v["error"]["methods"], json!(["passkey"]), "{v}");
        assert!(v["error"].get("mfa_token").is_none(), "{v}");

        // The step-up challenge lists the caller's passkeys only.
        let (status, c) = step_up_challenge(&app, &token).await;
        assert_eq!(status, StatusCode::OK, "{c}");
        let allowed = c["options"]["allowCredentials"].as_array().unwrap();
        assert_eq!(allowed.len(), 1, "{c}");
        assert_eq!(allowed[0]["id"], authenticator::b64(&authn.credential_id));

        // Another account's passkey does not give it, and spends the challenge.
        let (status, v) = reauthenticate(&app, &token, with_passkey(&c, other_authn.sign_in(&c["options"]))).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_passkey"), "{v}");
        let (status, v) = reauthenticate(&app, &token, with_passkey(&c, authn.sign_in(&c["options"]))).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_passkey"), "spent: {v}");
        // A sign-in challenge is not a step-up one.
        let (_, signin) = challenge(&app, json!({})).await;
        let (status, v) = reauthenticate(&app, &token, with_passkey(&signin, authn.sign_in(&signin["options"]))).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_passkey"), "{v}");
        let (status, v) = remove(&app, &token, p["id"].as_str().unwrap()).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "nothing opened the window: {v}");

        // A wrong password with a right passkey: nothing either.
        let (_, c) = step_up_challenge(&app, &token).await;
        let mut req = with_passkey(&c, authn.sign_in(&c["options"]));
        req["password"] = json!("not-the-password");
        let (status, v) = reauthenticate(&app, &token, req).await;
        assert_eq!((status, error_code(&v)), (StatusCode::UNAUTHORIZED, "invalid_credentials"), "{v}");

        let (_, c) = step_up_challenge(&app, &token).await;
        let (status, v) = reauthenticate(&app, &token, with_passkey(&c, authn.sign_in(&c["options"]))).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert!(v["reauthenticated_until"].is_string(), "{v}");
        let (status, v) = remove(&app, &token, p["id"].as_str().unwrap()).await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{v}");
    }
);

both!(
    async fn a_step_up_challenge_signs_no_one_in_and_needs_a_valid_token(app) {
        let token = signed_in(&app, "nosignin@example.com").await;
        let mut authn = our_authenticator(&app);
        register(&app, &token, &mut authn, "Key").await;
        let (_, c) = step_up_challenge(&app, &token).await;
        let (status, v) = grant(&app, json!({ "challenge_id": c["challenge_id"], "credential": authn.sign_in(&c["options"]) })).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_passkey"), "{v}");
        let (status, v) = step_up_challenge(&app, "not-a-token").await;
        assert_eq!((status, error_code(&v)), (StatusCode::UNAUTHORIZED, "invalid_token"), "{v}");
    }
);

both!(
    async fn an_account_with_an_app_and_a_passkey_may_step_up_with_either(app) {
        let (token, secret, _) = crate::mfa::enrolled(&app, "both@example.com").await;
        let mut authn = our_authenticator(&app);
        register(&app, &token, &mut authn, "Phone").await;
        app.advance(time::Duration::minutes(16));
        let (status, v) = reauthenticate(&app, &token, json!({ "password": PASSWORD })).await;
        assert_eq!((status, error_code(&v)), (StatusCode::UNAUTHORIZED, "mfa_required"), "{v}");
        assert_eq!(v["error"]["methods"], json!(["totp", "recovery_code", "passkey"]), "{v}");
        let (_, c) = step_up_challenge(&app, &token).await;
        let (status, v) = reauthenticate(&app, &token, with_passkey(&c, authn.sign_in(&c["options"]))).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        // And with the app's code, as before.
        app.advance(time::Duration::minutes(16));
        crate::mfa::next_step(&app);
        let code = crate::mfa::code(&app, &secret, 0);
        let (status, v) = reauthenticate(&app, &token, json!({ "password": PASSWORD, "code": code })).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
);
