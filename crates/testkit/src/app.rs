//! The API harness (feature `app`): every test gets its own API on port 0 with a fresh database (a
//! SQLite file or a new PostgreSQL database), a manual clock and fast password hashing; `both!`
//! runs a test body on each database with its own API.

pub use closewise_api::config::Settings;
use closewise_api::state::AppState;
use closewise_api::{Application, BuildOptions};
use closewise_core::clock::Clock;
use closewise_core::password::Hasher;
use closewise_core::sessions::tokens::Keys;
use closewise_core::store::mail::MailFilter;

use crate::TempDir;
use reqwest::{Response, StatusCode};
use serde_json::{json, Value};
use sqlx::Connection;

pub use crate::Backend;

pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    pub state: AppState,
    pub database_url: String,
    /// The local DNS server the API looks domains up at (`DNS_RESOLVER`): set TXT records here.
    pub dns: std::sync::Arc<crate::dns::TxtServer>,
    _dir: TempDir,
}

pub fn test_settings(dir: &std::path::Path, database_url: String) -> Settings {
    let mut s = Settings::from_lookup(|_| None).expect("default settings");
    s.addr = "127.0.0.1:0".parse().unwrap();
    s.base_url = "http://127.0.0.1:8080".into();
    s.database_url = database_url;
    s.data_dir = dir.to_path_buf();
    s.web_dist = dir.join("web");
    // Generous limits; the rate-limit tests set their own.
    s.limits.mail_per_ip = 10_000;
    s.limits.mail_per_email = 10_000;
    s.limits.token_per_ip = 10_000;
    s.limits.failed_signins_per_account_ip = 10_000;
    s.limits.failed_signins_per_account = 10_000;
    // Shared by replicas (their settings are a clone): a fixed test key, 32 bytes.
    s.mfa_encryption_key = Some(
        "dGVzdC1vbmx5LW1mYS1rZXktMzItYnl0ZXMtbG9uZyE="
            .to_string()
            .into(),
    );
    s
}

pub async fn spawn_app_with(backend: Backend, configure: impl FnOnce(&mut Settings)) -> TestApp {
    spawn_app_with_hasher(backend, Hasher::fast_for_tests(), configure).await
}

/// Like `spawn_app_with`, with the password hasher chosen by the test (the timing tests need the
/// production argon2 parameters).
pub async fn spawn_app_with_hasher(
    backend: Backend,
    hasher: Hasher,
    configure: impl FnOnce(&mut Settings),
) -> TestApp {
    let crate::FreshDatabase {
        url: database_url,
        dir,
    } = backend.migrated_database("test").await;
    let mut settings = test_settings(&dir.0, database_url.clone());
    // Nothing leaves the machine: domains are looked up at a local server the test controls.
    let dns = std::sync::Arc::new(crate::dns::TxtServer::start().await);
    settings.dns_resolver = Some(dns.addr);
    configure(&mut settings);
    let start = time::OffsetDateTime::now_utc()
        .replace_nanosecond(0)
        .unwrap();
    let options = BuildOptions {
        clock: Clock::manual(start),
        hasher,
        keys: Some(Keys::generate(&settings.base_url).unwrap()),
    };
    let app = Application::build_with(settings, options)
        .await
        .expect("app builds");
    let address = format!("http://{}", app.local_addr());
    let state = app.state();
    tokio::spawn(app.run());
    TestApp {
        address,
        client: reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap(),
        state,
        database_url,
        dns,
        _dir: dir,
    }
}

/// A second replica of `of`: another API process's worth of state (limiter, locks, caches) on the
/// same database, with the same signing keys and the same manual clock.
pub async fn spawn_replica(of: &TestApp, configure: impl FnOnce(&mut Settings)) -> TestApp {
    let dir = TempDir::new();
    let mut settings = of.state.settings.clone();
    settings.addr = "127.0.0.1:0".parse().unwrap();
    settings.data_dir = dir.0.clone();
    configure(&mut settings);
    let options = BuildOptions {
        clock: of.state.clock.clone(),
        hasher: Hasher::fast_for_tests(),
        keys: Some(of.state.keys.clone()),
    };
    let app = Application::build_with(settings, options)
        .await
        .expect("replica builds");
    let address = format!("http://{}", app.local_addr());
    let state = app.state();
    tokio::spawn(app.run());
    TestApp {
        address,
        client: reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap(),
        state,
        database_url: of.database_url.clone(),
        dns: of.dns.clone(),
        _dir: dir,
    }
}

pub async fn body(res: Response) -> (StatusCode, Value) {
    let status = res.status();
    let text = res.text().await.unwrap();
    let value = if text.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).unwrap_or(Value::String(text))
    };
    (status, value)
}

pub fn error_code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("")
}

pub fn error_message(v: &Value) -> &str {
    v["error"]["message"].as_str().unwrap_or("")
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.address, path)
    }

    pub async fn post(&self, path: &str, json: Value) -> Response {
        self.client
            .post(self.url(path))
            .json(&json)
            .send()
            .await
            .unwrap()
    }

    pub async fn post_auth(&self, path: &str, token: &str, json: Value) -> Response {
        self.client
            .post(self.url(path))
            .bearer_auth(token)
            .json(&json)
            .send()
            .await
            .unwrap()
    }

    pub async fn get_auth(&self, path: &str, token: &str) -> Response {
        self.client
            .get(self.url(path))
            .bearer_auth(token)
            .send()
            .await
            .unwrap()
    }

    pub async fn signup(&self, email: &str, password: &str) -> Response {
        self.post(
            "/api/auth/signup",
            json!({ "email": email, "password": password }),
        )
        .await
    }

    pub async fn signin(&self, email: &str, password: &str) -> Response {
        self.post(
            "/api/auth/token?grant_type=password",
            json!({ "email": email, "password": password }),
        )
        .await
    }

    /// Signs in as the web app does: from our own page (`Origin` is the site), so the refresh
    /// token comes back as the cookie and not in the body.
    pub async fn signin_from_site(&self, email: &str, password: &str) -> Response {
        self.client
            .post(self.url("/api/auth/token?grant_type=password"))
            .header("origin", self.state.settings.base_url.clone())
            .json(&json!({ "email": email, "password": password }))
            .send()
            .await
            .unwrap()
    }

    pub async fn refresh(&self, refresh_token: &str) -> Response {
        self.post(
            "/api/auth/token?grant_type=refresh_token",
            json!({ "refresh_token": refresh_token }),
        )
        .await
    }

    /// Mails to `to`, newest first.
    pub async fn mails_to(&self, to: &str) -> Vec<closewise_core::store::MailRow> {
        self.state
            .store
            .list_mail(Some(to), MailFilter::All, 100)
            .await
            .unwrap()
    }

    /// The token in the newest mail of `kind` to `to`.
    pub async fn token_from_mail(&self, to: &str, kind: &str) -> String {
        let mails = self.mails_to(to).await;
        let mail = mails
            .iter()
            .find(|m| m.kind == kind)
            .unwrap_or_else(|| panic!("no {kind} mail to {to}"));
        let link = mail.link.as_ref().expect("mail has a link");
        assert!(
            link.starts_with("http://127.0.0.1:8080/"),
            "links use the public base URL: {link}"
        );
        link.split("token=")
            .nth(1)
            .expect("link carries a token")
            .to_string()
    }

    /// Signs up, verifies and signs in; returns the session JSON.
    pub async fn signed_in_user(&self, email: &str, password: &str) -> Value {
        assert_eq!(self.signup(email, password).await.status(), StatusCode::OK);
        let token = self.token_from_mail(email, "verification").await;
        assert_eq!(
            self.post("/api/auth/verify", json!({ "token": token }))
                .await
                .status(),
            StatusCode::OK
        );
        let (status, session) = body(self.signin(email, password).await).await;
        assert_eq!(status, StatusCode::OK, "{session}");
        session
    }

    pub fn advance(&self, by: time::Duration) {
        self.state.clock.advance(by);
    }

    /// Runs raw SQL against the test database (to arrange states the API cannot reach). It
    /// stands for a store write, so it announces that every user's reads may have changed
    /// (`Revoked::AllReads`: the read caches of every process are emptied), as writes do.
    pub async fn execute(&self, sql: &str) {
        let all = closewise_core::store::Revoked::AllReads;
        if self.database_url.starts_with("postgres") {
            let mut c = sqlx::PgConnection::connect(&self.database_url)
                .await
                .unwrap();
            sqlx::query(sql).execute(&mut c).await.unwrap();
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(closewise_core::store::revocations::CHANNEL)
                .bind(all.payload())
                .execute(&mut c)
                .await
                .unwrap();
        } else {
            let mut c = sqlx::SqliteConnection::connect(&self.database_url)
                .await
                .unwrap();
            sqlx::query(sql).execute(&mut c).await.unwrap();
        }
        self.state.store.revoked(all);
    }
}
