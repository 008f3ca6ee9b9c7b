//! Transactions a cancelled request cannot leave open.
//!
//! sqlx 0.8.6 on PostgreSQL (transact-rs/sqlx#4393, fixed after 0.9.0): a future dropped while
//! its `BEGIN` is on the wire returns the connection to the pool with the server inside a
//! transaction block, while sqlx believes it is not (it counts the transaction only once the
//! answer arrives, so nothing rolls it back). Whatever later runs on that connection is never
//! committed: other connections do not see it, and the next rollback on it discards it. Requests
//! are cancelled whenever a client goes away mid-request (a browser navigating, a timeout).
//!
//! `begin` runs the `BEGIN` in a task of its own, which finishes even when its caller has been
//! dropped; a transaction nobody waits for any more is then dropped in that task, and sqlx rolls
//! a dropped transaction back before the connection is used again. Every transaction in the store
//! starts here (a test below reads the sources to keep it so).

/// Starts a transaction on `pool` that completes, or is rolled back, even if the caller is dropped.
pub(crate) async fn begin<DB: sqlx::Database>(
    pool: &sqlx::Pool<DB>,
) -> sqlx::Result<sqlx::Transaction<'static, DB>> {
    let pool = pool.clone();
    match tokio::spawn(async move { pool.begin().await }).await {
        Ok(begun) => begun,
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Err(_) => Err(sqlx::Error::Io(std::io::Error::other(
            "the runtime is shutting down",
        ))),
    }
}

#[cfg(test)]
mod tests {
    use std::future::Future;
    use std::task::{Context, Poll, Waker};
    use std::time::Duration;

    use sqlx::postgres::PgPoolOptions;
    use sqlx::Connection;

    use super::begin;

    /// Polls `begin` a few times, a moment apart, then drops it: at some of these moments the
    /// `BEGIN` has been sent and its answer not yet read.
    fn start_then_cancel(pool: &sqlx::PgPool, polls: u32, pause: Duration) {
        let mut begun = std::pin::pin!(begin(pool));
        let mut cx = Context::from_waker(Waker::noop());
        for _ in 0..polls {
            if let Poll::Ready(tx) = begun.as_mut().poll(&mut cx) {
                drop(tx);
                return;
            }
            std::thread::sleep(pause);
        }
    }

    /// A pool of one connection, so the connection a cancelled `begin` leaves behind is the one
    /// the next write runs on; each write must then be visible from another connection.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_transaction_cancelled_while_it_begins_leaves_no_transaction_open_on_postgres() {
        let url = closewise_testkit::fresh_postgres_database("begin").await;
        let pool = PgPoolOptions::new()
            .max_connections(1)
            .connect(&url)
            .await
            .unwrap();
        let mut other = sqlx::PgConnection::connect(&url).await.unwrap();
        sqlx::query("CREATE TABLE notes (n INT NOT NULL)")
            .execute(&pool)
            .await
            .unwrap();
        for attempt in 0..120u32 {
            let polls = 1 + attempt % 4;
            let pause = Duration::from_micros(25 * u64::from(attempt / 4 % 10));
            start_then_cancel(&pool, polls, pause);
            sqlx::query("INSERT INTO notes (n) VALUES ($1)")
                .bind(attempt as i32)
                .execute(&pool)
                .await
                .unwrap();
            let (seen,): (i64,) = sqlx::query_as("SELECT count(*) FROM notes WHERE n = $1")
                .bind(attempt as i32)
                .fetch_one(&mut other)
                .await
                .unwrap();
            assert_eq!(
                seen, 1,
                "attempt {attempt} ({polls} polls, {pause:?} apart): the write ran inside a \
                 transaction the cancelled begin left open"
            );
        }
    }

    /// Every transaction of the store starts through `begin`.
    #[test]
    fn the_store_starts_no_transaction_of_its_own() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/store");
        let mut offenders = Vec::new();
        let mut folders = vec![root];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    folders.push(path);
                } else if path.extension().is_some_and(|e| e == "rs")
                    && !path.ends_with("store/begin.rs")
                {
                    let source = std::fs::read_to_string(&path).unwrap();
                    for (n, line) in source.lines().enumerate() {
                        if line.contains(".begin()") {
                            offenders.push(format!("{}:{}", path.display(), n + 1));
                        }
                    }
                }
            }
        }
        assert!(
            offenders.is_empty(),
            "start transactions with store::begin::begin(pool): {offenders:#?}"
        );
    }
}
