//! `both!` with a body that makes its own fixture, or is handed one made by a setup function: one
//! test per database, named after it and handed its kind; the fresh database a kind opens is of
//! that kind, empty and usable.

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

/// A suite's own fixture, made from the kind by its setup function.
struct Counted {
    backend: Backend,
    url: String,
    _db: closewise_testkit::FreshDatabase,
}

async fn counted(backend: Backend) -> Counted {
    let db = backend.fresh_database("setup").await;
    execute(&db.url, "CREATE TABLE t (n BIGINT)").await;
    Counted {
        backend,
        url: db.url.clone(),
        _db: db,
    }
}

async fn counted_pair(backend: Backend) -> (Counted, Backend) {
    (counted(backend).await, backend)
}

both!(
    /// The body is handed what the setup made on this test's kind.
    async fn a_setup_function_makes_each_kinds_fixture(fixture: Counted) from counted {
        let test = std::thread::current().name().unwrap_or_default().to_owned();
        if test != "main" {
            let expected = format!(
                "a_setup_function_makes_each_kinds_fixture::{}",
                fixture.backend.name()
            );
            assert_eq!(test, expected);
        }
        assert_eq!(
            fixture.url.starts_with("postgres://"),
            fixture.backend == Backend::Postgres
        );
        assert_eq!(scalar(&fixture.url, "SELECT COUNT(*) FROM t").await, 0);
    }
);

both!(
    /// A setup may hand over several things, taken apart in the parameter.
    async fn a_setup_may_hand_over_a_tuple((fixture, backend): (Counted, Backend)) from counted_pair {
        assert_eq!(fixture.backend, backend);
        execute(&fixture.url, "INSERT INTO t (n) VALUES (7)").await;
        assert_eq!(scalar(&fixture.url, "SELECT CAST(SUM(n) AS BIGINT) FROM t").await, 7);
    }
);
