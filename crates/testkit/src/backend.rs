//! The two databases every suite runs on, a fresh empty database of either kind, and `both!`,
//! the one macro that runs a test body once on each.

use crate::{fresh_postgres_database, migrated_postgres_database, TempDir};

/// A kind of database the product runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    /// Both kinds, in the order `both!` names its tests.
    pub const ALL: [Backend; 2] = [Backend::Sqlite, Backend::Postgres];

    /// `sqlite` or `postgres`: the name of its migrations folder and of its test in `both!`.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }

    /// A new, empty database of this kind, nothing migrated: a fresh PostgreSQL database named
    /// after `tag`, or the SQLite file `<tag>.db` in a new temporary folder (created on first
    /// connection, `mode=rwc`, so that plain sqlx pools open it as the store does).
    pub async fn fresh_database(self, tag: &str) -> FreshDatabase {
        let dir = TempDir::new();
        let url = match self {
            Backend::Sqlite => format!("sqlite://{}/{tag}.db?mode=rwc", dir.0.display()),
            Backend::Postgres => fresh_postgres_database(tag).await,
        };
        FreshDatabase { url, dir }
    }

    /// A new database of this kind for a test that starts from the current schema (the store's
    /// `migrate` then has nothing to do on PostgreSQL): on PostgreSQL a copy of the migrated
    /// template (`migrated_postgres_database`), on SQLite a new file as `fresh_database` makes
    /// it, which the store migrates.
    pub async fn migrated_database(self, tag: &str) -> FreshDatabase {
        match self {
            Backend::Sqlite => self.fresh_database(tag).await,
            Backend::Postgres => FreshDatabase {
                url: migrated_postgres_database(tag).await,
                dir: TempDir::new(),
            },
        }
    }
}

/// The suites that still pass a flag for the kind: `true` is PostgreSQL.
impl From<bool> for Backend {
    fn from(postgres: bool) -> Self {
        if postgres {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }
}

/// An empty database and a temporary folder (the SQLite file's, and the test's own files),
/// removed on drop; PostgreSQL databases are dropped by the next test process's sweep.
pub struct FreshDatabase {
    pub url: String,
    pub dir: TempDir,
}

/// Runs a test body once on SQLite and once on PostgreSQL: `both!(async fn name(..) { .. })`
/// becomes `mod name` with the tests `sqlite` and `postgres` (a doc comment on the `fn` is the
/// module's).
///
/// - `both!(async fn name(backend: Backend) { .. })`: the body gets the kind and makes its own
///   fixture (a core service, a fresh database, an API with its own options).
/// - `both!(async fn name(fixture: Fixture) from setup { .. })`: the body gets what
///   `setup(backend).await` makes, for a suite whose fixture is its own (`setup` a path to an
///   async fn taking the kind; the parameter a name or a tuple, `(app, _dir): (App, TempDir)`).
/// - `both!(async fn name(app) { .. })`: the body gets its own spawned API (feature `app`,
///   `app::spawn_app_with`); `both!(async fn name(app) with |s| { .. } { .. })` changes the
///   settings first.
#[macro_export]
macro_rules! both {
    (
        $(#[$meta:meta])* async fn $name:ident($fixture:tt : $kind:ty $(,)?)
        from $setup:path $body:block
    ) => {
        $(#[$meta])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            async fn run($fixture: $kind) $body
            $crate::both!(@each backend => run($setup(backend).await));
        }
    };
    ($(#[$meta:meta])* async fn $name:ident($backend:ident : $kind:ty $(,)?) $body:block) => {
        $(#[$meta])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            async fn run($backend: $kind) $body
            $crate::both!(@each backend => run(backend));
        }
    };
    ($(#[$meta:meta])* async fn $name:ident($app:ident) $body:block) => {
        $crate::both!($(#[$meta])* async fn $name($app) with |_s| {} $body);
    };
    (
        $(#[$meta:meta])* async fn $name:ident($app:ident) with |$s:ident| $config:block
        $body:block
    ) => {
        $(#[$meta])*
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            #[allow(unused_imports)]
            use $crate::app::*;
            async fn run($app: $crate::app::TestApp) $body
            fn configure($s: &mut $crate::app::Settings) $config
            $crate::both!(@each backend =>
                run($crate::app::spawn_app_with(backend, configure).await));
        }
    };
    (@each $backend:ident => $run:expr) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn sqlite() {
            let $backend = $crate::Backend::Sqlite;
            $run.await
        }
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn postgres() {
            let $backend = $crate::Backend::Postgres;
            $run.await
        }
    };
}
