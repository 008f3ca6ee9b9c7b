//! The read path's cache of what authenticated reads return: one value per user (an
//! account row, a plan, a subscription, the facts entitlements are decided from), kept until a
//! write changes it, so a signed-in read is query-free after the user's first.
//!
//! It is invalidated by the announcements that revoke tokens (`crate::store::revocations`): every
//! store write that changes what a cached read returns announces `Revoked::Reads(user)` (or
//! `Revoked::AllReads` for a team's, read by each member) in its transaction; this process hears
//! it right after the commit (`Store::on_revoked`), other processes on PostgreSQL through
//! `NOTIFY session_revoked` (`revocation_listener`). A user's revocation (`Revoked::User`: a
//! confirmed address, a new password, a deleted account) drops their reads too. While the
//! channel is down (or before it first listens) the cache is empty and bypassed, and a load that
//! began before an invalidation never fills it after (`generation`). On SQLite, whose other
//! process is the CLI on the same file, an entry lives at most `SQLITE_MAX_AGE`.
//!
//! Bounded: at most `CAPACITY` users per cache, the oldest evicted first.

use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use uuid::Uuid;

use crate::store::{Revoked, Store};

/// Users kept at most per cache (about 1 KiB each at most: 4 MiB per cache); the oldest goes
/// first.
pub const CAPACITY: usize = 4_096;
/// How long an entry lives on SQLite at most (the CLI's writes are not announced there).
pub const SQLITE_MAX_AGE: Duration = Duration::from_secs(1);

struct Entry<V> {
    value: V,
    inserted: Instant,
    seq: u64,
}

struct Inner<V> {
    map: HashMap<Uuid, Entry<V>>,
    /// Insertion order, for eviction; pairs whose `seq` no longer matches the map are stale.
    order: VecDeque<(Uuid, u64)>,
    seq: u64,
}

pub struct ReadCache<V> {
    inner: Mutex<Inner<V>>,
    /// Bumped (under the lock) by every invalidation: a load that read an older value began
    /// before it and may be stale, so it does not fill the cache.
    generation: AtomicU64,
    /// False while announcements could be missed: PostgreSQL before the channel listens, or
    /// after it dropped. Nothing is served from or kept in the cache then.
    live: AtomicBool,
    capacity: usize,
    max_age: Option<Duration>,
}

impl<V: Clone + Send + 'static> ReadCache<V> {
    pub fn new(capacity: usize, max_age: Option<Duration>, live: bool) -> ReadCache<V> {
        ReadCache {
            inner: Mutex::new(Inner {
                map: HashMap::new(),
                order: VecDeque::new(),
                seq: 0,
            }),
            generation: AtomicU64::new(0),
            live: AtomicBool::new(live),
            capacity: capacity.max(1),
            max_age,
        }
    }

    /// A cache for this store, told of every announcement and of the channel's state: live at
    /// once on SQLite; on PostgreSQL once `revocation_listener::listen` listens.
    pub fn for_store(store: &Store) -> Arc<ReadCache<V>> {
        let cache = Arc::new(match store.postgres_pool() {
            Some(_) => ReadCache::new(CAPACITY, None, false),
            None => ReadCache::new(CAPACITY, Some(SQLITE_MAX_AGE), true),
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

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner<V>> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The user's value, when kept and fresh.
    pub fn get(&self, user_id: Uuid) -> Option<V> {
        if !self.live.load(Ordering::Acquire) {
            return None;
        }
        let mut inner = self.lock();
        let entry = inner.map.get(&user_id)?;
        if self
            .max_age
            .is_none_or(|max| entry.inserted.elapsed() < max)
        {
            return Some(entry.value.clone());
        }
        inner.map.remove(&user_id);
        None
    }

    /// Read before loading a value; hand it to `insert`.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Keeps a value just loaded, unless something was invalidated since `generation` was read
    /// or the cache is bypassed. True when kept.
    pub fn insert(&self, user_id: Uuid, value: V, generation: u64) -> bool {
        let mut inner = self.lock();
        if !self.live.load(Ordering::Acquire) || self.generation() != generation {
            return false;
        }
        while inner.map.len() >= self.capacity && !inner.map.contains_key(&user_id) {
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
            user_id,
            Entry {
                value,
                inserted: Instant::now(),
                seq,
            },
        );
        inner.order.push_back((user_id, seq));
        if inner.order.len() > 2 * self.capacity {
            let Inner { map, order, .. } = &mut *inner;
            order.retain(|(k, s)| map.get(k).is_some_and(|e| e.seq == *s));
        }
        true
    }

    /// The user's value from the cache, else from `load` (kept when nothing changed meanwhile).
    pub async fn get_or_load<E, F, Fut>(&self, user_id: Uuid, load: F) -> Result<V, E>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<V, E>>,
    {
        if let Some(value) = self.get(user_id) {
            return Ok(value);
        }
        let generation = self.generation();
        let value = load().await?;
        self.insert(user_id, value.clone(), generation);
        Ok(value)
    }

    /// Drops what `revoked` changed: the user's value, or every value.
    pub fn revoke(&self, revoked: &Revoked) {
        let mut inner = self.lock();
        match *revoked {
            Revoked::Session { .. } => return,
            Revoked::User(user_id) | Revoked::Reads(user_id) => {
                inner.map.remove(&user_id);
            }
            Revoked::AllReads => {
                inner.map.clear();
                inner.order.clear();
            }
        }
        self.generation.fetch_add(1, Ordering::AcqRel);
    }

    /// Empties the cache and bypasses it until `resume`: announcements may be missed meanwhile.
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
#[path = "read_cache_tests.rs"]
mod tests;
