//! The real `closewise-api` binary killed with SIGKILL in the middle of a sign-up burst: after a
//! restart there is no half-made account, every acknowledged sign-up is there, and it serves again.

use std::collections::HashSet;
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::json;
use tokio::process::{Child, Command};

use closewise_testkit::{Backend, FreshDatabase};

use crate::both;
use crate::support::{
    assert_no_half_made_accounts, bounded, free_port, own_loopback, user_emails, TempDir,
};

async fn start(dir: &TempDir, database_url: &str, port: u16) -> Child {
    let child = Command::new(env!("CARGO_BIN_EXE_closewise-api"))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("APP_ADDR", format!("{}:{port}", own_loopback()))
        .env("APP_BASE_URL", "http://127.0.0.1:8080")
        .env("DATA_DIR", &dir.0)
        .env("WEB_DIST", dir.0.join("web"))
        .env("DATABASE_URL", database_url)
        .env("RATE_LIMIT_MAIL_PER_IP", "1000000")
        .env("RATE_LIMIT_MAIL_PER_EMAIL", "1000000")
        .env("RUST_LOG", "error")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .expect("start closewise-api");
    let client = reqwest::Client::new();
    bounded(60, "closewise-api to start", async {
        loop {
            if let Ok(r) = client
                .get(format!("http://{}:{port}/readyz", own_loopback()))
                .send()
                .await
            {
                if r.status() == StatusCode::OK {
                    break;
                }
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    child
}

async fn killed_during_signups(database_url: String, dir: TempDir) {
    let port = free_port();
    let mut child = start(&dir, &database_url, port).await;
    let base = format!("http://{}:{port}", own_loopback());
    let stop = Arc::new(AtomicBool::new(false));
    let acknowledged: Arc<Mutex<Vec<String>>> = Arc::default();
    let mut clients = Vec::new();
    for worker in 0..8 {
        let (stop, acknowledged, base) = (stop.clone(), acknowledged.clone(), base.clone());
        clients.push(tokio::spawn(async move {
            let client = reqwest::Client::new();
            let mut i = 0;
            while !stop.load(Ordering::Relaxed) {
                let email = format!("burst{worker}-{i}@example.com");
                i += 1;
                let res = client
                    .post(format!("{base}/api/auth/signup"))
                    .json(&json!({ "email": email, "password": "Closewise-resilience-7f3" }))
                    .timeout(Duration::from_secs(10))
                    .send()
                    .await;
                match res {
                    Ok(r) if r.status() == StatusCode::OK => {
                        acknowledged.lock().unwrap().push(email)
                    }
                    Ok(r) => panic!("sign-up answered {} before the kill", r.status()),
                    // The kill: connections reset or refused from here on.
                    Err(_) => break,
                }
            }
        }));
    }
    // Let the burst get going, then kill without warning.
    bounded(30, "the first sign-ups", async {
        while acknowledged.lock().unwrap().len() < 10 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    child.start_kill().expect("SIGKILL");
    let status = child.wait().await.unwrap();
    assert!(!status.success(), "killed, not exited: {status:?}");
    stop.store(true, Ordering::Relaxed);
    for c in clients {
        bounded(30, "burst clients", c).await.unwrap();
    }
    let acknowledged = acknowledged.lock().unwrap().clone();

    // Restart on the same database: it migrates, starts and serves.
    let mut child = start(&dir, &database_url, port).await;
    let users = assert_no_half_made_accounts(&database_url).await;
    let stored: HashSet<String> = user_emails(&database_url).await.into_iter().collect();
    for email in &acknowledged {
        assert!(
            stored.contains(email),
            "{email} was acknowledged before the kill but is missing"
        );
    }
    assert!(users as usize >= acknowledged.len());
    eprintln!(
        "killed after {} acknowledged sign-ups; {} users stored",
        acknowledged.len(),
        users
    );
    let client = reqwest::Client::new();
    let res = client
        .post(format!("{base}/api/auth/signup"))
        .json(&json!({ "email": "after-restart@example.com", "password": "Closewise-resilience-7f3" }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_no_half_made_accounts(&database_url).await;
    child.start_kill().unwrap();
    let _ = child.wait().await;
}

both!(
    async fn sigkill_during_a_signup_burst_leaves_no_half_made_account(backend: Backend) {
        let FreshDatabase { url, dir } = backend.fresh_database("killed").await;
        bounded(150, "SIGKILL test", killed_during_signups(url, dir)).await;
    }
);
