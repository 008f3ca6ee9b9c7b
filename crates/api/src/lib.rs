//! The Closewise API: accounts, plans, billing, the desktop app's entitlements and calls over HTTP,
//! and the built web app.
//!
//! `Application::build` wires configuration, the database, keys and workers; `app(state)` is the
//! router alone, so tests can drive it in-process. `main.rs` only loads config and runs.

pub mod auth;
pub mod billing;
pub mod calls;
pub mod config;
pub mod downloads;
pub mod entitlements;
pub mod error;
pub mod extract;
pub mod headers;
pub mod limits_port;
pub mod malloc;
pub mod net;
pub mod openapi;
pub mod ops;
pub mod plans;
pub mod ratelimit;
pub mod schemas;
pub mod scim;
pub mod setup;
pub mod state;
pub mod team;
pub mod web;

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::Context;
use axum::extract::DefaultBodyLimit;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::trace::TraceLayer;
use utoipa_axum::router::OpenApiRouter;

use closewise_core::clock::Clock;
use closewise_core::password::Hasher;
use closewise_core::store::Store;

use crate::config::Settings;
use crate::error::ApiError;
use crate::state::AppState;
use closewise_core::sessions::tokens::Keys;

pub const BODY_LIMIT: usize = 64 * 1024;

/// Every API route, in one visible place; each documented one registers its OpenAPI operation
/// with it (`openapi::document`).
pub fn api_router(development: bool) -> OpenApiRouter<AppState> {
    use utoipa::OpenApi;
    OpenApiRouter::with_openapi(openapi::ApiDoc::openapi())
        .merge(auth::router())
        .merge(plans::router())
        .merge(billing::router())
        .merge(entitlements::router())
        .merge(calls::router())
        .merge(downloads::router())
        .merge(team::router())
        .merge(team::billing::router())
        .merge(setup::router())
        .merge(ops::router(development))
}

fn routes(development: bool) -> Router<AppState> {
    let (router, _) = api_router(development).split_for_parts();
    router.merge(scim::router()).route(
        "/api/openapi.json",
        get(|| async {
            (
                [(header::CONTENT_TYPE, "application/json")],
                openapi::json(),
            )
        }),
    )
}

pub fn app(state: AppState) -> Router {
    let development = state.settings.is_development();
    let settings = state.settings.clone();
    let web = web::router(&state.settings, state.setup_links.clone());
    let local_downloads = downloads::local_files(&state.settings);
    let routes = match local_downloads {
        Some((path, files)) => routes(development).nest_service(path, files),
        None => routes(development),
    };
    routes
        .route(
            "/api/{*rest}",
            axum::routing::any(|| async { ApiError::not_found() }),
        )
        .method_not_allowed_fallback(|| async { ApiError::method_not_allowed() })
        .with_state(state)
        .fallback_service(web)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(CatchPanicLayer::custom(|_| {
            ApiError::internal(anyhow::anyhow!("handler panicked")).into_response()
        }))
        .layer(TraceLayer::new_for_http().make_span_with(RequestSpan {
            instance: settings.instance.clone().into(),
        }))
        // Outside the panic catcher, so even a 500 carries them.
        .layer(axum::middleware::from_fn_with_state(
            headers::SecurityHeaders::new(&settings),
            headers::security_headers,
        ))
}

/// Every request's span: tower-http's default fields and the replica that served it.
#[derive(Clone)]
struct RequestSpan {
    instance: std::sync::Arc<str>,
}

impl<B> tower_http::trace::MakeSpan<B> for RequestSpan {
    fn make_span(&mut self, request: &axum::http::Request<B>) -> tracing::Span {
        tracing::info_span!(
            "request",
            instance = %self.instance,
            method = %request.method(),
            uri = %request.uri(),
            version = ?request.version(),
        )
    }
}

/// Options that tests (and only tests) change.
#[derive(Clone)]
pub struct BuildOptions {
    pub clock: Clock,
    pub hasher: Hasher,
    pub keys: Option<Keys>,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            clock: Clock::System,
            hasher: Hasher::new(),
            keys: None,
        }
    }
}

pub struct Application {
    listener: TcpListener,
    state: AppState,
    shutdown: watch::Sender<bool>,
}

impl Application {
    pub async fn build(settings: Settings) -> anyhow::Result<Application> {
        Self::build_with(settings, BuildOptions::default()).await
    }

    pub async fn build_with(
        settings: Settings,
        options: BuildOptions,
    ) -> anyhow::Result<Application> {
        let store = Store::connect(&settings.database_url, settings.db_acquire_timeout)
            .await?
            .with_instance(&settings.instance);
        store
            .migrate()
            .await
            .context("database migrations failed")?;
        let keys = match (options.keys, &settings.jwt_private_key) {
            (Some(k), _) => k,
            (None, Some(pem)) => Keys::from_pem(
                secrecy::ExposeSecret::expose_secret(pem),
                &settings.base_url,
            )?,
            (None, None) => Keys::load_or_create(
                &settings.data_dir.join("jwt-ed25519.pem"),
                &settings.base_url,
            )?,
        };
        let mfa_key = match &settings.mfa_encryption_key {
            Some(key) => closewise_core::mfa::SecretBox::from_base64(
                secrecy::ExposeSecret::expose_secret(key),
            )?,
            None => closewise_core::mfa::SecretBox::load_or_create(
                &settings.data_dir.join("mfa-encryption.key"),
            )?,
        };
        let listener = TcpListener::bind(settings.addr)
            .await
            .with_context(|| format!("cannot listen on {}", settings.addr))?;
        let stripe = closewise_core::billing::StripeClient::new(&settings.stripe.connection())?
            .with_automatic_tax(settings.stripe.automatic_tax);
        let state = AppState::new(
            settings,
            store,
            keys,
            options.hasher,
            options.clock,
            stripe,
            mfa_key,
        );
        let (shutdown, _) = watch::channel(false);
        Ok(Application {
            listener,
            state,
            shutdown,
        })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener.local_addr().expect("bound listener")
    }

    pub fn state(&self) -> AppState {
        self.state.clone()
    }

    /// Serves until Ctrl-C or SIGTERM.
    pub async fn run(self) -> anyhow::Result<()> {
        let Application {
            listener,
            state,
            shutdown,
        } = self;
        if let Some(smtp) = &state.settings.smtp_url {
            let worker = closewise_core::mail::worker::Worker::new(
                state.store.clone(),
                smtp,
                &state.settings.mail_from,
                state.clock.clone(),
                state.settings.mail_worker_interval,
            )?;
            tokio::spawn(worker.run(shutdown.subscribe()));
        }
        if !state.settings.stream_worker_interval.is_zero() {
            let host = url::Url::parse(&state.settings.base_url)
                .ok()
                .and_then(|u| u.host_str().map(str::to_owned))
                .unwrap_or_else(|| state.settings.instance.clone());
            let worker = closewise_core::streams::worker::StreamWorker::new(
                state.streams.clone(),
                &state.settings.instance,
                &host,
            );
            tokio::spawn(worker.run(state.settings.stream_worker_interval, shutdown.subscribe()));
        }
        if state.store.postgres_pool().is_some() {
            tokio::spawn(closewise_core::sessions::revocation_listener::listen(
                state.store.clone(),
                shutdown.subscribe(),
            ));
        }
        tokio::spawn(state.limiter.sweep_every(
            state.clock.clone(),
            state.settings.limits.sweep_interval,
            shutdown.subscribe(),
        ));
        if !state.settings.sweep_interval.is_zero() {
            let sweeper = state.sweeper.clone();
            tokio::spawn(sweeper.run(state.settings.sweep_interval, shutdown.subscribe()));
        }
        let ops = state.ops.clone();
        let router = app(state);
        axum::serve(
            listener,
            router.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(async move {
            shutdown_signal().await;
            let _ = shutdown.send(true);
        })
        .await
        .context("server error")?;
        tokio::time::timeout(Duration::from_secs(5), ops.close())
            .await
            .ok();
        Ok(())
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
    tracing::info!("shutting down");
}

/// Structured logs: JSON in production, readable lines in development. `RUST_LOG` filters.
pub fn init_telemetry(settings: &Settings) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    if settings.is_development() {
        let _ = builder.try_init();
    } else {
        let _ = builder.json().try_init();
    }
}
