//! `both!` with a body that makes its own fixture: one test per database, named after it and
//! handed its kind; the fresh database a kind opens is of that kind, empty and usable.

use closewise_testkit::{both, execute, scalar, Backend};

both!(
    /// Each kind's test is handed that kind.
    async fn a_fresh_database_is_of_the_kind_asked_for(backend: Backend) {
        // libtest names the thread after the test (unless it runs them on `main`, one at a time).
        let test = std::thread::current().name().unwrap_or_default().to_owned();
        if test != "main" {
            let expected = format!(
                "a_fresh_database_is_of_the_kind_asked_for::{}",
                backend.name()
            );
            assert_eq!(test, expected);
        }
        let db = backend.fresh_database("kit").await;
        assert_eq!(
            db.url.starts_with("postgres://"),
            backend == Backend::Postgres,
            "{backend:?}: {}",
            db.url
        );
        execute(&db.url, "CREATE TABLE t (n BIGINT)").await;
        execute(&db.url, "INSERT INTO t (n) VALUES (41), (1)").await;
        assert_eq!(
            scalar(&db.url, "SELECT CAST(SUM(n) AS BIGINT) FROM t").await,
            42
        );
    }
);
