//! PostgreSQL restarted under load. The shared test server must never be restarted
//! (other suites run on it), so this test starts a private PostgreSQL cluster of its own on a
//! free port, puts both replicas on it, stops it under light load and starts it again: both
//! replicas answer 503 while it is down (never 500, never a hang) and recover by themselves, the
//! revocation channel included. The private cluster is stopped and removed even when the test
//! fails.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{json, Value};
use sqlx::Connection;

use crate::cluster::{free_port, json as body, Cluster};
use crate::revocation::{listening, warm};
use crate::support::{bounded, TempDir};

/// The folder holding `initdb` and `pg_ctl`: `pg_config --bindir`, else the newest
/// `/usr/lib/postgresql/*/bin`. None found fails the test: it is never skipped.
fn postgres_bindir() -> PathBuf {
    let usable = |d: &Path| d.join("initdb").is_file() && d.join("pg_ctl").is_file();
    if let Ok(out) = std::process::Command::new("pg_config")
        .arg("--bindir")
        .output()
    {
        let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        if out.status.success() && usable(&dir) {
            return dir;
        }
    }
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let version = e.file_name().to_str()?.parse().ok()?;
            let dir = e.path().join("bin");
            usable(&dir).then_some((version, dir))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, dir)| dir).unwrap_or_else(|| {
        panic!(
            "the PostgreSQL restart test needs the server binaries (initdb, pg_ctl): neither \
             `pg_config --bindir` nor /usr/lib/postgresql/*/bin has them. Install the PostgreSQL \
             server package (e.g. apt-get install postgresql-15)."
        )
    })
}

/// A PostgreSQL cluster of the test's own, in a temporary folder, on a free port.
pub struct PrivatePostgres {
    bin: PathBuf,
    dir: TempDir,
    pub port: u16,
    /// initdb refuses root: as root, the binaries run as the `postgres` user.
    as_root: bool,
}

impl PrivatePostgres {
    fn data(&self) -> PathBuf {
        self.dir.0.join("data")
    }

    fn command(&self, tool: &str) -> std::process::Command {
        let exe = self.bin.join(tool);
        let mut cmd = if self.as_root {
            let mut c = std::process::Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(exe);
            c
        } else {
            std::process::Command::new(exe)
        };
        cmd.current_dir(&self.dir.0);
        cmd
    }

    fn server_log(&self) -> String {
        std::fs::read_to_string(self.dir.0.join("log")).unwrap_or_default()
    }

    /// Runs a tool to its end; fails the test, with the server's log, when it fails.
    async fn run(&self, tool: &str, args: &[&str]) {
        let mut cmd = tokio::process::Command::from(self.command(tool));
        let out = bounded(60, tool, cmd.args(args).output())
            .await
            .unwrap_or_else(|e| panic!("cannot run {tool}: {e}"));
        assert!(
            out.status.success(),
            "{tool} {args:?} failed: {}{}\nserver log:\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
            self.server_log()
        );
    }

    /// initdb, then started.
    pub async fn start() -> PrivatePostgres {
        let bin = postgres_bindir();
        let as_root = std::fs::metadata("/proc/self")
            .map(|m| m.uid() == 0)
            .unwrap_or(false);
        let pg = PrivatePostgres {
            bin,
            dir: TempDir::new(),
            port: free_port(),
            as_root,
        };
        if as_root {
            let chown = std::process::Command::new("chown")
                .arg("postgres:postgres")
                .arg(&pg.dir.0)
                .status()
                .expect("chown");
            assert!(chown.success(), "chown postgres {}", pg.dir.0.display());
        }
        let data = pg.data();
        let data = data.to_str().unwrap();
        pg.run(
            "initdb",
            &[
                "-D",
                data,
                "-A",
                "trust",
                "-U",
                "postgres",
                "-E",
                "UTF8",
                "--no-locale",
                "--no-sync",
            ],
        )
        .await;
        pg.start_server().await;
        pg
    }

    pub async fn start_server(&self) {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
            self.port,
            self.dir.0.display()
        );
        let log = self.dir.0.join("log");
        let data = self.data();
        let args = [
            "-D",
            data.to_str().unwrap(),
            "-o",
            &options,
            "-l",
            log.to_str().unwrap(),
            "start",
            "-w",
        ];
        self.run("pg_ctl", &args).await;
    }

    /// `pg_ctl stop -m fast`: every connection is ended, the server stops.
    pub async fn stop_server(&self) {
        let data = self.data();
        let args = ["-D", data.to_str().unwrap(), "stop", "-m", "fast", "-w"];
        self.run("pg_ctl", &args).await;
    }

    /// A new empty database; its URL.
    pub async fn create_database(&self, name: &str) -> String {
        let admin = format!("postgres://postgres@127.0.0.1:{}/postgres", self.port);
        let mut db = sqlx::PgConnection::connect(&admin).await.unwrap();
        sqlx::query(&format!("CREATE DATABASE {name}"))
            .execute(&mut db)
            .await
            .unwrap();
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }
}

impl Drop for PrivatePostgres {
    fn drop(&mut self) {
        // Whatever state it is in (the folder goes with `dir` afterwards).
        let data = self.data();
        let _ = self
            .command("pg_ctl")
            .args([
                "-D",
                data.to_str().unwrap(),
                "stop",
                "-m",
                "immediate",
                "-w",
            ])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status();
    }
}

/// One answer of replica `i`, bounded: a hang is a failure.
async fn answer(c: &Cluster, i: usize, path: &str, token: Option<&str>) -> (StatusCode, Value) {
    let mut req = c
        .client
        .get(c.direct(i, path))
        .timeout(Duration::from_secs(10));
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    match req.send().await {
        Ok(res) => body(res).await,
        Err(e) => panic!("replica {i} did not answer {path} within 10 s: {e}"),
    }
}

/// Replica `i` answers `path` with 503 `unavailable` (a moment's 200 from its cache aside, until
/// it sees the database gone); anything else fails.
async fn unavailable(c: &Cluster, i: usize, path: &str, token: Option<&str>) {
    bounded(20, "503 while the database is down", async {
        loop {
            let (status, v) = answer(c, i, path, token).await;
            match status {
                StatusCode::SERVICE_UNAVAILABLE => {
                    assert_eq!(v["error"]["code"], "unavailable", "replica {i} {path}: {v}");
                    return;
                }
                StatusCode::OK => tokio::time::sleep(Duration::from_millis(50)).await,
                other => panic!("replica {i} {path} answered {other} while down: {v}"),
            }
        }
    })
    .await
}

/// Each load request's start, end and status (0: no answer within 10 s).
type Seen = Arc<Mutex<Vec<(Instant, Instant, u16)>>>;

/// Light load through the proxy until `stop`: a sign-up and a read in turn.
fn light_load(
    c: &Cluster,
    token: String,
    stop: Arc<AtomicBool>,
    seen: Seen,
) -> tokio::task::JoinHandle<()> {
    let (client, signup, plan) = (
        c.client.clone(),
        c.url("/api/auth/signup"),
        c.url("/api/plan"),
    );
    tokio::spawn(async move {
        let mut n = 0;
        while !stop.load(Ordering::Relaxed) {
            n += 1;
            let req = if n % 2 == 0 {
                let email = format!("load{n}@example.com");
                client
                    .post(&signup)
                    .json(&json!({ "email": email, "password": "Closewise-replicas-7f3" }))
            } else {
                client.get(&plan).bearer_auth(&token)
            };
            let started = Instant::now();
            let status = match req.timeout(Duration::from_secs(10)).send().await {
                Ok(r) => r.status().as_u16(),
                Err(_) => 0,
            };
            seen.lock().unwrap().push((started, Instant::now(), status));
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_restarted_under_load_both_replicas_answer_503_and_recover_by_themselves() {
    // Declared first, so dropped last: the replicas go before their database does.
    let pg = PrivatePostgres::start().await;
    let c = Cluster::start_on(pg.create_database("closewise").await, &[]).await;
    listening(&c, 0, 1).await;
    listening(&c, 1, 1).await;
    let token = c.user("ana@example.com").await;
    let load_token = c.user("load@example.com").await;
    warm(&c, &token).await;

    let stop = Arc::new(AtomicBool::new(false));
    let seen: Seen = Arc::default();
    let load = light_load(&c, load_token, stop.clone(), seen.clone());
    bounded(20, "the load's first answers", async {
        while seen.lock().unwrap().iter().filter(|s| s.2 == 200).count() < 6 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;

    pg.stop_server().await;
    let down = |i| {
        let (c, token) = (&c, &token);
        async move {
            unavailable(c, i, "/readyz", None).await;
            unavailable(c, i, "/api/plan", Some(token)).await;
            unavailable(c, i, "/api/auth/user", Some(token)).await;
        }
    };
    tokio::join!(down(0), down(1));
    for i in [0, 1] {
        bounded(10, "the revocation channel to see it gone", async {
            while !c.log(i).contains("the revocation channel dropped") {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
        .await;
    }
    // From here both caches are emptied and bypassed; before, a cached read may still answer 200
    // for a moment (the listener sees its connection gone asynchronously), as `unavailable` allows.
    let dropped = Instant::now();

    let restarting = Instant::now();
    pg.start_server().await;
    let restarted = Instant::now();
    bounded(30, "both replicas to recover by themselves", async {
        for i in [0, 1] {
            while answer(&c, i, "/readyz", None).await.0 != StatusCode::OK {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            let creds = json!({ "email": format!("after{i}@example.com"), "password": "Closewise-replicas-7f3" });
            let (status, v) = c.post(c.direct(i, "/api/auth/signup"), None, creds).await;
            assert_eq!(status, StatusCode::OK, "sign-up on replica {i}: {v}");
            let (status, v) = answer(&c, i, "/api/plan", Some(&token)).await;
            assert_eq!(status, StatusCode::OK, "read on replica {i}: {v}");
            // Listening again on a new connection: the cache is used again.
            listening(&c, i, 2).await;
        }
    })
    .await;
    let recovered = restarted.elapsed();

    // The revocation channel is back: a sign-out on A ends the token cached on B within 1 s.
    warm(&c, &token).await;
    let res = c
        .client
        .post(c.direct(0, "/api/auth/logout"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    let signed_out = Instant::now();
    loop {
        let (status, _) = answer(&c, 1, "/api/auth/user", Some(&token)).await;
        if status == StatusCode::UNAUTHORIZED {
            break;
        }
        assert_eq!(status, StatusCode::OK);
        assert!(
            signed_out.elapsed() < Duration::from_secs(1),
            "the token still works on B 1 s after the sign-out on A: its channel did not recover"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    bounded(20, "the load to be served again", async {
        let served = || {
            let seen = seen.lock().unwrap();
            seen.iter()
                .filter(|(t, _, s)| *t > restarted && *s == 200)
                .count()
        };
        while served() < 4 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    stop.store(true, Ordering::Relaxed);
    bounded(20, "the load", load).await.unwrap();
    let seen = seen.lock().unwrap().clone();
    // Asked and answered while it was down and both replicas knew it (one that waited for a
    // connection across the restart may well be served).
    let during: Vec<u16> = seen
        .iter()
        .filter(|(t, end, _)| *t > dropped && *end < restarting)
        .map(|s| s.2)
        .collect();
    eprintln!(
        "load: {} answers, {} while down ({:?}); recovered {recovered:?} after the restart",
        seen.len(),
        during.len(),
        during
    );
    assert!(
        during.iter().all(|s| *s == 503),
        "while down the load got only 503s: {during:?}"
    );
    assert!(
        seen.iter().all(|(_, _, s)| [200, 503].contains(s)),
        "only 200 or 503, never a 500 nor a hang: {:?}",
        seen.iter().map(|s| s.2).collect::<Vec<_>>()
    );
}
