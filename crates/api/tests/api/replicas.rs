//! Two replicas of the API on one PostgreSQL database, in one test process: the rate
//! limits are one budget across both, to the request, and the database's windows follow the same
//! rules as the in-memory limiter SQLite keeps. (The replica suite, `tests/replicas.rs`, runs
//! the same topology as real processes behind a proxy.)

use std::time::Duration;

use closewise_api::ratelimit::{Bucket, Limiter, RateLimiter, Refused};
use closewise_core::store::Store;
use closewise_testkit::migrated_postgres_database;
use reqwest::StatusCode;
use time::OffsetDateTime;

use crate::helpers::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_token_budget_per_address_is_one_across_two_replicas() {
    let a = spawn_app_with(Backend::Postgres, |s| s.limits.token_per_ip = 4).await;
    let b = spawn_replica(&a, |_| {}).await;
    for (i, app) in [&a, &b, &a, &b].into_iter().enumerate() {
        let status = app
            .signin(&format!("u{i}@example.com"), "whatever-1")
            .await
            .status();
        assert_eq!(
            status,
            StatusCode::BAD_REQUEST,
            "request {i} is within the budget"
        );
    }
    for app in [&a, &b] {
        let status = app.signin("late@example.com", "whatever-1").await.status();
        assert_eq!(
            status,
            StatusCode::TOO_MANY_REQUESTS,
            "the budget is spent on both"
        );
    }
    a.advance(time::Duration::minutes(5));
    assert_eq!(
        b.signin("u9@example.com", "whatever-1").await.status(),
        StatusCode::BAD_REQUEST
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_guesses_on_two_replicas_get_no_more_tries_than_the_limit() {
    let a = spawn_app_with(Backend::Postgres, |s| {
        s.limits.failed_signins_per_account_ip = 5
    })
    .await;
    let b = spawn_replica(&a, |_| {}).await;
    a.signed_in_user("bo@example.com", "sales-pro-2026").await;
    let mut tasks = Vec::new();
    for i in 0..20 {
        let app = if i % 2 == 0 { &a } else { &b };
        let (client, url) = (
            app.client.clone(),
            app.url("/api/auth/token?grant_type=password"),
        );
        tasks.push(tokio::spawn(async move {
            let body = serde_json::json!({ "email": "bo@example.com", "password": "wrong-pass" });
            client.post(url).json(&body).send().await.unwrap().status()
        }));
    }
    let mut checked = 0;
    for t in tasks {
        if t.await.unwrap() == StatusCode::BAD_REQUEST {
            checked += 1;
        }
    }
    assert_eq!(
        checked, 5,
        "five password checks in all, not five per replica"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_right_password_refunds_on_the_shared_budget() {
    let a = spawn_app_with(Backend::Postgres, |s| {
        s.limits.failed_signins_per_account_ip = 2
    })
    .await;
    let b = spawn_replica(&a, |_| {}).await;
    a.signed_in_user("cy@example.com", "sales-pro-2026").await;
    // The sign-in above was refunded: two wrong guesses are still allowed, one on each replica.
    assert_eq!(
        a.signin("cy@example.com", "wrong-pass").await.status(),
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        b.signin("cy@example.com", "wrong-pass").await.status(),
        StatusCode::BAD_REQUEST
    );
    let status = a.signin("cy@example.com", "sales-pro-2026").await.status();
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
}

/// A small deterministic generator (no seed file to keep).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % below
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_database_windows_answer_as_the_memory_limiter_does() {
    let store = Store::connect(
        &migrated_postgres_database("limits").await,
        Duration::from_secs(10),
    )
    .await
    .unwrap();
    store.migrate().await.unwrap();
    let shared = RateLimiter::for_store(&store, 1000);
    assert!(matches!(shared, RateLimiter::Shared(_)));
    let memory = RateLimiter::Memory(Limiter::default());
    let mut rng = Lcg(16);
    let mut now = OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap();
    let (window, max_delay) = (Duration::from_secs(60), Duration::from_secs(20));
    let mut seen = [0; 3]; // sign-in's two budgets: allowed, the window refused, the delay refused
    for step in 0..1500 {
        let key = ["a", "b", "c"][rng.next(3) as usize];
        let (x, y) = match rng.next(10) {
            0..=3 => {
                let limit = rng.next(4) as u32;
                (
                    memory
                        .hit(Bucket::MailPerIp, key, limit, window, now)
                        .await
                        .unwrap(),
                    shared
                        .hit(Bucket::MailPerIp, key, limit, window, now)
                        .await
                        .unwrap(),
                )
            }
            4..=5 if rng.next(2) == 0 => {
                // Sign-in's two budgets at once: a window per (account, address), then the
                // account's delay, the window given back when the delay refuses.
                let limit = rng.next(4) as u32;
                let account = ["a", "b", "c"][rng.next(3) as usize];
                let hit = (Bucket::FailedSigninPerAccountIp, key, limit, window);
                let delay = (
                    Bucket::FailedSigninPerAccount,
                    account,
                    3,
                    max_delay,
                    window,
                );
                let x = memory.hit_then_delay(hit, delay, now).await.unwrap();
                let y = shared.hit_then_delay(hit, delay, now).await.unwrap();
                assert_eq!(x, y, "step {step}: both budgets answer alike");
                seen[match x {
                    Ok(()) => 0,
                    Err(Refused::Window(_)) => 1,
                    Err(Refused::Delay(_)) => 2,
                }] += 1;
                (Ok(()), Ok(()))
            }
            4..=7 => (
                memory
                    .delay(
                        Bucket::FailedSigninPerAccount,
                        key,
                        3,
                        max_delay,
                        window,
                        now,
                    )
                    .await
                    .unwrap(),
                shared
                    .delay(
                        Bucket::FailedSigninPerAccount,
                        key,
                        3,
                        max_delay,
                        window,
                        now,
                    )
                    .await
                    .unwrap(),
            ),
            8 => {
                let bucket = [
                    Bucket::MailPerIp,
                    Bucket::FailedSigninPerAccount,
                    Bucket::FailedSigninPerAccountIp,
                ][rng.next(3) as usize];
                memory.refund(bucket, key).await;
                shared.refund(bucket, key).await;
                (Ok(()), Ok(()))
            }
            9 if rng.next(2) == 0 => {
                // Several windows at once (sign-in's two budgets), a window twice included.
                let other = ["a", "b", "c"][rng.next(3) as usize];
                let windows = [
                    (Bucket::MailPerIp, key),
                    (Bucket::FailedSigninPerAccount, other),
                    (Bucket::MailPerIp, ["a", "b", "c"][rng.next(3) as usize]),
                ];
                let windows = &windows[..1 + rng.next(3) as usize];
                memory.refund_each(windows).await;
                shared.refund_each(windows).await;
                (Ok(()), Ok(()))
            }
            _ => {
                now += time::Duration::seconds(rng.next(30) as i64);
                (Ok(()), Ok(()))
            }
        };
        assert_eq!(
            x, y,
            "step {step}: the same answer, to the request and the second"
        );
    }
    assert!(
        seen.iter().all(|&n| n > 0),
        "both budgets allowed and each refused at least once: {seen:?}"
    );
    now += time::Duration::hours(1);
    let keys = shared.stats().await.unwrap().keys;
    assert!(keys > 0);
    if let RateLimiter::Shared(store) = &shared {
        store.rate_sweep(now.unix_timestamp()).await.unwrap();
    }
    assert_eq!(
        shared.stats().await.unwrap().keys,
        0,
        "every ended window is swept"
    );
}

fn audit(action: &'static str, now: OffsetDateTime) -> closewise_core::store::audit::NewAudit {
    closewise_core::store::audit::NewAudit {
        actor: "ops@example.com".into(),
        action,
        user_id: None,
        target_email: Some("ana@example.com".into()),
        reason: Some("test".into()),
        details: serde_json::json!({}),
        now,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_replica_signs_the_audit_rows_it_writes() {
    let a = spawn_app_with(Backend::Postgres, |s| s.instance = "replica-a".into()).await;
    let b = spawn_replica(&a, |s| s.instance = "replica-b".into()).await;
    let now = a.state.clock.now();
    a.state
        .store
        .record_audit(&audit("user.verify", now))
        .await
        .unwrap();
    b.state
        .store
        .record_audit(&audit("user.sign_out", now))
        .await
        .unwrap();
    let mut rows: Vec<_> = a
        .state
        .store
        .audit_log(10)
        .await
        .unwrap()
        .into_iter()
        .map(|r| (r.action, r.instance.unwrap_or_default()))
        .collect();
    rows.sort();
    assert_eq!(
        rows,
        [
            ("user.sign_out".into(), "replica-b".into()),
            ("user.verify".into(), "replica-a".into())
        ]
    );
}

crate::both!(
    async fn the_instance_defaults_to_app_instance_or_the_host_name(app) {
        let settings = closewise_api::config::Settings::from_lookup(|k| (k == "APP_INSTANCE").then(|| " api-7 ".into())).unwrap();
        assert_eq!(settings.instance, "api-7");
        let default = closewise_api::config::Settings::from_lookup(|_| None).unwrap();
        assert_eq!(default.instance, closewise_core::store::default_instance());
        assert!(!default.instance.is_empty());
        app.state.store.record_audit(&audit("user.verify", app.state.clock.now())).await.unwrap();
        let row = app.state.store.audit_log(1).await.unwrap().remove(0);
        assert_eq!(row.instance.as_deref(), Some(app.state.settings.instance.as_str()));
    }
);
