//! Issue 12, item 6: the rate limiter's memory is bounded. Its own test binary, so that the
//! process's resident memory measured here is this test's alone.

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

#[test]
fn a_hundred_thousand_distinct_long_keys_grow_the_process_by_a_few_mib_at_most() {
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
