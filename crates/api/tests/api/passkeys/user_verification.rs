//! A passkey stands alone (a sign-in without the password) only when the authenticator verified
//! the user (a PIN, a fingerprint: the UV flag of its answer). Without it, the passkey proves only
//! that someone holds the key: it is then the second factor after the password, never a sign-in
//! by itself. Registration asks for user verification and refuses an answer without it.

use reqwest::StatusCode;
use serde_json::json;

use super::*;
use crate::both;
use crate::helpers::*;

both!(
    async fn registration_asks_for_user_verification_and_refuses_a_passkey_without_it(app) {
        let token = signed_in(&app, "uvreg@example.com").await;
        let (status, o) = registration_options(&app, &token, "Key").await;
        assert_eq!(status, StatusCode::OK, "{o}");
        assert_eq!(o["options"]["authenticatorSelection"]["userVerification"], "required", "{o}");
        let mut key = our_authenticator(&app);
        key.verifies_user = false;
        let credential = key.register(&o["options"]);
        let (status, v) = finish_registration(&app, &token, &o["challenge_id"], "Key", credential).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_passkey"), "{v}");
        assert!(list(&app, &token).await.is_empty());
    }
);

both!(
    async fn a_passkey_answer_without_user_verification_signs_in_only_after_the_password(app) {
        let token = signed_in(&app, "uv@example.com").await;
        let mut authn = our_authenticator(&app);
        register(&app, &token, &mut authn, "Key").await;
        authn.verifies_user = false;

        // Alone: the discoverable sign-in asks for user verification and refuses an answer without.
        let (status, c) = challenge(&app, json!({})).await;
        assert_eq!(status, StatusCode::OK, "{c}");
        assert_eq!(c["options"]["userVerification"], "required", "{c}");
        let answer = authn.sign_in(&c["options"]);
        let (status, v) = grant(&app, json!({ "challenge_id": c["challenge_id"], "credential": answer })).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_passkey"), "{v}");
        assert!(v.get("access_token").is_none(), "{v}");

        // After the password, the same answer is the second factor.
        let creds = json!({ "email": "uv@example.com", "password": PASSWORD });
        let (status, v) = body(app.post("/api/auth/token?grant_type=password", creds).await).await;
        assert_eq!((status, error_code(&v)), (StatusCode::UNAUTHORIZED, "mfa_required"), "{v}");
        let mfa_token = v["error"]["mfa_token"].as_str().unwrap().to_string();
        let (_, c) = challenge(&app, json!({ "mfa_token": mfa_token })).await;
        let answer = authn.sign_in(&c["options"]);
        let (status, s) = grant(&app, json!({ "challenge_id": c["challenge_id"], "credential": answer, "mfa_token": mfa_token })).await;
        assert_eq!(status, StatusCode::OK, "{s}");

        // With user verification it stands alone.
        authn.verifies_user = true;
        let (_, c) = challenge(&app, json!({})).await;
        let answer = authn.sign_in(&c["options"]);
        let (status, s) = grant(&app, json!({ "challenge_id": c["challenge_id"], "credential": answer })).await;
        assert_eq!(status, StatusCode::OK, "{s}");
    }
);
