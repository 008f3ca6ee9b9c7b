//! Sign-in, sign-up, resend and recover tell nothing about whether an e-mail is registered:
//! neither in the answer (status, body, headers that matter) nor in how long it takes.

use std::time::{Duration, Instant};

use closewise_core::password::Hasher;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::both;
use crate::helpers::{spawn_app_with_hasher, Backend, TestApp};
use crate::support::{bounded, median_ms};

const PASSWORD: &str = "Closewise-resilience-7f3";

/// What an observer compares: status, body with the e-mail itself blanked, and whether a cookie
/// or a Retry-After came back.
async fn observable(res: reqwest::Response, email: &str) -> (StatusCode, String, bool, bool) {
    let status = res.status();
    let cookie = res.headers().contains_key("set-cookie");
    let retry = res.headers().contains_key("retry-after");
    let text = res.text().await.unwrap();
    (status, text.replace(email, "<email>"), cookie, retry)
}

both!(async fn answers_are_the_same_for_known_and_unknown_emails(app) {
    // Known: one unconfirmed, one confirmed account.
    assert_eq!(app.signup("pending@example.com", PASSWORD).await.status(), StatusCode::OK);
    app.signed_in_user("confirmed@example.com", PASSWORD).await;
    let unknown = "nobody@example.com";
    type Call = fn(&str) -> (&'static str, Value);
    let calls: Vec<(&str, Call)> = vec![
        ("sign-up", |e| ("/api/auth/signup", json!({ "email": e, "password": PASSWORD }))),
        ("resend", |e| ("/api/auth/resend", json!({ "email": e, "type": "signup" }))),
        ("recover", |e| ("/api/auth/recover", json!({ "email": e }))),
        ("sign-in, wrong password", |e| {
            ("/api/auth/token?grant_type=password", json!({ "email": e, "password": "Wrong-password-42" }))
        }),
    ];
    for (what, call) in calls {
        for known in ["pending@example.com", "confirmed@example.com"] {
            // A minute apart, so per-address windows do not differ between the two.
            app.advance(time::Duration::seconds(61));
            let (path, body) = call(known);
            let a = observable(app.post(path, body).await, known).await;
            let (path, body) = call(unknown);
            let b = observable(app.post(path, body).await, unknown).await;
            assert_eq!(a, b, "{what}: {known} and an unknown address answer alike");
            // And again at once: the second call is limited (or not) alike too.
            let (path, body) = call(known);
            let a = observable(app.post(path, body).await, known).await;
            let (path, body) = call(unknown);
            let b = observable(app.post(path, body).await, unknown).await;
            assert_eq!(a, b, "{what}, repeated: {known} and an unknown address answer alike");
        }
    }
});

const TRIES: usize = 30;

/// Times `TRIES` calls for a known and an unknown address, interleaved (so drift on a busy
/// machine hits both alike), moving the clock past per-address windows between rounds.
async fn timings(
    app: &TestApp,
    what: &str,
    call: impl Fn(&str, usize) -> (String, Value),
    known: &str,
    unknown: &dyn Fn(usize) -> String,
) -> (f64, f64) {
    let mut k = Vec::with_capacity(TRIES);
    let mut u = Vec::with_capacity(TRIES);
    let time_one = |path: String, body: Value| async move {
        let t = Instant::now();
        let res = app.post(&path, body).await;
        let status = res.status();
        let _ = res.bytes().await;
        (t.elapsed(), status)
    };
    // Warm up: the dummy hash, connections, caches.
    for i in 0..3 {
        let (p, b) = call(known, i);
        time_one(p, b).await;
        let (p, b) = call(&unknown(1000 + i), i);
        time_one(p, b).await;
    }
    for i in 0..TRIES {
        app.advance(time::Duration::seconds(61));
        let order_known_first = i % 2 == 0;
        for first in [true, false] {
            let is_known = first == order_known_first;
            let (p, b) = if is_known {
                call(known, i)
            } else {
                call(&unknown(i), i)
            };
            let (elapsed, status) = time_one(p, b).await;
            assert!(
                status.is_success() || status == StatusCode::BAD_REQUEST,
                "{what}: {status}"
            );
            if is_known {
                k.push(elapsed)
            } else {
                u.push(elapsed)
            }
        }
    }
    (median_ms(&mut k), median_ms(&mut u))
}

/// The medians may differ by at most a quarter of the slower one, or 2 ms, whichever is larger:
/// generous enough for a loaded two-core machine, far below what the checks would cost if
/// they were skipped for unknown addresses (a full argon2id hash, or a database write).
fn assert_alike(what: &str, known: f64, unknown: f64) {
    let allowed = (known.max(unknown) * 0.25).max(2.0);
    eprintln!("{what}: median known {known:.2} ms, unknown {unknown:.2} ms (allowed difference {allowed:.2} ms)");
    assert!(
        (known - unknown).abs() <= allowed,
        "{what}: known {known:.2} ms vs unknown {unknown:.2} ms differ by more than {allowed:.2} ms"
    );
}

async fn timing_run(backend: Backend) {
    let app = spawn_app_with_hasher(backend, Hasher::new(), |s| {
        s.limits.mail_per_ip = 100_000;
        s.limits.token_per_ip = 100_000;
    })
    .await;
    // A confirmed account (sign-in and recover) and an unconfirmed one (sign-up and resend: the
    // paths that write a mail for it).
    assert_eq!(
        app.post(
            "/api/auth/signup",
            json!({"email": "known@example.com", "password": PASSWORD})
        )
        .await
        .status(),
        StatusCode::OK
    );
    let link = app
        .state
        .store
        .list_mail(Some("known@example.com"), Default::default(), 1)
        .await
        .unwrap()[0]
        .link
        .clone()
        .unwrap();
    let token = link.split("token=").nth(1).unwrap();
    assert_eq!(
        app.post("/api/auth/verify", json!({"token": token}))
            .await
            .status(),
        StatusCode::OK
    );
    assert_eq!(
        app.post(
            "/api/auth/signup",
            json!({"email": "waiting@example.com", "password": PASSWORD})
        )
        .await
        .status(),
        StatusCode::OK
    );

    let unknown = |i: usize| format!("unknown{i}@example.com");
    let (k, u) = timings(
        &app,
        "sign-in",
        |e, _| {
            (
                "/api/auth/token?grant_type=password".into(),
                json!({"email": e, "password": "Wrong-password-42"}),
            )
        },
        "known@example.com",
        &unknown,
    )
    .await;
    assert_alike("sign-in (wrong password)", k, u);
    // Sign-up of unknown addresses creates them; each round uses a fresh one.
    let fresh = |i: usize| format!("fresh{i}@example.com");
    let (k, u) = timings(
        &app,
        "sign-up",
        |e, _| {
            (
                "/api/auth/signup".into(),
                json!({"email": e, "password": PASSWORD}),
            )
        },
        "waiting@example.com",
        &fresh,
    )
    .await;
    assert_alike("sign-up", k, u);
    let (k, u) = timings(
        &app,
        "resend",
        |e, _| {
            (
                "/api/auth/resend".into(),
                json!({"email": e, "type": "signup"}),
            )
        },
        "waiting@example.com",
        &unknown,
    )
    .await;
    assert_alike("resend", k, u);
    let (k, u) = timings(
        &app,
        "recover",
        |e, _| ("/api/auth/recover".into(), json!({"email": e})),
        "known@example.com",
        &unknown,
    )
    .await;
    assert_alike("recover", k, u);
}

both!(
    async fn timing_does_not_tell_known_from_unknown_emails(backend: Backend) {
        bounded(240, "timing comparison", timing_run(backend)).await;
    }
);

#[allow(dead_code)]
const _: Duration = Duration::ZERO;
