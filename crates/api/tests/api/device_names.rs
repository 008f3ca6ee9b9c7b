//! Device-code phishing. A device name or platform that hides or reorders its
//! own letters is refused wherever one enters (`invalid_device_name`), and the approval pages are
//! told where the request came from and whether that is the approver's network.

use std::net::IpAddr;

use reqwest::{Client, StatusCode};
use serde_json::{json, Value};

use super::desktop_signin::{authorize, authorize_query};
use crate::both;
use crate::helpers::*;

async fn web_token(app: &TestApp, email: &str) -> String {
    crate::helpers::signed_in_account(app, email, "sales-pro-2026").await["access_token"]
        .as_str()
        .unwrap()
        .to_string()
}

fn client_from(ip: &str) -> Client {
    Client::builder()
        .local_address(ip.parse::<IpAddr>().unwrap())
        .build()
        .unwrap()
}

/// A device request as `client` sends it, `forwarded_for` added when given.
async fn request_from(app: &TestApp, client: &Client, forwarded_for: Option<&str>) -> Value {
    let mut req = client.post(app.url("/api/auth/device")).json(
        &json!({ "client_id": "closewise-desktop", "device_name": "Bo's PC", "platform": "windows" }),
    );
    if let Some(f) = forwarded_for {
        req = req.header("x-forwarded-for", f);
    }
    let (status, v) = body(req.send().await.unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

async fn lookup_from(
    app: &TestApp,
    client: &Client,
    forwarded_for: Option<&str>,
    token: &str,
    code: &Value,
) -> Value {
    let mut req = client
        .post(app.url("/api/auth/device/lookup"))
        .bearer_auth(token)
        .json(&json!({ "user_code": code }));
    if let Some(f) = forwarded_for {
        req = req.header("x-forwarded-for", f);
    }
    let (status, v) = body(req.send().await.unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

const HIDDEN: &[&str] = &[
    "Your MacBook \u{202E}(TI)",
    "Your\u{200B}MacBook",
    "MacBook\u{2066}(IT)\u{2069}",
    "Ana\u{2028}IT",
    "\u{FEFF}PC",
];

both!(
    async fn a_device_request_whose_name_or_platform_hides_characters_is_invalid_device_name(app) with |s| { s.limits.device_per_ip = 100; } {
        for name in HIDDEN {
            let res = app.post("/api/auth/device", json!({ "client_id": "closewise-desktop", "device_name": name, "platform": "macos" })).await;
            let (status, v) = body(res).await;
            assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_device_name"), "{name:?}: {v}");
            assert!(error_message(&v).contains("invisible"), "{v}");
            let res = app.post("/api/auth/device", json!({ "client_id": "closewise-desktop", "device_name": "PC", "platform": format!("mac{name}") })).await;
            let (status, v) = body(res).await;
            assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_device_name"), "platform {name:?}: {v}");
        }
        // Emoji with a variation selector are a name like any other.
        let res = app.post("/api/auth/device", json!({ "client_id": "closewise-desktop", "device_name": "Ana's \u{2764}\u{FE0F} laptop", "platform": "macos" })).await;
        assert_eq!(res.status(), StatusCode::OK);
    }
);

both!(
    async fn an_authorization_request_whose_name_or_platform_hides_characters_is_invalid_device_name(app) {
        let token = web_token(&app, "ana@example.com").await;
        for name in HIDDEN {
            for field in ["device_name", "platform"] {
                let res = app.client.get(app.url("/api/auth/authorize")).query(&authorize_query(&[(field, name)])).send().await.unwrap();
                let (status, v) = body(res).await;
                assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_device_name"), "GET {field} {name:?}: {v}");
                let (status, v) = authorize(&app, &token, &[(field, name)], "allow").await;
                assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_device_name"), "POST {field} {name:?}: {v}");
                assert!(v.get("redirect_to").is_none());
            }
        }
    }
);

both!(
    async fn the_lookup_shows_the_requesting_address_and_whether_it_is_the_approvers_network(app) {
        let token = web_token(&app, "bo@example.com").await;
        // Without proxies the peer is the client: 127.0.0.2 and 127.0.0.3 share a /24.
        let d = request_from(&app, &client_from("127.0.0.2"), None).await;
        let v = lookup_from(&app, &client_from("127.0.0.3"), None, &token, &d["user_code"]).await;
        assert_eq!((v["requested_from"].as_str(), v["same_network"].as_bool()), (Some("127.0.0.2"), Some(true)), "{v}");
        assert_eq!(v["device_name"], "Bo's PC");
    }
);

both!(
    async fn a_request_from_another_network_is_flagged_on_the_lookup(app) with |s| {
        s.trusted_proxies = vec!["127.0.0.0/8".parse().unwrap()];
    } {
        let token = web_token(&app, "bo@example.com").await;
        let proxy = client_from("127.0.0.2");
        let d = request_from(&app, &proxy, Some("198.51.100.7")).await;
        let code = &d["user_code"];
        let at = |ip: &'static str| lookup_from(&app, &proxy, Some(ip), &token, code);
        let v = at("198.51.100.200").await;
        assert_eq!((v["requested_from"].as_str(), v["same_network"].as_bool()), (Some("198.51.100.7"), Some(true)), "{v}");
        let v = at("198.51.101.7").await;
        assert_eq!((v["requested_from"].as_str(), v["same_network"].as_bool()), (Some("198.51.100.7"), Some(false)), "{v}");
        assert_eq!(at("2001:db8::1").await["same_network"], false);

        let d = request_from(&app, &proxy, Some("2001:db8:1:2::1")).await;
        let code = &d["user_code"];
        let at = |ip: &'static str| lookup_from(&app, &proxy, Some(ip), &token, code);
        let v = at("2001:db8:1:2:ffff::9").await;
        assert_eq!((v["requested_from"].as_str(), v["same_network"].as_bool()), (Some("2001:db8:1:2::1"), Some(true)), "{v}");
        assert_eq!(at("2001:db8:1:3::1").await["same_network"], false);
    }
);

both!(
    async fn the_authorize_page_is_told_the_address_it_was_opened_from(app) {
        let res = client_from("127.0.0.5").get(app.url("/api/auth/authorize")).query(&authorize_query(&[])).send().await.unwrap();
        let (status, v) = body(res).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!((v["requested_from"].as_str(), v["device_name"].as_str()), (Some("127.0.0.5"), Some("Ana's MacBook")));
    }
);
