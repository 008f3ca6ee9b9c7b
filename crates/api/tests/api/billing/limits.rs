//! Every endpoint that calls Stripe for a user (checkout and its confirmation,
//! personal and team; the billing portals) spends one budget per user, 20 per 10 minutes by
//! default, so one account cannot make the app hammer Stripe (and spend its API rate limit).

use super::*;
use crate::both;

const STRIPE_CALLS: [&str; 6] = [
    "/api/checkout",
    "/api/checkout/confirm",
    "/api/billing/portal",
    "/api/team/checkout",
    "/api/team/checkout/confirm",
    "/api/team/billing/portal",
];

fn body_for(path: &str) -> Value {
    match path {
        "/api/checkout" => checkout_body(),
        "/api/checkout/confirm" | "/api/team/checkout/confirm" => {
            json!({ "session_id": "cs_test_not_there" })
        }
        "/api/team/checkout" => json!({
            "seats": 2,
            "success_url": format!("{BASE}/team?checkout=success&session_id={{CHECKOUT_SESSION_ID}}"),
            "cancel_url": format!("{BASE}/team"),
        }),
        _ => json!({}),
    }
}

async fn call(b: &Billing, token: &str, path: &str) -> reqwest::Response {
    b.app.post_auth(path, token, body_for(path)).await
}

async fn assert_limited(b: &Billing, token: &str, path: &str) {
    let res = call(b, token, path).await;
    let retry: u64 = res
        .headers()
        .get("retry-after")
        .unwrap_or_else(|| panic!("{path}: no Retry-After"))
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=600).contains(&retry), "{path}: {retry}");
    let (status, v) = body(res).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{path}: {v}");
    assert_eq!(error_code(&v), "rate_limited", "{path}: {v}");
}

both!(
    async fn the_stripe_calls_of_one_user_are_limited_and_the_window_reopens(backend: Backend) {
        let b = spawn_billing(backend).await;
        let ana = b.user("ana@example.com").await;
        let bo = b.user("bo@example.com").await;
        for i in 0..20 {
            let path = STRIPE_CALLS[i % 3];
            let res = call(&b, &ana, path).await;
            assert_ne!(
                res.status(),
                StatusCode::TOO_MANY_REQUESTS,
                "call {i}: {path}"
            );
        }
        // One budget for all the personal ones; someone in no team is refused the team's before
        // any budget is looked at (the team's are counted in the owner's test below).
        for path in &STRIPE_CALLS[..3] {
            assert_limited(&b, &ana, path).await;
        }
        for path in &STRIPE_CALLS[3..] {
            let (status, v) = body(call(&b, &ana, path).await).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {v}");
            assert_eq!(error_code(&v), "team_not_found", "{path}: {v}");
        }
        // Another user's budget is their own.
        let (status, v) = body(call(&b, &bo, "/api/checkout").await).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        // The window ends: ana checks out again.
        b.app.advance(time::Duration::minutes(9));
        assert_limited(&b, &ana, "/api/checkout").await;
        b.app.advance(time::Duration::minutes(1));
        let (status, v) = body(call(&b, &ana, "/api/checkout").await).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
);

both!(
    async fn a_team_owner_cannot_call_stripe_without_limit_either(backend: Backend) {
        let b = spawn_billing(backend).await;
        let s = crate::helpers::signed_in_account(&b.app, "owner@example.com", PASSWORD).await;
        let owner = access(&s);
        let owner_id = s["user"]["id"].as_str().unwrap().parse().unwrap();
        b.app
            .state
            .teams
            .create(&closewise_core::actor::Actor::member(owner_id, ""), "Acme")
            .await
            .unwrap();
        for i in 0..20 {
            let path = STRIPE_CALLS[3 + i % 3];
            let res = call(&b, &owner, path).await;
            assert_ne!(
                res.status(),
                StatusCode::TOO_MANY_REQUESTS,
                "call {i}: {path}"
            );
        }
        for path in STRIPE_CALLS {
            assert_limited(&b, &owner, path).await;
        }
        b.app.advance(time::Duration::minutes(10));
        let (status, v) = body(call(&b, &owner, "/api/team/checkout").await).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
);
