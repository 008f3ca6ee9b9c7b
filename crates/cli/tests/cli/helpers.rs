//! A fresh database per test (SQLite file or PostgreSQL database), the CLI run as a process.

use std::path::PathBuf;
use std::process::Output;

use closewise_core::store::Store;
use serde_json::Value;

pub const ACTOR: &str = "test-operator";

pub use closewise_testkit::Backend;

pub struct TestDb {
    pub url: String,
    pub backend: Backend,
    dir: PathBuf,
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

impl TestDb {
    /// A fresh database with the current schema (as `closewise db migrate` leaves it): on
    /// PostgreSQL a copy of the migrated template.
    pub async fn new(backend: Backend) -> TestDb {
        let db = TestDb::made(backend, true).await;
        db.store().await.close().await;
        db
    }

    /// A fresh database without any table (for SQLite: an empty file).
    pub async fn empty(backend: Backend) -> TestDb {
        TestDb::made(backend, false).await
    }

    async fn made(backend: Backend, migrated: bool) -> TestDb {
        let dir = std::env::temp_dir().join(format!("closewise-cli-{}", uuid::Uuid::now_v7()));
        std::fs::create_dir_all(&dir).unwrap();
        let url = match backend {
            Backend::Sqlite => {
                std::fs::write(dir.join("cli.db"), b"").unwrap();
                format!("sqlite://{}/cli.db", dir.display())
            }
            Backend::Postgres if migrated => {
                closewise_testkit::migrated_postgres_database("cli").await
            }
            Backend::Postgres => closewise_testkit::fresh_postgres_database("cli").await,
        };
        TestDb { url, backend, dir }
    }

    /// Runs SQL on the database directly: to break it on purpose.
    pub async fn execute(&self, sql: &str) {
        use sqlx::Connection;
        match self.backend {
            Backend::Sqlite => {
                let mut c = sqlx::SqliteConnection::connect(&self.url).await.unwrap();
                sqlx::query(sql).execute(&mut c).await.unwrap();
                c.close().await.unwrap();
            }
            Backend::Postgres => {
                let mut c = sqlx::PgConnection::connect(&self.url).await.unwrap();
                sqlx::query(sql).execute(&mut c).await.unwrap();
                c.close().await.unwrap();
            }
        }
    }

    /// The API's store on the same database, migrated.
    pub async fn store(&self) -> Store {
        let store = Store::connect(&self.url, std::time::Duration::from_secs(5))
            .await
            .unwrap();
        store.migrate().await.unwrap();
        store
    }

    /// `closewise ARGS` on this database, as the OS user `ACTOR` on a development machine.
    pub fn command(&self, args: &[&str]) -> std::process::Command {
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("closewise"));
        cmd.args(args)
            .env("DATABASE_URL", &self.url)
            .env("USER", ACTOR)
            .env_remove("LOGNAME")
            .env_remove("CLOSEWISE_ACTOR")
            .env_remove("APP_ENV")
            .env_remove("STRIPE_API_BASE")
            .env_remove("STRIPE_SECRET_KEY");
        cmd
    }

    /// Runs `closewise ARGS` with `stdin` (a pipe, not a terminal), off the async runtime
    /// (stripe-mock may run on it).
    pub async fn run_with_stdin(&self, args: &[&str], stdin: &str) -> Output {
        output(self.command(args), stdin).await
    }

    /// Runs `closewise ARGS` with these environment variables set (an empty value removes one).
    pub async fn run_env(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        let mut cmd = self.command(args);
        for (k, v) in env {
            if v.is_empty() {
                cmd.env_remove(k);
            } else {
                cmd.env(k, v);
            }
        }
        output(cmd, "").await
    }
}

/// Runs `cmd` with `stdin` piped in, off the async runtime.
pub async fn output(mut cmd: std::process::Command, stdin: &str) -> Output {
    cmd.stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let stdin = stdin.to_owned();
    tokio::task::spawn_blocking(move || {
        use std::io::Write;
        let mut child = cmd.spawn().expect("the command runs");
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stdin.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    })
    .await
    .unwrap()
}

impl TestDb {
    pub async fn run(&self, args: &[&str]) -> Output {
        self.run_with_stdin(args, "").await
    }

    /// Runs and asserts success; returns standard output.
    pub async fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args).await;
        assert!(
            out.status.success(),
            "closewise {args:?} failed ({:?}):\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// Runs a read command with `--json` and parses its output.
    pub async fn json(&self, args: &[&str]) -> Value {
        let mut args = args.to_vec();
        args.push("--json");
        let out = self.ok(&args).await;
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}):\n{out}"))
    }

    /// A database holding the users of `tests/fixtures/seed.json`.
    pub async fn seeded(self) -> TestDb {
        let out = self
            .ok(&["db", "seed", &fixture("seed.json"), "--yes"])
            .await;
        assert!(out.contains("5 created"), "{out}");
        self
    }
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub fn emails(v: &Value) -> Vec<String> {
    let mut e: Vec<String> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["email"].as_str().unwrap().to_owned())
        .collect();
    e.sort();
    e
}

pub fn now() -> time::OffsetDateTime {
    time::OffsetDateTime::now_utc()
}

/// Starts a live session for `email` (a password sign-in), as the operator's commands see one.
pub async fn sign_in(store: &Store, email: &str) -> uuid::Uuid {
    let user = store.user_by_email(email).await.unwrap().unwrap();
    store
        .create_session(&closewise_core::store::sessions::NewSession {
            id: uuid::Uuid::now_v7(),
            user_id: user.id,
            refresh_id: uuid::Uuid::now_v7(),
            refresh_hash: &uuid::Uuid::now_v7().to_string(),
            refresh_expires_at: now() + time::Duration::days(30),
            user_agent: Some("Firefox"),
            ip: Some("127.0.0.1"),
            password_entered: true,
            now: now(),
        })
        .await
        .unwrap();
    user.id
}
