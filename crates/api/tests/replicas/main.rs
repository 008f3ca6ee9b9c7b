//! The replica suite: two real `closewise-api` processes on one fresh PostgreSQL
//! database, with stripe-mock, behind a round-robin proxy written here (`cluster`). Each test
//! is bounded; the suite runs in well under two minutes. Restarting PostgreSQL under load runs on
//! a private cluster the test starts itself (`pgrestart`): the shared test server is never
//! restarted.

mod cluster;
mod payments;
mod pgrestart;
mod read_cache;
mod revocation;
#[allow(dead_code)]
#[path = "../resilience/support.rs"]
mod support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{json, Value};

use cluster::{Cluster, BASE, NAMES};
use support::{assert_no_half_made_accounts, bounded, scalar, user_emails};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_token_budget_per_address_is_spent_across_both_replicas() {
    let c = Cluster::start(&[("RATE_LIMIT_TOKEN_PER_IP", "6")]).await;
    let before = c.served.each();
    let guess =
        |i: usize| json!({ "email": format!("nobody{i}@example.com"), "password": "whatever-1" });
    for i in 0..6 {
        let (status, v) = c
            .post(c.url("/api/auth/token?grant_type=password"), None, guess(i))
            .await;
        assert_eq!(
            status,
            StatusCode::BAD_REQUEST,
            "request {i} is within the budget: {v}"
        );
    }
    let after = c.served.each();
    assert_eq!(
        (after[0] - before[0], after[1] - before[1]),
        (3, 3),
        "both replicas answered"
    );
    for (i, name) in NAMES.iter().enumerate() {
        let (status, v) = c
            .post(
                c.direct(i, "/api/auth/token?grant_type=password"),
                None,
                guess(9),
            )
            .await;
        assert_eq!(
            status,
            StatusCode::TOO_MANY_REQUESTS,
            "{} has no budget left: {v}",
            name
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signing_out_through_one_replica_ends_the_token_on_the_other_within_a_second() {
    let c = Cluster::start(&[]).await;
    let token = c.user("ana@example.com").await;
    let (status, v) = c.get(c.direct(1, "/api/auth/user"), &token).await;
    assert_eq!(status, StatusCode::OK, "{v}");
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
        let (status, _) = c.get(c.direct(1, "/api/auth/user"), &token).await;
        if status == StatusCode::UNAUTHORIZED {
            break;
        }
        assert!(
            signed_out.elapsed() < Duration::from_secs(1),
            "still {status} on B after 1 s"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Every request's span names the replica that served it.
    assert!(c.log(1).lines().any(|l| l.contains("instance")
        && l.contains("replica-b")
        && l.contains("/api/auth/user")));
    assert!(c
        .log(0)
        .lines()
        .any(|l| l.contains("replica-a") && l.contains("/api/auth/logout")));
}

pub(crate) fn checkout_body() -> Value {
    json!({
        "price_id": "price_closewise_monthly",
        "mode": "subscription",
        "success_url": format!("{BASE}/success?session_id={{CHECKOUT_SESSION_ID}}"),
        "cancel_url": format!("{BASE}/pricing"),
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_success_page_on_one_replica_racing_the_webhook_on_the_other_activates_once() {
    let c = Cluster::start(&[]).await;
    c.mock.set_webhook_url(None);
    const ROUNDS: usize = 50;
    bounded(100, "fifty races", async {
        for round in 0..ROUNDS {
            let token = c.user(&format!("u{round}@example.com")).await;
            let (status, v) = c
                .post(c.url("/api/checkout"), Some(&token), checkout_body())
                .await;
            assert_eq!(status, StatusCode::OK, "{v}");
            let url = v["url"].as_str().unwrap().to_owned();
            let session_id = url.rsplit('/').next().unwrap().to_owned();
            let paid = c
                .client
                .post(&url)
                .form(&[
                    ("email", "buyer@example.com"),
                    ("cardnumber", "4242 4242 4242 4242"),
                    ("exp", "12 / 34"),
                    ("cvc", "123"),
                    ("name", "Ana Buyer"),
                ])
                .send()
                .await
                .unwrap();
            assert_eq!(paid.status(), StatusCode::SEE_OTHER);
            let completed = c
                .mock
                .events()
                .into_iter()
                .find(|e| {
                    e["type"] == "checkout.session.completed"
                        && e["data"]["object"]["id"] == session_id.as_str()
                })
                .expect("the session's completion event");
            let ((cs, cv), (ws, wv)) = tokio::join!(
                c.post(
                    c.direct(0, "/api/checkout/confirm"),
                    Some(&token),
                    json!({ "session_id": session_id })
                ),
                c.deliver(1, &completed),
            );
            assert_eq!(cs, StatusCode::OK, "round {round}: {cv}");
            assert_eq!(ws, StatusCode::OK, "round {round}: {wv}");
            assert_eq!(cv["plan"]["plan_type"], "monthly", "round {round}");
        }
    })
    .await;
    let monthly = scalar(
        &c.database_url,
        "SELECT COUNT(*) FROM user_plans WHERE plan_type = 'monthly'",
    )
    .await;
    assert_eq!(monthly as usize, ROUNDS);
    // Each plan changed once in all: one "plan changed" line per user, on one replica or the other.
    let changes: usize = (0..2)
        .map(|i| {
            c.log(i)
                .lines()
                .filter(|l| l.contains("plan changed"))
                .count()
        })
        .sum();
    assert_eq!(changes, ROUNDS, "activated exactly once each");
}

/// Sign-ups through the proxy from `workers` clients until `stop`: what was acknowledged, and
/// each request's start and whether it was answered 200.
type Outcomes = Arc<Mutex<Vec<(Instant, Option<String>)>>>;

fn signup_load(
    c: &Cluster,
    stop: Arc<AtomicBool>,
    outcomes: Outcomes,
) -> Vec<tokio::task::JoinHandle<()>> {
    (0..6)
        .map(|worker| {
            let (client, url, stop, outcomes) = (
                c.client.clone(),
                c.url("/api/auth/signup"),
                stop.clone(),
                outcomes.clone(),
            );
            tokio::spawn(async move {
                let mut i = 0;
                while !stop.load(Ordering::Relaxed) {
                    let email = format!("load{worker}-{i}@example.com");
                    i += 1;
                    let started = Instant::now();
                    let res = client
                        .post(&url)
                        .json(&json!({ "email": email, "password": "Closewise-replicas-7f3" }))
                        .timeout(Duration::from_secs(10))
                        .send()
                        .await;
                    let ok = matches!(res, Ok(r) if r.status() == StatusCode::OK);
                    outcomes
                        .lock()
                        .unwrap()
                        .push((started, ok.then_some(email)));
                }
            })
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_killed_under_sign_up_and_checkout_load_loses_nothing_and_rejoins() {
    let mut c = Cluster::start(&[]).await;
    let stop = Arc::new(AtomicBool::new(false));
    let outcomes: Outcomes = Arc::default();
    let load = signup_load(&c, stop.clone(), outcomes.clone());
    let paid: Arc<Mutex<Vec<String>>> = Arc::default();
    let payments = payments::checkout_load(&c, stop.clone(), paid.clone());
    let acknowledged = |o: &Outcomes| {
        o.lock()
            .unwrap()
            .iter()
            .filter(|(_, e)| e.is_some())
            .count()
    };
    bounded(30, "the first sign-ups", async {
        while acknowledged(&outcomes) < 10 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    c.kill(0).await;
    let killed = Instant::now();
    // The survivor alone serves the load a while: ten sign-ups begun after the kill answered.
    let answered_after = |o: &Outcomes, t: Instant| {
        o.lock()
            .unwrap()
            .iter()
            .filter(|(s, e)| *s > t + Duration::from_millis(100) && e.is_some())
            .count()
    };
    bounded(30, "sign-ups served by the survivor", async {
        while answered_after(&outcomes, killed) < 10 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    // Restarted: it migrates (nothing to do), starts and takes its share again.
    let served_before = c.served.each()[0];
    c.start_replica(0).await;
    let restarted = Instant::now();
    bounded(30, "the restarted replica to serve", async {
        while c.served.each()[0] < served_before + 5 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    bounded(
        30,
        "a sign-up after the restart answered, and payments taken",
        async {
            while answered_after(&outcomes, restarted) < 1 || paid.lock().unwrap().len() < 2 {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        },
    )
    .await;
    stop.store(true, Ordering::Relaxed);
    for task in load.into_iter().chain(payments) {
        bounded(30, "the load's clients", task).await.unwrap();
    }
    let paid = paid.lock().unwrap().clone();
    payments::assert_every_payment_activated_once(&c, &paid).await;
    let outcomes = outcomes.lock().unwrap().clone();
    // The survivor kept answering: every request started after the kill was acknowledged.
    let after_kill: Vec<_> = outcomes
        .iter()
        .filter(|(t, _)| *t > killed + Duration::from_millis(100))
        .collect();
    assert!(after_kill.len() >= 10, "load ran on: {}", after_kill.len());
    assert!(
        after_kill.iter().all(|(_, e)| e.is_some()),
        "a request after the kill failed"
    );
    assert!(outcomes.iter().any(|(t, e)| *t > restarted && e.is_some()));
    // No acknowledged sign-up was lost, none half made.
    assert_no_half_made_accounts(&c.database_url).await;
    let stored: std::collections::HashSet<String> =
        user_emails(&c.database_url).await.into_iter().collect();
    for (_, email) in &outcomes {
        if let Some(email) = email {
            assert!(
                stored.contains(email),
                "{email} was acknowledged but is missing"
            );
        }
    }
}

trait Each {
    fn each(&self) -> [u64; 2];
}

impl Each for Arc<[std::sync::atomic::AtomicU64; 2]> {
    fn each(&self) -> [u64; 2] {
        [
            self[0].load(Ordering::Relaxed),
            self[1].load(Ordering::Relaxed),
        ]
    }
}
