//! A passkey is a second factor. An account whose only factor is a passkey gets
//! `mfa_required` (methods `passkey`) for its password, and the passkey grant with that
//! `mfa_token` finishes the sign-in; the token is then spent, and another account's passkey
//! cannot finish it.

use reqwest::StatusCode;
use serde_json::{json, Value};

use super::*;
use crate::both;
use crate::helpers::*;

async fn password_sign_in(app: &TestApp, email: &str) -> (StatusCode, Value) {
    let creds = json!({ "email": email, "password": PASSWORD });
    body(app.post("/api/auth/token?grant_type=password", creds).await).await
}

both!(
    async fn a_passkey_finishes_a_password_sign_in_as_the_second_factor(app) {
        let token = signed_in(&app, "pk2fa@example.com").await;
        let mut authn = our_authenticator(&app);
        register(&app, &token, &mut authn, "MacBook").await;
        let other = signed_in(&app, "other2fa@example.com").await;
        let mut other_authn = our_authenticator(&app);
        register(&app, &other, &mut other_authn, "Other").await;

        let (_, v) = body(app.get_auth("/api/auth/mfa", &token).await).await;
        assert_eq!(v["passkeys"], 1, "{v}");

        let (status, v) = password_sign_in(&app, "pk2fa@example.com").await;
        assert_eq!((status, error_code(&v)), (StatusCode::UNAUTHORIZED, "mfa_required"), "{v}");
        assert_eq!(v["error"]["methods"], json!(["passkey"]), "{v}");
        let mfa_token = v["error"]["mfa_token"].as_str().unwrap().to_string();

        // The challenge for that token lists the account's passkeys only.
        let (status, c) = challenge(&app, json!({ "mfa_token": mfa_token })).await;
        assert_eq!(status, StatusCode::OK, "{c}");
        assert_eq!(c["options"]["allowCredentials"].as_array().unwrap().len(), 1, "{c}");

        // Another account's passkey does not finish it.
        let foreign = other_authn.sign_in(&c["options"]);
        let (status, v) = grant(&app, json!({ "challenge_id": c["challenge_id"], "credential": foreign, "mfa_token": mfa_token })).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");

        let (_, c) = challenge(&app, json!({ "mfa_token": mfa_token })).await;
        let answer = authn.sign_in(&c["options"]);
        let req = json!({ "challenge_id": c["challenge_id"], "credential": answer, "mfa_token": mfa_token });
        let (status, s) = grant(&app, req).await;
        assert_eq!(status, StatusCode::OK, "{s}");
        assert_eq!(s["user"]["email"], "pk2fa@example.com");

        // Single use.
        let (status, v) = challenge(&app, json!({ "mfa_token": mfa_token })).await;
        assert_eq!((status, error_code(&v)), (StatusCode::UNAUTHORIZED, "invalid_mfa_token"), "{v}");
    }
);

both!(
    async fn five_passkey_answers_that_do_not_verify_void_the_mfa_token(app) {
        let token = signed_in(&app, "pk5@example.com").await;
        let mut authn = our_authenticator(&app);
        register(&app, &token, &mut authn, "Mine").await;
        let other = signed_in(&app, "pk5other@example.com").await;
        let mut other_authn = our_authenticator(&app);
        register(&app, &other, &mut other_authn, "Theirs").await;
        let (_, v) = password_sign_in(&app, "pk5@example.com").await;
        let mfa_token = v["error"]["mfa_token"].as_str().unwrap().to_string();
        for attempt in 1..=5 {
            let (status, c) = challenge(&app, json!({ "mfa_token": mfa_token })).await;
            assert_eq!(status, StatusCode::OK, "attempt {attempt}: {c}");
            let foreign = other_authn.sign_in(&c["options"]);
            let req = json!({ "challenge_id": c["challenge_id"], "credential": foreign, "mfa_token": mfa_token });
            let (status, v) = grant(&app, req).await;
            assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_passkey"), "attempt {attempt}: {v}");
        }
        // Void: the right passkey (on a challenge issued before) no longer finishes it.
        let (status, v) = challenge(&app, json!({ "mfa_token": mfa_token })).await;
        assert_eq!((status, error_code(&v)), (StatusCode::UNAUTHORIZED, "invalid_mfa_token"), "{v}");
        let (_, c) = challenge(&app, json!({})).await;
        let req = json!({ "challenge_id": c["challenge_id"], "credential": authn.sign_in(&c["options"]), "mfa_token": mfa_token });
        let (status, v) = grant(&app, req).await;
        assert_eq!((status, error_code(&v)), (StatusCode::UNAUTHORIZED, "invalid_mfa_token"), "{v}");
    }
);

both!(
    async fn a_wrong_passkey_and_wrong_codes_share_the_tokens_five_attempts(app) {
        let (token, _, _) = crate::mfa::enrolled(&app, "mixed@example.com").await;
        let mut authn = our_authenticator(&app);
        register(&app, &token, &mut authn, "Mine").await;
        let other = signed_in(&app, "mixedother@example.com").await;
        let mut other_authn = our_authenticator(&app);
        register(&app, &other, &mut other_authn, "Theirs").await;
        let (_, v) = password_sign_in(&app, "mixed@example.com").await;
        let mfa_token = v["error"]["mfa_token"].as_str().unwrap().to_string();
        for _ in 0..4 {
            let req = json!({ "mfa_token": mfa_token, "code": "000000" });
            let (status, v) = body(app.post("/api/auth/token?grant_type=mfa", req).await).await;
            assert_eq!((status, error_code(&v)), (StatusCode::UNAUTHORIZED, "invalid_code"), "{v}");
        }
        let (_, c) = challenge(&app, json!({ "mfa_token": mfa_token })).await;
        let req = json!({ "challenge_id": c["challenge_id"], "credential": other_authn.sign_in(&c["options"]), "mfa_token": mfa_token });
        let (status, _) = grant(&app, req).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        let (status, v) = challenge(&app, json!({ "mfa_token": mfa_token })).await;
        assert_eq!((status, error_code(&v)), (StatusCode::UNAUTHORIZED, "invalid_mfa_token"), "the fifth failure voids it: {v}");
    }
);
