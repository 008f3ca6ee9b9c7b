//! Passkeys: a signed-in user registers a passkey (named, listed, removable with a
//! recent password entry, each change mailed), then signs in with it and no password; every bad
//! answer is one clear `invalid_passkey` (or `challenge_expired`) and changes nothing.

mod after_reset;
mod authenticator;
mod bad_input;
mod second_factor;
mod step_up;
mod user_verification;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::both;
use crate::helpers::*;
pub use authenticator::Authenticator;

pub const PASSWORD: &str = "sales-pro-2026";

/// The authenticator of a browser on our own pages (origin and RP id of `APP_BASE_URL`).
pub fn our_authenticator(app: &TestApp) -> Authenticator {
    let rp = app.state.passkeys.relying_party();
    Authenticator::new(&rp.origin, &rp.id)
}

pub async fn signed_in(app: &TestApp, email: &str) -> String {
    let s = crate::helpers::signed_in_account(app, email, PASSWORD).await;
    s["access_token"].as_str().unwrap().to_string()
}

pub async fn registration_options(app: &TestApp, token: &str, name: &str) -> (StatusCode, Value) {
    body(
        app.post_auth(
            "/api/auth/passkeys/registration",
            token,
            json!({ "name": name }),
        )
        .await,
    )
    .await
}

pub async fn finish_registration(
    app: &TestApp,
    token: &str,
    challenge_id: &Value,
    name: &str,
    credential: Value,
) -> (StatusCode, Value) {
    let req = json!({ "challenge_id": challenge_id, "name": name, "credential": credential });
    body(app.post_auth("/api/auth/passkeys", token, req).await).await
}

/// Registers a passkey named `name` with `authn` for the signed-in `token`: the new passkey.
pub async fn register(app: &TestApp, token: &str, authn: &mut Authenticator, name: &str) -> Value {
    let (status, o) = registration_options(app, token, name).await;
    assert_eq!(status, StatusCode::OK, "{o}");
    let credential = authn.register(&o["options"]);
    let (status, v) = finish_registration(app, token, &o["challenge_id"], name, credential).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    v
}

pub async fn challenge(app: &TestApp, req: Value) -> (StatusCode, Value) {
    body(app.post("/api/auth/passkeys/challenge", req).await).await
}

pub async fn grant(app: &TestApp, req: Value) -> (StatusCode, Value) {
    body(app.post("/api/auth/token?grant_type=passkey", req).await).await
}

pub async fn list(app: &TestApp, token: &str) -> Vec<Value> {
    let (status, v) = body(app.get_auth("/api/auth/passkeys", token).await).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v["passkeys"].as_array().unwrap().clone()
}

pub async fn remove(app: &TestApp, token: &str, id: &str) -> (StatusCode, Value) {
    let res = app
        .client
        .delete(app.url(&format!("/api/auth/passkeys/{id}")))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    if res.status() == StatusCode::NO_CONTENT {
        return (StatusCode::NO_CONTENT, Value::Null);
    }
    body(res).await
}

both!(
    async fn a_registered_passkey_signs_in_without_a_password(app) {
        let token = signed_in(&app, "ana@example.com").await;
        let mut authn = our_authenticator(&app);
        let (status, o) = registration_options(&app, &token, "MacBook").await;
        assert_eq!(status, StatusCode::OK, "{o}");
        let options = &o["options"];
        let rp = app.state.passkeys.relying_party();
        assert_eq!(options["rp"]["id"], rp.id.as_str());
        assert_eq!(options["authenticatorSelection"]["residentKey"], "required");
        assert_eq!(options["authenticatorSelection"]["userVerification"], "required");
        assert_eq!(options["attestation"], "none");
        assert_eq!(options["excludeCredentials"], json!([]));
        assert_eq!(options["user"]["name"], "ana@example.com");

        let credential = authn.register(options);
        let (status, p) = finish_registration(&app, &token, &o["challenge_id"], "  MacBook ", credential).await;
        assert_eq!(status, StatusCode::CREATED, "{p}");
        assert_eq!(p["name"], "MacBook");
        assert_eq!(p["last_used_at"], Value::Null);
        let mails = app.mails_to("ana@example.com").await;
        assert!(mails.iter().any(|m| m.kind == "passkey_added" && m.text_body.contains("MacBook")));

        // A second registration excludes the first passkey.
        let (_, o2) = registration_options(&app, &token, "Phone").await;
        let excluded = &o2["options"]["excludeCredentials"];
        assert_eq!(excluded[0]["id"], authenticator::b64(&authn.credential_id), "{excluded}");

        // Discoverable sign-in: no e-mail, no password, empty allowCredentials.
        let (status, c) = challenge(&app, json!({})).await;
        assert_eq!(status, StatusCode::OK, "{c}");
        assert_eq!(c["options"]["allowCredentials"], json!([]));
        assert_eq!(c["options"]["rpId"], rp.id.as_str());
        let answer = authn.sign_in(&c["options"]);
        let (status, s) = grant(&app, json!({ "challenge_id": c["challenge_id"], "credential": answer })).await;
        assert_eq!(status, StatusCode::OK, "{s}");
        assert_eq!(s["user"]["email"], "ana@example.com");
        assert!(s["access_token"].as_str().is_some() && s["refresh_token"].as_str().is_some(), "{s}");
        let (status, me) = body(app.get_auth("/api/auth/user", s["access_token"].as_str().unwrap()).await).await;
        assert_eq!((status, me["user"]["email"].as_str()), (StatusCode::OK, Some("ana@example.com")), "{me}");

        let listed = list(&app, &token).await;
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0]["name"], "MacBook");
        assert!(listed[0]["last_used_at"].is_string(), "{listed:?}");
    }
);

both!(
    async fn our_pages_get_the_refresh_token_as_the_cookie(app) {
        let token = signed_in(&app, "cookie@example.com").await;
        let mut authn = our_authenticator(&app);
        register(&app, &token, &mut authn, "Laptop").await;
        let (_, c) = challenge(&app, json!({})).await;
        let answer = authn.sign_in(&c["options"]);
        let res = app
            .client
            .post(app.url("/api/auth/token?grant_type=passkey"))
            .header("origin", app.state.settings.base_url.clone())
            .json(&json!({ "challenge_id": c["challenge_id"], "credential": answer }))
            .send()
            .await
            .unwrap();
        let cookie = res.headers().get("set-cookie").map(|v| v.to_str().unwrap().to_string());
        let (status, s) = body(res).await;
        assert_eq!(status, StatusCode::OK, "{s}");
        assert!(s.get("refresh_token").is_none(), "{s}");
        assert!(cookie.unwrap().starts_with("cw_refresh="));
    }
);

both!(
    async fn removing_a_passkey_needs_a_recent_password_and_mails_the_account(app) {
        let token = signed_in(&app, "rem@example.com").await;
        let mut authn = our_authenticator(&app);
        let p = register(&app, &token, &mut authn, "Old phone").await;
        let id = p["id"].as_str().unwrap();

        // Another account cannot remove it: the same 404 as none at all.
        let other = signed_in(&app, "other@example.com").await;
        let (status, v) = remove(&app, &other, id).await;
        assert_eq!((status, error_code(&v)), (StatusCode::NOT_FOUND, "passkey_not_found"), "{v}");
        let (status, v) = remove(&app, &token, "not-a-uuid").await;
        assert_eq!((status, error_code(&v)), (StatusCode::NOT_FOUND, "passkey_not_found"), "{v}");

        app.advance(time::Duration::minutes(16));
        let (status, v) = remove(&app, &token, id).await;
        assert_eq!((status, error_code(&v)), (StatusCode::FORBIDDEN, "reauthentication_required"), "{v}");
        assert_eq!(list(&app, &token).await.len(), 1);

        // The account has a passkey now: step-up asks for it as well as the password.
        let (_, c) = body(app.post_auth("/api/auth/passkeys/challenge", &token, json!({})).await).await;
        let passkey = json!({ "challenge_id": c["challenge_id"], "credential": authn.sign_in(&c["options"]) });
        let req = json!({ "password": PASSWORD, "passkey": passkey });
        let (status, v) = body(app.post_auth("/api/auth/reauthenticate", &token, req).await).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (status, _) = remove(&app, &token, id).await;
        assert_eq!(status, StatusCode::NO_CONTENT);
        assert!(list(&app, &token).await.is_empty());
        let mails = app.mails_to("rem@example.com").await;
        assert!(mails.iter().any(|m| m.kind == "passkey_removed" && m.text_body.contains("Old phone")));

        // Removed: it signs no one in any more.
        let (_, c) = challenge(&app, json!({})).await;
        let (status, v) = grant(&app, json!({ "challenge_id": c["challenge_id"], "credential": authn.sign_in(&c["options"]) })).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_passkey"), "{v}");
        let (status, v) = remove(&app, &token, id).await;
        assert_eq!((status, error_code(&v)), (StatusCode::NOT_FOUND, "passkey_not_found"), "{v}");
    }
);

both!(
    async fn a_challenge_is_stored_so_another_replica_verifies_the_answer(app) {
        let token = signed_in(&app, "rep@example.com").await;
        let mut authn = our_authenticator(&app);
        register(&app, &token, &mut authn, "Key").await;
        let (_, c) = challenge(&app, json!({})).await;
        let replica = spawn_replica(&app, |_| {}).await;
        let (status, s) = grant(&replica, json!({ "challenge_id": c["challenge_id"], "credential": authn.sign_in(&c["options"]) })).await;
        assert_eq!(status, StatusCode::OK, "{s}");
    }
);

both!(
    async fn the_passkey_list_and_registration_need_a_signed_in_caller(app) {
        let (status, v) = body(app.post("/api/auth/passkeys/registration", json!({ "name": "x" })).await).await;
        assert_eq!((status, error_code(&v)), (StatusCode::UNAUTHORIZED, "not_signed_in"), "{v}");
        let res = app.client.get(app.url("/api/auth/passkeys")).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    }
);
