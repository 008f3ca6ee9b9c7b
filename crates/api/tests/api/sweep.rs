//! The sweeper (`closewise_core::sweep`): expired device requests, authorization
//! codes, old e-mail links and the refresh tokens of ended sessions go, live ones stay; replicas
//! sweeping at once take turns; the API sweeps on its own; pending device requests have a global
//! cap (`503 too_many_device_requests`) that reopens once they are gone.

use closewise_core::sessions::opaque_tokens::hash_token;
use closewise_core::store::oauth::{NewDeviceCode, NewOauthCode};
use closewise_core::store::teams::sso::NewSsoLogin;
use closewise_core::sweep::Sweeper;
use reqwest::StatusCode;
use serde_json::json;
use time::Duration;
use uuid::Uuid;

use crate::both;
use crate::helpers::*;

const PASSWORD: &str = "sales-pro-2026";

async fn count(app: &TestApp, sql: &str) -> i64 {
    closewise_testkit::scalar(&app.database_url, sql).await
}

/// A device request and an authorization code made now, living `ttl`; `tag` names them.
async fn codes(app: &TestApp, user_id: Uuid, tag: &str, ttl: Duration) {
    let now = app.state.clock.now();
    let store = &app.state.store;
    store
        .insert_device_code(&NewDeviceCode {
            id: Uuid::now_v7(),
            device_code_hash: &hash_token(&format!("device-{tag}")),
            user_code: &format!("{:0>8}", tag.to_uppercase()),
            client_id: "closewise-desktop",
            device_name: tag,
            platform: "test",
            interval_secs: 5,
            now,
            expires_at: now + ttl,
            requested_ip: None,
        })
        .await
        .unwrap();
    store
        .insert_oauth_code(&NewOauthCode {
            id: Uuid::now_v7(),
            code_hash: &hash_token(&format!("code-{tag}")),
            user_id,
            client_id: "closewise-desktop",
            redirect_uri: "http://127.0.0.1:1234/callback",
            code_challenge: "challenge",
            device_name: Some(tag),
            platform: None,
            now,
            expires_at: now + ttl,
            sso: false,
        })
        .await
        .unwrap();
}

async fn device_request(app: &TestApp) -> reqwest::Response {
    app.post(
        "/api/auth/device",
        json!({ "client_id": "closewise-desktop", "device_name": "Ana's laptop", "platform": "macos" }),
    )
    .await
}

both!(
    async fn expired_rows_go_and_live_ones_stay(app) {
        let ana = app.signed_in_user("ana@example.com", PASSWORD).await;
        let ana_id: Uuid = ana["user"]["id"].as_str().unwrap().parse().unwrap();
        // An ended session (signed out) and a live one; a reset link; an unconfirmed sign-up.
        let (status, ended) = body(app.signin("ana@example.com", PASSWORD).await).await;
        assert_eq!(status, StatusCode::OK, "{ended}");
        let (status, v) = body(app.post_auth("/api/auth/logout", ended["access_token"].as_str().unwrap(), json!({})).await).await;
        assert!(status.is_success(), "{v}");
        let (status, v) = body(app.post("/api/auth/recover", json!({ "email": "ana@example.com" })).await).await;
        assert!(status.is_success(), "{v}");
        assert_eq!(app.signup("bo@example.com", PASSWORD).await.status(), StatusCode::OK);
        codes(&app, ana_id, "old1", Duration::minutes(15)).await;
        let tokens_before = count(&app, "SELECT COUNT(*) FROM refresh_tokens").await;
        assert_eq!(count(&app, "SELECT COUNT(*) FROM email_tokens").await, 3, "ana's two links, bo's one");

        // Within every retention, nothing goes.
        let sweeper = Sweeper::new(app.state.store.clone(), app.state.clock.clone());
        app.advance(Duration::minutes(30));
        let report = sweeper.sweep(app.state.clock.now()).await.unwrap();
        let rows = report.device_codes + report.oauth_codes + report.email_tokens + report.session_tokens;
        assert_eq!(rows, 0, "{report:?}");

        app.advance(Duration::days(8));
        codes(&app, ana_id, "new1", Duration::minutes(15)).await;
        // The live session refreshes, so its chain lives on.
        let (status, v) = body(app.refresh(ana["refresh_token"].as_str().unwrap()).await).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let report = sweeper.sweep(app.state.clock.now()).await.unwrap();
        assert_eq!((report.device_codes, report.oauth_codes), (1, 1), "{report:?}");
        assert_eq!(report.email_tokens, 2, "ana's spent verification and expired reset: {report:?}");
        assert_eq!(report.session_tokens, 1, "the signed-out session's token: {report:?}");
        assert_eq!(count(&app, "SELECT COUNT(*) FROM device_codes WHERE device_name = 'new1'").await, 1);
        assert_eq!(count(&app, "SELECT COUNT(*) FROM device_codes").await, 1);
        assert_eq!(count(&app, "SELECT COUNT(*) FROM oauth_codes").await, 1);
        assert_eq!(
            count(&app, "SELECT COUNT(*) FROM email_tokens t JOIN users u ON u.id = t.user_id WHERE u.email = 'bo@example.com'").await,
            1,
            "an unconfirmed sign-up keeps its link: it carries the password its sign-up chose"
        );
        assert_eq!(count(&app, "SELECT COUNT(*) FROM refresh_tokens").await, tokens_before + 1 - 1);
        assert_eq!(count(&app, "SELECT COUNT(*) FROM sessions").await, 2, "sessions stay: sign-in history");
        // The live session still refreshes after the sweep.
        let (status, v) = body(app.refresh(v["refresh_token"].as_str().unwrap()).await).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let again = sweeper.sweep(app.state.clock.now()).await.unwrap();
        assert_eq!(again.device_codes + again.oauth_codes + again.email_tokens + again.session_tokens, 0, "idempotent");
    }
);

both!(
    async fn sweeps_running_at_once_take_turns_and_delete_each_row_once(app) {
        let ana = app.signed_in_user("ana@example.com", PASSWORD).await;
        let ana_id: Uuid = ana["user"]["id"].as_str().unwrap().parse().unwrap();
        for n in 0..40 {
            codes(&app, ana_id, &format!("x{n}"), Duration::minutes(1)).await;
        }
        app.advance(Duration::days(2));
        let replica = spawn_replica(&app, |_| {}).await;
        let now = app.state.clock.now();
        let a = Sweeper::new(app.state.store.clone(), app.state.clock.clone());
        let b = Sweeper::new(replica.state.store.clone(), replica.state.clock.clone());
        let (ra, rb, rc) = tokio::join!(a.sweep(now), b.sweep(now), a.sweep(now));
        let reports = [ra.unwrap(), rb.unwrap(), rc.unwrap()];
        let devices: u64 = reports.iter().map(|r| r.device_codes).sum();
        let oauth: u64 = reports.iter().map(|r| r.oauth_codes).sum();
        assert_eq!((devices, oauth), (40, 40), "{reports:?}");
        assert_eq!(count(&app, "SELECT COUNT(*) FROM device_codes").await, 0);
    }
);

both!(
    async fn the_api_sweeps_on_its_own_at_its_interval(app) with |s| {
        s.sweep_interval = std::time::Duration::from_millis(50);
    } {
        let ana = app.signed_in_user("ana@example.com", PASSWORD).await;
        let ana_id: Uuid = ana["user"]["id"].as_str().unwrap().parse().unwrap();
        codes(&app, ana_id, "gone", Duration::minutes(1)).await;
        app.advance(Duration::days(2));
        codes(&app, ana_id, "kept", Duration::minutes(15)).await;
        let mut left = 2;
        for _ in 0..100 {
            left = count(&app, "SELECT COUNT(*) FROM device_codes").await;
            if left == 1 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(left, 1, "the background sweep removed the expired request only");
        assert_eq!(count(&app, "SELECT COUNT(*) FROM oauth_codes WHERE device_name = 'kept'").await, 1);
    }
);

both!(
    async fn the_device_request_cap_refuses_the_next_request_and_reopens_after_the_sweep(app) with |s| {
        s.device_requests_max_pending = 3;
        s.limits.device_per_ip = 1000;
    } {
        for n in 0..3 {
            let (status, v) = body(device_request(&app).await).await;
            assert_eq!(status, StatusCode::OK, "request {n}: {v}");
        }
        let res = device_request(&app).await;
        let retry_after = res.headers().get("retry-after").map(|h| h.to_str().unwrap().to_owned());
        let (status, v) = body(res).await;
        assert_eq!((status, error_code(&v)), (StatusCode::SERVICE_UNAVAILABLE, "too_many_device_requests"), "{v}");
        assert!(error_message(&v).contains("try again"), "{v}");
        assert_eq!(retry_after.as_deref(), Some("60"));
        assert_eq!(count(&app, "SELECT COUNT(*) FROM device_codes").await, 3, "nothing stored");

        app.advance(Duration::minutes(16) + Duration::hours(1));
        Sweeper::new(app.state.store.clone(), app.state.clock.clone())
            .sweep(app.state.clock.now())
            .await
            .unwrap();
        assert_eq!(count(&app, "SELECT COUNT(*) FROM device_codes").await, 0, "swept");
        let (status, v) = body(device_request(&app).await).await;
        assert_eq!(status, StatusCode::OK, "open again: {v}");
    }
);

both!(
    async fn expired_passkey_challenges_and_mfa_tokens_go_an_hour_after_they_expire(app) {
        crate::mfa::enrolled(&app, "swept2fa@example.com").await;
        let signin = json!({ "email": "swept2fa@example.com", "password": PASSWORD });
        let (status, v) = body(app.post("/api/auth/token?grant_type=password", signin.clone()).await).await;
        assert_eq!((status, error_code(&v)), (StatusCode::UNAUTHORIZED, "mfa_required"), "{v}");
        let (status, v) = body(app.post("/api/auth/passkeys/challenge", json!({})).await).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let challenges = || count(&app, "SELECT COUNT(*) FROM webauthn_challenges");
        let tokens = || count(&app, "SELECT COUNT(*) FROM mfa_tokens");
        assert_eq!((challenges().await, tokens().await), (1, 1));

        // Expired 25 minutes ago: still within the hour a late answer hears `challenge_expired`.
        let sweeper = Sweeper::new(app.state.store.clone(), app.state.clock.clone());
        app.advance(Duration::minutes(30));
        let report = sweeper.sweep(app.state.clock.now()).await.unwrap();
        assert_eq!((report.webauthn_challenges, report.mfa_tokens), (0, 0), "{report:?}");

        app.advance(Duration::hours(1));
        // Live ones made now stay.
        let (status, _) = body(app.post("/api/auth/passkeys/challenge", json!({})).await).await;
        assert_eq!(status, StatusCode::OK);
        let (status, _) = body(app.post("/api/auth/token?grant_type=password", signin).await).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        let report = sweeper.sweep(app.state.clock.now()).await.unwrap();
        assert_eq!((report.webauthn_challenges, report.mfa_tokens), (1, 1), "{report:?}");
        assert_eq!((challenges().await, tokens().await), (1, 1), "the live ones stay");
        let again = sweeper.sweep(app.state.clock.now()).await.unwrap();
        assert_eq!(again.total(), 0, "idempotent: {again:?}");
    }
);

both!(
    async fn sso_sign_ins_that_can_no_longer_finish_go(app) {
        let owner = crate::team::user(&app, "owner@acme.example").await;
        crate::team::team(&app, &owner, "Acme", 1).await;
        let store = &app.state.store;
        let (team_id, _) = store.membership_of(owner.id).await.unwrap().unwrap();
        let login = |state: &'static str| {
            let now = app.state.clock.now();
            async move {
                store
                    .insert_sso_login(&NewSsoLogin {
                        state_hash: state,
                        team_id,
                        nonce: "n",
                        pkce_verifier: "v",
                        next_path: None,
                        test: false,
                        now,
                        expires_at: now + Duration::minutes(10),
                        saml_email: None,
                        setup_link_id: None,
                    })
                    .await
                    .unwrap()
            }
        };
        login("gone").await;
        app.advance(Duration::minutes(11));
        login("kept").await;
        let sweeper = Sweeper::new(store.clone(), app.state.clock.clone());
        let report = sweeper.sweep(app.state.clock.now()).await.unwrap();
        assert_eq!(report.sso_logins, 1, "{report:?}");
        assert_eq!(count(&app, "SELECT COUNT(*) FROM sso_logins WHERE state_hash = 'kept'").await, 1);
        assert_eq!(count(&app, "SELECT COUNT(*) FROM sso_logins").await, 1);
        assert_eq!(sweeper.sweep(app.state.clock.now()).await.unwrap().sso_logins, 0, "idempotent");
    }
);
