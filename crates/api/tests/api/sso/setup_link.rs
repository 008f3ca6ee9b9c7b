//! The setup link for IT, over HTTP on both databases: the owner makes, lists and revokes links;
//! IT, with the link only, saves a SAML draft and tests it with a real sign-in through the SAML
//! IdP (`idp::SamlIdp`) — signed with another key's certificate, the test fails and nothing is
//! saved; signed right, the connection is saved and nobody is signed in or made — then makes a
//! SCIM token and finishes, which mails the owner. An OpenID draft is tested the same way against
//! oidc-provider (`idp::Idp`): with a wrong client secret the test fails and nothing is saved.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use super::idp::{Browser, Idp, SamlIdp, CLIENT_ID, CLIENT_SECRET};
use super::{owner_with_domain, DOMAIN};
use crate::both;
use crate::helpers::*;
use crate::team::{call, user, User};

async fn team_id(app: &TestApp, owner: &User) -> uuid::Uuid {
    let m = app.state.store.membership_of(owner.id).await.unwrap();
    m.unwrap().0
}

/// A link for `steps` made by `owner`: its id and token.
pub async fn make_link(app: &TestApp, owner: &User, steps: Value) -> (String, String) {
    let body = json!({ "steps": steps });
    let (s, v) = call(
        app,
        Method::POST,
        "/api/team/setup-links",
        Some(&owner.token),
        Some(body),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let url = v["url"].as_str().unwrap();
    (
        v["id"].as_str().unwrap().to_string(),
        url.rsplit('/').next().unwrap().to_string(),
    )
}

/// A call at the link, with no account.
pub async fn at_link(
    app: &TestApp,
    method: Method,
    token: &str,
    rest: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    call(
        app,
        method,
        &format!("/api/setup/{token}{rest}"),
        None,
        body,
    )
    .await
}

/// Starts the test sign-in at the link for `email` in `browser`: the provider's URL it is sent to.
async fn start_test(app: &TestApp, browser: &Browser, token: &str, email: &str) -> String {
    let res = browser
        .client
        .post(app.url(&format!("/api/setup/{token}/sso/test")))
        .json(&json!({ "email": email }))
        .send()
        .await
        .unwrap();
    let (s, v) = body(res).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v["authorization_url"].as_str().unwrap().to_string()
}

/// The test sign-in at the link for `email`, in `browser`, through the SAML IdP: the page of ours
/// it lands on.
async fn test_sign_in(app: &TestApp, browser: &Browser, token: &str, email: &str) -> String {
    let to_idp = start_test(app, browser, token, email).await;
    let (acs, response, relay) = browser.idp_form(&to_idp).await;
    browser
        .post_acs(app, &acs, &response, relay.as_deref())
        .await
}

/// The test sign-in at the link for `email` through the OpenID provider: the page of ours it lands on.
async fn oidc_test_sign_in(app: &TestApp, browser: &Browser, token: &str, email: &str) -> String {
    let to_idp = start_test(app, browser, token, email).await;
    browser.follow(app, &to_idp).await
}

both!(
    async fn the_owner_makes_lists_and_revokes_setup_links(app) {
        let owner = owner_with_domain(&app, 3).await;
        let (s, v) = call(&app, Method::POST, "/api/team/setup-links", Some(&owner.token), Some(json!({ "steps": ["sso", "sso"] }))).await;
        assert_eq!((s, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_setup_steps"), "{v}");
        let body = json!({ "steps": ["scim", "domain", "sso"] });
        let (s, made) = call(&app, Method::POST, "/api/team/setup-links", Some(&owner.token), Some(body)).await;
        assert_eq!(s, StatusCode::CREATED, "{made}");
        assert_eq!(made["steps"], json!(["domain", "sso", "scim"]));
        assert!(made["url"].as_str().unwrap().starts_with("http://127.0.0.1:8080/setup/"), "{made}");
        let token = made["url"].as_str().unwrap().rsplit('/').next().unwrap().to_string();

        let (s, list) = call(&app, Method::GET, "/api/team/setup-links", Some(&owner.token), None).await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(list["links"][0]["state"], "open", "{list}");
        assert_eq!(list["links"][0]["created_by"], format!("owner@{DOMAIN}"));
        assert_eq!(list["links"][0]["done"], json!([]));
        assert!(!list.to_string().contains(&token), "never the token: {list}");

        let member = user(&app, &format!("bo@{DOMAIN}")).await;
        let (s, v) = call(&app, Method::GET, "/api/team/setup-links", Some(&member.token), None).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "not in a team: {v}");

        // The link's token is no session.
        let (s, _) = call(&app, Method::GET, "/api/team", Some(&token), None).await;
        assert_eq!(s, StatusCode::UNAUTHORIZED);
        let (s, _) = call(&app, Method::GET, "/api/team/setup-links", Some(&token), None).await;
        assert_eq!(s, StatusCode::UNAUTHORIZED);

        let id = made["id"].as_str().unwrap();
        let (s, _) = call(&app, Method::DELETE, &format!("/api/team/setup-links/{}", uuid::Uuid::now_v7()), Some(&owner.token), None).await;
        assert_eq!(s, StatusCode::NOT_FOUND);
        let (s, v) = call(&app, Method::DELETE, "/api/team/setup-links/not-a-uuid", Some(&owner.token), None).await;
        assert_eq!((s, error_code(&v)), (StatusCode::NOT_FOUND, "setup_link_not_found"));
        for _ in 0..2 {
            let (s, _) = call(&app, Method::DELETE, &format!("/api/team/setup-links/{id}"), Some(&owner.token), None).await;
            assert_eq!(s, StatusCode::NO_CONTENT);
        }
        let (_, list) = call(&app, Method::GET, "/api/team/setup-links", Some(&owner.token), None).await;
        assert_eq!(list["links"][0]["state"], "revoked", "{list}");
    }
);

both!(
    async fn a_setup_links_sso_is_saved_only_after_a_real_test_sign_in_passes(app) {
        let owner = owner_with_domain(&app, 3).await;
        let team = team_id(&app, &owner).await;
        let ana = format!("ana@{DOMAIN}");
        let idp = SamlIdp::start(&app, team, json!({ ana.clone(): {} })).await;
        let (link_id, token) = make_link(&app, &owner, json!(["sso", "scim"])).await;

        let (s, page) = at_link(&app, Method::GET, &token, "", None).await;
        assert_eq!(s, StatusCode::OK, "{page}");
        assert_eq!((page["team_name"].as_str(), page["steps"].clone()), (Some("Acme Sales"), json!(["sso", "scim"])));
        assert_eq!(page["sso"]["acs_url"], format!("http://127.0.0.1:8080/api/auth/saml/{team}/acs"));
        assert_eq!(page["sso"]["metadata_url"], format!("http://127.0.0.1:8080/api/auth/saml/{team}/metadata"));
        assert!(page["sso"]["connection"].is_null() && page["sso"]["draft"].is_null(), "{page}");
        assert_eq!(page["domains"][0]["domain"], DOMAIN);

        let (s, v) = at_link(&app, Method::POST, &token, "/sso/test", Some(json!({ "email": ana }))).await;
        assert_eq!((s, error_code(&v)), (StatusCode::CONFLICT, "setup_no_draft"));
        let (s, v) = at_link(&app, Method::POST, &token, "/domains", Some(json!({ "domain": "other.example" }))).await;
        assert_eq!((s, error_code(&v)), (StatusCode::FORBIDDEN, "setup_step_not_allowed"));
        let with_required = json!({ "protocol": "saml", "metadata_url": idp.metadata_url(None), "required": true });
        let (s, v) = at_link(&app, Method::PUT, &token, "/sso", Some(with_required)).await;
        assert_eq!((s, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_json"), "Require SSO stays the owner's: {v}");

        // A draft whose certificate is another key's: the test fails, nothing is saved.
        let draft = json!({ "protocol": "saml", "metadata_url": idp.metadata_url(Some("other")) });
        let (s, page) = at_link(&app, Method::PUT, &token, "/sso", Some(draft)).await;
        assert_eq!(s, StatusCode::OK, "{page}");
        assert_eq!(page["sso"]["draft"]["protocol"], "saml", "{page}");
        assert_eq!(page["sso"]["draft"]["sso_url"], format!("{}/sso", idp.base));
        let (_, sso) = call(&app, Method::GET, "/api/team/sso", Some(&owner.token), None).await;
        assert_eq!(sso["configured"], false, "a draft is not the connection: {sso}");
        let (s, v) = at_link(&app, Method::POST, &token, "/sso/test", Some(json!({ "email": "ana@other.example" }))).await;
        assert_eq!((s, error_code(&v)), (StatusCode::BAD_REQUEST, "domain_not_verified"));

        let browser = Browser::new();
        let landed = test_sign_in(&app, &browser, &token, &ana).await;
        assert_eq!(landed, "/setup?sso_test=failed&sso_error=invalid_saml_response");
        let (_, sso) = call(&app, Method::GET, "/api/team/sso", Some(&owner.token), None).await;
        assert_eq!(sso["configured"], false, "a failed test saves nothing: {sso}");
        let (_, page) = at_link(&app, Method::GET, &token, "", None).await;
        assert_eq!(page["sso"]["test"]["result"], "failed", "{page}");
        assert_eq!(page["sso"]["test"]["error"], "invalid_saml_response");
        assert_eq!(page["done"], json!([]));

        // The right certificate: the test passes, the connection is saved, nobody signs in.
        let draft = json!({ "protocol": "saml", "metadata_url": idp.metadata_url(None) });
        let (s, page) = at_link(&app, Method::PUT, &token, "/sso", Some(draft)).await;
        assert_eq!((s, page["sso"]["test"].is_null()), (StatusCode::OK, true), "{page}");
        let browser = Browser::new();
        assert_eq!(test_sign_in(&app, &browser, &token, &ana).await, "/setup?sso_test=passed");
        let (_, sso) = call(&app, Method::GET, "/api/team/sso", Some(&owner.token), None).await;
        assert_eq!((sso["configured"].as_bool(), sso["protocol"].as_str(), sso["required"].as_bool()), (Some(true), Some("saml"), Some(false)), "{sso}");
        assert!(app.state.store.user_by_email(&ana).await.unwrap().is_none(), "nobody is made");
        let (s, _) = browser.session(&app).await;
        assert_ne!(s, StatusCode::OK, "nobody is signed in");
        let (_, page) = at_link(&app, Method::GET, &token, "", None).await;
        assert_eq!((page["sso"]["test"]["result"].as_str(), page["sso"]["test"]["email"].as_str()), (Some("passed"), Some(ana.as_str())), "{page}");
        assert_eq!(page["sso"]["connection"]["protocol"], "saml");
        assert_eq!(page["done"], json!(["sso"]));
        let saves: Vec<_> = app.state.store.audit_log(50).await.unwrap().into_iter().filter(|a| a.action == "team.sso.save").collect();
        assert_eq!(saves.len(), 1, "one save, by the passed test");
        assert_eq!(saves[0].actor, format!("setup link {link_id}"));

        // A SCIM token, shown once; then finish: the owner is mailed, the link is gone.
        let (s, made) = at_link(&app, Method::POST, &token, "/scim-tokens", Some(json!({ "name": "Okta" }))).await;
        assert_eq!(s, StatusCode::CREATED, "{made}");
        assert!(made["token"].as_str().unwrap().starts_with("cws_scim_"), "{made}");
        assert_eq!(made["base_url"], "http://127.0.0.1:8080/scim/v2");
        let (_, page) = at_link(&app, Method::GET, &token, "", None).await;
        assert_eq!(page["scim"]["tokens"][0]["name"], "Okta");
        assert!(!page.to_string().contains(made["token"].as_str().unwrap()));
        let (s, v) = at_link(&app, Method::POST, &token, "/finish", None).await;
        assert_eq!((s, v["done"].clone()), (StatusCode::OK, json!(["sso", "scim"])), "{v}");
        let mail = app.state.store.list_mail(Some(&format!("owner@{DOMAIN}")), closewise_core::store::mail::MailFilter::All, 20).await.unwrap();
        let finished: Vec<_> = mail.iter().filter(|m| m.kind == "setup_link_finished").collect();
        assert_eq!(finished.len(), 1);
        assert_eq!(finished[0].subject, "IT finished setting up Acme Sales");
        let (s, v) = at_link(&app, Method::GET, &token, "", None).await;
        assert_eq!((s, error_code(&v), v["reason"].as_str()), (StatusCode::GONE, "setup_link_gone", Some("finished")));
        let (_, list) = call(&app, Method::GET, "/api/team/setup-links", Some(&owner.token), None).await;
        assert_eq!((list["links"][0]["state"].as_str(), list["links"][0]["done"].clone()), (Some("finished"), json!(["sso", "scim"])));
    }
);

both!(
    async fn a_setup_links_openid_draft_is_saved_only_after_a_real_test_sign_in_passes(app) {
        let owner = owner_with_domain(&app, 3).await;
        let ana = format!("ana@{DOMAIN}");
        let idp = Idp::start(&app, &[(&ana, true)]).await;
        let (link_id, token) = make_link(&app, &owner, json!(["sso"])).await;

        // IT types the secret wrong: the draft is kept, its test sign-in fails, nothing is saved.
        let draft = json!({ "protocol": "oidc", "issuer": idp.issuer, "client_id": CLIENT_ID, "client_secret": "not-the-secret-0123456789" });
        let (s, page) = at_link(&app, Method::PUT, &token, "/sso", Some(draft)).await;
        assert_eq!(s, StatusCode::OK, "{page}");
        assert_eq!((page["sso"]["draft"]["protocol"].as_str(), page["sso"]["draft"]["issuer"].as_str()), (Some("oidc"), Some(idp.issuer.as_str())), "{page}");
        assert!(!page.to_string().contains("not-the-secret"), "the secret is never shown: {page}");
        let landed = oidc_test_sign_in(&app, &Browser::new(), &token, &ana).await;
        // The provider refuses the code's exchange: no ID token comes back.
        assert_eq!(landed, "/setup?sso_test=failed&sso_error=invalid_id_token");
        let (_, sso) = call(&app, Method::GET, "/api/team/sso", Some(&owner.token), None).await;
        assert_eq!(sso["configured"], false, "a failed test saves nothing: {sso}");
        let (_, page) = at_link(&app, Method::GET, &token, "", None).await;
        assert_eq!((page["sso"]["test"]["result"].as_str(), page["sso"]["test"]["error"].as_str()), (Some("failed"), Some("invalid_id_token")), "{page}");
        assert_eq!(page["done"], json!([]));

        // The right secret: the test passes, the connection is saved, nobody is made or signed in.
        let draft = json!({ "protocol": "oidc", "issuer": idp.issuer, "client_id": CLIENT_ID, "client_secret": CLIENT_SECRET });
        let (s, page) = at_link(&app, Method::PUT, &token, "/sso", Some(draft)).await;
        assert_eq!((s, page["sso"]["test"].is_null()), (StatusCode::OK, true), "{page}");
        let browser = Browser::new();
        assert_eq!(oidc_test_sign_in(&app, &browser, &token, &ana).await, "/setup?sso_test=passed");
        let (_, sso) = call(&app, Method::GET, "/api/team/sso", Some(&owner.token), None).await;
        assert_eq!((sso["configured"].as_bool(), sso["issuer"].as_str(), sso["required"].as_bool()), (Some(true), Some(idp.issuer.as_str()), Some(false)), "{sso}");
        assert!(!sso.to_string().contains(CLIENT_SECRET));
        assert!(app.state.store.user_by_email(&ana).await.unwrap().is_none(), "nobody is made");
        let (s, _) = browser.session(&app).await;
        assert_ne!(s, StatusCode::OK, "nobody is signed in");
        let (_, page) = at_link(&app, Method::GET, &token, "", None).await;
        assert_eq!((page["sso"]["test"]["result"].as_str(), page["done"].clone()), (Some("passed"), json!(["sso"])), "{page}");
        let saves: Vec<_> = app.state.store.audit_log(50).await.unwrap().into_iter().filter(|a| a.action == "team.sso.save").collect();
        assert_eq!(saves.len(), 1, "one save, by the passed test");
        assert_eq!(saves[0].actor, format!("setup link {link_id}"));

        // The saved connection signs a member in, as any team's OpenID connection does.
        assert_eq!(Browser::new().follow(&app, &app.url(&format!("/api/auth/sso/start?email={ana}&next=/team"))).await, "/team");
    }
);
