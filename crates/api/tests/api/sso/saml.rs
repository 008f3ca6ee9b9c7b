//! SAML 2.0 single sign-on against a real IdP (samlify, `idp::SamlIdp`): the owner's connection
//! from the IdP's metadata, our SP metadata, the SP-initiated sign-in through the ACS to the
//! callback that makes the member; and each response refused with its reason: another key's
//! signature, an expired assertion, a replayed one, a wrapped or stripped signature, another
//! audience, an address outside the verified domains, an IdP-initiated one while they are off.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use super::idp::{Browser, SamlIdp};
use super::{member_emails, owner_with_domain, save, start, DOMAIN};
use crate::both;
use crate::helpers::*;
use crate::team::{call, User};

async fn team_id(app: &TestApp, owner: &User) -> uuid::Uuid {
    app.state
        .store
        .membership_of(owner.id)
        .await
        .unwrap()
        .unwrap()
        .0
}

async fn connect_saml(app: &TestApp, owner: &User, metadata_url: &str, extra: Value) -> Value {
    let mut body = json!({ "protocol": "saml", "metadata_url": metadata_url, "required": false });
    body.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    let (s, v) = save(app, owner, body).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v
}

fn refused(code: &str) -> String {
    format!("/signin?sso=1&sso_error={code}")
}

both!(
    async fn a_saml_sign_in_through_the_idp_makes_the_member_and_each_assertion_works_once(app) {
        let owner = owner_with_domain(&app, 3).await;
        let team = team_id(&app, &owner).await;
        let res = reqwest::get(app.url(&format!("/api/auth/saml/{team}/metadata"))).await.unwrap();
        assert_eq!(res.headers()["content-type"], "application/samlmetadata+xml");
        let metadata = res.text().await.unwrap();
        let entity = format!("http://127.0.0.1:8080/api/auth/saml/{team}/metadata");
        let acs = format!("http://127.0.0.1:8080/api/auth/saml/{team}/acs");
        assert!(metadata.contains(&format!(r#"entityID="{entity}""#)), "{metadata}");
        assert!(metadata.contains(&format!(r#"Location="{acs}""#)), "{metadata}");
        assert!(metadata.contains(r#"WantAssertionsSigned="true""#), "{metadata}");
        let res = reqwest::get(app.url(&format!("/api/auth/saml/{}/metadata", uuid::Uuid::now_v7()))).await.unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND);

        let ana = format!("ana@{DOMAIN}");
        let idp = SamlIdp::start(&app, team, json!({ ana.clone(): {} })).await;
        for (body, code) in [
            (json!({ "protocol": "saml" }), "saml_metadata_required"),
            (json!({ "protocol": "saml", "metadata_url": idp.metadata_url(None), "metadata_xml": "<x/>" }), "saml_metadata_required"),
            (json!({ "protocol": "ws-fed", "metadata_url": idp.metadata_url(None) }), "invalid_protocol"),
        ] {
            let (s, v) = save(&app, &owner, body.clone()).await;
            assert_eq!((s, error_code(&v)), (StatusCode::BAD_REQUEST, code), "{body}: {v}");
        }
        let (s, v) = save(&app, &owner, json!({ "protocol": "saml", "metadata_xml": "<html/>" })).await;
        assert_eq!((s, error_code(&v)), (StatusCode::UNPROCESSABLE_ENTITY, "invalid_saml_metadata"), "{v}");

        let shown = connect_saml(&app, &owner, &idp.metadata_url(None), json!({})).await;
        assert_eq!((shown["protocol"].as_str(), shown["configured"].as_bool()), (Some("saml"), Some(true)), "{shown}");
        assert_eq!(shown["sp_entity_id"], entity.as_str());
        assert_eq!(shown["acs_url"], acs.as_str());
        let saml = &shown["saml"];
        assert_eq!(saml["idp_entity_id"], format!("{}/metadata", idp.base), "{shown}");
        assert_eq!(saml["sso_url"], format!("{}/sso", idp.base));
        assert_eq!(saml["certificates"].as_array().unwrap().len(), 1, "{shown}");
        assert!(saml["certificates"][0]["not_after"].is_string(), "{shown}");
        assert!(saml["certificates"][0]["subject"].as_str().unwrap().contains("Closewise test IdP"), "{shown}");
        assert_eq!((saml["allow_idp_initiated"].as_bool(), saml["email_attribute"].is_null()), (Some(false), true));
        let (_, again) = call(&app, Method::GET, "/api/team/sso", Some(&owner.token), None).await;
        assert_eq!(again["saml"]["metadata_url"], idp.metadata_url(None).as_str(), "{again}");
        let (_, d) = body(app.post("/api/auth/sso/discover", json!({ "email": ana })).await).await;
        assert_eq!(d["sso"], true, "{d}");

        // SP-initiated: our AuthnRequest to the IdP, its response to the ACS, the callback.
        let browser = Browser::new();
        let res = browser.client.get(start(&app, &ana, "/team")).send().await.unwrap();
        let to_idp = res.headers()["location"].to_str().unwrap().to_string();
        assert!(to_idp.starts_with(&format!("{}/sso?SAMLRequest=", idp.base)), "{to_idp}");
        assert!(to_idp.contains("&RelayState="), "{to_idp}");
        let (acs_url, response, relay) = browser.idp_form(&to_idp).await;
        assert_eq!(acs_url, acs);
        // The response brought by another browser signs nobody in there.
        let other = Browser::new();
        assert_eq!(other.post_acs(&app, &acs_url, &response, relay.as_deref()).await, refused("sso_login_expired"));
        assert!(app.state.store.user_by_email(&ana).await.unwrap().is_none());
        // Its assertion was used there: the browser that started signs in with a new one.
        assert_eq!(browser.saml_sign_in(&app, &start(&app, &ana, "/team"), |u| u).await, "/team");
        let (s, session) = browser.session(&app).await;
        assert_eq!((s, session["user"]["email"].as_str()), (StatusCode::OK, Some(ana.as_str())), "{session}");
        assert!(member_emails(&app, &owner).await.contains(&ana));

        // A response replayed: for a new sign-in it answers no request of ours.
        let again = Browser::new();
        let res = again.client.get(start(&app, &ana, "/team")).send().await.unwrap();
        let to_idp = res.headers()["location"].to_str().unwrap().to_string();
        let relay = url::Url::parse(&to_idp).unwrap().query_pairs().find(|(k, _)| k == "RelayState").unwrap().1.to_string();
        assert_eq!(again.post_acs(&app, &acs_url, &response, Some(&relay)).await, refused("invalid_saml_response"));

        // IdP-initiated: refused while off; once on, each assertion works once.
        let initiate = format!("{}/initiate?user={ana}", idp.base);
        let (_, unsolicited, _) = Browser::new().idp_form(&initiate).await;
        assert_eq!(Browser::new().post_acs(&app, &acs_url, &unsolicited, None).await, refused("saml_idp_initiated_off"));
        let shown = connect_saml(&app, &owner, &idp.metadata_url(None), json!({ "allow_idp_initiated": true })).await;
        assert_eq!(shown["saml"]["allow_idp_initiated"], true);
        let (_, unsolicited, _) = Browser::new().idp_form(&initiate).await;
        let fresh = Browser::new();
        assert_eq!(fresh.post_acs(&app, &acs_url, &unsolicited, None).await, "/dashboard");
        let (s, session) = fresh.session(&app).await;
        assert_eq!((s, session["user"]["email"].as_str()), (StatusCode::OK, Some(ana.as_str())), "{session}");
        assert_eq!(Browser::new().post_acs(&app, &acs_url, &unsolicited, None).await, refused("saml_assertion_replayed"));
        let actions: Vec<String> = app.state.store.audit_log(50).await.unwrap().into_iter().map(|a| a.action).collect();
        assert!(actions.contains(&"team.sso.save".to_string()), "{actions:?}");
    }
);

/// The response's XML with `change` applied, base64 again.
fn rewrite(response: &str, change: impl FnOnce(String) -> String) -> String {
    let xml = String::from_utf8(STANDARD.decode(response).unwrap()).unwrap();
    STANDARD.encode(change(xml))
}

/// The document's signed assertion (the first `<saml:Assertion …>…</saml:Assertion>`).
fn assertion_of(xml: &str) -> String {
    let start = xml.find("<saml:Assertion").unwrap();
    let end = xml.find("</saml:Assertion>").unwrap() + "</saml:Assertion>".len();
    xml[start..end].to_string()
}

/// `xml` without its `ds:Signature` element.
fn unsigned(xml: &str) -> String {
    let start = xml.find("<ds:Signature").unwrap();
    let end = xml.find("</ds:Signature>").unwrap() + "</ds:Signature>".len();
    format!("{}{}", &xml[..start], &xml[end..])
}

both!(
    async fn every_bad_saml_response_is_refused_with_its_reason(app) {
        let owner = owner_with_domain(&app, 5).await;
        let team = team_id(&app, &owner).await;
        let (ana, eve) = (format!("ana@{DOMAIN}"), "eve@other.example".to_string());
        let bo = format!("bo@{DOMAIN}");
        let idp = SamlIdp::start(&app, team, json!({ ana.clone(): {}, eve.clone(): {}, bo.clone(): {} })).await;
        let sign_in = |at_idp: &'static str| {
            let app = &app;
            let ana = ana.clone();
            async move { Browser::new().saml_sign_in(app, &start(app, &ana, "/team"), |u| format!("{u}{at_idp}")).await }
        };

        // Signed by a key whose certificate is not the configured one.
        connect_saml(&app, &owner, &idp.metadata_url(Some("other")), json!({})).await;
        assert_eq!(sign_in("").await, refused("invalid_saml_response"), "another key's certificate");
        // A rotation: the other certificate and the one in use.
        let shown = connect_saml(&app, &owner, &idp.metadata_url(Some("both")), json!({})).await;
        assert_eq!(shown["saml"]["certificates"].as_array().unwrap().len(), 2, "{shown}");
        assert_eq!(sign_in("&user=bo%40acme.example").await, "/team", "signed by one of the two");

        connect_saml(&app, &owner, &idp.metadata_url(None), json!({})).await;
        assert_eq!(sign_in("&expired=1").await, refused("saml_assertion_expired"));
        assert_eq!(sign_in("&audience=https%3A%2F%2Fevil.example%2Fsp").await, refused("invalid_saml_response"), "another audience");
        assert_eq!(sign_in("&user=eve%40other.example").await, refused("domain_not_verified"));
        assert!(app.state.store.user_by_email(&eve).await.unwrap().is_none());

        // Tampered with after signing: Ana's signed assertion beside an unsigned copy naming Eve
        // (signature wrapping), the assertion's signature removed, the name changed in place.
        let browser = Browser::new();
        let res = browser.client.get(start(&app, &ana, "/team")).send().await.unwrap();
        let (acs, genuine, relay) = browser.idp_form(res.headers()["location"].to_str().unwrap()).await;
        let evil_domain_user = format!("mallory@{DOMAIN}");
        let wrapped = rewrite(&genuine, |xml| {
            let signed = assertion_of(&xml);
            let forged = unsigned(&signed).replace(&ana, &evil_domain_user).replacen("ID=\"", "ID=\"forged", 1);
            xml.replace(&signed, &format!("{forged}{signed}"))
        });
        let wrapped_inside = rewrite(&genuine, |xml| {
            let signed = assertion_of(&xml);
            let forged = unsigned(&signed).replace(&ana, &evil_domain_user);
            let hidden = format!("<samlp:Extensions>{signed}</samlp:Extensions>");
            xml.replace(&signed, &forged).replacen("<samlp:Status>", &format!("{hidden}<samlp:Status>"), 1)
        });
        let stripped = rewrite(&genuine, |xml| unsigned(&xml));
        let renamed = rewrite(&genuine, |xml| xml.replace(&ana, &evil_domain_user));
        for (case, response) in [("wrapped", &wrapped), ("wrapped in Extensions", &wrapped_inside), ("unsigned", &stripped), ("renamed", &renamed)] {
            let browser = Browser::new();
            let res = browser.client.get(start(&app, &ana, "/team")).send().await.unwrap();
            let to_idp = res.headers()["location"].to_str().unwrap().to_string();
            let relay = url::Url::parse(&to_idp).unwrap().query_pairs().find(|(k, _)| k == "RelayState").unwrap().1.to_string();
            assert_eq!(browser.post_acs(&app, &acs, response, Some(&relay)).await, refused("invalid_saml_response"), "{case}");
        }
        assert!(app.state.store.user_by_email(&evil_domain_user).await.unwrap().is_none(), "nobody was made from a forged assertion");
        // The genuine one still works in its own browser (the refusals above spent nothing of it).
        assert_eq!(browser.post_acs(&app, &acs, &genuine, relay.as_deref()).await, "/team");
    }
);

both!(
    async fn the_saml_endpoints_answer_a_bad_team_id_and_an_empty_post_with_their_documented_errors(app) {
        let client = reqwest::Client::new();
        let res = client.get(app.url("/api/auth/saml/not-a-uuid/metadata")).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND);
        assert_eq!(res.json::<Value>().await.unwrap()["error"]["code"], "team_not_found");
        let form = |path: &str| {
            client
                .post(app.url(path))
                .header("content-type", "application/x-www-form-urlencoded")
        };
        let res = form("/api/auth/saml/not-a-uuid/acs").body("SAMLResponse=x").send().await.unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND);
        assert_eq!(res.json::<Value>().await.unwrap()["error"]["code"], "team_not_found");
        let team = uuid::Uuid::new_v4();
        let res = form(&format!("/api/auth/saml/{team}/acs")).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::BAD_REQUEST);
        assert_eq!(res.json::<Value>().await.unwrap()["error"]["code"], "invalid_saml_response");
    }
);
