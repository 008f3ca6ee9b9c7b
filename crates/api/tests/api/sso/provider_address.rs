//! The issuer is fetched by the server, so it must not be a way to probe what the server can
//! reach: in production only public https addresses (a name's addresses checked once resolved),
//! and in every environment the provider's answer never comes back in the error, which says only
//! which step failed.

use closewise_api::config::AppEnv;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::*;

const READ_FAILED: &str = "Could not read the provider's discovery document. Check the issuer URL and that the provider is reachable.";

both!(
    async fn production_refuses_an_issuer_at_a_loopback_link_local_or_private_address(app) with |s| {
        s.env = AppEnv::Production;
    } {
        let owner = owner_with_domain(&app, 3).await;
        let not_https = json!({ "issuer": "http://127.0.0.1:9", "client_id": "c", "client_secret": "s" });
        let (s, v) = save(&app, &owner, not_https).await;
        assert_eq!((s, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_issuer"), "{v}");
        for issuer in [
            "https://127.0.0.1:9",
            // A name: refused once resolved (to 127.0.0.1 or ::1).
            "https://localhost:9",
            "https://[::1]:9",
            "https://10.0.0.7",
            "https://169.254.169.254",
            "https://[fd00::1]",
            "https://[::ffff:192.168.1.1]",
        ] {
            let (s, v) = save(&app, &owner, json!({ "issuer": issuer, "client_id": "c", "client_secret": "s" })).await;
            assert_eq!((s, error_code(&v)), (StatusCode::UNPROCESSABLE_ENTITY, "issuer_not_public"), "{issuer}: {v}");
            assert!(error_message(&v).contains("must be at a public https address"), "{v}");
        }
        let (_, shown) = call(&app, Method::GET, "/api/team/sso", Some(&owner.token), None).await;
        assert_eq!(shown["configured"], false, "nothing saved: {shown}");
    }
);

both!(
    async fn the_providers_answer_never_comes_back_in_the_error(app) {
        let owner = owner_with_domain(&app, 3).await;
        let provider = MockServer::start().await;
        Mock::given(method("GET"))
            .and(path("/missing/.well-known/openid-configuration"))
            .respond_with(ResponseTemplate::new(404).set_body_string("internal-note: db at 10.1.2.3"))
            .mount(&provider)
            .await;
        Mock::given(method("GET"))
            .and(path("/other/.well-known/openid-configuration"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({
                "issuer": "internal-secret-value", "authorization_endpoint": "x", "token_endpoint": "x", "jwks_uri": "x" })))
            .mount(&provider)
            .await;
        Mock::given(method("GET"))
            .and(path("/doc/.well-known/openid-configuration"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "internal_field": "secret-value-42" })))
            .mount(&provider)
            .await;
        let refused = json!({ "issuer": "http://127.0.0.1:9", "client_id": "c", "client_secret": "s" });
        let (s, v) = save(&app, &owner, refused).await;
        assert_eq!((s, error_code(&v), error_message(&v)), (StatusCode::UNPROCESSABLE_ENTITY, "sso_discovery_failed", READ_FAILED), "{v}");
        for (issuer, leak) in [("missing", "internal-note"), ("doc", "secret-value-42")] {
            let issuer = format!("{}/{issuer}", provider.uri());
            let (s, v) = save(&app, &owner, json!({ "issuer": issuer, "client_id": "c", "client_secret": "s" })).await;
            assert_eq!((s, error_code(&v), error_message(&v)), (StatusCode::UNPROCESSABLE_ENTITY, "sso_discovery_failed", READ_FAILED), "{v}");
            assert!(!v.to_string().contains(leak) && !v.to_string().contains("404"), "{v}");
        }
        let issuer = format!("{}/other", provider.uri());
        let (s, v) = save(&app, &owner, json!({ "issuer": issuer, "client_id": "c", "client_secret": "s" })).await;
        assert_eq!((s, error_code(&v)), (StatusCode::UNPROCESSABLE_ENTITY, "sso_discovery_failed"), "{v}");
        assert!(error_message(&v).contains("names another issuer"), "{v}");
        assert!(!v.to_string().contains("internal-secret-value"), "the provider's text: {v}");
    }
);
