//! Rate-limit windows in the database, for several API replicas on one PostgreSQL: each counted
//! request is one upsert that decides and counts at once, under the row's lock, so concurrent
//! requests on any replica never overrun a budget. The rules are the in-memory limiter's
//! (`closewise_api::ratelimit`), written as SQL: a fixed window per key starting at its first
//! request, refused requests not counted, and a doubling delay for the delay buckets. Sign-in's
//! two budgets of password checks are spent in one statement (two upserts in a `WITH`, the second
//! only when the first allowed the request). Plain SQL that SQLite accepts too, that one aside
//! (two statements there), though SQLite deployments count in memory.

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

/// Which of two budgets refused (`spend_window_then_delay`), and the seconds left to wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    Window(u64),
    Delay(u64),
}

/// What `spend_window_then_delay` came to: `Ok(Err(_))` when a budget refused.
pub type SpentBoth = Result<Result<(), Refused>, RateLimitError>;

/// A window to spend: at most `limit` requests of `key` per `window`.
pub struct WindowSpend<'a> {
    pub bucket: &'a str,
    pub key: &'a str,
    pub limit: u32,
    pub window: Duration,
}

/// A delay bucket to spend: `free` attempts of `key` per `window`, then a doubling wait up to
/// `max_delay`.
pub struct DelaySpend<'a> {
    pub bucket: &'a str,
    pub key: &'a str,
    pub free: u32,
    pub max_delay: Duration,
    pub window: Duration,
}

/// The outcome of one counted request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateOutcome {
    pub allowed: bool,
    /// Unix seconds: when the window ends (`rate_hit`) or the delay runs out (`rate_delay`).
    pub until: i64,
}

const COLUMNS: &str = "INSERT INTO rate_limits \
    (bucket, key_hash, window_start, window_end, count, not_before, allowed) ";

/// The start of both upserts' update: a new window from `now` (of `w` seconds) when `cond`.
fn restart_when(cond: &str, now: &str, w: &str) -> String {
    format!(
        "ON CONFLICT (bucket, key_hash) DO UPDATE SET \
         window_start = CASE WHEN {cond} THEN {now} ELSE rate_limits.window_start END, \
         window_end = CASE WHEN {cond} THEN {now} + {w} ELSE rate_limits.window_end END,"
    )
}

/// A window's upsert: the row `source` gives (`VALUES (…)`, or a `SELECT`), counted under the
/// row's lock. `now`, `w` (the window) and `limit` name the parameters it reads.
fn hit_sql(source: &str, now: &str, w: &str, limit: &str) -> String {
    let ended = format!("rate_limits.window_end <= {now}");
    format!(
        "{COLUMNS}{source} {} \
         count = CASE WHEN {ended} THEN (CASE WHEN {limit} > 0 THEN 1 ELSE 0 END) \
             WHEN rate_limits.count < {limit} THEN rate_limits.count + 1 ELSE rate_limits.count END, \
         allowed = CASE WHEN {ended} THEN {limit} > 0 \
             ELSE rate_limits.count < {limit} END \
         RETURNING allowed, window_end",
        restart_when(&ended, now, w)
    )
}

/// The row a window's first request inserts.
fn hit_row(b: &str, k: &str, now: &str, w: &str, limit: &str) -> String {
    format!("{b}, {k}, {now}, {now} + {w}, CASE WHEN {limit} > 0 THEN 1 ELSE 0 END, 0, {limit} > 0")
}

/// A delay bucket's upsert: `{n}` is the attempt's number in its window, `{wait}` the delay it
/// sets after `free` attempts, up to `max`.
fn delay_sql(source: &str, now: &str, w: &str, free: &str, max: &str) -> String {
    let n = format!(
        "(CASE WHEN rate_limits.window_end <= {now} THEN 1 ELSE rate_limits.count + 1 END)"
    );
    let shift = format!("(CASE WHEN {n} - {free} >= 40 THEN 40 ELSE {n} - {free} END)");
    let wait = format!(
        "(CASE WHEN (CAST(1 AS BIGINT) << {shift}) < {max} THEN (CAST(1 AS BIGINT) << {shift}) ELSE {max} END)"
    );
    let fresh = format!("{now} >= rate_limits.not_before AND rate_limits.window_end <= {now}");
    format!(
        "{COLUMNS}{source} {} \
         count = CASE WHEN {now} < rate_limits.not_before THEN rate_limits.count ELSE {n} END, \
         not_before = CASE WHEN {now} < rate_limits.not_before THEN rate_limits.not_before \
             WHEN {n} >= {free} THEN {now} + {wait} ELSE rate_limits.not_before END, \
         allowed = {now} >= rate_limits.not_before \
         RETURNING allowed, not_before",
        restart_when(&fresh, now, w)
    )
}

/// The row a delay bucket's first attempt inserts (`first`: the delay it sets, as a time).
fn delay_row(b: &str, k: &str, now: &str, w: &str, first: &str) -> String {
    format!("{b}, {k}, {now}, {now} + {w}, 1, {first}, TRUE")
}

/// `rate_hit`: $1 bucket, $2 key hash, $3 now, $4 window, $5 limit.
static HIT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let row = hit_row("$1", "$2", "$3", "$4", "$5");
    hit_sql(&format!("VALUES ({row})"), "$3", "$4", "$5")
});

/// `rate_delay`: $1 bucket, $2 key hash, $3 now, $4 window, $5 free, $6 max delay, $7 the first
/// attempt's `not_before`.
static DELAY: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let row = delay_row("$1", "$2", "$3", "$4", "$7");
    delay_sql(&format!("VALUES ({row})"), "$3", "$4", "$5", "$6")
});

/// `rate_hit_then_delay` on PostgreSQL: the window ($1 bucket, $2 key hash, $3 now, $4 window,
/// $5 limit), then, only when it allowed the request, the delay bucket ($6 bucket, $7 key hash,
/// $8 window, $9 free, $10 max delay, $11 the first attempt's `not_before`), in one statement.
static HIT_THEN_DELAY: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let hit = HIT.as_str();
    let row = delay_row("$6", "$7", "$3", "$8", "$11");
    let delay = delay_sql(
        &format!("SELECT {row} FROM hit WHERE hit.allowed"),
        "$3",
        "$8",
        "$9",
        "$10",
    );
    format!(
        "WITH hit AS ({hit}), delay AS ({delay}) \
         SELECT hit.allowed, hit.window_end, delay.allowed, delay.not_before \
         FROM hit LEFT JOIN delay ON TRUE"
    )
});

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

    /// Spends one request of `window` and, only when that is allowed, one attempt of `delay`
    /// (sign-in's two budgets of password checks); when the delay refuses, the window's request
    /// is given back (waiting out a delay costs the window nothing). On PostgreSQL the two spends
    /// are one statement.
    pub async fn spend_window_then_delay(
        &self,
        window: &WindowSpend<'_>,
        delay: &DelaySpend<'_>,
        now: OffsetDateTime,
    ) -> SpentBoth {
        let now = secs(now);
        let limit = i32::try_from(window.limit).unwrap_or(i32::MAX);
        let free = i32::try_from(delay.free).unwrap_or(i32::MAX);
        let max = whole_secs(delay.max_delay);
        let (hit, delayed) = self
            .rate_hit_then_delay(
                (
                    window.bucket,
                    key_hash(window.key),
                    whole_secs(window.window),
                    limit,
                ),
                (
                    delay.bucket,
                    key_hash(delay.key),
                    whole_secs(delay.window),
                    free,
                    max,
                ),
                now,
            )
            .await?;
        if let Err(wait) = wait(hit.allowed, hit.until, now) {
            return Ok(Err(Refused::Window(wait)));
        }
        let delayed = delayed.ok_or(sqlx::Error::RowNotFound)?;
        if let Err(wait) = wait(delayed.allowed, delayed.until, now) {
            self.rate_refund(window.bucket, key_hash(window.key))
                .await?;
            return Ok(Err(Refused::Delay(wait)));
        }
        Ok(Ok(()))
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
        let (allowed, until): (bool, i64) = dispatch!(self, |p| sqlx::query_as(&HIT)
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

    /// `rate_hit` of the window `(bucket, key hash, window, limit)` and, when it allowed the
    /// request, `rate_delay` of `(bucket, key hash, window, free, max delay)`: one statement on
    /// PostgreSQL, two on SQLite (which has no upserts inside `WITH`).
    pub async fn rate_hit_then_delay(
        &self,
        (hit_bucket, hit_key, hit_window, limit): (&str, i64, i64, i32),
        (bucket, key, window, free, max): (&str, i64, i64, i32, i64),
        now: i64,
    ) -> Result<(RateOutcome, Option<RateOutcome>), sqlx::Error> {
        let first = attempt_delay(1, free, max).map_or(0, |d| now + d);
        match &self.pool {
            super::Pool::Postgres(p) => {
                let (allowed, until, d_allowed, d_until): (bool, i64, Option<bool>, Option<i64>) =
                    sqlx::query_as(&HIT_THEN_DELAY)
                        .bind(hit_bucket)
                        .bind(hit_key)
                        .bind(now)
                        .bind(hit_window)
                        .bind(limit)
                        .bind(bucket)
                        .bind(key)
                        .bind(window)
                        .bind(free)
                        .bind(max)
                        .bind(first)
                        .fetch_one(p)
                        .await?;
                let delayed = d_allowed
                    .zip(d_until)
                    .map(|(allowed, until)| RateOutcome { allowed, until });
                Ok((RateOutcome { allowed, until }, delayed))
            }
            super::Pool::Sqlite(_) => {
                let hit = self
                    .rate_hit(hit_bucket, hit_key, now, hit_window, limit)
                    .await?;
                if !hit.allowed {
                    return Ok((hit, None));
                }
                let delayed = self.rate_delay(bucket, key, now, window, free, max).await?;
                Ok((hit, Some(delayed)))
            }
        }
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
