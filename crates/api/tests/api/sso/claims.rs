//! A conformant provider (oidc-provider's default configuration): the ID token carries only `sub`
//! and the address comes from UserInfo; and the claim that carries the address, as the owner
//! chooses it (`email`, `preferred_username` or `upn`, as Microsoft Entra ID sends them).

use reqwest::{Method, StatusCode};
use serde_json::json;

use super::idp::{Browser, Idp, CLIENT_ID, CLIENT_SECRET};
use super::{owner_with_domain, save, start, DOMAIN};
use crate::both;
use crate::helpers::*;
use crate::team::call;

both!(
    async fn a_conformant_provider_serves_the_address_from_userinfo(app) {
        let owner = owner_with_domain(&app, 3).await;
        let ana = format!("ana@{DOMAIN}");
        let idp = Idp::start(&app, &[(&ana, true)]).await;
        let body = json!({ "issuer": idp.issuer, "client_id": CLIENT_ID, "client_secret": CLIENT_SECRET });
        let (s, v) = save(&app, &owner, body).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["email_claim"], "email", "the default claim is shown: {v}");
        let browser = Browser::new();
        assert_eq!(browser.follow(&app, &start(&app, &ana, "/team")).await, "/team");
        let (s, session) = browser.session(&app).await;
        assert_eq!((s, session["user"]["email"].as_str()), (StatusCode::OK, Some(ana.as_str())), "{session}");
    }
);

both!(
    async fn the_owner_chooses_the_claim_that_carries_the_address(app) {
        let owner = owner_with_domain(&app, 3).await;
        let ana = format!("ana@{DOMAIN}");
        // As Entra ID without the optional `email` claim: the address is the user principal name.
        let users = json!({ ana.clone(): { "claims": {
            "email": null, "email_verified": null, "preferred_username": "ana", "upn": ana } } });
        let idp = Idp::start_with(&app, users).await;
        let body = |claim: serde_json::Value| json!({ "issuer": idp.issuer, "client_id": CLIENT_ID,
            "client_secret": CLIENT_SECRET, "email_claim": claim });
        for (bad, code) in [(json!("mail"), "invalid_email_claim"), (json!(""), "invalid_email_claim"), (json!(3), "invalid_json")] {
            let (s, v) = save(&app, &owner, body(bad.clone())).await;
            assert_eq!((s, error_code(&v)), (StatusCode::BAD_REQUEST, code), "{bad}: {v}");
        }
        let (s, v) = save(&app, &owner, body(json!("email"))).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let landed = Browser::new().follow(&app, &start(&app, &ana, "/team")).await;
        assert_eq!(landed, "/signin?sso=1&sso_error=email_claim_missing", "no `email` claim");
        let (s, v) = save(&app, &owner, body(json!("preferred_username"))).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let landed = Browser::new().follow(&app, &start(&app, &ana, "/team")).await;
        assert_eq!(landed, "/signin?sso=1&sso_error=email_claim_missing", "`ana` is no address");

        let (s, v) = save(&app, &owner, body(json!("upn"))).await;
        assert_eq!((s, v["email_claim"].as_str()), (StatusCode::OK, Some("upn")), "{v}");
        let (_, shown) = call(&app, Method::GET, "/api/team/sso", Some(&owner.token), None).await;
        assert_eq!(shown["email_claim"], "upn", "{shown}");
        let browser = Browser::new();
        assert_eq!(browser.follow(&app, &start(&app, &ana, "/team")).await, "/team");
        let (s, session) = browser.session(&app).await;
        assert_eq!((s, session["user"]["email"].as_str()), (StatusCode::OK, Some(ana.as_str())), "{session}");
    }
);
