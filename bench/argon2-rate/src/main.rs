//! Hashes per second of argon2id on this machine, beside which `just bench` prints the sign-in
//! rate. Three arrangements, each on every core:
//! - the API's parameters (`crates/core/src/password.rs`): 9 MiB, t=4, p=1, one hash per core;
//! - 19 MiB, t=2 in two lanes (`p=2`) computed at once on two threads, one hash per two cores (the
//!   API's for a day);
//! - 19 MiB, t=2, p=1, one hash per core (the API's earlier parameters).
//!
//! The machine's rate (`hashes_per_s_all_cores`, the sign-in target's 100 %) is the highest of the
//! three, so a change of parameters cannot lower the bar. Prints one JSON line.
//!
//! usage: argon2-rate [SECONDS]

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use argon2::{Algorithm, Argon2, Block, Params, Version};

/// Hashes per second with `lanes` lanes, `hashers` hashes at once, for `seconds`.
fn rate(m_kib: u32, passes: u32, lanes: u32, hashers: usize, seconds: f64) -> f64 {
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(hashers * lanes as usize)
            .build()
            .expect("lane threads"),
    );
    let stop = Arc::new(AtomicBool::new(false));
    let count = Arc::new(AtomicU64::new(0));
    let start = Instant::now();
    let handles: Vec<_> = (0..hashers)
        .map(|t| {
            let (stop, count, pool) = (stop.clone(), count.clone(), pool.clone());
            std::thread::spawn(move || {
                let params = Params::new(m_kib, passes, lanes, None).expect("parameters");
                let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
                let mut blocks = vec![Block::default(); params.block_count()];
                let salt = format!("bench-salt-{t:04}");
                let mut out = [0u8; 32];
                while !stop.load(Ordering::Relaxed) {
                    pool.install(|| {
                        argon
                            .hash_password_into_with_memory(
                                b"Bench-password-42",
                                salt.as_bytes(),
                                &mut out,
                                &mut blocks,
                            )
                            .expect("hash")
                    });
                    count.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs_f64(seconds));
    stop.store(true, Ordering::Relaxed);
    for h in handles {
        h.join().expect("thread");
    }
    count.load(Ordering::Relaxed) as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let seconds: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(4.0);
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let one = rate(19 * 1024, 2, 1, 1, seconds / 2.0);
    let p1_all = rate(19 * 1024, 2, 1, cores, seconds);
    let p2_all = rate(19 * 1024, 2, 2, (cores / 2).max(1), seconds);
    let m9_all = rate(9 * 1024, 4, 1, cores, seconds);
    let all = p1_all.max(p2_all).max(m9_all);
    println!(
        "{{\"cores\":{cores},\"hashes_per_s_one_thread\":{one:.1},\"hashes_per_s_p1_all_cores\":{p1_all:.1},\"hashes_per_s_p2_all_cores\":{p2_all:.1},\"hashes_per_s_m9_all_cores\":{m9_all:.1},\"hashes_per_s_all_cores\":{all:.1}}}"
    );
}
