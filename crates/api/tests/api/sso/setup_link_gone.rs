//! A setup link that is gone answers 410 everywhere (its page with the shell, every endpoint
//! with the reason), an unknown one 404, on both databases.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use super::owner_with_domain;
use super::setup_link::{at_link, make_link};
use crate::both;
use crate::helpers::*;
use crate::team::call;

/// Every endpoint at a link, with a body that would otherwise be valid.
fn endpoints() -> Vec<(Method, &'static str, Option<Value>)> {
    let id = uuid::Uuid::now_v7();
    let verify: &'static str = Box::leak(format!("/domains/{id}/verify").into_boxed_str());
    vec![
        (Method::GET, "", None),
        (
            Method::POST,
            "/domains",
            Some(json!({ "domain": "acme.example" })),
        ),
        (Method::POST, verify, None),
        (
            Method::PUT,
            "/sso",
            Some(json!({ "protocol": "saml", "metadata_xml": "<x/>" })),
        ),
        (
            Method::POST,
            "/sso/test",
            Some(json!({ "email": "ana@acme.example" })),
        ),
        (
            Method::POST,
            "/scim-tokens",
            Some(json!({ "name": "Okta" })),
        ),
        (Method::POST, "/finish", None),
    ]
}

async fn page_status(app: &TestApp, token: &str) -> reqwest::Response {
    reqwest::get(app.url(&format!("/setup/{token}")))
        .await
        .unwrap()
}

both!(
    async fn a_gone_link_answers_410_everywhere_and_an_unknown_one_404(app) {
        let owner = owner_with_domain(&app, 3).await;
        let (id, token) = make_link(&app, &owner, json!(["domain", "sso", "scim"])).await;
        let res = page_status(&app, &token).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.headers()["cache-control"], "no-store");
        assert_eq!(res.headers()["referrer-policy"], "no-referrer");

        let (s, _) = call(&app, Method::DELETE, &format!("/api/team/setup-links/{id}"), Some(&owner.token), None).await;
        assert_eq!(s, StatusCode::NO_CONTENT);
        for (method, rest, body) in endpoints() {
            let (s, v) = at_link(&app, method.clone(), &token, rest, body).await;
            assert_eq!((s, error_code(&v), v["reason"].as_str()), (StatusCode::GONE, "setup_link_gone", Some("revoked")), "{method} {rest}: {v}");
            assert_eq!(v["error"]["message"], "This setup link has expired or was revoked. Ask the team owner for a new one.");
        }
        let res = page_status(&app, &token).await;
        assert_eq!(res.status(), StatusCode::GONE);
        assert_eq!(res.headers()["cache-control"], "no-store");

        for (method, rest, body) in endpoints() {
            let (s, v) = at_link(&app, method.clone(), "unknown-token", rest, body).await;
            assert_eq!((s, error_code(&v)), (StatusCode::NOT_FOUND, "setup_link_not_found"), "{method} {rest}: {v}");
        }
        assert_eq!(page_status(&app, "unknown-token").await.status(), StatusCode::NOT_FOUND);

        // Expired: 24 hours on.
        let (_, token) = make_link(&app, &owner, json!(["scim"])).await;
        app.state.clock.advance(time::Duration::hours(24));
        let (s, v) = at_link(&app, Method::GET, &token, "", None).await;
        assert_eq!((s, v["reason"].as_str()), (StatusCode::GONE, Some("expired")), "{v}");
        assert_eq!(page_status(&app, &token).await.status(), StatusCode::GONE);
    }
);
