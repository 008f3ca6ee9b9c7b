//! Rate-limit windows in the database, for several API replicas on one PostgreSQL: each counted
//! request is one upsert that decides and counts at once, under the row's lock, so concurrent
//! requests on any replica never overrun a budget. The rules are the in-memory limiter's
//! (`closewise_api::ratelimit`), written as SQL: a fixed window per key starting at its first
//! request, refused requests not counted, and a doubling delay for the delay buckets.
//! Plain SQL that SQLite accepts too (tests), though SQLite deployments count in memory.

use std::time::Duration;

use sha2::{Digest, Sha256};
use time::OffsetDateTime;

use super::{dispatch, Store};

/// Why the shared windows could not be asked: the database's error (the request then fails as
/// the database does: 503).
pub type RateLimitError = sqlx::Error;

/// What a counted request came to: `Ok(Err(seconds))` when it must wait; `Err` when the shared
/// windows could not be asked.
pub type Spent = Result<Result<(), u64>, RateLimitError>;

/// The outcome of one counted request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateOutcome {
    pub allowed: bool,
    /// Unix seconds: when the window ends (`rate_hit`) or the delay runs out (`rate_delay`).
    pub until: i64,
}

const HIT: &str = "INSERT INTO rate_limits \
    (bucket, key_hash, window_start, window_end, count, not_before, allowed) \
    VALUES ($1, $2, $3, $3 + $4, CASE WHEN $5 > 0 THEN 1 ELSE 0 END, 0, $5 > 0) \
    ON CONFLICT (bucket, key_hash) DO UPDATE SET \
    window_start = CASE WHEN rate_limits.window_end <= $3 THEN $3 ELSE rate_limits.window_start END, \
    window_end = CASE WHEN rate_limits.window_end <= $3 THEN $3 + $4 ELSE rate_limits.window_end END, \
    count = CASE WHEN rate_limits.window_end <= $3 THEN (CASE WHEN $5 > 0 THEN 1 ELSE 0 END) \
        WHEN rate_limits.count < $5 THEN rate_limits.count + 1 ELSE rate_limits.count END, \
    allowed = CASE WHEN rate_limits.window_end <= $3 THEN $5 > 0 \
        ELSE rate_limits.count < $5 END \
    RETURNING allowed, window_end";

/// The delay buckets: `{n}` is the attempt's number in its window, `{wait}` the delay it sets.
fn delay_sql() -> String {
    let n = "(CASE WHEN rate_limits.window_end <= $3 THEN 1 ELSE rate_limits.count + 1 END)";
    let shift = format!("(CASE WHEN {n} - $5 >= 40 THEN 40 ELSE {n} - $5 END)");
    let wait = format!(
        "(CASE WHEN (CAST(1 AS BIGINT) << {shift}) < $6 THEN (CAST(1 AS BIGINT) << {shift}) ELSE $6 END)"
    );
    let fresh = "$3 >= rate_limits.not_before AND rate_limits.window_end <= $3";
    format!(
        "INSERT INTO rate_limits \
         (bucket, key_hash, window_start, window_end, count, not_before, allowed) \
         VALUES ($1, $2, $3, $3 + $4, 1, $7, TRUE) \
         ON CONFLICT (bucket, key_hash) DO UPDATE SET \
         window_start = CASE WHEN {fresh} THEN $3 ELSE rate_limits.window_start END, \
         window_end = CASE WHEN {fresh} THEN $3 + $4 ELSE rate_limits.window_end END, \
         count = CASE WHEN $3 < rate_limits.not_before THEN rate_limits.count ELSE {n} END, \
         not_before = CASE WHEN $3 < rate_limits.not_before THEN rate_limits.not_before \
             WHEN {n} >= $5 THEN $3 + {wait} ELSE rate_limits.not_before END, \
         allowed = $3 >= rate_limits.not_before \
         RETURNING allowed, not_before"
    )
}

static DELAY: std::sync::LazyLock<String> = std::sync::LazyLock::new(delay_sql);

/// The delay the `n`th attempt of a window sets when `free` attempts are free: 2^(n - free)
/// seconds up to `max` (0: none). The first attempt's, for the row an upsert inserts.
pub fn attempt_delay(n: i32, free: i32, max: i64) -> Option<i64> {
    (n >= free).then(|| {
        let shift = (n - free).min(40) as u32;
        (1i64 << shift).min(max)
    })
}

/// Unix seconds as the windows keep them (the in-memory limiter's range).
fn secs(t: OffsetDateTime) -> i64 {
    t.unix_timestamp().clamp(0, i64::from(u32::MAX))
}

fn whole_secs(d: Duration) -> i64 {
    d.as_secs().min(u64::from(u32::MAX)) as i64
}

/// The first 8 bytes of SHA-256(key): the same on every replica, and no address or e-mail is
/// stored. A collision (one in 2^64) would only make two keys share a window.
fn key_hash(key: &str) -> i64 {
    let digest = Sha256::digest(key.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    i64::from_be_bytes(first)
}

/// The wait left until `until` (at least a second), for a refused request.
fn wait(allowed: bool, until: i64, now: i64) -> Result<(), u64> {
    if allowed {
        Ok(())
    } else {
        Err(until.saturating_sub(now).max(1) as u64)
    }
}

/// The shared windows as the API's limiter spends them: a bucket by name, the client's key
/// (hashed here), the app's clock.
impl Store {
    /// Spends one request of `bucket` for `key`, at most `limit` per `window`.
    pub async fn spend_window(
        &self,
        bucket: &str,
        key: &str,
        limit: u32,
        window: Duration,
        now: OffsetDateTime,
    ) -> Spent {
        let now = secs(now);
        let limit = i32::try_from(limit).unwrap_or(i32::MAX);
        let out = self
            .rate_hit(bucket, key_hash(key), now, whole_secs(window), limit)
            .await?;
        Ok(wait(out.allowed, out.until, now))
    }

    /// Spends one attempt of a delay bucket: `free` per window, then a doubling wait up to
    /// `max_delay`.
    pub async fn spend_delay(
        &self,
        bucket: &str,
        key: &str,
        free: u32,
        max_delay: Duration,
        window: Duration,
        now: OffsetDateTime,
    ) -> Spent {
        let now = secs(now);
        let free = i32::try_from(free).unwrap_or(i32::MAX);
        let out = self
            .rate_delay(
                bucket,
                key_hash(key),
                now,
                whole_secs(window),
                free,
                whole_secs(max_delay),
            )
            .await?;
        Ok(wait(out.allowed, out.until, now))
    }

    /// Gives one spent request of `bucket` for `key` back.
    pub async fn refund_window(&self, bucket: &str, key: &str) -> Result<(), RateLimitError> {
        self.rate_refund(bucket, key_hash(key)).await
    }

    /// Gives one spent request of each window (`(bucket, key)`) back, in one statement for each
    /// time a window is named (once, unless one is named twice).
    pub async fn refund_windows(&self, windows: &[(&str, &str)]) -> Result<(), RateLimitError> {
        let mut left: Vec<(&str, i64)> = windows.iter().map(|(b, k)| (*b, key_hash(k))).collect();
        while !left.is_empty() {
            let mut round: Vec<(&str, i64)> = Vec::with_capacity(left.len());
            left.retain(|w| {
                let first = !round.contains(w);
                if first {
                    round.push(*w);
                }
                !first
            });
            self.rate_refund_each(&round).await?;
        }
        Ok(())
    }

    /// Removes the windows that ended by `now`; returns how many.
    pub async fn sweep_windows(&self, now: OffsetDateTime) -> Result<u64, RateLimitError> {
        self.rate_sweep(secs(now)).await
    }

    /// How many windows are kept.
    pub async fn window_count(&self) -> Result<usize, RateLimitError> {
        Ok(self.rate_keys().await?.max(0) as usize)
    }
}

impl Store {
    /// Spends one request of at most `limit` per `window_secs` (from the key's first request).
    pub async fn rate_hit(
        &self,
        bucket: &str,
        key_hash: i64,
        now: i64,
        window_secs: i64,
        limit: i32,
    ) -> Result<RateOutcome, sqlx::Error> {
        let (allowed, until): (bool, i64) = dispatch!(self, |p| sqlx::query_as(HIT)
            .bind(bucket)
            .bind(key_hash)
            .bind(now)
            .bind(window_secs)
            .bind(limit)
            .fetch_one(p)
            .await)?;
        Ok(RateOutcome { allowed, until })
    }

    /// Spends one attempt of a delay bucket: refused while the delay runs, else counted, and from
    /// the `free`th attempt of the window on it sets a delay doubling up to `max_delay_secs`.
    pub async fn rate_delay(
        &self,
        bucket: &str,
        key_hash: i64,
        now: i64,
        window_secs: i64,
        free: i32,
        max_delay_secs: i64,
    ) -> Result<RateOutcome, sqlx::Error> {
        let first = attempt_delay(1, free, max_delay_secs).map_or(0, |d| now + d);
        let (allowed, until): (bool, i64) = dispatch!(self, |p| sqlx::query_as(&DELAY)
            .bind(bucket)
            .bind(key_hash)
            .bind(now)
            .bind(window_secs)
            .bind(free)
            .bind(max_delay_secs)
            .bind(first)
            .fetch_one(p)
            .await)?;
        Ok(RateOutcome { allowed, until })
    }

    /// Gives one spent request back.
    pub async fn rate_refund(&self, bucket: &str, key_hash: i64) -> Result<(), sqlx::Error> {
        self.rate_refund_each(&[(bucket, key_hash)]).await
    }

    /// Gives one spent request of each of these windows back, in one statement (a window named
    /// twice still gets one).
    pub async fn rate_refund_each(&self, windows: &[(&str, i64)]) -> Result<(), sqlx::Error> {
        if windows.is_empty() {
            return Ok(());
        }
        let which = (0..windows.len())
            .map(|i| format!("(bucket = ${} AND key_hash = ${})", 2 * i + 1, 2 * i + 2))
            .collect::<Vec<_>>()
            .join(" OR ");
        let sql = format!(
            "UPDATE rate_limits SET count = CASE WHEN count > 0 THEN count - 1 ELSE 0 END \
             WHERE {which}"
        );
        dispatch!(self, |p| {
            let mut q = sqlx::query(&sql);
            for (bucket, key_hash) in windows {
                q = q.bind(*bucket).bind(*key_hash);
            }
            q.execute(p).await.map(|_| ())
        })
    }

    /// Removes the windows that have ended and whose delay has run out; returns how many.
    pub async fn rate_sweep(&self, now: i64) -> Result<u64, sqlx::Error> {
        dispatch!(self, |p| sqlx::query(
            "DELETE FROM rate_limits WHERE window_end <= $1 AND not_before <= $1"
        )
        .bind(now)
        .execute(p)
        .await
        .map(|r| r.rows_affected()))
    }

    /// How many windows are kept.
    pub async fn rate_keys(&self) -> Result<i64, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_scalar(
            "SELECT COUNT(*) FROM rate_limits"
        )
        .fetch_one(p)
        .await)
    }
}
