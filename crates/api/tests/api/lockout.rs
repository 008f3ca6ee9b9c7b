//! Guessing from one address cannot lock the owner out. Failed sign-ins are
//! budgeted per (account, client address) with a hard limit, and per account with a growing delay
//! that is never a lock. The clients bind distinct loopback source addresses, so the server sees
//! different peers without any forwarding header.

use std::net::{IpAddr, Ipv4Addr};

use reqwest::{Client, Response, StatusCode};
use serde_json::json;

use crate::both;
use closewise_testkit::app::TestApp;

const PASSWORD: &str = "sales-pro-2026";

fn client_from(last: u8) -> Client {
    Client::builder()
        .local_address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, last)))
        .build()
        .unwrap()
}

async fn signin_from(app: &TestApp, client: &Client, email: &str, password: &str) -> Response {
    client
        .post(app.url("/api/auth/token?grant_type=password"))
        .json(&json!({ "email": email, "password": password }))
        .send()
        .await
        .unwrap()
}

fn retry_after(res: &Response) -> i64 {
    res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

both!(
    async fn guessing_from_one_address_does_not_lock_the_owner_out_from_another(app) with |s| {
        s.limits.failed_signins_per_account_ip = 3;
        s.limits.failed_signins_per_account = 3;
    } {
        app.signed_in_user("ana@example.com", PASSWORD).await;
        let (attacker, owner) = (client_from(2), client_from(3));
        for i in 0..3 {
            let (status, v) = body(signin_from(&app, &attacker, "ana@example.com", "wrong-pass").await).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "try {i}: {v}");
            assert_eq!(error_message(&v), "Invalid login credentials");
        }
        // The attacker's address has spent its budget for this account, whatever it sends now.
        for password in ["wrong-pass", PASSWORD] {
            let res = signin_from(&app, &attacker, "ana@example.com", password).await;
            assert!(retry_after(&res) >= 1);
            let (status, v) = body(res).await;
            assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{v}");
            assert_eq!(error_code(&v), "rate_limited");
        }
        // The owner, elsewhere, waits out the account's short delay at most, then signs in.
        let res = signin_from(&app, &owner, "ana@example.com", PASSWORD).await;
        let res = if res.status() == StatusCode::TOO_MANY_REQUESTS {
            let wait = retry_after(&res);
            assert!(wait <= 2, "a short delay, not a lock: {wait}");
            let (_, v) = body(res).await;
            assert_eq!(error_code(&v), "too_many_attempts");
            app.advance(time::Duration::seconds(wait));
            signin_from(&app, &owner, "ana@example.com", PASSWORD).await
        } else {
            res
        };
        let (status, v) = body(res).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        // Still refused from the attacker's address until its window ends.
        let res = signin_from(&app, &attacker, "ana@example.com", PASSWORD).await;
        assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
        app.advance(time::Duration::hours(1));
        let res = signin_from(&app, &attacker, "ana@example.com", PASSWORD).await;
        assert_eq!(res.status(), StatusCode::OK);
    }
);

both!(
    async fn the_accounts_delay_doubles_with_each_failure_up_to_a_cap_and_never_locks(app) with |s| {
        s.limits.failed_signins_per_account_ip = 1_000;
        s.limits.failed_signins_per_account = 3;
        s.limits.signin_delay_max = std::time::Duration::from_secs(10);
    } {
        app.signed_in_user("bo@example.com", PASSWORD).await;
        // Guesses from many addresses: every address is fresh, so only the account's delay binds.
        let mut waits = Vec::new();
        for i in 0..9u8 {
            let guesser = client_from(10 + i);
            let res = signin_from(&app, &guesser, "bo@example.com", "wrong-pass").await;
            if res.status() == StatusCode::TOO_MANY_REQUESTS {
                let wait = retry_after(&res);
                let (_, v) = body(res).await;
                assert_eq!(error_code(&v), "too_many_attempts", "{v}");
                waits.push(wait);
                app.advance(time::Duration::seconds(wait));
                let res = signin_from(&app, &guesser, "bo@example.com", "wrong-pass").await;
                assert_eq!(res.status(), StatusCode::BAD_REQUEST, "after waiting, the guess is checked");
            } else {
                assert_eq!(res.status(), StatusCode::BAD_REQUEST);
            }
        }
        assert_eq!(waits, [1, 2, 4, 8, 10, 10], "free tries, then a doubling delay capped at 10 s");
        // Never a lock: the owner waits the capped delay at most and signs in.
        let owner = client_from(3);
        let res = signin_from(&app, &owner, "bo@example.com", PASSWORD).await;
        assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(retry_after(&res), 10);
        app.advance(time::Duration::seconds(10));
        let (status, v) = body(signin_from(&app, &owner, "bo@example.com", PASSWORD).await).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
);

both!(
    async fn concurrent_guesses_from_many_addresses_get_through_one_at_a_time(app) with |s| {
        s.limits.failed_signins_per_account_ip = 1_000;
        s.limits.failed_signins_per_account = 4;
    } {
        app.signed_in_user("cy@example.com", PASSWORD).await;
        let mut tasks = Vec::new();
        for i in 0..30u8 {
            let (client, url) = (client_from(40 + i), app.url("/api/auth/token?grant_type=password"));
            tasks.push(tokio::spawn(async move {
                client.post(url).json(&json!({ "email": "cy@example.com", "password": "wrong-pass" })).send().await.unwrap().status()
            }));
        }
        let mut checked = 0;
        for t in tasks {
            if t.await.unwrap() == StatusCode::BAD_REQUEST {
                checked += 1;
            }
        }
        // The budget is spent before the hash is checked, so racing guesses cannot overrun it.
        assert_eq!(checked, 4);
    }
);

// A flood of fresh keys used to push the oldest windows out of a full in-memory
// limiter, spent budgets included, and reopen guessing. On PostgreSQL the windows are rows with no
// cap: this checks the sweep that bounds them removes no live lockout either.
both!(
    async fn a_flood_of_junk_sign_ins_does_not_reopen_guessing_on_a_target(app) with |s| {
        s.limits.failed_signins_per_account_ip = 3;
        s.limits.token_per_ip = 100_000;
        s.limits.max_keys = 32;
        s.limits.sweep_interval = std::time::Duration::from_millis(10);
    } {
        app.signed_in_user("ana@example.com", PASSWORD).await;
        let attacker = client_from(2);
        for _ in 0..3 {
            let res = signin_from(&app, &attacker, "ana@example.com", "wrong-pass").await;
            assert_eq!(res.status(), StatusCode::BAD_REQUEST);
        }
        let res = signin_from(&app, &attacker, "ana@example.com", PASSWORD).await;
        assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
        for i in 0..200 {
            let res = signin_from(&app, &attacker, &format!("junk{i}@example.com"), "wrong-pass").await;
            assert!(matches!(res.status(), StatusCode::BAD_REQUEST | StatusCode::TOO_MANY_REQUESTS));
            if i % 50 == 0 {
                // Time passes (within the window) and the sweeps run meanwhile.
                app.advance(time::Duration::minutes(10));
                tokio::time::sleep(std::time::Duration::from_millis(30)).await;
            }
        }
        let stats = app.state.limiter.stats().await.unwrap();
        assert!(stats.keys <= stats.max_keys, "{stats:?}");
        let (status, v) = body(signin_from(&app, &attacker, "ana@example.com", PASSWORD).await).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "the target's lockout outlived the flood: {v}");
        assert_eq!(error_code(&v), "rate_limited");
        // Not a lock: the window ends as it would have.
        app.advance(time::Duration::minutes(21));
        let res = signin_from(&app, &attacker, "ana@example.com", PASSWORD).await;
        assert_eq!(res.status(), StatusCode::OK);
    }
);
