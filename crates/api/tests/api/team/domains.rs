//! Verified domains through the API, against the test's local DNS server (`app.dns`): the owner
//! adds a domain and gets the TXT record, verifies it once the record is published, sees and
//! removes it; the contract's bodies and codes; one team at a time; every change audited.

use reqwest::{Method, StatusCode};
use serde_json::json;

use super::*;
use crate::both;

async fn add(app: &TestApp, u: &User, domain: &str) -> (StatusCode, Value) {
    call(
        app,
        Method::POST,
        "/api/team/domains",
        Some(&u.token),
        Some(json!({ "domain": domain })),
    )
    .await
}

async fn verify(app: &TestApp, u: &User, id: &str) -> (StatusCode, Value) {
    call(
        app,
        Method::POST,
        &format!("/api/team/domains/{id}/verify"),
        Some(&u.token),
        None,
    )
    .await
}

both!(
    async fn the_owner_adds_publishes_and_verifies_a_domain(app) {
        let crew = crew(&app, "d").await;
        let owner = &crew.owner;
        for (case, u) in [("admin", &crew.admins[0]), ("member", &crew.members[0])] {
            assert_refused(add(&app, u, "northwind.example").await, StatusCode::FORBIDDEN, "forbidden_role", case);
            let got = call(&app, Method::GET, "/api/team/domains", Some(&u.token), None).await;
            assert_refused(got, StatusCode::FORBIDDEN, "forbidden_role", case);
        }
        let loner = user(&app, "solo@elsewhere.example").await;
        assert_refused(add(&app, &loner, "elsewhere.example").await, StatusCode::NOT_FOUND, "team_not_found", "no team");
        assert_refused(add(&app, owner, "gmail.com").await, StatusCode::BAD_REQUEST, "public_mail_domain", "public");
        assert_refused(add(&app, owner, "https://northwind.example/").await, StatusCode::BAD_REQUEST, "invalid_domain", "a URL");
        let (status, d) = add(&app, owner, "NorthWind.example").await;
        assert_eq!(status, StatusCode::CREATED, "{d}");
        assert_eq!((d["domain"].as_str(), d["status"].as_str()), (Some("northwind.example"), Some("pending")));
        assert_eq!(d["txt_name"], "_closewise-challenge.northwind.example");
        let value = d["txt_value"].as_str().unwrap().to_owned();
        assert!(value.starts_with("closewise-domain-verification=") && value.len() > 40, "{value}");
        let id = d["id"].as_str().unwrap().to_owned();
        assert_refused(add(&app, owner, "northwind.example").await, StatusCode::CONFLICT, "domain_exists", "again");
        // Not published yet, then published.
        assert_refused(verify(&app, owner, &id).await, StatusCode::CONFLICT, "domain_not_verified", "no record");
        app.dns.set("_closewise-challenge.northwind.example", &[&value]);
        assert_refused(verify(&app, &crew.admins[0], &id).await, StatusCode::FORBIDDEN, "forbidden_role", "an admin");
        let (status, v) = verify(&app, owner, &id).await;
        assert_eq!((status, v["status"].as_str()), (StatusCode::OK, Some("verified")), "{v}");
        let (status, list) = call(&app, Method::GET, "/api/team/domains", Some(&owner.token), None).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(list["domains"].as_array().unwrap().len(), 1, "{list}");
        assert_eq!(list["domains"][0]["status"], "verified");
        assert_eq!(list["domains"][0]["txt_value"], value.as_str());
        // Domain join is on for it now, offered to the owner.
        assert_eq!(get_team(&app, owner).await["domain_join_offer"], "northwind.example");
        // Another team: a clear 409, and none of the first team's ids are its own.
        let other = user(&app, "boss@contoso.example").await;
        team(&app, &other, "Contoso", 1).await;
        let got = add(&app, &other, "northwind.example").await;
        assert_refused(got.clone(), StatusCode::CONFLICT, "domain_taken", "another team's");
        assert!(error_message(&got.1).contains("verified by another team"), "{}", got.1);
        assert_refused(verify(&app, &other, &id).await, StatusCode::NOT_FOUND, "domain_not_found", "another team's id");
        let got = call(&app, Method::DELETE, &format!("/api/team/domains/{id}"), Some(&other.token), None).await;
        assert_refused(got, StatusCode::NOT_FOUND, "domain_not_found", "another team's id");
        assert_refused(verify(&app, owner, "not-a-uuid").await, StatusCode::NOT_FOUND, "domain_not_found", "not an id");
        // Removed.
        let (status, _) = call(&app, Method::DELETE, &format!("/api/team/domains/{id}"), Some(&owner.token), None).await;
        assert_eq!(status, StatusCode::NO_CONTENT);
        let (_, list) = call(&app, Method::GET, "/api/team/domains", Some(&owner.token), None).await;
        assert_eq!(list, json!({ "domains": [] }));
        let actions = audit_actions(&app).await;
        for a in ["team.domain_add", "team.domain_verify", "team.domain_remove"] {
            assert!(actions.iter().any(|x| x == a), "{a} in {actions:?}");
        }
        let rows = app.state.store.audit_log(100).await.unwrap();
        let verified = rows.iter().find(|r| r.action == "team.domain_verify").unwrap();
        assert_eq!(verified.actor, "d-owner@northwind.example");
    }
);
