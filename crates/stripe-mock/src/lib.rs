//! A stateful local Stripe: the REST subset Closewise calls (Stripe's wire format), hosted
//! checkout and billing-portal pages with test cards, signed webhooks with retries, and a clock
//! that moves time forward. See README.md for the endpoints and test cards.
//!
//! The library serves tests in-process ([`spawn`] on port 0); the `stripe-mock` binary serves
//! development on port 12111, like the official mock.

#![recursion_limit = "256"]

mod api;
pub mod cards;
mod error;
mod expand;
pub mod form;
mod pages;
mod store;
mod webhooks;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

pub use api::{endpoints, Endpoint, EVERY_ENDPOINT, EVERY_LIST};
pub use error::ApiError;
pub use expand::Expand;
pub use store::{
    AfterRetries, Origin, Store, API_VERSION, DEFAULT_SELLER_COUNTRY, SEED_PRICE, SEED_PRODUCT,
    SEED_YEARLY_PRICE,
};
pub use webhooks::{sign, DeliveryAttempt};

/// A retry schedule in days after the first failure (`--retry-days 1,3,5,7`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryDays(pub Vec<u32>);

/// Parses `--retry-days`: increasing days after the first failure, comma separated.
pub fn parse_retry_days(raw: &str) -> Result<RetryDays, String> {
    store::parse_retry_days(raw).map(RetryDays)
}

pub const DEFAULT_SECRET_KEY: &str = "sk_test_closewise_local";
pub const DEFAULT_WEBHOOK_SECRET: &str = "whsec_closewise_local";
pub const DEFAULT_PORT: u16 = 12111;

#[derive(Clone)]
pub struct Config {
    /// The only API key accepted (`Authorization: Bearer <key>`).
    pub secret_key: String,
    /// Where events are POSTed; `None` keeps them for `GET /v1/events` only.
    pub webhook_url: Option<String>,
    /// Signs `Stripe-Signature` (used as-is as the HMAC key, like Stripe).
    pub webhook_secret: String,
    /// Base of hosted page URLs; `None` means `http://<bound address>`.
    pub public_url: Option<String>,
    /// JSON file written after every change and loaded at start.
    pub state_file: Option<PathBuf>,
    /// Waits before each webhook retry (the first attempt is immediate).
    pub webhook_retry_delays: Vec<Duration>,
    /// Per-attempt timeout of a webhook POST.
    pub webhook_timeout: Duration,
    /// Where the seller is registered, for automatic tax (ISO code; default `IE`): a business
    /// elsewhere in the EU with an `eu_vat` ID is reverse-charged.
    pub seller_country: String,
    /// Smart Retries: days after a renewal's first failed charge when it is tried again
    /// (default 1, 3, 5, 7).
    pub retry_days: Vec<u32>,
    /// What happens to the subscription when the last retry fails.
    pub after_retries: AfterRetries,
}

/// Keys stay out of logs, even test ones.
impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("secret_key", &"[redacted]")
            .field("webhook_url", &self.webhook_url)
            .field("webhook_secret", &"[redacted]")
            .field("public_url", &self.public_url)
            .field("state_file", &self.state_file)
            .field("webhook_retry_delays", &self.webhook_retry_delays)
            .field("webhook_timeout", &self.webhook_timeout)
            .field("seller_country", &self.seller_country)
            .field("retry_days", &self.retry_days)
            .field("after_retries", &self.after_retries)
            .finish()
    }
}

impl Default for Config {
    fn default() -> Self {
        Self {
            secret_key: DEFAULT_SECRET_KEY.to_owned(),
            webhook_url: None,
            webhook_secret: DEFAULT_WEBHOOK_SECRET.to_owned(),
            public_url: None,
            state_file: None,
            // 8 attempts in all, over about a minute.
            webhook_retry_delays: [500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000]
                .into_iter()
                .map(Duration::from_millis)
                .collect(),
            webhook_timeout: Duration::from_secs(10),
            seller_country: store::DEFAULT_SELLER_COUNTRY.to_owned(),
            retry_days: store::DEFAULT_RETRY_DAYS.to_vec(),
            after_retries: AfterRetries::default(),
        }
    }
}

/// The mock's clock: wall time plus an offset that only grows.
#[derive(Debug, Default)]
pub struct Clock {
    offset: AtomicI64,
}

impl Clock {
    pub fn wall() -> i64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64)
    }

    pub fn now(&self) -> i64 {
        Self::wall() + self.offset.load(Ordering::SeqCst)
    }

    fn advance(&self, seconds: i64) {
        self.offset.fetch_add(seconds, Ordering::SeqCst);
    }
}

/// Everything the routes share.
pub struct AppState {
    pub config: Config,
    pub clock: Clock,
    store: Mutex<Store>,
    webhook_url: RwLock<Option<String>>,
    public_url: RwLock<String>,
    outbox: mpsc::UnboundedSender<String>,
    outbox_rx: Mutex<Option<mpsc::UnboundedReceiver<String>>>,
    deliveries: Mutex<Vec<DeliveryAttempt>>,
    idempotency_in_flight: Mutex<std::collections::HashSet<String>>,
}

impl AppState {
    /// Builds the state, loading `state_file` if it exists (otherwise the seeded catalogue).
    pub fn new(config: Config) -> std::io::Result<Arc<Self>> {
        let clock = Clock::default();
        let store = match &config.state_file {
            Some(path) if path.exists() => {
                let bytes = std::fs::read(path)?;
                serde_json::from_slice(&bytes).map_err(|e| {
                    std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!("state file {}: {e}", path.display()),
                    )
                })?
            }
            _ => Store::seeded(clock.now()),
        };
        let (tx, rx) = mpsc::unbounded_channel();
        let public = config
            .public_url
            .clone()
            .unwrap_or_else(|| format!("http://127.0.0.1:{DEFAULT_PORT}"));
        Ok(Arc::new(Self {
            webhook_url: RwLock::new(config.webhook_url.clone()),
            public_url: RwLock::new(public.trim_end_matches('/').to_owned()),
            config,
            clock,
            store: Mutex::new(store),
            outbox: tx,
            outbox_rx: Mutex::new(Some(rx)),
            deliveries: Mutex::new(Vec::new()),
            idempotency_in_flight: Mutex::new(Default::default()),
        }))
    }

    pub fn public_url(&self) -> String {
        self.public_url.read().expect("lock").clone()
    }

    pub fn webhook_url(&self) -> Option<String> {
        self.webhook_url.read().expect("lock").clone()
    }

    /// Runs `f` on the store at the clock's `now` (after catching up with time), persists the
    /// result and hands new events to the webhook worker.
    pub fn mutate<R>(&self, f: impl FnOnce(&mut Store, i64) -> R) -> R {
        let now = self.clock.now();
        let (result, events) = {
            let mut store = self.store.lock().expect("store lock");
            store.webhooks_enabled = self.webhook_url().is_some();
            store.public_url = self.public_url();
            store.seller_country = self.config.seller_country.to_uppercase();
            store.retry_days.clone_from(&self.config.retry_days);
            store.after_retries = self.config.after_retries;
            store.catch_up(now);
            let result = f(&mut store, now);
            let events = std::mem::take(&mut store.outbox);
            self.persist(&store);
            (result, events)
        };
        for id in events {
            let _ = self.outbox.send(id);
        }
        result
    }

    fn persist(&self, store: &Store) {
        let Some(path) = &self.config.state_file else {
            return;
        };
        let tmp = path.with_extension("tmp");
        let write = serde_json::to_vec_pretty(store)
            .map_err(std::io::Error::other)
            .and_then(|bytes| std::fs::write(&tmp, bytes))
            .and_then(|()| std::fs::rename(&tmp, path));
        if let Err(e) = write {
            tracing::error!(error = %e, path = %path.display(), "could not write the state file");
        }
    }

    /// Moves the clock forward and lets subscriptions renew or end.
    pub fn advance_clock(&self, seconds: i64) -> i64 {
        self.clock.advance(seconds.max(0));
        self.mutate(|_, now| now)
    }

    /// Starts the webhook worker (once); the routes work without it but send nothing.
    pub fn start_webhooks(self: &Arc<Self>) {
        if let Some(rx) = self.outbox_rx.lock().expect("lock").take() {
            tokio::spawn(webhooks::run(self.clone(), rx));
        }
    }
}

/// All routes: `/v1/...` (the API), `/c/pay/...` and `/p/session/...` (hosted pages), `/_mock/...`.
pub fn router(state: Arc<AppState>) -> axum::Router {
    api::router(state.clone())
        .merge(pages::router(state.clone()))
        .merge(api::mock_router(state))
}

/// Lets tests look inside and steer a running mock.
pub struct MockHandle {
    state: Arc<AppState>,
    addr: SocketAddr,
    shutdown: Option<oneshot::Sender<()>>,
    server: tokio::task::JoinHandle<()>,
}

impl MockHandle {
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn now(&self) -> i64 {
        self.state.clock.now()
    }

    /// Moves time forward by `seconds`; returns the new now.
    pub fn advance_clock(&self, seconds: i64) -> i64 {
        self.state.advance_clock(seconds)
    }

    pub fn set_webhook_url(&self, url: Option<String>) {
        *self.state.webhook_url.write().expect("lock") = url;
    }

    /// A copy of everything the mock holds.
    pub fn snapshot(&self) -> Store {
        self.state.mutate(|store, _| store.clone())
    }

    /// Any object by id, as the API would render it.
    pub fn object(&self, id: &str) -> Option<Value> {
        self.state
            .mutate(|store, _| store.render_any(id, &Expand::none()))
    }

    /// Every event so far, oldest first, in Stripe's envelope.
    pub fn events(&self) -> Vec<Value> {
        self.state
            .mutate(|store, _| store.events.iter().map(|e| store.render_event(e)).collect())
    }

    /// Every webhook POST attempted so far.
    pub fn deliveries(&self) -> Vec<DeliveryAttempt> {
        self.state.deliveries.lock().expect("lock").clone()
    }

    /// Pays an open checkout session as the hosted page would (e-mail from the session or
    /// `customer@example.com`, expiry 12/34, CVC 123/1234). Returns the success URL or the
    /// page's error message.
    pub fn pay(&self, session_id: &str, card_number: &str) -> Result<String, String> {
        pages::pay_directly(&self.state, session_id, card_number)
    }

    pub async fn shutdown(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        let _ = (&mut self.server).await;
    }
}

/// Serves the mock on 127.0.0.1 at a free port (for tests).
pub async fn spawn(config: Config) -> std::io::Result<(SocketAddr, MockHandle)> {
    serve(config, SocketAddr::from(([127, 0, 0, 1], 0))).await
}

/// Serves the mock on `addr`; used by [`spawn`] and the binary.
pub async fn serve(config: Config, addr: SocketAddr) -> std::io::Result<(SocketAddr, MockHandle)> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let addr = listener.local_addr()?;
    let public = config.public_url.clone();
    let state = AppState::new(config)?;
    if public.is_none() {
        *state.public_url.write().expect("lock") = format!("http://{addr}");
    }
    state.start_webhooks();
    let (tx, rx) = oneshot::channel::<()>();
    let app = router(state.clone());
    let server = tokio::spawn(async move {
        let result = axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = rx.await;
            })
            .await;
        if let Err(e) = result {
            tracing::error!(error = %e, "stripe-mock server stopped");
        }
    });
    Ok((
        addr,
        MockHandle {
            state,
            addr,
            shutdown: Some(tx),
            server,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_debug_hides_the_keys() {
        let shown = format!("{:?}", Config::default());
        assert!(!shown.contains(DEFAULT_SECRET_KEY) && !shown.contains(DEFAULT_WEBHOOK_SECRET));
        assert!(shown.contains("[redacted]"));
    }
}
