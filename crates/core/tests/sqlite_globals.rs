//! SQLite's process-wide settings (`store::sqlite_globals`): the store turns SQLite's memory
//! statistics off before its first connection, so the pooled connections do not all wait on the
//! one mutex SQLite takes around each allocation to count it (docs/performance.md).
//! Alone in its own test binary: nothing else may open a SQLite connection in this process first.

use std::time::Duration;

use closewise_core::store::Store;
use closewise_testkit::TempDir;

#[tokio::test]
async fn the_store_turns_sqlite_memory_statistics_off_before_its_first_connection() {
    let dir = TempDir::new();
    let url = format!("sqlite://{}?mode=rwc", dir.0.join("db.sqlite").display());
    let store = Store::connect(&url, Duration::from_secs(10)).await.unwrap();
    store.migrate().await.unwrap();
    // With statistics on, SQLite counts every byte its connections hold (the schema, the page
    // cache, the statements just run): well over zero here. Off, it counts nothing.
    // SAFETY: sqlite3_memory_used has no preconditions.
    let used = unsafe { libsqlite3_sys::sqlite3_memory_used() };
    assert_eq!(used, 0, "SQLite still keeps memory statistics");
}
