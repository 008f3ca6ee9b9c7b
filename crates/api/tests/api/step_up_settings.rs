//! A stolen access token, a desktop app's session or an SSO session must not mint a lasting
//! credential or rewrite how a team signs in: adding a second factor (a passkey, an authenticator
//! app, new recovery codes) and every identity setting of a team (single sign-on, SCIM tokens,
//! domain claims and removal, Require 2FA and Require SSO) need the same step-up as approving a
//! device: the password (and the factor, when the account has one) given on the session within
//! 15 minutes, else `403 reauthentication_required`.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::both;
use crate::device_signin::device_session;
use crate::helpers::*;
use crate::team::{call, team, user, User, PASSWORD};

fn minutes(n: i64) -> time::Duration {
    time::Duration::minutes(n)
}

fn assert_reauth_required((status, v): (StatusCode, Value), case: &str) {
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::FORBIDDEN, "reauthentication_required"),
        "{case}: {v}"
    );
}

async fn reauthenticate(app: &TestApp, token: &str) {
    let (status, v) = call(
        app,
        Method::POST,
        "/api/auth/reauthenticate",
        Some(token),
        Some(json!({ "password": PASSWORD })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
}

async fn post(app: &TestApp, token: &str, path: &str, body: Value) -> (StatusCode, Value) {
    call(app, Method::POST, path, Some(token), Some(body)).await
}

/// Every way to add a factor, each refused to `token`.
async fn assert_no_factor_can_be_added(
    app: &TestApp,
    token: &str,
    fresh_challenge: &Value,
    case: &str,
) {
    let registration = json!({ "name": "Attacker's key" });
    assert_reauth_required(
        post(app, token, "/api/auth/passkeys/registration", registration).await,
        &format!("{case}: passkey options"),
    );
    let finish =
        json!({ "challenge_id": fresh_challenge, "name": "Attacker's key", "credential": {} });
    assert_reauth_required(
        post(app, token, "/api/auth/passkeys", finish).await,
        &format!("{case}: passkey finish"),
    );
    assert_reauth_required(
        post(app, token, "/api/auth/mfa/totp", json!({})).await,
        &format!("{case}: app enrolment"),
    );
    let code = json!({ "code": "000000" });
    assert_reauth_required(
        post(app, token, "/api/auth/mfa/totp/confirm", code.clone()).await,
        &format!("{case}: app confirmation"),
    );
    assert_reauth_required(
        post(app, token, "/api/auth/mfa/recovery-codes", code).await,
        &format!("{case}: new recovery codes"),
    );
}

both!(
    async fn adding_a_second_factor_needs_a_recent_step_up(app) {
        let ana = user(&app, "ana@example.com").await;
        let (status, o) = post(&app, &ana.token, "/api/auth/passkeys/registration", json!({ "name": "Key" })).await;
        assert_eq!(status, StatusCode::OK, "within the sign-in's window: {o}");
        app.advance(minutes(16));
        assert_no_factor_can_be_added(&app, &ana.token, &o["challenge_id"], "16 minutes after the sign-in").await;
        let (_, mfa) = call(&app, Method::GET, "/api/auth/mfa", Some(&ana.token), None).await;
        assert_eq!((mfa["totp"].as_bool(), mfa["passkeys"].as_u64()), (Some(false), Some(0)), "{mfa}");

        reauthenticate(&app, &ana.token).await;
        let (status, v) = post(&app, &ana.token, "/api/auth/passkeys/registration", json!({ "name": "Key" })).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (status, v) = post(&app, &ana.token, "/api/auth/mfa/totp", json!({})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (status, v) = post(&app, &ana.token, "/api/auth/mfa/totp/confirm", json!({ "code": "000000" })).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_code"), "past the step-up: {v}");
    }
);

both!(
    async fn a_desktop_session_cannot_add_a_factor_until_the_password_is_entered_on_it(app) {
        let ana = user(&app, "desk@example.com").await;
        let (status, o) = post(&app, &ana.token, "/api/auth/passkeys/registration", json!({ "name": "Key" })).await;
        assert_eq!(status, StatusCode::OK, "{o}");
        let (desktop, _) = device_session(&app, &ana.token).await;
        assert_no_factor_can_be_added(&app, &desktop, &o["challenge_id"], "a fresh device session").await;
        reauthenticate(&app, &desktop).await;
        let (status, v) = post(&app, &desktop, "/api/auth/mfa/totp", json!({})).await;
        assert_eq!(status, StatusCode::OK, "once the password was entered on it: {v}");
    }
);

async fn policy(app: &TestApp, owner: &User) -> Value {
    let (status, v) = call(
        app,
        Method::GET,
        "/api/team/policy",
        Some(&owner.token),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v["policy"].clone()
}

/// Every identity setting of the team, each refused to `owner`'s stale session; nothing changes.
async fn assert_no_identity_setting_changes(app: &TestApp, owner: &User, domain_id: &str) {
    let t = Some(owner.token.as_str());
    let sso = json!({ "issuer": "https://idp.acme.example", "client_id": "c", "client_secret": "s", "required": false });
    assert_reauth_required(
        call(app, Method::PUT, "/api/team/sso", t, Some(sso)).await,
        "PUT sso",
    );
    assert_reauth_required(
        call(app, Method::DELETE, "/api/team/sso", t, None).await,
        "DELETE sso",
    );
    assert_reauth_required(
        call(
            app,
            Method::POST,
            "/api/team/scim/tokens",
            t,
            Some(json!({ "name": "Okta" })),
        )
        .await,
        "SCIM token",
    );
    let claim = json!({ "domain": "second.example" });
    assert_reauth_required(
        call(app, Method::POST, "/api/team/domains", t, Some(claim)).await,
        "domain claim",
    );
    let path = format!("/api/team/domains/{domain_id}");
    assert_reauth_required(
        call(app, Method::DELETE, &path, t, None).await,
        "domain removal",
    );
    let on = json!({ "required": true });
    assert_reauth_required(
        call(app, Method::PUT, "/api/team/mfa-policy", t, Some(on)).await,
        "mfa-policy",
    );
    let mut p = policy(app, owner).await;
    p["require_mfa"] = json!(true);
    assert_reauth_required(
        call(app, Method::PUT, "/api/team/policy", t, Some(p.clone())).await,
        "policy: require_mfa",
    );
    p["require_mfa"] = json!(false);
    p["require_sso"] = json!(true);
    assert_reauth_required(
        call(app, Method::PUT, "/api/team/policy", t, Some(p)).await,
        "policy: require_sso",
    );

    let (_, tokens) = call(app, Method::GET, "/api/team/scim/tokens", t, None).await;
    assert_eq!(tokens["tokens"], json!([]), "{tokens}");
    let (_, domains) = call(app, Method::GET, "/api/team/domains", t, None).await;
    assert_eq!(
        domains["domains"].as_array().map(Vec::len),
        Some(1),
        "{domains}"
    );
    let p = policy(app, owner).await;
    assert_eq!(
        (p["require_mfa"].as_bool(), p["require_sso"].as_bool()),
        (Some(false), Some(false)),
        "{p}"
    );
}

both!(
    async fn a_teams_identity_settings_need_a_recent_step_up(app) {
        let owner = user(&app, "owner@acme.example").await;
        team(&app, &owner, "Acme", 2).await;
        let t = Some(owner.token.as_str());
        let (status, d) = call(&app, Method::POST, "/api/team/domains", t, Some(json!({ "domain": "acme.example" }))).await;
        assert_eq!(status, StatusCode::CREATED, "within the sign-in's window: {d}");
        let domain_id = d["id"].as_str().unwrap().to_owned();
        app.advance(minutes(16));
        assert_no_identity_setting_changes(&app, &owner, &domain_id).await;

        // The rest of the policy stays open to the session: only the sign-in switches ask.
        let mut p = policy(&app, &owner).await;
        p["retention_days"] = json!(7);
        let (status, v) = call(&app, Method::PUT, "/api/team/policy", t, Some(p.clone())).await;
        assert_eq!(status, StatusCode::OK, "{v}");

        // A desktop session of the owner is refused the same way until the password is entered.
        let (desktop, _) = {
            reauthenticate(&app, &owner.token).await;
            device_session(&app, &owner.token).await
        };
        app.advance(minutes(16));
        let owner_desktop = User { id: owner.id, token: desktop.clone() };
        assert_no_identity_setting_changes(&app, &owner_desktop, &domain_id).await;

        reauthenticate(&app, &owner.token).await;
        p["require_mfa"] = json!(true);
        let (status, v) = call(&app, Method::PUT, "/api/team/policy", t, Some(p)).await;
        assert_eq!((status, v["policy"]["require_mfa"].as_bool()), (StatusCode::OK, Some(true)), "{v}");
        let (status, v) = call(&app, Method::PUT, "/api/team/mfa-policy", t, Some(json!({ "required": false }))).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (status, v) = call(&app, Method::POST, "/api/team/scim/tokens", t, Some(json!({ "name": "Okta" }))).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        let (status, v) = call(&app, Method::DELETE, "/api/team/sso", t, None).await;
        assert_eq!((status, error_code(&v)), (StatusCode::NOT_FOUND, "sso_not_configured"), "past the step-up: {v}");
        let (status, v) = call(&app, Method::POST, "/api/team/domains", t, Some(json!({ "domain": "second.example" }))).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        let path = format!("/api/team/domains/{domain_id}");
        let (status, v) = call(&app, Method::DELETE, &path, t, None).await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{v}");
    }
);
