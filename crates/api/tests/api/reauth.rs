//! A 1-hour access token must not become a 90-day session. Approving a device,
//! allowing the browser sign-in and handing over a team need the password entered on the session
//! within 15 minutes (`POST /api/auth/reauthenticate` or the sign-in), which refreshing never
//! renews; each new desktop session mails the account.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::both;
use crate::desktop_signin::{authorize, code_of, exchange, REDIRECT, VERIFIER};
use crate::device_signin::{poll, request_device};
use crate::helpers::*;
use crate::team::{call, join, team, user};

const PASSWORD: &str = "sales-pro-2026";

fn minutes(n: i64) -> time::Duration {
    time::Duration::minutes(n)
}

async fn approve(app: &TestApp, token: &str, user_code: &str) -> (StatusCode, Value) {
    body(
        app.post_auth(
            "/api/auth/device/approve",
            token,
            json!({ "user_code": user_code }),
        )
        .await,
    )
    .await
}

async fn reauthenticate(app: &TestApp, token: &str, password: &str) -> (StatusCode, Value) {
    body(
        app.post_auth(
            "/api/auth/reauthenticate",
            token,
            json!({ "password": password }),
        )
        .await,
    )
    .await
}

fn assert_reauth_required((status, v): (StatusCode, Value), case: &str) {
    assert_eq!(status, StatusCode::FORBIDDEN, "{case}: {v}");
    assert_eq!(error_code(&v), "reauthentication_required", "{case}: {v}");
}

/// Signs `email` up and in (a password entry): (access token, refresh token).
async fn signed_in(app: &TestApp, email: &str) -> (String, String) {
    let s = crate::helpers::signed_in_account(app, email, PASSWORD).await;
    (
        s["access_token"].as_str().unwrap().into(),
        s["refresh_token"].as_str().unwrap().into(),
    )
}

both!(
    async fn an_access_token_alone_cannot_approve_a_device_once_the_password_entry_is_old(app) {
        let (token, _) = signed_in(&app, "bo@example.com").await;
        app.advance(minutes(16));
        let d = request_device(&app).await;
        let user_code = d["user_code"].as_str().unwrap();
        // Looking the request up and denying it stay open to the token.
        let (status, v) = body(app.post_auth("/api/auth/device/lookup", &token, json!({ "user_code": user_code })).await).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_reauth_required(approve(&app, &token, user_code).await, "approve after 16 minutes");
        let (status, v) = poll(&app, d["device_code"].as_str().unwrap()).await;
        assert_eq!(v["error"], "authorization_pending", "{status} {v}");

        let (status, v) = reauthenticate(&app, &token, PASSWORD).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let until = time::OffsetDateTime::parse(v["reauthenticated_until"].as_str().unwrap(), &time::format_description::well_known::Rfc3339).unwrap();
        assert_eq!(until, app.state.clock.now() + minutes(15));
        let (status, v) = approve(&app, &token, user_code).await;
        assert_eq!((status, v["status"].as_str()), (StatusCode::OK, Some("approved")), "{v}");
        let (status, v) = poll(&app, d["device_code"].as_str().unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{v}");

        app.advance(minutes(16));
        let denied = request_device(&app).await;
        let (status, v) = body(app.post_auth("/api/auth/device/deny", &token, json!({ "user_code": denied["user_code"] })).await).await;
        assert_eq!((status, v["status"].as_str()), (StatusCode::OK, Some("denied")), "denying needs no password: {v}");
    }
);

both!(
    async fn an_access_token_alone_cannot_allow_the_browser_sign_in_once_the_password_entry_is_old(app) {
        let (token, _) = signed_in(&app, "ana@example.com").await;
        app.advance(minutes(15));
        assert_reauth_required(authorize(&app, &token, &[], "allow").await, "allow after 15 minutes");
        let (status, v) = authorize(&app, &token, &[], "deny").await;
        assert_eq!(status, StatusCode::OK, "denying needs no password: {v}");
        assert!(v["redirect_to"].as_str().unwrap().contains("error=access_denied"));

        assert_eq!(reauthenticate(&app, &token, PASSWORD).await.0, StatusCode::OK);
        let (status, v) = authorize(&app, &token, &[], "allow").await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (status, s) = body(exchange(&app, &code_of(v["redirect_to"].as_str().unwrap()), VERIFIER, REDIRECT).await).await;
        assert_eq!(status, StatusCode::OK, "{s}");
    }
);

both!(
    async fn the_window_closes_fifteen_minutes_after_the_password_was_entered(app) {
        let (token, _) = signed_in(&app, "ana@example.com").await;
        app.advance(minutes(15) - time::Duration::seconds(1));
        assert_eq!(authorize(&app, &token, &[], "allow").await.0, StatusCode::OK, "the sign-in's entry, 14:59 later");
        app.advance(time::Duration::seconds(1));
        assert_reauth_required(authorize(&app, &token, &[], "allow").await, "15:00 after the sign-in");
        assert_eq!(reauthenticate(&app, &token, PASSWORD).await.0, StatusCode::OK);
        app.advance(minutes(14));
        assert_eq!(authorize(&app, &token, &[], "allow").await.0, StatusCode::OK, "14 minutes after reauthenticating");
        app.advance(minutes(1));
        assert_reauth_required(authorize(&app, &token, &[], "allow").await, "15 minutes after reauthenticating");
    }
);

both!(
    async fn refreshing_the_session_does_not_renew_the_window(app) {
        let (_, refresh) = signed_in(&app, "ana@example.com").await;
        app.advance(minutes(10));
        let (status, s) = body(app.refresh(&refresh).await).await;
        assert_eq!(status, StatusCode::OK, "{s}");
        let fresh = s["access_token"].as_str().unwrap().to_string();
        assert_eq!(authorize(&app, &fresh, &[], "allow").await.0, StatusCode::OK, "10 minutes after the sign-in");
        app.advance(minutes(6));
        let (status, s) = body(app.refresh(s["refresh_token"].as_str().unwrap()).await).await;
        assert_eq!(status, StatusCode::OK, "{s}");
        let fresher = s["access_token"].as_str().unwrap();
        assert_reauth_required(authorize(&app, fresher, &[], "allow").await, "a token refreshed 16 minutes after the sign-in");
        let d = request_device(&app).await;
        assert_reauth_required(approve(&app, fresher, d["user_code"].as_str().unwrap()).await, "approving with it");
    }
);

both!(
    async fn a_device_session_cannot_approve_another_device_without_the_password(app) {
        let (web, _) = signed_in(&app, "bo@example.com").await;
        let (desktop, _) = crate::device_signin::device_session(&app, &web).await;
        let d = request_device(&app).await;
        assert_reauth_required(approve(&app, &desktop, d["user_code"].as_str().unwrap()).await, "a fresh device session");
        assert_reauth_required(authorize(&app, &desktop, &[], "allow").await, "a fresh device session");
    }
);

both!(
    async fn a_wrong_password_on_reauthenticate_is_401_and_counts_toward_the_sign_in_lockout(app) with |s| {
        s.limits.failed_signins_per_account_ip = 3;
        s.limits.failed_signins_per_account = 10;
    } {
        let (token, _) = signed_in(&app, "ana@example.com").await;
        app.advance(minutes(20));
        let (status, v) = reauthenticate(&app, &token, "wrong-pass").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{v}");
        assert_eq!((error_code(&v), error_message(&v)), ("invalid_credentials", "Invalid login credentials"));
        assert_reauth_required(authorize(&app, &token, &[], "allow").await, "after a wrong password");
        // Two failed sign-ins from the same address use up the rest of the (account, address) budget.
        for _ in 0..2 {
            let (status, v) = body(app.signin("ana@example.com", "wrong-pass").await).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
        }
        let (status, v) = reauthenticate(&app, &token, PASSWORD).await;
        assert_eq!((status, error_code(&v)), (StatusCode::TOO_MANY_REQUESTS, "rate_limited"), "{v}");
        let (status, v) = body(app.signin("ana@example.com", PASSWORD).await).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "the sign-in shares the budget: {v}");
        let (status, v) = reauthenticate(&app, "not-a-token", PASSWORD).await;
        assert_eq!((status, error_code(&v)), (StatusCode::UNAUTHORIZED, "invalid_token"), "{v}");
    }
);

fn assert_signin_mail(
    app: &TestApp,
    mail: &closewise_core::store::MailRow,
    device: &str,
    platform: &str,
    secrets: &[&str],
) {
    assert_eq!(mail.subject, "New sign-in to your Closewise account");
    let format = time::macros::format_description!(
        "[day padding:none] [month repr:short] [year], [hour]:[minute] UTC"
    );
    let at = app.state.clock.now().format(format).unwrap();
    for body in [&mail.text_body, &mail.html_body] {
        for part in [
            platform,
            "127.0.0.1",
            at.as_str(),
            "http://127.0.0.1:8080/settings#devices",
        ] {
            assert!(body.contains(part), "{part} in {body}");
        }
        for secret in secrets {
            assert!(!body.contains(secret), "no {secret} in {body}");
        }
    }
    assert!(
        mail.text_body.contains(device),
        "{device} in {}",
        mail.text_body
    );
    assert_eq!(mail.link, None, "no token link to scrub");
}

both!(
    async fn each_new_desktop_session_mails_the_account_its_device_address_and_time_and_no_token(app) {
        let (web, _) = signed_in(&app, "bo@example.com").await;
        let d = request_device(&app).await;
        assert_eq!(approve(&app, &web, d["user_code"].as_str().unwrap()).await.0, StatusCode::OK);
        assert!(app.mails_to("bo@example.com").await.iter().all(|m| m.kind != "new_signin"), "no mail before the session starts");
        let (status, s) = poll(&app, d["device_code"].as_str().unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{s}");
        let mails: Vec<_> = app.mails_to("bo@example.com").await.into_iter().filter(|m| m.kind == "new_signin").collect();
        assert_eq!(mails.len(), 1);
        let secrets = [s["access_token"].as_str().unwrap(), s["refresh_token"].as_str().unwrap(), d["device_code"].as_str().unwrap(), d["user_code"].as_str().unwrap()];
        assert_signin_mail(&app, &mails[0], "Bo's PC", "windows", &secrets);

        let (status, v) = authorize(&app, &web, &[], "allow").await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let code = code_of(v["redirect_to"].as_str().unwrap());
        let (status, s) = body(exchange(&app, &code, VERIFIER, REDIRECT).await).await;
        assert_eq!(status, StatusCode::OK, "{s}");
        let mails: Vec<_> = app.mails_to("bo@example.com").await.into_iter().filter(|m| m.kind == "new_signin").collect();
        assert_eq!(mails.len(), 2);
        let secrets = [s["access_token"].as_str().unwrap(), s["refresh_token"].as_str().unwrap(), code.as_str(), VERIFIER];
        assert_signin_mail(&app, &mails[0], "Ana's MacBook", "macos", &secrets);
        // A refused exchange starts nothing and mails nothing; a web sign-in is not a new device.
        assert_eq!(exchange(&app, &code, VERIFIER, REDIRECT).await.status(), StatusCode::BAD_REQUEST);
        assert_eq!(app.signin("bo@example.com", PASSWORD).await.status(), StatusCode::OK);
        assert_eq!(app.mails_to("bo@example.com").await.iter().filter(|m| m.kind == "new_signin").count(), 2);
    }
);

both!(
    async fn handing_over_a_team_needs_a_recent_password(app) {
        let owner = user(&app, "owner@acme.example").await;
        team(&app, &owner, "Acme", 3).await;
        let rep = join(&app, &owner, "rep@acme.example", "admin").await;
        app.advance(minutes(15));
        let transfer = || call(&app, Method::POST, "/api/team/transfer", Some(&owner.token), Some(json!({ "user_id": rep.id })));
        assert_reauth_required(transfer().await, "transfer 15 minutes after the sign-in");
        assert_eq!(reauthenticate(&app, &owner.token, PASSWORD).await.0, StatusCode::OK);
        let (status, v) = transfer().await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["team"]["role"], "admin", "{v}");
    }
);

both!(
    async fn changing_the_password_takes_the_current_password_as_the_fresh_entry(app) {
        let (token, _) = signed_in(&app, "ana@example.com").await;
        app.advance(minutes(30));
        // An access token alone cannot change it: the current password is the re-entry, and a
        // wrong one is a failed sign-in that opens nothing.
        let change = |current: &'static str| app.post_auth("/api/auth/password", &token, json!({ "current_password": current, "password": "new-pass-2026" }));
        let (status, v) = body(change("wrong-pass").await).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_credentials"), "{v}");
        assert_reauth_required(authorize(&app, &token, &[], "allow").await, "after a wrong current password");
        let (status, v) = body(change(PASSWORD).await).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(authorize(&app, &token, &[], "allow").await.0, StatusCode::OK, "the right one was a password entry");
    }
);
