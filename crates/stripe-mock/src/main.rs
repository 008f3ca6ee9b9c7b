//! `stripe-mock`: a stateful local Stripe for development (see README.md).

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Parser;
use stripe_mock::{Config, DEFAULT_PORT, DEFAULT_SECRET_KEY, DEFAULT_WEBHOOK_SECRET};

/// A local Stripe: REST subset, hosted checkout and billing portal, signed webhooks, test clock.
#[derive(Debug, Parser)]
#[command(name = "stripe-mock", version)]
struct Args {
    /// Port to listen on (127.0.0.1).
    #[arg(long, env = "STRIPE_MOCK_PORT", default_value_t = DEFAULT_PORT)]
    port: u16,
    /// Address to bind (use 0.0.0.0 inside containers).
    #[arg(long, env = "STRIPE_MOCK_HOST", default_value = "127.0.0.1")]
    host: std::net::IpAddr,
    /// Where to POST webhook events (e.g. http://127.0.0.1:8080/api/stripe/webhook).
    #[arg(long, env = "STRIPE_MOCK_WEBHOOK_URL")]
    webhook_url: Option<String>,
    /// Secret that signs `Stripe-Signature`.
    #[arg(long, env = "STRIPE_MOCK_WEBHOOK_SECRET", default_value = DEFAULT_WEBHOOK_SECRET)]
    webhook_secret: String,
    /// The API key clients must send as `Authorization: Bearer <key>`.
    #[arg(long, env = "STRIPE_MOCK_SECRET_KEY", default_value = DEFAULT_SECRET_KEY)]
    secret_key: String,
    /// Base URL of the hosted pages, if not http://<host>:<port>.
    #[arg(long, env = "STRIPE_MOCK_PUBLIC_URL")]
    public_url: Option<String>,
    /// Keep state in this JSON file (loaded at start, written after every change).
    #[arg(long, env = "STRIPE_MOCK_STATE_FILE")]
    state_file: Option<PathBuf>,
    /// The seller's country for automatic tax (a two-letter code).
    #[arg(long, env = "STRIPE_MOCK_SELLER_COUNTRY", default_value = stripe_mock::DEFAULT_SELLER_COUNTRY)]
    seller_country: String,
    /// Days after a renewal's first failed charge when it is retried (Smart Retries), comma
    /// separated; empty for none.
    #[arg(long, env = "STRIPE_MOCK_RETRY_DAYS", default_value = "1,3,5,7", value_parser = stripe_mock::parse_retry_days)]
    retry_days: RetryDays,
    /// What the last failed retry does to the subscription: `cancel` or `unpaid`.
    #[arg(long, env = "STRIPE_MOCK_AFTER_RETRIES", default_value = "cancel", value_parser = stripe_mock::AfterRetries::parse)]
    after_retries: stripe_mock::AfterRetries,
}

/// A retry schedule as one value for clap (a `Vec` would mean a repeated flag).
type RetryDays = stripe_mock::RetryDays;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "stripe_mock=info".into()),
        )
        .init();
    let args = Args::parse();
    let config = Config {
        secret_key: args.secret_key,
        webhook_url: args.webhook_url.clone(),
        webhook_secret: args.webhook_secret,
        public_url: args.public_url,
        state_file: args.state_file.clone(),
        seller_country: args.seller_country,
        retry_days: args.retry_days.0,
        after_retries: args.after_retries,
        ..Config::default()
    };
    let (addr, handle) = stripe_mock::serve(config, SocketAddr::new(args.host, args.port)).await?;
    tracing::info!(
        "stripe-mock listening on http://{addr} (webhooks: {}, state file: {})",
        args.webhook_url.as_deref().unwrap_or("off"),
        args.state_file
            .as_ref()
            .map_or("none".to_owned(), |p| p.display().to_string())
    );
    shutdown_signal().await;
    tracing::info!("stripe-mock shutting down");
    handle.shutdown().await;
    Ok(())
}

/// Ctrl-C, or SIGTERM (containers, process managers).
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
