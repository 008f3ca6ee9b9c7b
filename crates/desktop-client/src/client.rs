//! The client: its HTTP plumbing, the stored session, and refreshing the access token before it
//! expires or when the API answers 401. The flows live beside it (`signin`, `entitlements`,
//! `calls`), each an `impl Client` block.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use reqwest::{Method, RequestBuilder, Response, StatusCode};
use serde::{Deserialize, Serialize};

use crate::entitlement::Jwks;
use crate::error::{Error, Result};
use crate::store::{StoredSession, TokenStore};

/// The one OAuth client id of the desktop app.
pub const CLIENT_ID: &str = "closewise-desktop";

/// Refresh this long before the access token expires, so a request never leaves with a token
/// that dies on the way.
const REFRESH_MARGIN_SECONDS: i64 = 60;

/// Who is signed in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct User {
    pub id: String,
    pub email: String,
}

/// `Session` of docs/api.md, as the token endpoint answers a native client.
#[derive(Deserialize)]
pub(crate) struct SessionBody {
    access_token: String,
    expires_at: i64,
    refresh_token: Option<String>,
    user: User,
}

/// What `logout` achieved. The local session is cleared in every case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Logout {
    /// The server ended the session.
    Server,
    /// Only this device forgot it; `reason` says why the server was not told.
    LocalOnly { reason: String },
}

/// `local` ends this session, `global` every session of the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LogoutScope {
    #[default]
    Local,
    Global,
}

/// A Closewise API client for the desktop app. Cheap to share behind an `Arc`; every method
/// takes `&self`.
pub struct Client {
    pub(crate) http: reqwest::Client,
    base_url: String,
    app_url: String,
    store: Arc<dyn TokenStore>,
    /// Serialises read-modify-write of the store (refresh rotates the refresh token: two
    /// concurrent refreshes, or a refresh racing a save, would lose the rotated one).
    write_lock: tokio::sync::Mutex<()>,
    /// One "second" of the device flow's polling interval; shortened in tests.
    pub(crate) poll_unit: Duration,
    /// The keys entitlement tokens must be signed with (see `trust`).
    pub(crate) entitlement_keys: Jwks,
}

impl Client {
    /// A client of the API at `base_url` (e.g. `https://app.closewise.com`), keeping its session
    /// in `store`.
    pub fn new(base_url: impl Into<String>, store: impl TokenStore) -> Result<Client> {
        let base_url = base_url.into().trim_end_matches('/').to_string();
        url::Url::parse(&base_url)
            .map_err(|e| Error::Protocol(format!("bad base URL {base_url:?}: {e}")))?;
        let http = reqwest::Client::builder()
            .user_agent(concat!("closewise-desktop/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(Duration::from_secs(10))
            .timeout(Duration::from_secs(30))
            .build()
            .map_err(|e| Error::Protocol(format!("cannot build the HTTP client: {e}")))?;
        Ok(Client {
            http,
            app_url: base_url.clone(),
            base_url,
            store: Arc::new(store),
            write_lock: tokio::sync::Mutex::new(()),
            poll_unit: Duration::from_secs(1),
            entitlement_keys: crate::trust::built_in_keys(),
        })
    }

    /// Trusts these keys, and only these, to sign entitlement tokens instead of the ones built in:
    /// for a deployment other than production (a development server, tests). Never pass keys
    /// read from the session store or fetched from the server at run time.
    pub fn with_entitlement_keys(mut self, keys: Jwks) -> Client {
        self.entitlement_keys = keys;
        self
    }

    /// The web app's address (`APP_BASE_URL`) when it is not the API's: the `/authorize` page is
    /// there, and entitlement tokens name it as their issuer.
    pub fn with_app_url(mut self, app_url: impl Into<String>) -> Client {
        self.app_url = app_url.into().trim_end_matches('/').to_string();
        self
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    pub fn app_url(&self) -> &str {
        &self.app_url
    }

    /// The signed-in user as stored, without asking the server.
    pub async fn stored_user(&self) -> Result<Option<User>> {
        Ok(self.load().await?.map(|s| User {
            id: s.user_id,
            email: s.email,
        }))
    }

    /// The signed-in user, asked of the server (`GET /api/auth/user`).
    pub async fn user(&self) -> Result<User> {
        #[derive(Deserialize)]
        struct Envelope {
            user: User,
        }
        let resp = self.authorized(Method::GET, "/api/auth/user", None).await?;
        Ok(read_json::<Envelope>(resp).await?.user)
    }

    /// Signs out (`POST /api/auth/logout`) and clears the store, whatever the server answers.
    pub async fn logout(&self, scope: LogoutScope) -> Result<Logout> {
        if self.load().await?.is_none() {
            return Err(Error::SignedOut);
        }
        let path = match scope {
            LogoutScope::Local => "/api/auth/logout?scope=local",
            LogoutScope::Global => "/api/auth/logout?scope=global",
        };
        let outcome = match self.authorized(Method::POST, path, None).await {
            Ok(resp) if resp.status().is_success() => Logout::Server,
            Ok(resp) if resp.status() == StatusCode::UNAUTHORIZED => Logout::LocalOnly {
                reason: "the session had already ended".into(),
            },
            Ok(resp) => Logout::LocalOnly {
                reason: api_error(resp).await.to_string(),
            },
            Err(Error::SignedOut) => Logout::LocalOnly {
                reason: "the session had already ended".into(),
            },
            Err(e) => Logout::LocalOnly {
                reason: e.to_string(),
            },
        };
        self.clear().await?;
        Ok(outcome)
    }

    pub(crate) fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base_url)
    }

    /// Sends a request; an unreachable server (or a 502/503/504 in front of it) is
    /// [`Error::Unreachable`], which is what lets entitlements answer offline.
    pub(crate) async fn send(&self, req: RequestBuilder) -> Result<Response> {
        let resp = req.send().await.map_err(|e| {
            if e.is_builder() {
                Error::Protocol(e.to_string())
            } else {
                Error::Unreachable(describe(e))
            }
        })?;
        match resp.status().as_u16() {
            502..=504 => Err(Error::Unreachable(format!(
                "the server answered {}",
                resp.status()
            ))),
            _ => Ok(resp),
        }
    }

    /// A bearer request, refreshing the access token first when it is about to expire and once
    /// more when the API answers 401.
    pub(crate) async fn authorized(
        &self,
        method: Method,
        path: &str,
        body: Option<&serde_json::Value>,
    ) -> Result<Response> {
        let build = |token: &str| {
            let req = self
                .http
                .request(method.clone(), self.url(path))
                .bearer_auth(token);
            match body {
                Some(b) => req.json(b),
                None => req,
            }
        };
        let token = self.access_token().await?;
        let resp = self.send(build(&token)).await?;
        if resp.status() != StatusCode::UNAUTHORIZED {
            return Ok(resp);
        }
        let session = self.refresh(&token).await?;
        let resp = self.send(build(&session.access_token)).await?;
        if resp.status() == StatusCode::UNAUTHORIZED {
            return Err(Error::SignedOut);
        }
        Ok(resp)
    }

    async fn access_token(&self) -> Result<String> {
        let session = self.load().await?.ok_or(Error::SignedOut)?;
        if session.expires_at - now() > REFRESH_MARGIN_SECONDS {
            return Ok(session.access_token);
        }
        Ok(self.refresh(&session.access_token).await?.access_token)
    }

    /// Rotates the tokens (`grant_type=refresh_token`) unless another task already replaced
    /// `stale_access`. A 400 or 401 answer means the session has ended: the store is cleared.
    pub(crate) async fn refresh(&self, stale_access: &str) -> Result<StoredSession> {
        let _guard = self.write_lock.lock().await;
        let mut session = self.load().await?.ok_or(Error::SignedOut)?;
        if session.access_token != stale_access
            && session.expires_at - now() > REFRESH_MARGIN_SECONDS
        {
            return Ok(session);
        }
        let req = self
            .http
            .post(self.url("/api/auth/token?grant_type=refresh_token"))
            .json(&serde_json::json!({ "refresh_token": session.refresh_token }));
        let resp = self.send(req).await?;
        match resp.status() {
            s if s.is_success() => {
                let body: SessionBody = read_json(resp).await?;
                session.access_token = body.access_token;
                session.expires_at = body.expires_at;
                session.refresh_token = body.refresh_token.ok_or_else(|| {
                    Error::Protocol("the refresh answer has no refresh_token".into())
                })?;
                session.user_id = body.user.id;
                session.email = body.user.email;
                self.save(session.clone()).await?;
                Ok(session)
            }
            StatusCode::BAD_REQUEST | StatusCode::UNAUTHORIZED => {
                self.clear_unlocked().await?;
                Err(Error::SignedOut)
            }
            _ => Err(api_error(resp).await),
        }
    }

    /// Stores a new session from a grant's answer.
    pub(crate) async fn start_session(&self, resp: Response) -> Result<User> {
        let body: SessionBody = read_json(resp).await?;
        let refresh_token = body
            .refresh_token
            .ok_or_else(|| Error::Protocol("the session has no refresh_token".into()))?;
        let _guard = self.write_lock.lock().await;
        self.save(StoredSession {
            refresh_token,
            access_token: body.access_token,
            expires_at: body.expires_at,
            user_id: body.user.id.clone(),
            email: body.user.email.clone(),
            entitlement_token: None,
            highest_seen: now(),
        })
        .await?;
        Ok(body.user)
    }

    /// Changes the stored session under the write lock; `SignedOut` when there is none.
    pub(crate) async fn update_session(
        &self,
        change: impl FnOnce(&mut StoredSession),
    ) -> Result<()> {
        let _guard = self.write_lock.lock().await;
        let mut session = self.load().await?.ok_or(Error::SignedOut)?;
        change(&mut session);
        self.save(session).await
    }

    pub(crate) async fn load(&self) -> Result<Option<StoredSession>> {
        let store = self.store.clone();
        blocking(move || store.load()).await
    }

    async fn save(&self, session: StoredSession) -> Result<()> {
        let store = self.store.clone();
        blocking(move || store.save(&session)).await
    }

    async fn clear(&self) -> Result<()> {
        let _guard = self.write_lock.lock().await;
        self.clear_unlocked().await
    }

    async fn clear_unlocked(&self) -> Result<()> {
        let store = self.store.clone();
        blocking(move || store.clear()).await
    }
}

async fn blocking<T: Send + 'static>(f: impl FnOnce() -> Result<T> + Send + 'static) -> Result<T> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| Error::Store(e.to_string()))?
}

/// A request error with its causes ("error sending request: … Connection refused"), without
/// the URL, whose query the user need not see.
pub(crate) fn describe(e: reqwest::Error) -> String {
    let e = e.without_url();
    let mut text = e.to_string();
    let mut cause = std::error::Error::source(&e);
    while let Some(c) = cause {
        text = format!("{text}: {c}");
        cause = c.source();
    }
    text
}

static CLOCK_OFFSET: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(0);

/// Moves this process's idea of "now" forward by `seconds`: the binary's hidden `--clock-offset`,
/// so a person (or the end-to-end suite) can watch the offline grace period without waiting a week.
/// Forward only (unsigned): moving it back would stretch the grace period. An embedding app never
/// calls it.
pub fn set_clock_offset(seconds: u32) {
    CLOCK_OFFSET.store(i64::from(seconds), std::sync::atomic::Ordering::Relaxed);
}

pub(crate) fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
        + CLOCK_OFFSET.load(std::sync::atomic::Ordering::Relaxed)
}

/// Reads a success body, or turns the answer into its error.
pub(crate) async fn read_json<T: serde::de::DeserializeOwned>(resp: Response) -> Result<T> {
    if !resp.status().is_success() {
        return Err(api_error(resp).await);
    }
    resp.json()
        .await
        .map_err(|e| Error::Protocol(format!("unreadable answer: {e}")))
}

/// `{"error": {"code", "message"}}` → the typed error for the codes the app acts on.
pub(crate) async fn api_error(resp: Response) -> Error {
    let status = resp.status().as_u16();
    match resp.bytes().await {
        Ok(bytes) => error_from_body(status, &bytes),
        Err(e) => Error::Unreachable(describe(e)),
    }
}

pub(crate) fn error_from_body(status: u16, body: &[u8]) -> Error {
    #[derive(Deserialize)]
    struct Envelope {
        error: Body,
    }
    #[derive(Deserialize)]
    struct Body {
        code: String,
        message: String,
    }
    let Ok(Envelope { error }) = serde_json::from_slice::<Envelope>(body) else {
        return Error::Protocol(format!("HTTP {status}"));
    };
    match error.code.as_str() {
        "free_calls_used_up" => Error::FreeCallsUsedUp(error.message),
        "call_time_limit_reached" => Error::CallTimeLimitReached(error.message),
        "plan_lapsed" => Error::PlanLapsed(error.message),
        "call_ended" => Error::CallEnded(error.message),
        "call_not_found" => Error::CallNotFound(error.message),
        _ => Error::Api {
            status,
            code: error.code,
            message: error.message,
        },
    }
}
