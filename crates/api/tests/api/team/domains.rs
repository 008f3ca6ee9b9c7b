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

both!(
    async fn verifying_is_limited_per_owner_and_answers_when_to_try_again(app) with |s| { s.limits.domain_checks_per_user = 3; } {
        let owner = user(&app, "boss@northwind.example").await;
        team(&app, &owner, "Northwind", 1).await;
        let (status, d) = add(&app, &owner, "northwind.example").await;
        assert_eq!(status, StatusCode::CREATED, "{d}");
        let id = d["id"].as_str().unwrap().to_owned();
        for _ in 0..3 {
            assert_refused(verify(&app, &owner, &id).await, StatusCode::CONFLICT, "domain_not_verified", "no record yet");
        }
        // Published now, but the budget is spent: no look-up until the window ends.
        app.dns.set("_closewise-challenge.northwind.example", &[d["txt_value"].as_str().unwrap()]);
        let res = app
            .client
            .post(app.url(&format!("/api/team/domains/{id}/verify")))
            .bearer_auth(&owner.token)
            .send()
            .await
            .unwrap();
        let retry_after = res.headers().get("retry-after").map(|v| v.to_str().unwrap().to_owned());
        let (status, v) = body(res).await;
        assert_eq!((status, error_code(&v)), (StatusCode::TOO_MANY_REQUESTS, "rate_limited"), "{v}");
        assert!(retry_after.is_some_and(|s| s.parse::<u64>().is_ok_and(|n| n > 0)), "Retry-After");
        app.advance(time::Duration::minutes(11));
        let (status, v) = verify(&app, &owner, &id).await;
        assert_eq!((status, v["status"].as_str()), (StatusCode::OK, Some("verified")), "{v}");
    }
);

both!(
    async fn a_team_claims_at_most_a_hundred_domains(app) {
        let owner = user(&app, "boss@northwind.example").await;
        let team_id: uuid::Uuid = team(&app, &owner, "Northwind", 1).await["id"].as_str().unwrap().parse().unwrap();
        for i in 0..100 {
            let claimed = app
                .state
                .store
                .insert_team_domain(&closewise_core::store::teams::domains::NewTeamDomain {
                    id: uuid::Uuid::now_v7(),
                    team_id,
                    domain: &format!("d{i}.northwind.example"),
                    txt_token: "0123456789abcdef0123456789abcdef",
                    created_by: Some(owner.id),
                    now: app.state.clock.now(),
                })
                .await
                .unwrap();
            assert!(claimed);
        }
        let (status, v) = add(&app, &owner, "one-more.example").await;
        assert_eq!((status, error_code(&v)), (StatusCode::UNPROCESSABLE_ENTITY, "too_many_domains"), "{v}");
        assert!(error_message(&v).contains("100"), "{v}");
        let (_, list) = call(&app, Method::GET, "/api/team/domains", Some(&owner.token), None).await;
        assert_eq!(list["domains"].as_array().unwrap().len(), 100);
        // One removed makes room for one.
        let first = list["domains"][0]["id"].as_str().unwrap().to_owned();
        let (status, _) = call(&app, Method::DELETE, &format!("/api/team/domains/{first}"), Some(&owner.token), None).await;
        assert_eq!(status, StatusCode::NO_CONTENT);
        let (status, v) = add(&app, &owner, "one-more.example").await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
    }
);
