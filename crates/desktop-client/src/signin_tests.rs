//! The device grant's polling, against a scripted server that answers the token endpoint from a
//! list (pending, slow_down, approved...). Only the state machine is under test here; the real
//! endpoints are exercised in `tests/against_api.rs` once the server has them.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

use super::*;
use crate::entitlement::test_keys::TestKey;
use crate::store::{MemoryStore, TokenStore};

const UNIT: Duration = Duration::from_millis(20);

#[derive(Default)]
struct Script {
    answers: VecDeque<(StatusCode, Value)>,
    polls: Vec<(Instant, Value)>,
    device_request: Option<Value>,
    expires_in: u64,
}

type Shared = Arc<Mutex<Script>>;

async fn device(State(s): State<Shared>, Json(body): Json<Value>) -> Json<Value> {
    let mut s = s.lock().unwrap();
    s.device_request = Some(body);
    Json(json!({
        "device_code": "dc-secret", "user_code": "WDJB-MJHT",
        "verification_uri": "http://app.test/activate",
        "verification_uri_complete": "http://app.test/activate?user_code=WDJB-MJHT",
        "expires_in": s.expires_in, "interval": 1,
    }))
}

async fn token(
    State(s): State<Shared>,
    Query(q): Query<std::collections::HashMap<String, String>>,
    Json(body): Json<Value>,
) -> (StatusCode, Json<Value>) {
    assert_eq!(q["grant_type"], DEVICE_GRANT);
    let mut s = s.lock().unwrap();
    s.polls.push((Instant::now(), body));
    let pending = (
        StatusCode::BAD_REQUEST,
        json!({"error": "authorization_pending"}),
    );
    let (status, answer) = s.answers.pop_front().unwrap_or(pending);
    (status, Json(answer))
}

fn session() -> Value {
    json!({
        "access_token": "at", "token_type": "bearer", "expires_in": 3600,
        "expires_at": crate::client::now() + 3600, "refresh_token": "rt",
        "user": {"id": "u1", "email": "ana@example.com", "email_confirmed_at": null,
                 "created_at": "2026-11-22T04:20:00Z"},
    })
}

fn oauth(error: &str) -> (StatusCode, Value) {
    (StatusCode::BAD_REQUEST, json!({"error": error}))
}

async fn serve(answers: Vec<(StatusCode, Value)>, expires_in: u64) -> (String, Shared) {
    let script = Arc::new(Mutex::new(Script {
        answers: answers.into(),
        expires_in,
        ..Script::default()
    }));
    let jwks = serde_json::to_value(TestKey::generate("k1").jwks()).unwrap();
    let app = Router::new()
        .route("/api/auth/device", post(device))
        .route("/api/auth/token", post(token))
        .route(
            "/.well-known/jwks.json",
            get(move || async move { Json(jwks) }),
        )
        .with_state(script.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}"), script)
}

fn client(base: &str) -> (Client, Arc<MemoryStore>) {
    let store = Arc::new(MemoryStore::new());
    let mut client = Client::new(base, store.clone()).unwrap();
    client.poll_unit = UNIT;
    (client, store)
}

fn options() -> SignInOptions {
    SignInOptions {
        device_name: "Ana's laptop".into(),
        platform: "linux".into(),
        timeout: Duration::from_secs(5),
    }
}

#[tokio::test]
async fn polling_waits_through_pending_and_slow_down_then_stores_the_session() {
    let answers = vec![
        oauth("authorization_pending"),
        (
            StatusCode::BAD_REQUEST,
            json!({"error": "slow_down", "interval": 6}),
        ),
        oauth("authorization_pending"),
        (StatusCode::OK, session()),
    ];
    let (base, script) = serve(answers, 600).await;
    let (client, store) = client(&base);
    let mut shown = None;
    let user = client
        .sign_in_with_device(&options(), |auth| shown = Some(auth.clone()))
        .await
        .unwrap();

    assert_eq!(user.email, "ana@example.com");
    let shown = shown.expect("the code was shown");
    assert_eq!(shown.user_code, "WDJB-MJHT");
    assert!(!format!("{shown:?}").contains("dc-secret"));
    let stored = store.load().unwrap().expect("a stored session");
    assert_eq!(
        (stored.refresh_token.as_str(), stored.user_id.as_str()),
        ("rt", "u1")
    );
    assert!(
        stored.highest_seen > 0,
        "the time of sign-in is the first time seen"
    );

    let s = script.lock().unwrap();
    assert_eq!(
        s.device_request,
        Some(
            json!({"client_id": "closewise-desktop", "device_name": "Ana's laptop", "platform": "linux"})
        )
    );
    assert_eq!(s.polls.len(), 4);
    assert_eq!(
        s.polls[0].1,
        json!({"device_code": "dc-secret", "client_id": "closewise-desktop"})
    );
    let gaps: Vec<Duration> = s.polls.windows(2).map(|w| w[1].0 - w[0].0).collect();
    assert!(gaps[0] >= UNIT, "the interval is honoured: {gaps:?}");
    assert!(gaps[1] >= UNIT * 6, "slow_down adds 5 s: {gaps:?}");
    assert!(gaps[2] >= UNIT * 6, "and the slower pace stays: {gaps:?}");
}

#[tokio::test]
async fn a_rate_limited_poll_backs_off_by_five_seconds() {
    let limited = (
        StatusCode::TOO_MANY_REQUESTS,
        json!({"error": {"code": "rate_limited", "message": "Too many requests."}}),
    );
    let (base, script) = serve(vec![limited, (StatusCode::OK, session())], 600).await;
    let (client, _) = client(&base);
    client
        .sign_in_with_device(&options(), |_| {})
        .await
        .unwrap();
    let s = script.lock().unwrap();
    assert!(s.polls[1].0 - s.polls[0].0 >= UNIT * 6, "backed off");
}

#[tokio::test]
async fn a_denial_stops_polling_with_access_denied() {
    let (base, script) = serve(
        vec![oauth("authorization_pending"), oauth("access_denied")],
        600,
    )
    .await;
    let (client, store) = client(&base);
    let result = client.sign_in_with_device(&options(), |_| {}).await;
    assert!(matches!(result, Err(Error::AccessDenied)), "{result:?}");
    assert_eq!(script.lock().unwrap().polls.len(), 2);
    assert_eq!(store.load().unwrap(), None);
}

#[tokio::test]
async fn an_expired_code_stops_polling_with_a_clear_error() {
    let (base, _) = serve(vec![oauth("expired_token")], 600).await;
    let (client, _) = client(&base);
    let err = client
        .sign_in_with_device(&options(), |_| {})
        .await
        .unwrap_err();
    assert!(matches!(err, Error::DeviceCodeExpired));
    assert_eq!(
        err.to_string(),
        "The sign-in code has expired. Start the sign-in again."
    );
}

#[tokio::test]
async fn polling_stops_by_itself_when_the_code_s_lifetime_is_over() {
    let (base, script) = serve(vec![], 3).await;
    let (client, _) = client(&base);
    let result = client.sign_in_with_device(&options(), |_| {}).await;
    assert!(
        matches!(result, Err(Error::DeviceCodeExpired)),
        "{result:?}"
    );
    assert!(script.lock().unwrap().polls.len() <= 3);
}

#[tokio::test]
async fn another_grant_error_is_reported_with_its_description() {
    let answer = (
        StatusCode::BAD_REQUEST,
        json!({"error": "invalid_grant", "error_description": "Unknown device code."}),
    );
    let (base, _) = serve(vec![answer], 600).await;
    let (client, _) = client(&base);
    let err = client
        .sign_in_with_device(&options(), |_| {})
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::OAuth { code, message } if code == "invalid_grant" && message == "Unknown device code."),
        "{err:?}"
    );
}

#[test]
fn the_authorize_url_carries_every_parameter_of_the_contract() {
    let client = Client::new("http://localhost:8080/", MemoryStore::new())
        .unwrap()
        .with_app_url("http://localhost:5173/");
    let pkce = Pkce::from_verifier("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk".into());
    let url = client.authorize_url("http://127.0.0.1:4321/callback", &pkce, "st&x", &options());
    let parsed = url::Url::parse(&url).unwrap();
    assert_eq!(
        parsed.origin().ascii_serialization(),
        "http://localhost:5173"
    );
    assert_eq!(parsed.path(), "/authorize");
    let q: std::collections::HashMap<_, _> = parsed.query_pairs().into_owned().collect();
    assert_eq!(q["response_type"], "code");
    assert_eq!(q["client_id"], "closewise-desktop");
    assert_eq!(q["redirect_uri"], "http://127.0.0.1:4321/callback");
    assert_eq!(
        q["code_challenge"],
        "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
    );
    assert_eq!(q["code_challenge_method"], "S256");
    assert_eq!(q["state"], "st&x");
    assert_eq!(q["device_name"], "Ana's laptop");
    assert_eq!(q["platform"], "linux");
}
