//! The rate limiter's memory is bounded; bounding it forgets
//! no lockout. Its own test binary, so that the process's resident memory measured here is this
//! test's alone; its tests take `ONE_AT_A_TIME` so no other one allocates while it measures.

use std::time::Duration;

use closewise_api::ratelimit::{Bucket, Limiter};
use time::OffsetDateTime;

/// Resident memory of this process, in bytes (Linux: `/proc/self/statm`, in pages).
fn resident_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("/proc/self/statm");
    let pages: u64 = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * 4096
}

const MIB: u64 = 1024 * 1024;

static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn alone() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[test]
fn a_hundred_thousand_distinct_long_keys_grow_the_process_by_a_few_mib_at_most() {
    let _alone = alone();
    // Today's limiter kept each key verbatim: 100,000 keys of 1 KB held over 100 MiB.
    let limiter = Limiter::default();
    let now = OffsetDateTime::UNIX_EPOCH + time::Duration::days(20_000);
    let window = Duration::from_secs(3600);
    // Malformed "e-mails" as an attacker sends them: long, and each one new.
    let filler = "x".repeat(1000);
    let mut key = String::with_capacity(1100);
    let before = resident_bytes();
    for i in 0..100_000u32 {
        key.clear();
        key.push_str(&filler);
        key.push_str(&i.to_string());
        assert!(limiter
            .hit(Bucket::MailPerEmail, &key, 10, window, now)
            .is_ok());
    }
    let grown = resident_bytes().saturating_sub(before);
    // Bounded in size, and each new key over the cap forgot exactly one old one: O(1) work per
    // request, never a scan of the map.
    let stats = limiter.stats();
    assert_eq!(stats.max_keys, closewise_api::ratelimit::DEFAULT_MAX_KEYS);
    assert!(stats.keys <= stats.max_keys, "{stats:?}");
    assert_eq!(stats.evicted, 100_000 - stats.keys as u64, "{stats:?}");
    // The newest keys are still counted.
    for _ in 0..9 {
        assert!(limiter
            .hit(Bucket::MailPerEmail, &key, 10, window, now)
            .is_ok());
    }
    assert!(limiter
        .hit(Bucket::MailPerEmail, &key, 10, window, now)
        .is_err());
    eprintln!("100,000 keys: +{} KiB resident, {stats:?}", grown / 1024);
    assert!(
        grown <= 8 * MIB,
        "100,000 keys grew the process by {} MiB",
        grown / MIB
    );
}

const T0: OffsetDateTime = OffsetDateTime::UNIX_EPOCH;

fn at(secs: i64) -> OffsetDateTime {
    T0 + time::Duration::seconds(secs)
}

/// A full shard used to forget its oldest key whatever it held, so a flood of
/// junk keys reset a target's spent budget and its sign-in delay.
#[test]
fn a_lockout_survives_a_flood_of_junk_keys_and_the_flood_stays_under_the_cap() {
    let _alone = alone();
    let limiter = Limiter::new(32);
    let (hour, minute) = (Duration::from_secs(3600), Duration::from_secs(60));
    // The attacker spends the target's budget from their address...
    for _ in 0..3 {
        assert!(limiter
            .hit(
                Bucket::FailedSigninPerAccountIp,
                "ana\n203.0.113.9",
                3,
                hour,
                T0
            )
            .is_ok());
    }
    assert!(limiter
        .hit(
            Bucket::FailedSigninPerAccountIp,
            "ana\n203.0.113.9",
            3,
            hour,
            T0
        )
        .is_err());
    // ...and the account's delay has grown.
    for t in [0, 1, 3] {
        assert!(limiter
            .delay(
                Bucket::FailedSigninPerAccount,
                "ana",
                2,
                minute,
                hour,
                at(t)
            )
            .is_ok());
    }
    assert_eq!(
        limiter.delay(
            Bucket::FailedSigninPerAccount,
            "ana",
            2,
            minute,
            hour,
            at(3)
        ),
        Err(2)
    );
    // A flood of fresh keys, each within its budget.
    for i in 0..100_000u32 {
        let junk = format!("junk{i}");
        let _ = limiter.hit(Bucket::FailedSigninPerAccountIp, &junk, 3, hour, at(3));
        let _ = limiter.delay(
            Bucket::FailedSigninPerAccount,
            &junk,
            2,
            minute,
            hour,
            at(3),
        );
        if i % 1000 == 0 {
            let stats = limiter.stats();
            assert!(stats.keys <= stats.max_keys, "{stats:?}");
        }
    }
    let stats = limiter.stats();
    assert_eq!(stats.max_keys, 32);
    assert!(stats.keys <= stats.max_keys, "{stats:?}");
    assert!(
        stats.evicted > 0,
        "the junk made room for itself: {stats:?}"
    );
    assert!(
        limiter
            .hit(
                Bucket::FailedSigninPerAccountIp,
                "ana\n203.0.113.9",
                3,
                hour,
                at(3)
            )
            .is_err(),
        "the spent budget of the target is still spent"
    );
    assert_eq!(
        limiter.delay(
            Bucket::FailedSigninPerAccount,
            "ana",
            2,
            minute,
            hour,
            at(3)
        ),
        Err(2),
        "the account's delay still runs"
    );
}

/// When a shard holds only lockouts, a new key is refused (fail closed) until one of them ends;
/// the table never grows past its cap to make room.
#[test]
fn a_limiter_full_of_lockouts_refuses_new_keys_until_one_ends() {
    let _alone = alone();
    let limiter = Limiter::new(16);
    let window = Duration::from_secs(600);
    let mut admitted = Vec::new();
    for i in 0..1000u32 {
        let key = format!("k{i}");
        match limiter.hit(Bucket::MailPerEmail, &key, 1, window, T0) {
            Ok(()) => admitted.push(key),
            Err(wait) => assert!((1..=600).contains(&wait), "{wait}"),
        }
    }
    let stats = limiter.stats();
    assert!(stats.keys <= stats.max_keys, "{stats:?}");
    assert_eq!(admitted.len(), stats.keys, "{stats:?}");
    assert_eq!(stats.evicted, 0, "no lockout was forgotten: {stats:?}");
    for key in &admitted {
        assert!(limiter
            .hit(Bucket::MailPerEmail, key, 1, window, at(599))
            .is_err());
    }
    // Once the windows end they make room again.
    assert!(limiter
        .hit(Bucket::MailPerEmail, "late", 1, window, at(600))
        .is_ok());
}
