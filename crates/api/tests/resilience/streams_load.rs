//! Event streams under load and faults: 10,000 audit events of one team (in transactions of 50,
//! from four writers) written while the real
//! `closewise-api` binary delivers them to two https destinations — a receiver that verifies
//! every request with the maintained `standardwebhooks` library (npm, crates/testkit/
//! webhooks-receiver) and fails a share of them on purpose — across a SIGKILL and restart of the
//! API and a cut of its PostgreSQL connections. Every event reaches each destination at least
//! once and in its outbox order (a batch sent again after a fault repeats what came before it,
//! never skips ahead), with no request failing verification.

use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::Engine;
use closewise_core::actor::Actor;
use closewise_core::limits::unlimited;
use closewise_core::mail::Composer;
use closewise_core::mfa::SecretBox;
use closewise_core::store::audit::NewAudit;
use closewise_core::store::Store;
use closewise_core::streams::{StreamInput, Streams};
use closewise_core::teams::Teams;
use closewise_domain::sso::ProviderReach;
use closewise_testkit::{postgres_admin_url, Backend};
use reqwest::StatusCode;
use serde_json::{json, Value};
use sqlx::Connection;
use tokio::io::AsyncBufReadExt;
use tokio::process::{Child, Command};
use uuid::Uuid;

use crate::db_outage::{host_port, through_proxy, Proxy};
use crate::support::{bounded, free_port, own_loopback, TempDir};

const EVENTS: usize = 10_000;
const KEY: [u8; 32] = [42; 32];

async fn start_api(dir: &TempDir, database_url: &str) -> Child {
    let port = free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_closewise-api"))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("APP_ENV", "development")
        .env("APP_ADDR", format!("{}:{port}", own_loopback()))
        .env("APP_BASE_URL", "http://127.0.0.1:8080")
        .env("APP_INSTANCE", "streams-load")
        .env("DATA_DIR", &dir.0)
        .env("WEB_DIST", dir.0.join("web"))
        .env("DATABASE_URL", database_url)
        .env("DATABASE_ACQUIRE_TIMEOUT_SECS", "1")
        .env(
            "MFA_ENCRYPTION_KEY",
            base64::engine::general_purpose::STANDARD.encode(KEY),
        )
        .env("STREAM_WORKER_INTERVAL_MS", "250")
        .env("SWEEP_INTERVAL_SECS", "0")
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

/// The receiver on a free port: its process and its base URL.
async fn start_receiver() -> (Child, String) {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testkit/webhooks-receiver/receiver.mjs"
    );
    let mut child = Command::new("node")
        .arg(script)
        .env("FAIL_EVERY", "100")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .expect("node runs the receiver (scripts/receiver-deps.sh installs its package)");
    let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let port = bounded(30, "the receiver to listen", lines.next_line())
        .await
        .unwrap()
        .expect("the receiver prints its port");
    (child, format!("http://127.0.0.1:{}", port.trim()))
}

/// Each stream's event ids in outbox order.
async fn outbox_order(database_url: &str, stream: Uuid) -> Vec<String> {
    let mut c = sqlx::PgConnection::connect(database_url).await.unwrap();
    sqlx::query_scalar("SELECT event_id FROM stream_outbox WHERE stream_id = $1 ORDER BY seq")
        .bind(stream)
        .fetch_all(&mut c)
        .await
        .unwrap()
}

/// At least once and in order: walking what was received, each id is either one already
/// received (a batch sent again) or exactly the next one of the outbox.
fn check_order(name: &str, expected: &[String], received: &[String]) {
    let index: std::collections::HashMap<&str, usize> = expected
        .iter()
        .enumerate()
        .map(|(i, id)| (id.as_str(), i))
        .collect();
    let mut next = 0;
    for (at, id) in received.iter().enumerate() {
        let i = *index
            .get(id.as_str())
            .unwrap_or_else(|| panic!("{name}: {id} is not in the outbox"));
        assert!(
            i <= next,
            "{name}: received #{at} is event {i} while {next} was next: skipped ahead"
        );
        if i == next {
            next += 1;
        }
    }
    assert_eq!(next, expected.len(), "{name}: every event received");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn ten_thousand_events_reach_each_destination_in_order_across_a_restart_and_a_database_cut() {
    let began = Instant::now();
    let proxy = Proxy::start(host_port(&postgres_admin_url())).await;
    let db = Backend::Postgres.migrated_database("streams_load").await;
    let direct = db.url.clone();
    let store = Store::connect(&direct, Duration::from_secs(10))
        .await
        .unwrap();
    store.migrate().await.unwrap();
    let clock = closewise_core::clock::Clock::System;
    let (mut receiver, receiver_url) = start_receiver().await;

    // The team and its two destinations, through the core (fixtures, not sign-up over HTTP).
    let owner = Uuid::now_v7();
    {
        let mut c = sqlx::PgConnection::connect(&direct).await.unwrap();
        sqlx::query(
            "INSERT INTO users (id, email, password_hash, email_confirmed_at, created_at, \
             updated_at) VALUES ($1, 'owner@load.test', 'x', now(), now(), now())",
        )
        .bind(owner)
        .execute(&mut c)
        .await
        .unwrap();
    }
    let actor = Actor::member(owner, "owner@load.test");
    let mail = Composer::new("http://127.0.0.1:8080");
    Teams::new(store.clone(), clock.clone(), mail.clone(), unlimited())
        .create(&actor, "Load")
        .await
        .unwrap();
    let (team, _) = store.membership_of(owner).await.unwrap().unwrap();
    let streams = Streams::new(
        store.clone(),
        clock.clone(),
        mail,
        SecretBox::new(&KEY),
        ProviderReach::Local,
    );
    let mut ids = Vec::new();
    let mut secrets = serde_json::Map::new();
    for name in ["a", "b"] {
        let created = streams
            .create(
                &actor,
                &StreamInput {
                    kind: "https".into(),
                    url: format!("{receiver_url}/{name}"),
                    token: None,
                    events: Some(vec!["audit".into()]),
                },
            )
            .await
            .unwrap();
        secrets.insert(name.into(), json!([created.secret.unwrap()]));
        ids.push((name, created.stream.id));
    }
    let http = reqwest::Client::new();
    http.post(format!("{receiver_url}/_secrets"))
        .json(&Value::Object(secrets))
        .send()
        .await
        .unwrap()
        .error_for_status()
        .unwrap();

    let dir = TempDir::new();
    let api_url = through_proxy(&direct, proxy.port);
    let mut api = start_api(&dir, &api_url).await;

    // 10,000 audit rows of the team, from four writers at once.
    let written = Arc::new(AtomicUsize::new(0));
    let mut writers = Vec::new();
    for w in 0..4 {
        let (store, written) = (store.clone(), written.clone());
        writers.push(tokio::spawn(async move {
            // In transactions of 50 rows, as a bulk change writes them.
            for chunk in 0..EVENTS / 4 / 50 {
                let audits: Vec<NewAudit> = (0..50)
                    .map(|i| NewAudit {
                        actor: "load@load.test".into(),
                        action: "team.rename",
                        user_id: None,
                        target_email: None,
                        reason: None,
                        details: json!({ "team_id": team, "writer": w, "n": chunk * 50 + i }),
                        now: time::OffsetDateTime::now_utc(),
                    })
                    .collect();
                store.record_audits(&audits).await.unwrap();
                written.fetch_add(audits.len(), Ordering::Relaxed);
            }
        }));
    }
    let reached = |n: usize| {
        let written = written.clone();
        async move {
            while written.load(Ordering::Relaxed) < n {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    };
    // The API killed without warning mid-load, and started again.
    bounded(60, "2,500 events written", reached(EVENTS / 4)).await;
    api.start_kill().unwrap();
    let _ = api.wait().await;
    let mut api = start_api(&dir, &api_url).await;
    // Its database goes away for a while and comes back.
    bounded(60, "6,000 events written", reached(6_000)).await;
    proxy.cut();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    proxy.restore();
    for w in writers {
        bounded(60, "the writers", w).await.unwrap();
    }
    let written_in = began.elapsed();

    let expected: Vec<(&str, Vec<String>)> = {
        let mut out = Vec::new();
        for (name, id) in &ids {
            out.push((*name, outbox_order(&direct, *id).await));
        }
        out
    };
    assert_eq!(
        expected[0].1.len(),
        EVENTS + 2,
        "a: the two creations and the load"
    );
    assert_eq!(
        expected[1].1.len(),
        EVENTS + 1,
        "b: its creation and the load"
    );
    let report = bounded(90, "every event delivered to both destinations", async {
        loop {
            let report: Value = http
                .get(format!("{receiver_url}/_received"))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            let done = expected.iter().all(|(name, ids)| {
                report["received"][name].as_array().is_some_and(|got| {
                    let got: std::collections::HashSet<&str> =
                        got.iter().filter_map(Value::as_str).collect();
                    ids.iter().all(|id| got.contains(id.as_str()))
                })
            });
            if done {
                return report;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    })
    .await;
    for (name, ids) in &expected {
        let got: Vec<String> = report["received"][name]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect();
        check_order(name, ids, &got);
    }
    assert_eq!(report["invalid"], 0, "every request verified: {report:#}");
    assert!(
        report["failed_on_purpose"].as_u64().unwrap() > 0,
        "the receiver failed some requests on purpose"
    );
    eprintln!(
        "streams load: {} events to 2 destinations in {:.1} s, written after {:.1} s ({} requests failed on purpose)",
        EVENTS,
        began.elapsed().as_secs_f64(),
        written_in.as_secs_f64(),
        report["failed_on_purpose"]
    );
    api.start_kill().unwrap();
    let _ = api.wait().await;
    receiver.start_kill().unwrap();
}
