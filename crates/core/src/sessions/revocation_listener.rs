//! The revocation listener: on PostgreSQL, every revocation another process commits reaches this
//! process's caches (verified access tokens in `auth_cache`, the reads of `read_cache`) through
//! `NOTIFY session_revoked`: each announcement goes to the store's observers (`Store::revoked`),
//! and the channel's state too (`Store::channel`: the caches are emptied and bypassed while it is
//! down).

use std::time::Duration;

use sqlx::postgres::PgListener;
use tokio::sync::watch;

use crate::store::revocations::CHANNEL;
use crate::store::{Revoked, Store};

/// How often a quiet revocation channel is probed, and how long the probe may take.
const PROBE_EVERY: Duration = Duration::from_secs(5);
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);

/// PostgreSQL: listens on `CHANNEL` and tells the store's observers what each notification
/// revoked. When the connection drops, the caches are emptied and bypassed until a new
/// connection listens again.
pub async fn listen(store: Store, mut shutdown: watch::Receiver<bool>) {
    let Some(pool) = store.postgres_pool().cloned() else {
        return;
    };
    let mut delay = Duration::from_millis(100);
    loop {
        let connect = async {
            let mut listener = PgListener::connect_with(&pool).await?;
            listener.listen(CHANNEL).await?;
            Ok::<_, sqlx::Error>(listener)
        };
        let connected = tokio::select! {
            r = connect => r,
            _ = shutdown.changed() => return,
        };
        let mut listener = match connected {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!(error = %e, "the revocation channel cannot listen yet; retrying");
                tokio::select! {
                    _ = tokio::time::sleep(delay) => {}
                    _ = shutdown.changed() => return,
                }
                delay = (delay * 2).min(Duration::from_secs(2));
                continue;
            }
        };
        delay = Duration::from_millis(100);
        store.channel(true);
        tracing::info!(channel = CHANNEL, "listening for session revocations");
        loop {
            let next = tokio::select! {
                n = listener.try_recv() => Some(n),
                // A connection that died silently (no reset from a vanished network) says
                // nothing: ask it something now and then.
                _ = tokio::time::sleep(PROBE_EVERY) => None,
                _ = shutdown.changed() => return,
            };
            let alive = match next {
                Some(Ok(Some(n))) => {
                    match Revoked::parse(n.payload()) {
                        Some(r) => store.revoked(r),
                        None => tracing::warn!(payload = n.payload(), "unreadable revocation"),
                    }
                    true
                }
                Some(Ok(None)) | Some(Err(_)) => false,
                None => {
                    let probe = sqlx::query("SELECT 1").execute(&mut listener);
                    matches!(tokio::time::timeout(PROBE_TIMEOUT, probe).await, Ok(Ok(_)))
                }
            };
            if !alive {
                store.channel(false);
                tracing::warn!("the revocation channel dropped: token cache cleared and bypassed until it listens again");
                break;
            }
        }
    }
}
