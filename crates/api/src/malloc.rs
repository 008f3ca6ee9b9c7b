//! glibc's malloc, tuned for the API's memory target.
//!
//! By default glibc gives every thread that allocates an arena of its own, up to eight per core:
//! tokio's workers and blocking threads, the hasher's, SQLite's. Each arena keeps what its thread
//! freed for that thread's next allocations, so the memory one burst of work allocated stays
//! resident in that arena while the next burst, on other threads, allocates afresh: the API's peak
//! grew row after row of `just bench` (docs/performance.md). Two arenas per core let freed memory
//! serve whichever thread allocates next; one per core made the threads of a 1,000-member usage
//! report wait for each other's allocations (15 % slower).

/// The arenas the process may have: two per core (glibc's own default is eight per core).
pub fn arena_cap() -> usize {
    2 * std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Caps the process at `arena_cap()` malloc arenas. Call first thing in `main`, before any thread
/// is started: arenas already made stay.
pub fn cap_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a malloc parameter; M_ARENA_MAX takes any positive count.
    unsafe {
        libc::mallopt(
            libc::M_ARENA_MAX,
            libc::c_int::try_from(arena_cap()).unwrap_or(libc::c_int::MAX),
        );
    }
}

/// The number of arenas malloc has made so far (from `malloc_info`); for the tests.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn arenas() -> std::io::Result<usize> {
    let path = std::env::temp_dir().join(format!("closewise-malloc-info-{}", std::process::id()));
    let c_path = std::ffi::CString::new(path.to_string_lossy().as_bytes())
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
    // SAFETY: the path and mode are NUL-terminated; the FILE is closed below.
    let file = unsafe { libc::fopen(c_path.as_ptr(), c"w".as_ptr()) };
    if file.is_null() {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: `file` is an open stream; malloc_info writes its XML report to it.
    let written = unsafe { libc::malloc_info(0, file) };
    // SAFETY: `file` came from fopen and is closed once.
    unsafe { libc::fclose(file) };
    if written != 0 {
        return Err(std::io::Error::other("malloc_info failed"));
    }
    let report = std::fs::read_to_string(&path)?;
    let _ = std::fs::remove_file(&path);
    Ok(report.matches("<heap nr=").count())
}
