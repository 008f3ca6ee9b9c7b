//! The desktop sign-in service on both databases: a code or an approved device request starts
//! exactly one session however many exchanges race, and a replayed code revokes it.

use std::time::Duration;

use closewise_core::clock::Clock;
use closewise_core::sessions::auth_cache::AuthUser;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};

use closewise_core::sessions::desktop::{CodeBudget, DesktopAuth, DesktopAuthError, DeviceRequest};
use closewise_core::store::sessions::NewSession;
use closewise_core::store::Store;
use closewise_domain::oauth::{s256_challenge, AuthorizationRequest, LabelError};
use closewise_testkit::{both, execute, scalar, Backend, TempDir};
use uuid::Uuid;

const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const REDIRECT: &str = "http://127.0.0.1:4000/callback";
const LOCAL: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

fn device<'a>(device_name: &'a str, platform: &'a str) -> DeviceRequest<'a> {
    DeviceRequest {
        client_id: "closewise-desktop",
        device_name,
        platform,
    }
}

/// The adapter's budget of user-code attempts: `left` more, then refused.
struct Budget {
    spent: AtomicUsize,
    left: usize,
}

impl Budget {
    fn new(left: usize) -> Self {
        Budget {
            spent: AtomicUsize::new(0),
            left,
        }
    }
    fn spent(&self) -> usize {
        self.spent.load(Ordering::SeqCst)
    }
}

impl CodeBudget for Budget {
    type Refusal = &'static str;
    async fn spend(&self) -> Result<(), &'static str> {
        if self.spent.fetch_add(1, Ordering::SeqCst) < self.left {
            Ok(())
        } else {
            Err("spent")
        }
    }
}

struct Fixture {
    auth: DesktopAuth,
    store: Store,
    url: String,
    user_id: Uuid,
    /// Ana signed in with her password a moment ago (her step-up is recent).
    ana: AuthUser,
    _dir: TempDir,
}

async fn fixture(backend: Backend) -> Fixture {
    let db = backend.migrated_database("core").await;
    let url = db.url;
    let postgres = backend == Backend::Postgres;
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
    let session_id = Uuid::now_v7();
    store
        .create_session(&NewSession {
            id: session_id,
            user_id,
            refresh_id: Uuid::now_v7(),
            refresh_hash: "h",
            refresh_expires_at: now + time::Duration::days(30),
            user_agent: None,
            ip: None,
            password_entered: true,
            now,
        })
        .await
        .unwrap();
    let clock = Clock::manual(now);
    Fixture {
        auth: DesktopAuth::new(store.clone(), clock, time::Duration::days(90)),
        store,
        url,
        user_id,
        ana: AuthUser {
            user_id,
            session_id,
            email: "ana@example.com".into(),
            email_verified: true,
        },
        _dir: db.dir,
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

both!(
    async fn concurrent_exchanges_start_one_session_and_a_replay_revokes_it(backend: Backend) {
        let f = fixture(backend).await;
        let code = f
            .auth
            .issue_code(f.user_id, &request(), false)
            .await
            .unwrap();
        let tasks: Vec<_> = (0..10)
            .map(|_| {
                let (auth, code) = (f.auth.clone(), code.clone());
                tokio::spawn(async move {
                    auth.exchange_code(&code, VERIFIER, REDIRECT, "closewise-desktop", None)
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
);

both!(
    async fn an_approved_device_request_is_redeemed_once(backend: Backend) {
        let f = fixture(backend).await;
        let grant = f
            .auth
            .request_device(&device("Ana's PC", "windows"), [127, 0, 0, 1].into())
            .await
            .unwrap();
        let typed = grant.user_code.display().to_lowercase();
        let budget = Budget::new(10);
        let pending = f.auth.lookup(f.user_id, &typed, LOCAL, &budget).await;
        assert_eq!(pending.unwrap().unwrap().device_name, "Ana's PC");
        let decided = f.auth.decide_by(&f.ana, &typed, true, &budget).await;
        decided.unwrap().unwrap();
        let tasks: Vec<_> = (0..10)
            .map(|_| {
                let (auth, code) = (f.auth.clone(), grant.device_code.clone());
                tokio::spawn(async move { auth.poll(&code, "closewise-desktop", None).await })
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
        let id = devices[0].id.to_string();
        f.auth.sign_out_device(f.user_id, &id).await.unwrap();
        for again in [id.as_str(), "not-a-device-id"] {
            assert!(matches!(
                f.auth.sign_out_device(f.user_id, again).await,
                Err(DesktopAuthError::DeviceNotFound)
            ));
        }
        assert!(f.auth.devices(f.user_id).await.unwrap().is_empty());
    }
);

both!(
    /// The device flow's checks, in order: a request from the app with labels the domain
    /// accepts; on `/activate` a confirmed address, then one of the budget's attempts for every
    /// code typed, right or wrong (its refusal passes through before the code is read); the
    /// network the request came from compared with the viewer's.
    async fn the_device_flow_checks_its_requests_and_its_codes(backend: Backend) {
        let f = fixture(backend).await;
        let refused = |r: Result<_, DesktopAuthError>| r.map(|_| ()).unwrap_err().code();
        let other_client = DeviceRequest {
            client_id: "not-the-app",
            ..device("PC", "windows")
        };
        assert_eq!(
            refused(f.auth.request_device(&other_client, LOCAL).await),
            "invalid_client"
        );
        let blank = f.auth.request_device(&device("  ", "windows"), LOCAL).await;
        assert!(matches!(
            blank,
            Err(DesktopAuthError::InvalidDeviceName(LabelError::Length))
        ));
        let long = "w".repeat(41);
        assert_eq!(
            refused(f.auth.request_device(&device("PC", &long), LOCAL).await),
            "invalid_platform"
        );
        let hidden = f
            .auth
            .request_device(&device("PC", "win\u{202e}"), LOCAL)
            .await;
        assert_eq!(refused(hidden), "invalid_device_name");
        assert_eq!(scalar(&f.url, "SELECT COUNT(*) FROM device_codes").await, 0);

        let from: IpAddr = [192, 0, 2, 7].into();
        let grant = f
            .auth
            .request_device(&device(" Ana's PC ", "windows"), from)
            .await
            .unwrap();
        let typed = grant.user_code.display();
        let budget = Budget::new(2);
        let wrong = f.auth.lookup(f.user_id, "BCDF-GHJK", from, &budget).await;
        assert!(
            matches!(wrong, Err(DesktopAuthError::InvalidUserCode)),
            "{wrong:?}"
        );
        let near = f
            .auth
            .lookup(f.user_id, &typed, [192, 0, 2, 200].into(), &budget)
            .await;
        let near = near.unwrap().unwrap();
        assert_eq!(
            (near.device_name.as_str(), near.same_network),
            ("Ana's PC", true)
        );
        let spent = f.auth.lookup(f.user_id, &typed, from, &budget).await;
        assert!(matches!(spent, Ok(Err("spent"))), "{spent:?}");
        let elsewhere = f
            .auth
            .lookup(f.user_id, &typed, [198, 51, 100, 1].into(), &Budget::new(1))
            .await;
        assert!(!elsewhere.unwrap().unwrap().same_network);

        execute(&f.url, "UPDATE users SET email_confirmed_at = NULL").await;
        let unconfirmed = Budget::new(5);
        let refusal = f.auth.decide_by(&f.ana, &typed, true, &unconfirmed).await;
        assert!(
            matches!(refusal, Err(DesktopAuthError::VerificationRequired)),
            "{refusal:?}"
        );
        assert_eq!(refusal.unwrap_err().code(), "email_not_confirmed");
        assert_eq!(
            unconfirmed.spent(),
            0,
            "an unconfirmed caller spends nothing"
        );
        let status = "SELECT COUNT(*) FROM device_codes WHERE status = 'pending'";
        assert_eq!(scalar(&f.url, status).await, 1, "still pending");
    }
);

both!(
    /// The browser sign-in's decision: a denial goes back with `access_denied` and the state; an
    /// allow from a session that has not stepped up, or of an unconfirmed address, issues no code.
    async fn authorize_issues_a_code_only_to_an_allowed_confirmed_stepped_up_caller(
        backend: Backend,
    ) {
        let f = fixture(backend).await;
        let by = AuthUser {
            user_id: f.user_id,
            session_id: Uuid::now_v7(),
            email: "ana@example.com".into(),
            email_verified: true,
        };
        let req = AuthorizationRequest {
            state: "a b&c".into(),
            ..request()
        };
        let denied = f.auth.authorize(&by, &req, false).await.unwrap();
        assert_eq!(
            denied,
            format!("{REDIRECT}?error=access_denied&state=a+b%26c")
        );
        let refused = f.auth.authorize(&by, &req, true).await.unwrap_err();
        assert_eq!(refused.code(), "reauthentication_required");
        execute(&f.url, "UPDATE users SET email_confirmed_at = NULL").await;
        let unconfirmed = f.auth.authorize(&by, &req, false).await.unwrap_err();
        assert_eq!(unconfirmed.code(), "email_not_confirmed");
        assert_eq!(scalar(&f.url, "SELECT COUNT(*) FROM oauth_codes").await, 0);
    }
);
