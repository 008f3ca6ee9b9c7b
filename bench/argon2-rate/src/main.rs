//! Hashes per second of argon2id with the API's parameters (19 MiB, t=2, p=1; see
//! `crates/api/src/auth/password.rs`), on one thread and on every core at once (the API runs
//! one hash per core in parallel). Prints one JSON line.
//!
//! usage: argon2-rate [SECONDS]

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use argon2::password_hash::{PasswordHasher, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

fn rate(threads: usize, seconds: f64) -> f64 {
    let stop = Arc::new(AtomicBool::new(false));
    let count = Arc::new(AtomicU64::new(0));
    let start = Instant::now();
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let (stop, count) = (stop.clone(), count.clone());
            std::thread::spawn(move || {
                let params = Params::new(19 * 1024, 2, 1, None).expect("parameters");
                let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, params);
                let salt = SaltString::encode_b64(format!("bench-salt-{t:04}").as_bytes())
                    .expect("salt");
                while !stop.load(Ordering::Relaxed) {
                    argon
                        .hash_password(b"Bench-password-42", &salt)
                        .expect("hash");
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
    let one = rate(1, seconds);
    let all = rate(cores, seconds);
    println!(
        "{{\"cores\":{cores},\"hashes_per_s_one_thread\":{one:.1},\"hashes_per_s_all_cores\":{all:.1}}}"
    );
}
