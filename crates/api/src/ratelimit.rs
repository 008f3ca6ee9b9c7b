//! In-memory rate limits: fixed windows per (bucket, key), on the app's clock so tests can move
//! time. Hand-written rather than `governor` because sign-in needs a growing delay per account
//! next to fixed windows, and the windows must follow the injected clock.
//!
//! Memory is bounded whatever clients send. A key is kept only as a 64-bit SipHash under a
//! per-process random key (a 64 KiB "e-mail" costs what any key costs, and nobody can aim keys at
//! one shard or one slot). The map is split into shards, each with its own lock and a hard cap;
//! a new key in a full shard forgets the oldest key that shard may forget, looking at no more than
//! `SCAN` keys, so every request does a bounded amount of work. Expired windows are removed by a
//! timer (`sweep_every`), not by requests.
//!
//! A window that is over its limit, or carries a sign-in delay, is never forgotten to make room:
//! else a flood of junk keys would reset a target's lockout (issue 22, item 4). When a shard holds
//! nothing else, a new key is refused with 429 until one of those windows ends (fail closed). We
//! chose that over a coarse per-network budget because the limiter sees keys, not addresses (an
//! account's delay has no network to fall back on), and an attacker spread over many networks
//! would find a fresh per-network budget on each, which is what the lockout had taken away.
//! Filling a shard this way costs the attacker a whole budget per key, and it empties itself as
//! the windows end.
//! These counters live in one process (SQLite deployments); on PostgreSQL `RateLimiter` keeps
//! them in the database instead, shared by every replica (`shared`).

mod shared;

pub use shared::{RateLimiter, Refused, Spent, SpentBoth};

use std::collections::hash_map::{HashMap, RandomState};
use std::collections::VecDeque;
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use closewise_core::clock::Clock;
use time::OffsetDateTime;
use tokio::sync::watch;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bucket {
    MailPerIp,
    MailPerEmail,
    TokenPerIp,
    /// Failed sign-ins of one account from one client address: a hard limit.
    FailedSigninPerAccountIp,
    /// Failed sign-ins of one account from anywhere: a growing delay, never a lock.
    FailedSigninPerAccount,
    Resend,
    Recover,
    /// Device sign-in requests per client address.
    DevicePerIp,
    /// User-code lookups and decisions (right or wrong) per user, and per client address.
    UserCodePerUser,
    UserCodePerIp,
    /// Team invitations (new and resent) per inviter, and new ones per invited address; a resend
    /// of one address at most once a minute.
    InvitePerInviter,
    InvitePerAddress,
    InviteResend,
    /// Calls started per user (`closewise_domain::usage::CALL_STARTS_PER_HOUR`).
    CallStartPerUser,
    /// Requests that call Stripe for a user (checkouts, their confirmations, billing portals).
    StripePerUser,
    /// Domain verifications (each a DNS look-up) per user.
    DomainCheckPerUser,
}

/// Keys kept when `RATE_LIMIT_MAX_KEYS` is not set.
pub const DEFAULT_MAX_KEYS: usize = 100_000;
const SHARDS: usize = 16;
/// The most keys a new key looks at in a full shard for one it may forget.
const SCAN: usize = 64;

#[derive(Clone)]
pub struct Limiter {
    inner: Arc<Inner>,
}

struct Inner {
    keyer: RandomState,
    shard_cap: usize,
    shards: Box<[Mutex<Shard>]>,
}

#[derive(Default)]
struct Shard {
    windows: HashMap<u64, Window>,
    /// The shard's keys, the next to forget first: oldest first, except that held windows a look
    /// for room passed over went to the back. Always exactly the keys of `windows`.
    order: VecDeque<u64>,
    evicted: u64,
    refused: u64,
}

/// Times are whole seconds since the Unix epoch: 16 bytes a window.
#[derive(Clone, Copy, Default)]
struct Window {
    ends: u32,
    not_before: u32,
    count: u32,
    /// The count from which the window must be kept until it ends: the limit of a fixed window,
    /// the free attempts of a delay.
    held_from: u32,
}

impl Window {
    /// How long this window must be kept, in seconds: 0 when forgetting it gives nobody back a
    /// spent budget or a running delay.
    fn held_for(&self, now: u32) -> u32 {
        let spent = if self.ends > now && self.count >= self.held_from {
            self.ends - now
        } else {
            0
        };
        spent.max(self.not_before.saturating_sub(now))
    }
}

/// What the limiter holds, for tests and metrics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stats {
    pub keys: usize,
    pub max_keys: usize,
    /// Keys forgotten because their shard was full.
    pub evicted: u64,
    /// New keys refused because their shard was full of windows it may not forget.
    pub refused: u64,
}

impl Default for Limiter {
    fn default() -> Self {
        Limiter::new(DEFAULT_MAX_KEYS)
    }
}

fn secs(t: OffsetDateTime) -> u32 {
    t.unix_timestamp().clamp(0, i64::from(u32::MAX)) as u32
}

fn whole_secs(d: Duration) -> u32 {
    d.as_secs().min(u64::from(u32::MAX)) as u32
}

impl Limiter {
    /// A limiter holding at most about `max_keys` keys (rounded up to a multiple of its shards).
    pub fn new(max_keys: usize) -> Self {
        let shard_cap = max_keys.div_ceil(SHARDS).max(1);
        Limiter {
            inner: Arc::new(Inner {
                keyer: RandomState::new(),
                shard_cap,
                shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
            }),
        }
    }

    /// Spends one request; `Err(seconds)` when the window is full.
    pub fn hit(
        &self,
        bucket: Bucket,
        key: &str,
        limit: u32,
        window: Duration,
        now: OffsetDateTime,
    ) -> Result<(), u64> {
        self.with_window(bucket, key, now, |w, now| {
            w.held_from = limit;
            if w.ends <= now {
                w.ends = now.saturating_add(whole_secs(window));
                w.count = 0;
            }
            if w.count >= limit {
                return Err(u64::from(w.ends - now).max(1));
            }
            w.count += 1;
            Ok(())
        })
    }

    /// Spends one attempt of a key that may try `free` times per window without waiting; from
    /// then on each attempt must wait a delay that doubles with every further one, from one second
    /// up to `max_delay`. `Err(seconds)` while the delay runs. Never a lock: the wait is bounded.
    pub fn delay(
        &self,
        bucket: Bucket,
        key: &str,
        free: u32,
        max_delay: Duration,
        window: Duration,
        now: OffsetDateTime,
    ) -> Result<(), u64> {
        self.with_window(bucket, key, now, |w, now| {
            w.held_from = free;
            if now < w.not_before {
                return Err(u64::from(w.not_before - now));
            }
            if w.ends <= now {
                w.ends = now.saturating_add(whole_secs(window));
                w.count = 0;
            }
            w.count = w.count.saturating_add(1);
            if w.count >= free {
                let doublings = w.count - free;
                let wait = 1u32
                    .checked_shl(doublings)
                    .unwrap_or(u32::MAX)
                    .min(whole_secs(max_delay));
                w.not_before = now.saturating_add(wait);
            }
            Ok(())
        })
    }

    /// Gives back one spent request (e.g. a sign-in attempt that turned out right).
    pub fn refund(&self, bucket: Bucket, key: &str) {
        let h = self.key(bucket, key);
        if let Some(w) = self.shard(h).windows.get_mut(&h) {
            w.count = w.count.saturating_sub(1);
        }
    }

    /// Removes every window that has ended (and whose delay has run out).
    pub fn sweep(&self, now: OffsetDateTime) {
        let now = secs(now);
        for shard in self.inner.shards.iter() {
            let mut shard = shard.lock().unwrap_or_else(PoisonError::into_inner);
            let Shard { windows, order, .. } = &mut *shard;
            windows.retain(|_, w| w.ends > now || w.not_before > now);
            order.retain(|k| windows.contains_key(k));
            if windows.capacity() > 4 * windows.len().max(64) {
                windows.shrink_to_fit();
                order.shrink_to_fit();
            }
        }
    }

    /// Sweeps on the app's clock every `every` until `stop` fires or the limiter is dropped (the
    /// task holds no strong reference, so apps built and dropped by tests leave nothing behind).
    pub fn sweep_every(
        &self,
        clock: Clock,
        every: Duration,
        mut stop: watch::Receiver<bool>,
    ) -> impl std::future::Future<Output = ()> + Send + 'static {
        let weak = Arc::downgrade(&self.inner);
        async move {
            let mut tick = tokio::time::interval(every.max(Duration::from_millis(1)));
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            tick.tick().await;
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    _ = stop.changed() => return,
                }
                let Some(inner) = weak.upgrade() else { return };
                Limiter { inner }.sweep(clock.now());
            }
        }
    }

    pub fn stats(&self) -> Stats {
        let mut stats = Stats {
            keys: 0,
            max_keys: self.inner.shard_cap * SHARDS,
            evicted: 0,
            refused: 0,
        };
        for shard in self.inner.shards.iter() {
            let shard = shard.lock().unwrap_or_else(PoisonError::into_inner);
            stats.keys += shard.windows.len();
            stats.evicted += shard.evicted;
            stats.refused += shard.refused;
        }
        stats
    }

    fn key(&self, bucket: Bucket, key: &str) -> u64 {
        let mut h = self.inner.keyer.build_hasher();
        bucket.hash(&mut h);
        key.hash(&mut h);
        h.finish()
    }

    fn shard(&self, h: u64) -> MutexGuard<'_, Shard> {
        self.inner.shards[(h % SHARDS as u64) as usize]
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs `f` on the key's window; a new key in a full shard first makes room, or is refused
    /// (`Err(seconds)` until a window it may forget is likely) when the shard holds only lockouts.
    fn with_window(
        &self,
        bucket: Bucket,
        key: &str,
        now: OffsetDateTime,
        f: impl FnOnce(&mut Window, u32) -> Result<(), u64>,
    ) -> Result<(), u64> {
        let h = self.key(bucket, key);
        let now = secs(now);
        let mut shard = self.shard(h);
        if !shard.windows.contains_key(&h) {
            if let Err(wait) = shard.make_room(self.inner.shard_cap, now) {
                shard.refused += 1;
                return Err(u64::from(wait).max(1));
            }
            shard.order.push_back(h);
        }
        f(shard.windows.entry(h).or_default(), now)
    }
}

impl Shard {
    /// Forgets the oldest windows that hold nothing (see `Window::held_for`) until one more key
    /// fits. Held windows it passes go to the back of `order`, so the next look starts further on;
    /// `order` keeps exactly the map's keys. `Err(seconds)`: the first of the held windows it saw
    /// to end, when none of `SCAN` keys could go.
    fn make_room(&mut self, cap: usize, now: u32) -> Result<(), u32> {
        let mut looked = 0;
        let mut wait = u32::MAX;
        while self.windows.len() >= cap {
            if looked >= SCAN.min(self.order.len()) {
                return Err(wait);
            }
            let Some(oldest) = self.order.pop_front() else {
                break;
            };
            looked += 1;
            match self.windows.get(&oldest).map(|w| w.held_for(now)) {
                Some(0) => {
                    self.windows.remove(&oldest);
                    self.evicted += 1;
                }
                Some(held) => {
                    wait = wait.min(held);
                    self.order.push_back(oldest);
                }
                None => {}
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: OffsetDateTime = OffsetDateTime::UNIX_EPOCH;

    fn at(s: i64) -> OffsetDateTime {
        T0 + time::Duration::seconds(s)
    }

    #[test]
    fn a_full_window_refuses_until_it_ends() {
        let l = Limiter::default();
        let w = Duration::from_secs(60);
        assert!(l.hit(Bucket::MailPerIp, "ip", 2, w, T0).is_ok());
        assert!(l.hit(Bucket::MailPerIp, "ip", 2, w, T0).is_ok());
        assert_eq!(l.hit(Bucket::MailPerIp, "ip", 2, w, at(15)), Err(45));
        assert!(l.hit(Bucket::MailPerIp, "other", 2, w, T0).is_ok());
        assert!(
            l.hit(Bucket::TokenPerIp, "ip", 2, w, T0).is_ok(),
            "buckets apart"
        );
        assert!(l.hit(Bucket::MailPerIp, "ip", 2, w, at(60)).is_ok());
    }

    #[test]
    fn a_refund_gives_one_request_back() {
        let l = Limiter::default();
        let w = Duration::from_secs(60);
        assert!(l.hit(Bucket::MailPerIp, "ip", 1, w, T0).is_ok());
        l.refund(Bucket::MailPerIp, "ip");
        assert!(l.hit(Bucket::MailPerIp, "ip", 1, w, T0).is_ok());
        assert!(l.hit(Bucket::MailPerIp, "ip", 1, w, T0).is_err());
    }

    #[test]
    fn the_delay_doubles_after_the_free_attempts_and_is_capped() {
        let l = Limiter::default();
        let (max, w) = (Duration::from_secs(10), Duration::from_secs(3600));
        let try_at = |t| l.delay(Bucket::FailedSigninPerAccount, "a", 2, max, w, at(t));
        assert!(try_at(0).is_ok());
        assert!(try_at(0).is_ok());
        assert_eq!(try_at(0), Err(1));
        assert!(try_at(1).is_ok());
        assert_eq!(try_at(1), Err(2));
        assert!(try_at(3).is_ok());
        assert_eq!(try_at(3), Err(4));
        assert!(try_at(7).is_ok());
        assert_eq!(try_at(7), Err(8));
        assert!(try_at(15).is_ok());
        assert_eq!(try_at(15), Err(10), "capped");
        for t in (25..2000).step_by(10) {
            assert!(try_at(t).is_ok(), "never longer than the cap");
        }
        assert!(try_at(3600 + 2000).is_ok(), "a new window starts free");
        assert!(try_at(3600 + 2000).is_ok());
    }

    #[test]
    fn keys_are_bounded_and_the_oldest_are_forgotten_first() {
        let l = Limiter::new(160);
        let w = Duration::from_secs(60);
        for i in 0..10_000 {
            assert!(l
                .hit(Bucket::MailPerEmail, &i.to_string(), 2, w, T0)
                .is_ok());
        }
        let s = l.stats();
        assert_eq!(s.max_keys, 160);
        assert!(s.keys <= 160 && s.keys > 100, "{s:?}");
        assert_eq!(s.evicted, 10_000 - s.keys as u64);
        // The newest are still counted.
        assert!(l.hit(Bucket::MailPerEmail, "9999", 2, w, T0).is_ok());
        assert!(l.hit(Bucket::MailPerEmail, "9999", 2, w, T0).is_err());
    }

    #[test]
    fn a_full_shard_forgets_free_windows_keeps_lockouts_and_refuses_when_it_holds_only_those() {
        // One shard of one key: 16 keys in all.
        let l = Limiter::new(16);
        let (w, max) = (Duration::from_secs(60), Duration::from_secs(30));
        let mut held = Vec::new();
        for i in 0..200 {
            let key = i.to_string();
            // Half of the keys are locked out at once, half merely counted.
            let limit = if i % 2 == 0 { 1 } else { 5 };
            if l.hit(Bucket::MailPerEmail, &key, limit, w, T0).is_ok() && limit == 1 {
                held.push(key);
            }
        }
        let s = l.stats();
        assert!(s.keys <= 16, "{s:?}");
        assert!(s.refused > 0 && s.evicted > 0, "{s:?}");
        for key in &held {
            assert_eq!(
                l.hit(Bucket::MailPerEmail, key, 1, w, at(10)),
                Err(50),
                "{key}"
            );
        }
        // A running delay is kept as well, past the end of its window.
        let d = Limiter::new(16);
        for t in [0, 1, 3] {
            d.delay(Bucket::FailedSigninPerAccount, "a", 1, max, w, at(t))
                .unwrap();
        }
        for i in 0..200 {
            let _ = d.hit(Bucket::MailPerEmail, &i.to_string(), 5, w, at(3));
        }
        assert_eq!(
            d.delay(Bucket::FailedSigninPerAccount, "a", 1, max, w, at(3)),
            Err(4)
        );
    }

    #[test]
    fn a_sweep_removes_ended_windows_only() {
        let l = Limiter::default();
        let (short, long) = (Duration::from_secs(60), Duration::from_secs(3600));
        l.hit(Bucket::MailPerIp, "a", 5, short, T0).unwrap();
        l.hit(Bucket::MailPerIp, "b", 5, long, T0).unwrap();
        for t in [0, 1, 3, 7, 15, 31] {
            l.delay(Bucket::FailedSigninPerAccount, "c", 1, long, short, at(t))
                .unwrap();
        }
        l.sweep(at(59));
        assert_eq!(l.stats().keys, 3);
        l.sweep(at(60));
        assert_eq!(l.stats().keys, 2, "the delay of c outlives its window");
        l.sweep(at(3600));
        assert_eq!(l.stats().keys, 0);
    }
}
