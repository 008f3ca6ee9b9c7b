//! Require SSO holds on every way in, not only the password grant: the passkey grant, the desktop
//! app's browser sign-in (`/authorize` and its code) and device sign-in (approval and poll), and
//! the refresh of a session SSO did not start answer `403 sso_required` for an address at a domain
//! whose team requires SSO; turning the switch on ends every session SSO did not start of such an
//! address (members or not, desktop devices included). Sessions SSO started, and the desktop
//! sessions they allow, keep working.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use closewise_core::store::teams::domains::NewTeamDomain;

use super::*;
use crate::desktop_signin::{authorize, code_of, exchange, REDIRECT, VERIFIER};
use crate::device_signin::{device_session, poll, request_device};
use crate::passkeys::{challenge, grant, our_authenticator, register};

async fn device_call(app: &TestApp, what: &str, token: &str, code: &str) -> (StatusCode, Value) {
    call(
        app,
        Method::POST,
        &format!("/api/auth/device/{what}"),
        Some(token),
        Some(json!({ "user_code": code })),
    )
    .await
}

fn assert_sso_required((s, v): (StatusCode, Value), what: &str) {
    assert_eq!(
        (s, error_code(&v)),
        (StatusCode::FORBIDDEN, "sso_required"),
        "{what}: {v}"
    );
}

/// The session id (`sid`) of an access token.
fn sid(token: &str) -> uuid::Uuid {
    let payload = token.split('.').nth(1).unwrap();
    let claims: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap();
    claims["sid"].as_str().unwrap().parse().unwrap()
}

both!(
    async fn require_sso_refuses_every_grant_and_ends_every_session_sso_did_not_start(app) {
        let owner = owner_with_domain(&app, 5).await;
        let bo = format!("bo@{DOMAIN}");
        let member = join(&app, &owner, &bo, "member").await;
        // At the domain but in no team: Require SSO applies to the address all the same.
        let zed = user(&app, &format!("zed@{DOMAIN}")).await;
        let idp = Idp::start(&app, &[(&bo, true)]).await;
        connect(&app, &owner, &idp, false).await;

        // Before the switch, with password sessions: a passkey, a device signed in, a device
        // request approved and a desktop sign-in allowed but not yet redeemed.
        let mut authn = our_authenticator(&app);
        register(&app, &member.token, &mut authn, "Bo's key").await;
        let (device_token, device_refresh) = device_session(&app, &member.token).await;
        let pending = request_device(&app).await;
        let (s, v) = device_call(&app, "approve", &member.token, pending["user_code"].as_str().unwrap()).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let (s, v) = authorize(&app, &member.token, &[], "allow").await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let allowed = code_of(v["redirect_to"].as_str().unwrap());

        connect(&app, &owner, &idp, true).await;

        for (who, token) in [("the member", &member.token), ("their device", &device_token), ("a non-member at the domain", &zed.token)] {
            let (s, v) = call(&app, Method::GET, "/api/auth/user", Some(token), None).await;
            assert_eq!(s, StatusCode::UNAUTHORIZED, "{who}'s session ended: {v}");
        }
        let (s, _) = call(&app, Method::GET, "/api/auth/user", Some(&owner.token), None).await;
        assert_eq!(s, StatusCode::OK, "the owner keeps theirs");
        let (s, _) = body(app.refresh(&device_refresh).await).await;
        assert_eq!(s, StatusCode::UNAUTHORIZED, "the device's refresh token died with it");

        let (_, c) = challenge(&app, json!({})).await;
        let answer = authn.sign_in(&c["options"]);
        assert_sso_required(grant(&app, json!({ "challenge_id": c["challenge_id"], "credential": answer })).await, "the passkey grant");
        assert_sso_required(poll(&app, pending["device_code"].as_str().unwrap()).await, "a device approved before the switch");
        assert_sso_required(body(exchange(&app, &allowed, VERIFIER, REDIRECT).await).await, "a desktop sign-in allowed before the switch");

        // Signed in by SSO, the member may still sign their desktop app in, both ways, and those
        // sessions are SSO's: they refresh and outlive the switch turned on again.
        let browser = Browser::new();
        assert_eq!(browser.follow(&app, &start(&app, &bo, "/dashboard")).await, "/dashboard");
        let (s, web) = browser.session(&app).await;
        assert_eq!(s, StatusCode::OK, "{web}");
        let web = web["access_token"].as_str().unwrap().to_string();
        // The step-up a desktop sign-in asks for (given here as a re-authentication would).
        let now = app.state.clock.now();
        assert!(app.state.store.stamp_password(sid(&web), member.id, now).await.unwrap());
        assert!(app.state.store.stamp_mfa(sid(&web), member.id, now).await.unwrap(), "bo has a passkey: the factor too");
        let (s, v) = authorize(&app, &web, &[], "allow").await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let (s, desktop) = body(exchange(&app, &code_of(v["redirect_to"].as_str().unwrap()), VERIFIER, REDIRECT).await).await;
        assert_eq!(s, StatusCode::OK, "{desktop}");
        let (device, _) = device_session(&app, &web).await;
        connect(&app, &owner, &idp, false).await;
        connect(&app, &owner, &idp, true).await;
        let (s, v) = body(app.refresh(desktop["refresh_token"].as_str().unwrap()).await).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let (s, _) = call(&app, Method::GET, "/api/auth/user", Some(&device), None).await;
        assert_eq!(s, StatusCode::OK, "the device SSO allowed kept its session");
    }
);

both!(
    async fn a_domain_verified_under_require_sso_ends_its_sessions_at_refresh_and_refuses_them_everything(app) {
        let owner = owner_with_domain(&app, 5).await;
        let idp = Idp::start(&app, &[]).await;
        connect(&app, &owner, &idp, true).await;
        // Signed in by password at a domain the team verifies only now.
        let cy = crate::helpers::signed_in_account(&app, "cy@beta.example", "sales-pro-2026").await;
        let (token, refresh) = (cy["access_token"].as_str().unwrap().to_string(), cy["refresh_token"].as_str().unwrap().to_string());
        let (team_id, _) = app.state.store.membership_of(owner.id).await.unwrap().unwrap();
        let id = uuid::Uuid::now_v7();
        let now = app.state.clock.now();
        let new = NewTeamDomain { id, team_id, domain: "beta.example", txt_token: "t2", created_by: Some(owner.id), now };
        assert!(app.state.store.insert_team_domain(&new).await.unwrap());
        assert!(app.state.store.mark_team_domain_verified(id, now).await.unwrap());

        let (s, _) = call(&app, Method::GET, "/api/auth/user", Some(&token), None).await;
        assert_eq!(s, StatusCode::OK, "the access token lives out its minutes");
        assert_sso_required(authorize(&app, &token, &[], "allow").await, "allowing a desktop sign-in");
        let d = request_device(&app).await;
        assert_sso_required(device_call(&app, "approve", &token, d["user_code"].as_str().unwrap()).await, "approving a device");
        assert_sso_required(body(app.refresh(&refresh).await).await, "the refresh of a password session");
        let (s, _) = call(&app, Method::GET, "/api/auth/user", Some(&token), None).await;
        assert_eq!(s, StatusCode::UNAUTHORIZED, "the refresh ended the session");
    }
);
