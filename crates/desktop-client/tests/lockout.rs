//! "Locked out within a minute": a rep the team's identity provider deactivates (or
//! deletes) through SCIM is stopped at the next call the app starts while it reaches the API:
//! the API refuses the call and the refresh, and the client drops the stored session, entitlement
//! token included, instead of falling back to the offline grace. The grace is for an unreachable
//! API only. Against the real API on SQLite (`closewise-testkit`).

use std::sync::Arc;

use closewise_core::store::teams::domains::NewTeamDomain;
use closewise_desktop_client::entitlement::Jwks;
use closewise_desktop_client::{Client, Error, MemoryStore, Source, StoredSession, TokenStore};
use closewise_testkit::app::{body, spawn_app_with, Backend, TestApp};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use uuid::Uuid;

const PASSWORD: &str = "correct horse battery staple 1";

fn client_of(app: &TestApp, store: Arc<MemoryStore>, base: &str) -> Client {
    let keys: Jwks = serde_json::from_value(app.state.keys.jwks()).unwrap();
    Client::new(base, store)
        .unwrap()
        .with_app_url(app.state.settings.base_url.clone())
        .with_entitlement_keys(keys)
}

async fn api(app: &TestApp, method: Method, path: &str, token: &str, json: Option<Value>) -> Value {
    let mut req = app.client.request(method, app.url(path)).bearer_auth(token);
    if let Some(j) = json {
        req = req.json(&j);
    }
    let (status, v) = body(req.send().await.unwrap()).await;
    assert!(status.is_success(), "{path}: {status} {v}");
    v
}

/// A team at acme.test with two seats, its domain verified: its SCIM token.
async fn acme(app: &TestApp) -> String {
    let owner = app.signed_in_user("owner@acme.test", PASSWORD).await;
    let token = owner["access_token"].as_str().unwrap();
    let owner_id: Uuid = owner["user"]["id"].as_str().unwrap().parse().unwrap();
    api(
        app,
        Method::POST,
        "/api/team",
        token,
        Some(json!({"name": "Acme"})),
    )
    .await;
    let store = &app.state.store;
    let (team_id, _) = store.membership_of(owner_id).await.unwrap().unwrap();
    let now = app.state.clock.now();
    store.set_team_seats(team_id, 2, now).await.unwrap();
    let id = Uuid::now_v7();
    let domain = NewTeamDomain {
        id,
        team_id,
        domain: "acme.test",
        txt_token: "t",
        created_by: Some(owner_id),
        now,
    };
    assert!(store.insert_team_domain(&domain).await.unwrap());
    assert!(store.mark_team_domain_verified(id, now).await.unwrap());
    let v = api(
        app,
        Method::POST,
        "/api/team/scim/tokens",
        token,
        Some(json!({"name": "Okta"})),
    )
    .await;
    v["token"].as_str().unwrap().to_owned()
}

async fn scim(app: &TestApp, method: Method, path: &str, token: &str, json: Value) -> Value {
    let res = app
        .client
        .request(method, app.url(&format!("/scim/v2{path}")))
        .bearer_auth(token)
        .header("content-type", "application/scim+json")
        .body(json.to_string())
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success(), "{path}: {}", res.status());
    res.json().await.unwrap_or(Value::Null)
}

fn stored(s: &Value) -> StoredSession {
    StoredSession {
        refresh_token: s["refresh_token"].as_str().unwrap().into(),
        access_token: s["access_token"].as_str().unwrap().into(),
        expires_at: s["expires_at"].as_i64().unwrap(),
        user_id: s["user"]["id"].as_str().unwrap().into(),
        email: s["user"]["email"].as_str().unwrap().into(),
        entitlement_token: None,
        highest_seen: 0,
    }
}

/// The rep is provisioned, signed in on the app with a fresh entitlement token, then removed by
/// `removal`; the next call and the entitlement refresh fail, the store is empty, and the grace
/// is gone even with the API out of reach afterwards.
async fn removed_rep_is_locked_out(removal: impl Fn(String) -> (Method, String, Value)) {
    let app = spawn_app_with(Backend::Sqlite, |_| {}).await;
    let scim_token = acme(&app).await;
    let rep = app.signed_in_user("rep@acme.test", PASSWORD).await;
    let user = json!({"schemas": ["urn:ietf:params:scim:schemas:core:2.0:User"],
                      "userName": "rep@acme.test", "active": true});
    let created = scim(&app, Method::POST, "/Users", &scim_token, user).await;
    let store = Arc::new(MemoryStore::new());
    store.save(&stored(&rep)).unwrap();
    let client = client_of(&app, store.clone(), &app.address);
    assert_eq!(client.entitlements().await.unwrap().source, Source::Online);
    client.start_call(Some("before")).await.unwrap();
    let offline = client_of(&app, store.clone(), "http://127.0.0.1:9");
    assert_eq!(
        offline.entitlements().await.unwrap().source,
        Source::Offline
    );

    let started = std::time::Instant::now();
    let (method, path, json) = removal(created["id"].as_str().unwrap().to_owned());
    scim(&app, method, &path, &scim_token, json).await;
    let refused = client.start_call(Some("after")).await;
    assert!(matches!(refused, Err(Error::SignedOut)), "{refused:?}");
    assert!(
        store.load().unwrap().is_none(),
        "the stored session is dropped"
    );
    let refreshed = client.entitlements().await;
    assert!(matches!(refreshed, Err(Error::SignedOut)), "{refreshed:?}");
    let offline = offline.entitlements().await;
    assert!(
        matches!(offline, Err(Error::SignedOut)),
        "no grace after a refusal: {offline:?}"
    );
    assert!(started.elapsed().as_secs() < 60);
}

#[tokio::test]
async fn a_rep_deactivated_through_scim_cannot_start_the_next_call() {
    removed_rep_is_locked_out(|id| {
        let patch = json!({"Operations": [{"op": "replace", "path": "active", "value": false}]});
        (Method::PATCH, format!("/Users/{id}"), patch)
    })
    .await;
}

#[tokio::test]
async fn a_rep_deleted_through_scim_cannot_start_the_next_call() {
    removed_rep_is_locked_out(|id| (Method::DELETE, format!("/Users/{id}"), Value::Null)).await;
}

/// The refresh of entitlements alone (no call started first) drops the session too.
#[tokio::test]
async fn the_entitlement_refresh_of_a_deactivated_rep_drops_the_session() {
    let app = spawn_app_with(Backend::Sqlite, |_| {}).await;
    let scim_token = acme(&app).await;
    let rep = app.signed_in_user("rep@acme.test", PASSWORD).await;
    let user = json!({"userName": "rep@acme.test"});
    let created = scim(&app, Method::POST, "/Users", &scim_token, user).await;
    let store = Arc::new(MemoryStore::new());
    store.save(&stored(&rep)).unwrap();
    let client = client_of(&app, store.clone(), &app.address);
    client.entitlements().await.unwrap();
    let patch = json!({"Operations": [{"op": "replace", "value": {"active": false}}]});
    let path = format!("/Users/{}", created["id"].as_str().unwrap());
    scim(&app, Method::PATCH, &path, &scim_token, patch).await;
    let refreshed = client.entitlements().await;
    assert!(matches!(refreshed, Err(Error::SignedOut)), "{refreshed:?}");
    assert!(store.load().unwrap().is_none());
    let (status, _) = body(
        app.get_auth("/api/entitlements", &stored(&rep).access_token)
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}
