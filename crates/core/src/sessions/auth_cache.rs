//! The read path's cache of verified access tokens: a token seen once with an active
//! session is, until its own `exp`, one SHA-256 and one map lookup instead of an EdDSA check and
//! a session query.
//!
//! Revocation stays immediate: the store tells this process's cache of every revocation it
//! commits (`Store::on_revoked`, registered by `for_store`), before the revoking request answers;
//! on PostgreSQL every other process hears of it through `NOTIFY session_revoked`
//! (`revocation_listener::listen`), and while that channel is down
//! the cache is empty and bypassed, so no notification missed meanwhile can leave a grant behind.
//! A check that began before a revocation never fills the cache after it (`generation`). On
//! SQLite, whose other process is the CLI on the same file, an entry also lives at most
//! `SQLITE_MAX_AGE`, so an operator's sign-out there takes effect within that too.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::store::{Revoked, Store};

/// The caller, from a valid bearer access token whose session is still active (the API's
/// extractor builds it).
#[derive(Clone, Debug)]
pub struct AuthUser {
    pub user_id: Uuid,
    pub session_id: Uuid,
    pub email: String,
    pub email_verified: bool,
}

/// Tokens kept at most; the oldest goes first.
pub const CAPACITY: usize = 10_000;
/// How long an entry lives on SQLite at most (the CLI's revocations are not announced there).
pub const SQLITE_MAX_AGE: Duration = Duration::from_secs(1);

pub type Key = [u8; 32];

struct Entry {
    user: AuthUser,
    /// The token's `exp` (unix seconds): the entry is dead from then on.
    exp: i64,
    inserted: Instant,
    seq: u64,
}

#[derive(Default)]
struct Inner {
    map: HashMap<Key, Entry>,
    /// Insertion order, for eviction; pairs whose `seq` no longer matches the map are stale.
    order: VecDeque<(Key, u64)>,
    seq: u64,
}

pub struct AuthCache {
    inner: Mutex<Inner>,
    /// Bumped (under the lock) by every invalidation: a check that read an older value began
    /// before it, and its answer may be stale, so it does not fill the cache.
    generation: AtomicU64,
    /// False while revocations could be missed: PostgreSQL before the channel listens, or after
    /// it dropped. Nothing is served from or kept in the cache then.
    live: AtomicBool,
    capacity: usize,
    max_age: Option<Duration>,
}

impl AuthCache {
    pub fn new(capacity: usize, max_age: Option<Duration>, live: bool) -> AuthCache {
        AuthCache {
            inner: Mutex::new(Inner::default()),
            generation: AtomicU64::new(0),
            live: AtomicBool::new(live),
            capacity: capacity.max(1),
            max_age,
        }
    }

    /// The cache for this store, told of every revocation the store commits in this process:
    /// live at once on SQLite; on PostgreSQL once `revocation_listener::listen` listens.
    pub fn for_store(store: &Store) -> Arc<AuthCache> {
        let cache = Arc::new(match store.postgres_pool() {
            Some(_) => AuthCache::new(CAPACITY, None, false),
            None => AuthCache::new(CAPACITY, Some(SQLITE_MAX_AGE), true),
        });
        let observer = cache.clone();
        store.on_revoked(move |revoked| observer.revoke(revoked));
        let observer = cache.clone();
        store.on_channel(move |listening| match listening {
            true => observer.resume(),
            false => observer.suspend(),
        });
        cache
    }

    /// The key of a token: its SHA-256 (the token itself is never kept).
    pub fn key(token: &str) -> Key {
        Sha256::digest(token.as_bytes()).into()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The caller of a token checked before, while its `exp` (unix seconds) is after `now`.
    pub fn get(&self, key: &Key, now: i64) -> Option<AuthUser> {
        if !self.live.load(Ordering::Acquire) {
            return None;
        }
        let mut inner = self.lock();
        let entry = inner.map.get(key)?;
        let fresh = now < entry.exp
            && self
                .max_age
                .is_none_or(|max| entry.inserted.elapsed() < max);
        if fresh {
            return Some(entry.user.clone());
        }
        inner.map.remove(key);
        None
    }

    /// Read before checking a token; hand it to `insert`.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Keeps a token found valid, unless something was revoked since `generation` was read or
    /// the cache is bypassed. True when kept.
    pub fn insert(&self, key: Key, user: AuthUser, exp: i64, generation: u64) -> bool {
        let mut inner = self.lock();
        if !self.live.load(Ordering::Acquire) || self.generation() != generation {
            return false;
        }
        while inner.map.len() >= self.capacity && !inner.map.contains_key(&key) {
            let Some((oldest, seq)) = inner.order.pop_front() else {
                break;
            };
            if inner.map.get(&oldest).is_some_and(|e| e.seq == seq) {
                inner.map.remove(&oldest);
            }
        }
        inner.seq += 1;
        let seq = inner.seq;
        inner.map.insert(
            key,
            Entry {
                user,
                exp,
                inserted: Instant::now(),
                seq,
            },
        );
        inner.order.push_back((key, seq));
        if inner.order.len() > 2 * self.capacity {
            let Inner { map, order, .. } = &mut *inner;
            order.retain(|(k, s)| map.get(k).is_some_and(|e| e.seq == *s));
        }
        true
    }

    /// Drops every token of what `revoked` ended.
    /// A change to what a user's reads return (`Revoked::Reads`, `Revoked::AllReads`) ends no
    /// token.
    pub fn revoke(&self, revoked: &Revoked) {
        if matches!(revoked, Revoked::Reads(_) | Revoked::AllReads) {
            return;
        }
        let mut inner = self.lock();
        self.generation.fetch_add(1, Ordering::AcqRel);
        match *revoked {
            Revoked::Session { session_id, .. } => {
                inner.map.retain(|_, e| e.user.session_id != session_id)
            }
            Revoked::User(user_id) => inner.map.retain(|_, e| e.user.user_id != user_id),
            Revoked::Reads(_) | Revoked::AllReads => {}
        }
    }

    /// Empties the cache and bypasses it until `resume`: revocations may be missed meanwhile.
    pub fn suspend(&self) {
        let mut inner = self.lock();
        self.live.store(false, Ordering::Release);
        self.generation.fetch_add(1, Ordering::AcqRel);
        inner.map.clear();
        inner.order.clear();
    }

    pub fn resume(&self) {
        self.live.store(true, Ordering::Release);
    }

    pub fn is_live(&self) -> bool {
        self.live.load(Ordering::Acquire)
    }

    pub fn len(&self) -> usize {
        self.lock().map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
#[path = "auth_cache_tests.rs"]
mod tests;
