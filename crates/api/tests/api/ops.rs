use reqwest::StatusCode;

use crate::both;

both!(
    async fn health_and_readiness_answer(app) {
        let (status, v) = body(app.client.get(app.url("/healthz")).send().await.unwrap()).await;
        assert_eq!((status, v["status"].as_str()), (StatusCode::OK, Some("ok")));
        let (status, v) = body(app.client.get(app.url("/readyz")).send().await.unwrap()).await;
        assert_eq!((status, v["status"].as_str()), (StatusCode::OK, Some("ready")));
    }
);

both!(
    async fn the_jwks_publishes_the_key_that_signs_access_tokens(app) {
        let s = crate::helpers::signed_in_account(&app, "ana@example.com", "sales-pro-2026").await;
        let (status, jwks) = body(app.client.get(app.url("/.well-known/jwks.json")).send().await.unwrap()).await;
        assert_eq!(status, StatusCode::OK);
        let key = &jwks["keys"][0];
        assert_eq!((key["kty"].as_str(), key["crv"].as_str(), key["alg"].as_str()), (Some("OKP"), Some("Ed25519"), Some("EdDSA")));
        let token = s["access_token"].as_str().unwrap();
        let header = jsonwebtoken_header(token);
        assert_eq!(header["kid"], key["kid"]);
        assert_eq!(header["alg"], "EdDSA");
    }
);

fn jsonwebtoken_header(token: &str) -> serde_json::Value {
    use base64::Engine;
    let head = token.split('.').next().unwrap();
    serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(head)
            .unwrap(),
    )
    .unwrap()
}

both!(
    async fn the_dev_mail_page_lists_the_outbox(app) {
        app.signup("ana@example.com", "sales-pro-2026").await;
        let (status, v) = body(app.client.get(app.url("/dev/mail.json?to=ANA@example.com")).send().await.unwrap()).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(v["mails"][0]["subject"], "Confirm your Closewise account");
        assert!(v["mails"][0]["link"].as_str().unwrap().starts_with("http://127.0.0.1:8080/verify?token="));
        let html = app.client.get(app.url("/dev/mail")).send().await.unwrap().text().await.unwrap();
        assert!(html.contains("ana@example.com"));
    }
);

both!(
    async fn production_has_no_dev_mail_page(app) with |s| { s.env = closewise_api::config::AppEnv::Production; } {
        let res = app.client.get(app.url("/dev/mail.json")).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND);
    }
);

#[test]
fn the_committed_openapi_document_matches_the_code() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/openapi.json");
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    let generated = closewise_api::openapi::json();
    if committed != generated {
        if std::env::var("UPDATE_OPENAPI").is_ok() {
            std::fs::write(path, &generated).unwrap();
        } else {
            panic!("docs/openapi.json is out of date: run `UPDATE_OPENAPI=1 cargo test -p closewise-api --test api openapi` (or `just openapi`) and commit it");
        }
    }
}

both!(
    async fn the_dev_mailbox_answers_only_clients_on_this_machine(app) {
        use axum::extract::ConnectInfo;
        use tower::ServiceExt;
        app.signup("mia@example.com", "sales-pro-2026").await;
        let router = closewise_api::app(app.state.clone());
        for (peer, path, expected) in [
            ("127.0.0.1:5000", "/dev/mail.json", StatusCode::OK),
            ("[::1]:5000", "/dev/mail", StatusCode::OK),
            ("192.0.2.7:5000", "/dev/mail.json", StatusCode::NOT_FOUND),
            ("[2001:db8::7]:5000", "/dev/mail", StatusCode::NOT_FOUND),
        ] {
            let mut req = axum::http::Request::get(path)
                // A forwarding header never makes a remote client local.
                .header("x-forwarded-for", "127.0.0.1")
                .header("host", "localhost:8080")
                .body(axum::body::Body::empty())
                .unwrap();
            req.extensions_mut()
                .insert(ConnectInfo(peer.parse::<std::net::SocketAddr>().unwrap()));
            let res = router.clone().oneshot(req).await.unwrap();
            assert_eq!(res.status().as_u16(), expected.as_u16(), "{peer} {path}");
        }
    }
);

// DNS rebinding: a page of another site whose DNS name is rebound to 127.0.0.1 (or a tunnel
// to this machine) reaches the server from loopback, but under its own name in `Host`.
both!(
    async fn the_dev_mailbox_answers_only_under_a_loopback_host_name(app) {
        app.signup("lou@example.com", "sales-pro-2026").await;
        for (host, ours) in [
            ("localhost", true),
            ("localhost:8080", true),
            ("LocalHost:5173", true),
            ("127.0.0.1", true),
            ("127.0.0.1:8080", true),
            ("127.32.7.55:41000", true),
            ("[::1]", true),
            ("[::1]:8080", true),
            ("rebind.evil.example", false),
            ("rebind.evil.example:8080", false),
            ("localhost.evil.example", false),
            ("127.0.0.1.nip.io:8080", false),
            ("abc123.ngrok-free.app", false),
            ("192.168.1.20:8080", false),
            ("127.1:8080", false),
            ("[::1].evil.example", false),
            ("localhost:8080.evil.example", false),
        ] {
            for path in ["/dev/mail", "/dev/mail.json"] {
                let res = app.client.get(app.url(path)).header("host", host).send().await.unwrap();
                let expected = if ours { StatusCode::OK } else { StatusCode::NOT_FOUND };
                assert_eq!(res.status(), expected, "{host} {path}");
                if !ours {
                    let text = res.text().await.unwrap();
                    assert!(!text.contains("lou@example.com"), "{host} {path}: {text}");
                }
            }
        }
    }
);
