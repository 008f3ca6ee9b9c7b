//! The limiter the handlers use, chosen by the database: on SQLite (one process) the in-memory
//! `Limiter`; on PostgreSQL the windows live in the database (`rate_limits`, one upsert per
//! counted request, `closewise_core::store::ratelimits`), so every replica spends the same
//! budgets, to the request. Both follow the app's clock.

use std::time::Duration;

use closewise_core::clock::Clock;
use closewise_core::store::ratelimits::RateLimitError;
use closewise_core::store::ratelimits::{DelaySpend, WindowSpend};
pub use closewise_core::store::ratelimits::{Refused, Spent, SpentBoth};
use closewise_core::store::Store;
use time::OffsetDateTime;
use tokio::sync::watch;

use super::{Bucket, Limiter, Stats};

#[derive(Clone)]
pub enum RateLimiter {
    /// In this process's memory (SQLite: one process).
    Memory(Limiter),
    /// In the database, shared by every replica (PostgreSQL).
    Shared(Store),
}

impl RateLimiter {
    /// Shared windows on PostgreSQL, memory (at most about `max_keys` keys) on SQLite.
    pub fn for_store(store: &Store, max_keys: usize) -> Self {
        match store.backend_name() {
            "postgres" => RateLimiter::Shared(store.clone()),
            _ => RateLimiter::Memory(Limiter::new(max_keys)),
        }
    }

    /// Spends one request of at most `limit` per `window`; `Ok(Err(seconds))` when it is full.
    pub async fn hit(
        &self,
        bucket: Bucket,
        key: &str,
        limit: u32,
        window: Duration,
        now: OffsetDateTime,
    ) -> Spent {
        match self {
            RateLimiter::Memory(l) => Ok(l.hit(bucket, key, limit, window, now)),
            RateLimiter::Shared(store) => {
                store
                    .spend_window(&name(bucket), key, limit, window, now)
                    .await
            }
        }
    }

    /// `Limiter::delay`: `free` attempts per window, then a doubling wait up to `max_delay`.
    pub async fn delay(
        &self,
        bucket: Bucket,
        key: &str,
        free: u32,
        max_delay: Duration,
        window: Duration,
        now: OffsetDateTime,
    ) -> Spent {
        match self {
            RateLimiter::Memory(l) => Ok(l.delay(bucket, key, free, max_delay, window, now)),
            RateLimiter::Shared(store) => {
                store
                    .spend_delay(&name(bucket), key, free, max_delay, window, now)
                    .await
            }
        }
    }

    /// Spends one request of the window `hit` (bucket, key, limit, window) and, only when that is
    /// allowed, one attempt of the delay bucket `delay` (bucket, key, free, max delay, window);
    /// when the delay refuses, the window's request is given back. On PostgreSQL the two spends
    /// are one statement (`Store::spend_window_then_delay`).
    pub async fn hit_then_delay(
        &self,
        (hit_bucket, hit_key, limit, hit_window): (Bucket, &str, u32, Duration),
        (bucket, key, free, max_delay, window): (Bucket, &str, u32, Duration, Duration),
        now: OffsetDateTime,
    ) -> SpentBoth {
        match self {
            RateLimiter::Memory(l) => {
                if let Err(wait) = l.hit(hit_bucket, hit_key, limit, hit_window, now) {
                    return Ok(Err(Refused::Window(wait)));
                }
                if let Err(wait) = l.delay(bucket, key, free, max_delay, window, now) {
                    l.refund(hit_bucket, hit_key);
                    return Ok(Err(Refused::Delay(wait)));
                }
                Ok(Ok(()))
            }
            RateLimiter::Shared(store) => {
                let (hit_name, name) = (name(hit_bucket), name(bucket));
                let hit = WindowSpend {
                    bucket: &hit_name,
                    key: hit_key,
                    limit,
                    window: hit_window,
                };
                let delay = DelaySpend {
                    bucket: &name,
                    key,
                    free,
                    max_delay,
                    window,
                };
                store.spend_window_then_delay(&hit, &delay, now).await
            }
        }
    }

    /// Gives back one spent request. A refund that cannot reach the database is logged: it costs
    /// the client one request of its budget, nothing more.
    pub async fn refund(&self, bucket: Bucket, key: &str) {
        match self {
            RateLimiter::Memory(l) => l.refund(bucket, key),
            RateLimiter::Shared(store) => {
                if let Err(e) = store.refund_window(&name(bucket), key).await {
                    tracing::warn!(error = %e, ?bucket, "rate-limit refund failed");
                }
            }
        }
    }

    /// Gives back one spent request of each window, on PostgreSQL in one statement (sign-in's two
    /// budgets after a right password: one round trip less per sign-in). A window named twice
    /// gets two back, as two `refund`s would.
    pub async fn refund_each(&self, windows: &[(Bucket, &str)]) {
        match self {
            RateLimiter::Memory(l) => windows.iter().for_each(|(b, k)| l.refund(*b, k)),
            RateLimiter::Shared(store) => {
                let named: Vec<(String, &str)> =
                    windows.iter().map(|(b, k)| (name(*b), *k)).collect();
                let named: Vec<(&str, &str)> =
                    named.iter().map(|(b, k)| (b.as_str(), *k)).collect();
                if let Err(e) = store.refund_windows(&named).await {
                    tracing::warn!(error = %e, ?windows, "rate-limit refund failed");
                }
            }
        }
    }

    /// Removes the ended windows every `every` until `stop` fires (memory: while the limiter
    /// lives; shared: every replica sweeps, the deletes are idempotent).
    pub fn sweep_every(
        &self,
        clock: Clock,
        every: Duration,
        mut stop: watch::Receiver<bool>,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + 'static>> {
        match self {
            RateLimiter::Memory(l) => Box::pin(l.sweep_every(clock, every, stop)),
            RateLimiter::Shared(store) => {
                let store = store.clone();
                Box::pin(async move {
                    let mut tick = tokio::time::interval(every.max(Duration::from_millis(1)));
                    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                    tick.tick().await;
                    loop {
                        tokio::select! {
                            _ = tick.tick() => {}
                            _ = stop.changed() => return,
                        }
                        if let Err(e) = store.sweep_windows(clock.now()).await {
                            tracing::debug!(error = %e, "rate-limit sweep failed; next tick retries");
                        }
                    }
                })
            }
        }
    }

    /// What the limiter holds. Shared windows are bounded by the sweep, not by a key count:
    /// `max_keys` is `usize::MAX` there and nothing is evicted or refused (the sweep removes only
    /// windows that have ended and whose delay has run out, so no lockout is lost either).
    pub async fn stats(&self) -> Result<Stats, RateLimitError> {
        match self {
            RateLimiter::Memory(l) => Ok(l.stats()),
            RateLimiter::Shared(store) => Ok(Stats {
                keys: store.window_count().await?,
                max_keys: usize::MAX,
                evicted: 0,
                refused: 0,
            }),
        }
    }
}

/// The bucket's name in the table: its variant's name, so new buckets need no mapping.
fn name(bucket: Bucket) -> String {
    format!("{bucket:?}")
}
