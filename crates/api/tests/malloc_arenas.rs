//! The API caps glibc's malloc arenas (`closewise_api::malloc::cap_arenas`): without it every
//! thread that allocates gets an arena of its own (up to eight per core), each keeping the memory
//! its thread freed, which the process's peak carried from one bench row to the next.
//! Its own test binary: the cap is process-wide and must come before the threads.

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[test]
fn threads_share_at_most_the_capped_number_of_arenas() {
    closewise_api::malloc::cap_arenas();
    let cap = closewise_api::malloc::arena_cap();
    // Four times as many threads as the cap, each holding an allocation at the same moment.
    let count = 4 * cap;
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(count + 1));
    let threads: Vec<_> = (0..count)
        .map(|i| {
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                // Allocated while every other thread holds its own allocation.
                let held = vec![(i % 256) as u8; 64 * 1024];
                barrier.wait();
                barrier.wait();
                held.len()
            })
        })
        .collect();
    barrier.wait();
    let arenas = closewise_api::malloc::arenas().expect("malloc_info");
    barrier.wait();
    for t in threads {
        t.join().unwrap();
    }
    assert!(
        (1..=cap).contains(&arenas),
        "{count} threads allocating use {arenas} arenas (cap {cap})"
    );
}
