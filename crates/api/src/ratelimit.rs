//! In-memory rate limits: fixed windows per (bucket, key), on the app's clock so tests can move
//! time. Hand-written rather than `governor` because sign-in needs to *peek* at an account's
//! failure budget before spending it, and the windows must follow the injected clock.
//! Counters live in one process: with several replicas, move them to a shared store (docs/scale.md).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use time::OffsetDateTime;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bucket {
    MailPerIp,
    MailPerEmail,
    TokenPerIp,
    FailedSignin,
    Resend,
    Recover,
}

#[derive(Default)]
pub struct Limiter {
    windows: Mutex<HashMap<(Bucket, String), Window>>,
}

#[derive(Clone, Copy)]
struct Window {
    start: OffsetDateTime,
    count: u32,
}

impl Limiter {
    /// Spends one request; `Err(seconds)` when the window is full.
    pub fn hit(
        &self,
        bucket: Bucket,
        key: &str,
        limit: u32,
        window: Duration,
        now: OffsetDateTime,
    ) -> Result<(), u64> {
        self.check(bucket, key, limit, window, now, true)
    }

    /// Tells whether one more request would pass, without spending it.
    pub fn peek(
        &self,
        bucket: Bucket,
        key: &str,
        limit: u32,
        window: Duration,
        now: OffsetDateTime,
    ) -> Result<(), u64> {
        self.check(bucket, key, limit, window, now, false)
    }

    fn check(
        &self,
        bucket: Bucket,
        key: &str,
        limit: u32,
        window: Duration,
        now: OffsetDateTime,
        spend: bool,
    ) -> Result<(), u64> {
        let window = time::Duration::try_from(window).unwrap_or(time::Duration::MAX);
        let mut map = self.windows.lock().expect("limiter lock");
        if map.len() > 100_000 {
            map.retain(|_, w| now - w.start < time::Duration::hours(2));
        }
        let entry = map.entry((bucket, key.to_string())).or_insert(Window {
            start: now,
            count: 0,
        });
        if now - entry.start >= window {
            *entry = Window {
                start: now,
                count: 0,
            };
        }
        if entry.count >= limit {
            let wait = (entry.start + window - now).as_seconds_f64().ceil() as u64;
            return Err(wait.max(1));
        }
        if spend {
            entry.count += 1;
        }
        Ok(())
    }

    /// Gives back one spent request (e.g. a sign-in attempt that turned out right).
    pub fn refund(&self, bucket: Bucket, key: &str) {
        if let Some(w) = self
            .windows
            .lock()
            .expect("limiter lock")
            .get_mut(&(bucket, key.to_string()))
        {
            w.count = w.count.saturating_sub(1);
        }
    }

    /// Forgets a key's window (e.g. failures after a successful sign-in).
    pub fn clear(&self, bucket: Bucket, key: &str) {
        self.windows
            .lock()
            .expect("limiter lock")
            .remove(&(bucket, key.to_string()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_window_refuses_until_it_ends() {
        let l = Limiter::default();
        let t0 = OffsetDateTime::UNIX_EPOCH;
        let w = Duration::from_secs(60);
        assert!(l.hit(Bucket::MailPerIp, "ip", 2, w, t0).is_ok());
        assert!(l.hit(Bucket::MailPerIp, "ip", 2, w, t0).is_ok());
        assert_eq!(
            l.hit(
                Bucket::MailPerIp,
                "ip",
                2,
                w,
                t0 + time::Duration::seconds(15)
            ),
            Err(45)
        );
        assert!(l.hit(Bucket::MailPerIp, "other", 2, w, t0).is_ok());
        assert!(l
            .hit(
                Bucket::MailPerIp,
                "ip",
                2,
                w,
                t0 + time::Duration::seconds(60)
            )
            .is_ok());
    }

    #[test]
    fn peeking_spends_nothing() {
        let l = Limiter::default();
        let t0 = OffsetDateTime::UNIX_EPOCH;
        let w = Duration::from_secs(60);
        for _ in 0..5 {
            assert!(l.peek(Bucket::FailedSignin, "a", 1, w, t0).is_ok());
        }
        assert!(l.hit(Bucket::FailedSignin, "a", 1, w, t0).is_ok());
        assert!(l.peek(Bucket::FailedSignin, "a", 1, w, t0).is_err());
    }
}
