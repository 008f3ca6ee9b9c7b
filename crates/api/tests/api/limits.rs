use reqwest::StatusCode;
use serde_json::json;

use crate::both;

both!(
    async fn mail_sending_endpoints_are_limited_per_ip(app) with |s| { s.limits.mail_per_ip = 3; } {
        for i in 0..3 {
            assert_eq!(app.signup(&format!("u{i}@example.com"), "sales-pro-2026").await.status(), StatusCode::OK);
        }
        let res = app.post("/api/auth/recover", json!({ "email": "u0@example.com" })).await;
        let retry: u64 = res.headers()["retry-after"].to_str().unwrap().parse().unwrap();
        assert!((1..=300).contains(&retry), "{retry}");
        let (status, v) = body(res).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(error_code(&v), "rate_limited");
        app.advance(time::Duration::minutes(5));
        assert_eq!(app.signup("u9@example.com", "sales-pro-2026").await.status(), StatusCode::OK);
    }
);

both!(
    async fn the_token_endpoint_is_limited_per_ip(app) with |s| { s.limits.token_per_ip = 2; } {
        app.signin("a@example.com", "whatever-1").await;
        app.signin("b@example.com", "whatever-1").await;
        assert_eq!(app.signin("c@example.com", "whatever-1").await.status(), StatusCode::TOO_MANY_REQUESTS);
    }
);

both!(
    async fn failed_signins_are_limited_per_account_and_address(app) with |s| { s.limits.failed_signins_per_account_ip = 3; } {
        app.signed_in_user("ana@example.com", "sales-pro-2026").await;
        for _ in 0..3 {
            assert_eq!(app.signin("ana@example.com", "wrong-pass").await.status(), StatusCode::BAD_REQUEST);
        }
        // Even the right password waits now, from this address: guessing cannot go on.
        let (status, v) = body(app.signin("ana@example.com", "sales-pro-2026").await).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{v}");
        // Other accounts are not affected.
        assert_eq!(app.signin("other@example.com", "wrong-pass").await.status(), StatusCode::BAD_REQUEST);
        app.advance(time::Duration::hours(1));
        assert_eq!(app.signin("ana@example.com", "sales-pro-2026").await.status(), StatusCode::OK);
    }
);

both!(
    async fn concurrent_wrong_passwords_get_no_more_tries_than_the_limit(app) with |s| { s.limits.failed_signins_per_account_ip = 5; } {
        app.signed_in_user("bo@example.com", "sales-pro-2026").await;
        let mut tasks = Vec::new();
        for _ in 0..20 {
            let (client, url) = (app.client.clone(), app.url("/api/auth/token?grant_type=password"));
            tasks.push(tokio::spawn(async move {
                client.post(url).json(&json!({ "email": "bo@example.com", "password": "wrong-pass" })).send().await.unwrap().status()
            }));
        }
        let mut checked = 0;
        for t in tasks {
            if t.await.unwrap() == StatusCode::BAD_REQUEST {
                checked += 1;
            }
        }
        assert_eq!(checked, 5);
    }
);

both!(
    async fn ended_windows_are_swept_on_a_timer(app) with |s| { s.limits.sweep_interval = std::time::Duration::from_millis(20); } {
        for i in 0..5 {
            app.signin(&format!("u{i}@example.com"), "whatever-1").await;
        }
        assert!(app.state.limiter.stats().await.unwrap().keys >= 5, "{:?}", app.state.limiter.stats().await.unwrap());
        app.advance(time::Duration::hours(2));
        let mut keys = usize::MAX;
        for _ in 0..100 {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            keys = app.state.limiter.stats().await.unwrap().keys;
            if keys == 0 {
                break;
            }
        }
        assert_eq!(keys, 0, "every window has ended");
    }
);
