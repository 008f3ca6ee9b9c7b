//! The client address behind proxies. Forwarding headers count only when the
//! peer is one of `TRUSTED_PROXIES`, and then the rightmost address that is not a trusted proxy is
//! the client (what the client writes to the left of it is its own invention). IPv6 clients are
//! keyed by their /64.

use reqwest::StatusCode;
use serde_json::json;

use crate::both;
use closewise_testkit::app::TestApp;

async fn signin_via(app: &TestApp, forwarded_for: &str) -> StatusCode {
    app.client
        .post(app.url("/api/auth/token?grant_type=password"))
        .header("x-forwarded-for", forwarded_for)
        .json(&json!({ "email": "a@example.com", "password": "whatever-1" }))
        .send()
        .await
        .unwrap()
        .status()
}

both!(
    async fn without_trusted_proxies_forwarding_headers_are_ignored(app) with |s| { s.limits.token_per_ip = 2; } {
        assert_eq!(signin_via(&app, "198.51.100.1").await, StatusCode::BAD_REQUEST);
        assert_eq!(signin_via(&app, "198.51.100.2").await, StatusCode::BAD_REQUEST);
        assert_eq!(signin_via(&app, "198.51.100.3").await, StatusCode::TOO_MANY_REQUESTS);
    }
);

both!(
    async fn behind_trusted_proxies_the_rightmost_untrusted_address_is_the_client(app) with |s| {
        s.limits.token_per_ip = 2;
        s.trusted_proxies = vec!["127.0.0.0/8".parse().unwrap(), "10.0.0.0/8".parse().unwrap()];
    } {
        // The client forges a new leftmost entry each time; our proxies append its real address.
        for i in 0..2 {
            let spoofed = format!("198.51.100.{i}, 203.0.113.7, 10.1.2.3");
            assert_eq!(signin_via(&app, &spoofed).await, StatusCode::BAD_REQUEST);
        }
        assert_eq!(signin_via(&app, "198.51.100.9, 203.0.113.7, 10.1.2.3").await, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(signin_via(&app, "203.0.113.7").await, StatusCode::TOO_MANY_REQUESTS);
        // Another client behind the same proxies has its own budget.
        assert_eq!(signin_via(&app, "198.51.100.9, 203.0.113.8").await, StatusCode::BAD_REQUEST);
    }
);

both!(
    async fn ipv6_clients_are_keyed_by_their_64(app) with |s| {
        s.limits.token_per_ip = 2;
        s.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
    } {
        assert_eq!(signin_via(&app, "2001:db8:1:2::1").await, StatusCode::BAD_REQUEST);
        assert_eq!(signin_via(&app, "2001:db8:1:2:aaaa::9").await, StatusCode::BAD_REQUEST);
        // A fresh address in the same /64 is the same client.
        assert_eq!(signin_via(&app, "2001:db8:1:2:ffff:ffff:ffff:ffff").await, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(signin_via(&app, "2001:db8:1:3::1").await, StatusCode::BAD_REQUEST);
    }
);
