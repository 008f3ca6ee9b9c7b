//! The hasher's tests (`super`).

use super::*;
use argon2::{PasswordHasher, PasswordVerifier};

#[tokio::test]
async fn a_hash_verifies_its_password_and_no_other() {
    let hasher = Hasher::fast_for_tests();
    let hash = hasher.hash("correct horse").await.unwrap();
    assert!(hash.starts_with("$argon2id$"));
    assert!(hasher.verify("correct horse", Some(&hash)).await.unwrap());
    assert!(!hasher.verify("wrong horse", Some(&hash)).await.unwrap());
}

#[tokio::test]
async fn an_unusable_hash_is_readable_and_matches_no_password() {
    let hasher = Hasher::fast_for_tests();
    let hash = hasher.unusable_hash().unwrap();
    assert!(hash.starts_with("$argon2id$"));
    assert_ne!(hash, hasher.unusable_hash().unwrap(), "random each time");
    for guess in ["", "password", "closewise-dummy-password-for-timing"] {
        assert!(!hasher.verify(guess, Some(&hash)).await.unwrap(), "{guess}");
    }
}

#[tokio::test]
async fn an_unknown_user_never_verifies() {
    let hasher = Hasher::fast_for_tests();
    assert!(!hasher
        .verify("closewise-dummy-password-for-timing", None)
        .await
        .unwrap());
}

#[tokio::test]
async fn the_dummy_hash_is_made_once_with_the_hashers_parameters() {
    let hasher = Hasher::fast_for_tests();
    let first = hasher.dummy_hash().await.unwrap();
    assert_eq!(
        hasher.dummy_hash().await.unwrap(),
        first,
        "not re-hashed per call"
    );
    let parsed = PasswordHash::new(&first).unwrap();
    let params = Params::try_from(&parsed).unwrap();
    assert_eq!(
        (params.m_cost(), params.t_cost(), params.p_cost()),
        (1024, 1, 1)
    );
}

/// The pool computes the hash itself into its own buffers; what it writes must be argon2's own
/// PHC string, readable by any argon2 implementation, and it must read theirs.
#[tokio::test]
async fn hashes_are_interchangeable_with_the_argon2_crates_own() {
    let hasher = Hasher::fast_for_tests();
    let ours = hasher.hash("correct horse").await.unwrap();
    let parsed = PasswordHash::new(&ours).unwrap();
    assert!(Argon2::default()
        .verify_password(b"correct horse", &parsed)
        .is_ok());
    assert!(Argon2::default()
        .verify_password(b"wrong horse", &parsed)
        .is_err());

    let theirs = Hasher::argon2(Params::new(1024, 1, 1, None).unwrap())
        .hash_password(b"battery staple")
        .unwrap()
        .to_string();
    assert!(hasher
        .verify("battery staple", Some(&theirs))
        .await
        .unwrap());
    assert!(!hasher
        .verify("battery stapler", Some(&theirs))
        .await
        .unwrap());
}

/// A stored hash made with more memory than the workers have used so far (parameters raised
/// later, or an imported account) still verifies: the worker's buffer grows to fit it.
#[tokio::test]
async fn a_hash_needing_more_memory_than_the_workers_buffer_verifies() {
    let hasher = Hasher::fast_for_tests();
    hasher.hash("warm the buffer up").await.unwrap();
    let bigger = Hasher::argon2(Params::new(4 * 1024, 1, 1, None).unwrap())
        .hash_password(b"correct horse")
        .unwrap()
        .to_string();
    assert!(hasher.verify("correct horse", Some(&bigger)).await.unwrap());
    assert!(!hasher.verify("wrong horse", Some(&bigger)).await.unwrap());
}

#[tokio::test]
async fn an_unreadable_stored_hash_is_an_error_not_a_match() {
    let hasher = Hasher::fast_for_tests();
    assert!(hasher
        .verify("anything", Some("not-a-phc-string"))
        .await
        .is_err());
    assert!(hasher
        .verify(
            "anything",
            Some("$argon2id$v=19$m=1024,t=1,p=1$c2FsdHNhbHQ$")
        )
        .await
        .is_err());
}

/// Memory stays bounded: one worker thread per core, each with its own reused buffer, whatever
/// the number of requests waiting (the tokio blocking pool would grow to hundreds of threads,
/// each keeping a 19 MiB arena).
#[tokio::test]
async fn many_concurrent_hashes_share_a_fixed_set_of_workers() {
    let hasher = Hasher::with_workers(Params::new(1024, 1, 1, None).unwrap(), 2);
    let jobs: Vec<_> = (0..16)
        .map(|i| {
            let hasher = hasher.clone();
            tokio::spawn(async move { hasher.hash(&format!("password {i}")).await })
        })
        .collect();
    for job in jobs {
        job.await.unwrap().unwrap();
    }
    let threads = hasher.worker_threads();
    assert!(
        threads.len() <= 2 && !threads.is_empty(),
        "16 hashes ran on {threads:?}"
    );
}

/// Between sign-ins the workers' argon2 memory does not stay resident (it was 38 MiB of the
/// API's 64 on two cores): it goes back once no hash is queued, and hashing goes on after.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn idle_workers_give_their_hashing_memory_back() {
    let _alone = memory::MEASURING.lock().await;
    let hasher = Hasher::with_workers(Params::new(64 * 1024, 1, 1, None).unwrap(), 1);
    let before = memory::rss_anon_kib();
    let hash = hasher.hash("correct horse").await.unwrap();
    let mut after = memory::rss_anon_kib();
    for _ in 0..50 {
        if after < before + 16 * 1024 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        after = memory::rss_anon_kib();
    }
    assert!(
        after < before + 16 * 1024,
        "a 64 MiB hash done: {before} KiB resident before, {after} KiB after"
    );
    assert!(hasher.verify("correct horse", Some(&hash)).await.unwrap());
    assert!(!hasher.verify("wrong horse", Some(&hash)).await.unwrap());
}

/// One of OWASP's equivalent argon2id configurations: 9 MiB, t=4, p=1 (as strong as 19 MiB, t=2,
/// trading memory for passes), one worker per core: two workers hold 18 MiB, less than one 19 MiB
/// buffer, and no hash waits on another thread.
#[test]
fn production_parameters_are_owasps_9_mib_and_4_passes_in_one_lane_per_core() {
    let h = Hasher::new();
    assert_eq!(
        (
            h.params().m_cost(),
            h.params().t_cost(),
            h.params().p_cost()
        ),
        (9 * 1024, 4, 1)
    );
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    assert_eq!(h.workers(), cores);
}

/// The two lanes of a hash stored with `p=2` (an older parameter set) run at once, each on its own thread, until it is re-hashed at its next sign-in. Without
/// argon2's `parallel` feature both lanes ran one after the other on one thread.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_hash_computes_its_two_lanes_on_two_threads() {
    // 64 MiB: not while another test measures the process's memory.
    let _alone = memory::MEASURING.lock().await;
    // One hash, big enough for each lane to take many clock ticks (a second hash could land
    // on the other thread and hide one-after-the-other lanes).
    let hasher = Hasher::with_workers(Params::new(64 * 1024, 3, 2, None).unwrap(), 1);
    hasher.hash("correct horse").await.unwrap();
    let tids = hasher.inner.lane_tids.lock().unwrap().clone();
    assert_eq!(tids.len(), 2, "one lane thread per lane: {tids:?}");
    for tid in tids {
        let stat = std::fs::read_to_string(format!("/proc/self/task/{tid}/stat")).unwrap();
        // After the command name (which may hold spaces) come the fields from the third on;
        // utime and stime are the 14th and 15th.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .unwrap()
            .1
            .split_whitespace()
            .collect();
        let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
        assert!(ticks > 0, "lane thread {tid} did no hashing: {stat}");
    }
}

/// A stored hash made with other parameters than the hasher's (an older p=1 or p=2 hash, or an
/// import) is worth re-hashing after a sign-in; one made with the hasher's own is not.
#[tokio::test]
async fn hashes_with_other_parameters_are_outdated() {
    let hasher = Hasher::with_workers(Params::new(1024, 1, 2, None).unwrap(), 1);
    let current = hasher.hash("correct horse").await.unwrap();
    assert!(!hasher.is_outdated(&current), "{current}");
    for params in [(1024, 1, 1), (2048, 1, 2), (1024, 2, 2)] {
        let other = Hasher::argon2(Params::new(params.0, params.1, params.2, None).unwrap())
            .hash_password(b"correct horse")
            .unwrap()
            .to_string();
        assert!(hasher.is_outdated(&other), "{other}");
        assert!(hasher.verify("correct horse", Some(&other)).await.unwrap());
    }
    let argon2i = Argon2::new(
        Algorithm::Argon2i,
        Version::V0x13,
        Params::new(1024, 1, 2, None).unwrap(),
    )
    .hash_password(b"correct horse")
    .unwrap()
    .to_string();
    assert!(hasher.is_outdated(&argon2i), "{argon2i}");
    assert!(hasher.is_outdated("not-a-phc-string"));
}
