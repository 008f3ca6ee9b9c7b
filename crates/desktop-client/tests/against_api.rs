//! The client against the real API (`closewise-testkit` spawns it on port 0 with a fresh SQLite
//! database): the session (refresh, logout) and the desktop flows (browser and device sign-in,
//! entitlements online and offline, calls), as docs/api.md describes them.
//! The test plays the user in the browser by calling the same endpoints the web pages call.

use std::sync::Arc;

use closewise_desktop_client::entitlement::Jwks;
use closewise_desktop_client::{
    Client, Error, Logout, LogoutScope, MemoryStore, SignInOptions, Source, StoredSession,
    TokenStore,
};
use closewise_testkit::app::{body, spawn_app_with, Backend, TestApp};
use reqwest::StatusCode;
use serde_json::{json, Value};

const PASSWORD: &str = "correct horse battery staple 1";

async fn spawn() -> TestApp {
    spawn_app_with(Backend::Sqlite, |_| {}).await
}

/// The test server's key, pinned as a deployment other than production pins its own.
fn keys_of(app: &TestApp) -> Jwks {
    serde_json::from_value(app.state.keys.jwks()).unwrap()
}

/// A client of `app`, its store shared with the test. Entitlement tokens name `APP_BASE_URL`.
fn client_of(app: &TestApp) -> (Client, Arc<MemoryStore>) {
    let store = Arc::new(MemoryStore::new());
    let client = Client::new(&app.address, store.clone())
        .unwrap()
        .with_app_url(app.state.settings.base_url.clone())
        .with_entitlement_keys(keys_of(app));
    (client, store)
}

/// The same store, with the API out of reach.
fn offline_client_of(app: &TestApp, store: Arc<MemoryStore>) -> Client {
    Client::new("http://127.0.0.1:9", store)
        .unwrap()
        .with_app_url(app.state.settings.base_url.clone())
        .with_entitlement_keys(keys_of(app))
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

/// A confirmed user signed in with a password as a native client would: the session as stored.
async fn stored_session(app: &TestApp, email: &str) -> StoredSession {
    as_stored(app.signed_in_user(email, PASSWORD).await)
}

fn as_stored(s: Value) -> StoredSession {
    StoredSession {
        refresh_token: s["refresh_token"]
            .as_str()
            .expect("native: in the body")
            .into(),
        access_token: s["access_token"].as_str().unwrap().into(),
        expires_at: s["expires_at"].as_i64().unwrap(),
        user_id: s["user"]["id"].as_str().unwrap().into(),
        email: s["user"]["email"].as_str().unwrap().into(),
        entitlement_token: None,
        highest_seen: 0,
    }
}

#[tokio::test]
async fn an_access_token_about_to_expire_is_refreshed_and_the_rotated_refresh_token_kept() {
    let app = spawn().await;
    let (client, store) = client_of(&app);
    let mut session = stored_session(&app, "ana@example.com").await;
    session.expires_at = now() - 1;
    store.save(&session).unwrap();

    let user = client.user().await.unwrap();

    assert_eq!(user.email, "ana@example.com");
    let stored = store.load().unwrap().unwrap();
    assert_ne!(stored.refresh_token, session.refresh_token, "rotated");
    assert!(stored.expires_at > now());
    let (status, _) = body(app.refresh(&stored.refresh_token).await).await;
    assert_eq!(status, StatusCode::OK, "the stored token is the live one");
}

#[tokio::test]
async fn a_rejected_access_token_is_refreshed_once_and_the_request_retried() {
    let app = spawn().await;
    let (client, store) = client_of(&app);
    let mut session = stored_session(&app, "ana@example.com").await;
    session.access_token = "not-a-token".into();
    store.save(&session).unwrap();

    assert_eq!(client.user().await.unwrap().email, "ana@example.com");
    assert_ne!(store.load().unwrap().unwrap().access_token, "not-a-token");
}

#[tokio::test]
async fn a_refused_refresh_means_signed_out_and_clears_the_store() {
    let app = spawn().await;
    let (client, store) = client_of(&app);
    let mut session = stored_session(&app, "ana@example.com").await;
    session.refresh_token = "unknown-refresh-token".into();
    session.expires_at = now() - 1;
    store.save(&session).unwrap();

    let result = client.user().await;

    assert!(matches!(result, Err(Error::SignedOut)), "{result:?}");
    assert_eq!(store.load().unwrap(), None);
}

#[tokio::test]
async fn logout_ends_the_session_on_the_server_and_forgets_it_here() {
    let app = spawn().await;
    let (client, store) = client_of(&app);
    let session = stored_session(&app, "ana@example.com").await;
    store.save(&session).unwrap();

    assert_eq!(
        client.logout(LogoutScope::Local).await.unwrap(),
        Logout::Server
    );

    assert_eq!(store.load().unwrap(), None);
    let (status, _) = body(app.refresh(&session.refresh_token).await).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "the session has ended");
    assert!(matches!(
        client.logout(LogoutScope::Local).await,
        Err(Error::SignedOut)
    ));
}

/// Plays the user's browser: a web session for `email`, then the consent page's "Allow".
async fn allow_in_browser(app: &TestApp, email: &str, authorize_url: &str) -> String {
    let web = app.signed_in_user(email, PASSWORD).await;
    let token = web["access_token"].as_str().unwrap();
    let url = reqwest::Url::parse(authorize_url).unwrap();
    let mut form: serde_json::Map<String, Value> = url
        .query_pairs()
        .map(|(k, v)| (k.into_owned(), Value::String(v.into_owned())))
        .collect();
    form.insert("decision".into(), "allow".into());
    let (status, answer) = body(
        app.post_auth("/api/auth/authorize", token, Value::Object(form))
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    answer["redirect_to"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn browser_sign_in_stores_a_session() {
    let app = spawn().await;
    let (client, store) = client_of(&app);
    let (tx, rx) = tokio::sync::oneshot::channel();
    let options = SignInOptions::default();
    let signing_in = client.sign_in_with_browser(&options, |url| {
        tx.send(url.to_string()).unwrap();
        Ok(())
    });
    let browser = async {
        let redirect = allow_in_browser(&app, "ana@example.com", &rx.await.unwrap()).await;
        reqwest::get(redirect).await.unwrap().text().await.unwrap()
    };
    let (user, page) = tokio::join!(signing_in, browser);
    assert_eq!(user.unwrap().email, "ana@example.com");
    assert!(page.contains("You can return to the Closewise app"));
    let stored = store.load().unwrap().unwrap();
    assert_eq!(stored.email, "ana@example.com");
}

#[tokio::test]
async fn device_sign_in_completes_once_the_user_approves_the_code() {
    let app = spawn().await;
    let (client, _) = client_of(&app);
    let web = app.signed_in_user("ana@example.com", PASSWORD).await;
    let token = web["access_token"].as_str().unwrap().to_string();
    let (tx, rx) = tokio::sync::oneshot::channel();
    let options = SignInOptions::default();
    let signing_in = client.sign_in_with_device(&options, |auth| {
        tx.send(auth.user_code.clone()).unwrap();
    });
    let approve = async {
        let code = rx.await.unwrap();
        let (status, answer) = body(
            app.post_auth(
                "/api/auth/device/approve",
                &token,
                json!({ "user_code": code }),
            )
            .await,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
    };
    let (user, ()) = tokio::join!(signing_in, approve);
    assert_eq!(user.unwrap().email, "ana@example.com");
}

#[tokio::test]
async fn entitlements_verify_online_and_answer_offline_from_the_stored_token() {
    let app = spawn().await;
    let (client, store) = client_of(&app);
    store
        .save(&stored_session(&app, "ana@example.com").await)
        .unwrap();

    let online = client.entitlements().await.unwrap();
    assert_eq!(online.source, Source::Online);
    assert_eq!(online.plan_type, "free");
    assert_eq!(online.calls.as_ref().map(|c| c.limit), Some(5));
    assert!(store.load().unwrap().unwrap().entitlement_token.is_some());

    let offline = offline_client_of(&app, store.clone());
    assert_eq!(
        offline.entitlements().await.unwrap().source,
        Source::Offline
    );
}

#[tokio::test]
async fn an_entitlement_token_names_its_session_and_another_session_s_is_refused_offline() {
    let app = spawn().await;
    let (client, store) = client_of(&app);
    store
        .save(&stored_session(&app, "ana@example.com").await)
        .unwrap();
    client.entitlements().await.unwrap();
    let ours = store.load().unwrap().unwrap();
    let token = ours.entitlement_token.clone().unwrap();
    let payload = token.split('.').nth(1).unwrap();
    use base64::Engine;
    let claims: Value = serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(payload)
            .unwrap(),
    )
    .unwrap();
    let sid = claims["sid"]
        .as_str()
        .expect("the session id is in the token");
    let access: Value = serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(ours.access_token.split('.').nth(1).unwrap())
            .unwrap(),
    )
    .unwrap();
    assert_eq!(access["sid"].as_str(), Some(sid));

    // The same user's other session (another device) holding this session's token.
    let (status, second) = body(app.signin("ana@example.com", PASSWORD).await).await;
    assert_eq!(status, StatusCode::OK, "{second}");
    let mut other = as_stored(second);
    other.entitlement_token = Some(token);
    let other_store = Arc::new(MemoryStore::new());
    other_store.save(&other).unwrap();
    let answer = offline_client_of(&app, other_store).entitlements().await;
    assert!(
        matches!(&answer, Err(Error::InvalidEntitlement(why)) if why.contains("another session")),
        "{answer:?}"
    );
}

#[tokio::test]
async fn a_client_that_does_not_pin_the_server_s_key_refuses_its_entitlement_tokens() {
    let app = spawn().await;
    let store = Arc::new(MemoryStore::new());
    store
        .save(&stored_session(&app, "ana@example.com").await)
        .unwrap();
    let other_key = serde_json::json!({ "keys": [{ "kty": "OKP", "crv": "Ed25519",
        "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", "kid": "other" }] });
    let client = Client::new(&app.address, store.clone())
        .unwrap()
        .with_app_url(app.state.settings.base_url.clone())
        .with_entitlement_keys(serde_json::from_value(other_key).unwrap());
    let answer = client.entitlements().await;
    assert!(
        matches!(answer, Err(Error::InvalidEntitlement(_))),
        "{answer:?}"
    );
    assert!(store.load().unwrap().unwrap().entitlement_token.is_none());
}

#[tokio::test]
async fn the_free_trial_meters_calls_and_says_when_they_are_used_up() {
    let app = spawn().await;
    let (client, store) = client_of(&app);
    store
        .save(&stored_session(&app, "ana@example.com").await)
        .unwrap();

    let first = client.start_call(Some("call-1")).await.unwrap();
    assert!(first.created);
    let again = client.start_call(Some("call-1")).await.unwrap();
    assert_eq!(
        (again.call_id.as_str(), again.created),
        (first.call_id.as_str(), false)
    );
    assert_eq!(
        client.heartbeat(&first.call_id).await.unwrap().ended_at,
        None
    );
    client.end_call(&first.call_id).await.unwrap();
    assert!(matches!(
        client.heartbeat(&first.call_id).await,
        Err(Error::CallEnded(_))
    ));
    for _ in 0..4 {
        client.start_call(None).await.unwrap();
    }
    let used_up = client.start_call(None).await.unwrap_err();
    assert!(matches!(used_up, Error::FreeCallsUsedUp(_)), "{used_up:?}");
    assert!(used_up.to_string().contains("5 free calls"));
    assert!(matches!(
        client
            .end_call("00000000-0000-0000-0000-000000000000")
            .await,
        Err(Error::CallNotFound(_))
    ));
}

#[tokio::test]
async fn online_the_server_s_token_resets_a_highest_time_that_was_far_ahead() {
    let app = spawn().await;
    let (client, store) = client_of(&app);
    let mut session = stored_session(&app, "ana@example.com").await;
    // Once run with a clock a year ahead: offline, every token would look expired.
    session.highest_seen = now() + 365 * 86_400;
    store.save(&session).unwrap();
    assert_eq!(client.entitlements().await.unwrap().source, Source::Online);
    let seen = store.load().unwrap().unwrap().highest_seen;
    assert!(seen <= now() + 5, "{seen}");
    let offline = offline_client_of(&app, store.clone());
    assert_eq!(
        offline.entitlements().await.unwrap().source,
        Source::Offline
    );
}

#[tokio::test]
async fn a_paid_call_whose_plan_lapsed_ends_at_the_next_heartbeat_with_its_reason() {
    let app = spawn().await;
    let (client, store) = client_of(&app);
    store
        .save(&stored_session(&app, "ana@example.com").await)
        .unwrap();
    let plan = |set: &str| {
        format!(
            "UPDATE user_plans SET {set} WHERE user_id = \
             (SELECT id FROM users WHERE email = 'ana@example.com')"
        )
    };
    client.entitlements().await.unwrap();
    app.execute(&plan("plan_type = 'monthly', status = 'active'"))
        .await;
    let call = client.start_call(None).await.unwrap();
    assert_eq!(call.max_seconds, None, "a paid call");
    assert!(client.heartbeat(&call.call_id).await.is_ok());
    app.execute(&plan("status = 'inactive'")).await;
    let lapsed = client.heartbeat(&call.call_id).await.unwrap_err();
    assert!(matches!(&lapsed, Error::PlanLapsed(_)), "{lapsed:?}");
    assert_eq!(lapsed.code(), Some("plan_lapsed"));
    assert!(lapsed.to_string().contains("no longer active"), "{lapsed}");
}
