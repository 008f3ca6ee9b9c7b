//! The desktop sign-in service on both databases: a code or an approved device request starts
//! exactly one session however many exchanges race, and a replayed code revokes it.

use std::time::Duration;

use closewise_core::clock::Clock;
use closewise_core::sessions::desktop::{DesktopAuth, DesktopAuthError};
use closewise_core::store::Store;
use closewise_domain::oauth::{s256_challenge, AuthorizationRequest};
use closewise_testkit::{fresh_postgres_database, scalar, TempDir};
use uuid::Uuid;

const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const REDIRECT: &str = "http://127.0.0.1:4000/callback";

struct Fixture {
    auth: DesktopAuth,
    store: Store,
    url: String,
    user_id: Uuid,
    _dir: TempDir,
}

async fn fixture(postgres: bool) -> Fixture {
    let dir = TempDir::new();
    let url = if postgres {
        fresh_postgres_database("core").await
    } else {
        format!("sqlite://{}/core.db", dir.0.display())
    };
    let store = Store::connect(&url, Duration::from_secs(10)).await.unwrap();
    store.migrate().await.unwrap();
    let user_id = Uuid::now_v7();
    let now = time::OffsetDateTime::now_utc()
        .replace_nanosecond(0)
        .unwrap();
    let hex_id = user_id.simple().to_string();
    let id_sql = if postgres {
        format!("'{user_id}'")
    } else {
        format!("X'{hex_id}'")
    };
    let at = if postgres {
        "now()".to_string()
    } else {
        format!(
            "'{}'",
            now.format(&time::format_description::well_known::Rfc3339)
                .unwrap()
        )
    };
    execute(
        &url,
        &format!("INSERT INTO users (id, email, password_hash, email_confirmed_at, created_at, updated_at) VALUES ({id_sql}, 'ana@example.com', 'x', {at}, {at}, {at})"),
    )
    .await;
    let clock = Clock::manual(now);
    Fixture {
        auth: DesktopAuth::new(store.clone(), clock, time::Duration::days(90)),
        store,
        url,
        user_id,
        _dir: dir,
    }
}

async fn execute(url: &str, sql: &str) {
    use sqlx::Connection;
    if url.starts_with("postgres") {
        let mut c = sqlx::PgConnection::connect(url).await.unwrap();
        sqlx::query(sql).execute(&mut c).await.unwrap();
    } else {
        let mut c = sqlx::SqliteConnection::connect(url).await.unwrap();
        sqlx::query(sql).execute(&mut c).await.unwrap();
    }
}

fn request() -> AuthorizationRequest {
    AuthorizationRequest {
        redirect_uri: REDIRECT.into(),
        code_challenge: s256_challenge(VERIFIER),
        state: "s".into(),
        device_name: Some("Ana's Mac".into()),
        platform: Some("macos".into()),
    }
}

async fn concurrent_exchanges_start_one_session_and_a_replay_revokes_it(postgres: bool) {
    let f = fixture(postgres).await;
    let code = f.auth.issue_code(f.user_id, &request()).await.unwrap();
    let tasks: Vec<_> = (0..10)
        .map(|_| {
            let (auth, code) = (f.auth.clone(), code.clone());
            tokio::spawn(async move {
                auth.exchange_code(&code, VERIFIER, REDIRECT, "closewise-desktop")
                    .await
            })
        })
        .collect();
    let mut issued = Vec::new();
    for t in tasks {
        match t.await.unwrap() {
            Ok(s) => issued.push(s),
            Err(DesktopAuthError::InvalidGrant) => {}
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(issued.len(), 1);
    let sql = "SELECT COUNT(*) FROM sessions WHERE client_id IS NOT NULL";
    assert_eq!(scalar(&f.url, sql).await, 1);
    // The losers were replays: the session the code produced is revoked.
    assert!(!f
        .store
        .session_is_active(issued[0].session_id, f.user_id)
        .await
        .unwrap());
}

async fn an_approved_device_request_is_redeemed_once(postgres: bool) {
    let f = fixture(postgres).await;
    let grant = f
        .auth
        .request_device("Ana's PC", "windows", [127, 0, 0, 1].into())
        .await
        .unwrap();
    let typed = grant.user_code.display().to_lowercase();
    assert_eq!(f.auth.lookup(&typed).await.unwrap().device_name, "Ana's PC");
    f.auth.decide(&typed, f.user_id, true).await.unwrap();
    let tasks: Vec<_> = (0..10)
        .map(|_| {
            let (auth, code) = (f.auth.clone(), grant.device_code.clone());
            tokio::spawn(async move { auth.poll(&code, "closewise-desktop").await })
        })
        .collect();
    let mut ok = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(s) => {
                ok += 1;
                assert!(f
                    .store
                    .session_is_active(s.session_id, f.user_id)
                    .await
                    .unwrap());
            }
            Err(DesktopAuthError::InvalidGrant) => {}
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(ok, 1);
    let devices = f.auth.devices(f.user_id).await.unwrap();
    assert_eq!(devices.len(), 1);
    assert_eq!(
        (devices[0].name.as_str(), devices[0].platform.as_str()),
        ("Ana's PC", "windows")
    );
    f.auth
        .sign_out_device(f.user_id, devices[0].id)
        .await
        .unwrap();
    assert!(matches!(
        f.auth.sign_out_device(f.user_id, devices[0].id).await,
        Err(DesktopAuthError::DeviceNotFound)
    ));
    assert!(f.auth.devices(f.user_id).await.unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_exchanges_start_one_session_and_a_replay_revokes_it_sqlite() {
    concurrent_exchanges_start_one_session_and_a_replay_revokes_it(false).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_exchanges_start_one_session_and_a_replay_revokes_it_postgres() {
    concurrent_exchanges_start_one_session_and_a_replay_revokes_it(true).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approved_device_request_is_redeemed_once_sqlite() {
    an_approved_device_request_is_redeemed_once(false).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approved_device_request_is_redeemed_once_postgres() {
    an_approved_device_request_is_redeemed_once(true).await
}
