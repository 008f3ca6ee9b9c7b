//! SCIM provisioning on both databases (docs/api.md "SCIM"): the owner's tokens (shown
//! once, listed without the secret, revoked, audited), Users at a verified domain taking seats,
//! `409` with the seats message when none is free, deactivation and deletion freeing the seat and
//! ending the person's sessions at once (their next call is 401), and another team's token
//! finding nothing (404). Answers are SCIM's: `application/scim+json`, the error schema.

use closewise_core::store::teams::domains::NewTeamDomain;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use uuid::Uuid;

use super::*;
use crate::both;

const ERROR: &str = "urn:ietf:params:scim:api:messages:2.0:Error";
const USER: &str = "urn:ietf:params:scim:schemas:core:2.0:User";

/// Marks `domain` verified for the team `owner` is in (the domains service's job, done here
/// through the store as its tests do).
pub async fn verified_domain(app: &TestApp, owner: &User, domain: &str) {
    let store = &app.state.store;
    let (team_id, _) = store.membership_of(owner.id).await.unwrap().unwrap();
    let id = Uuid::now_v7();
    let now = app.state.clock.now();
    let new = NewTeamDomain {
        id,
        team_id,
        domain,
        txt_token: "t",
        created_by: Some(owner.id),
        now,
    };
    assert!(store.insert_team_domain(&new).await.unwrap());
    assert!(store.mark_team_domain_verified(id, now).await.unwrap());
}

pub async fn scim_token(app: &TestApp, owner: &User) -> String {
    let (status, v) = call(
        app,
        Method::POST,
        "/api/team/scim/tokens",
        Some(&owner.token),
        Some(json!({ "name": "Okta" })),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    v["token"].as_str().unwrap().to_owned()
}

/// A SCIM request: (status, content type, body).
pub async fn scim(
    app: &TestApp,
    method: Method,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (StatusCode, String, Value) {
    let mut req = app
        .client
        .request(method, app.url(&format!("/scim/v2{path}")))
        .bearer_auth(token);
    if let Some(b) = body {
        req = req
            .header("content-type", "application/scim+json")
            .body(b.to_string());
    }
    let res = req.send().await.unwrap();
    let status = res.status();
    let kind = res
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let text = res.text().await.unwrap();
    let v = if text.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).unwrap()
    };
    (status, kind, v)
}

pub fn new_user(email: &str) -> Value {
    json!({
        "schemas": [USER],
        "userName": email,
        "externalId": format!("ext-{email}"),
        "name": {"givenName": "Rep", "familyName": "One"},
        "emails": [{"value": email, "type": "work", "primary": true}],
        "active": true
    })
}

fn deactivate() -> Value {
    json!({"schemas": ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
           "Operations": [{"op": "replace", "path": "active", "value": false}]})
}

async fn members(app: &TestApp, owner: &User) -> Vec<String> {
    let team = get_team(app, owner).await;
    team["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["email"].as_str().unwrap().to_owned())
        .collect()
}

both!(
    async fn the_owner_creates_lists_and_revokes_tokens_shown_once(app) {
        let owner = user(&app, "owner@acme.test").await;
        team(&app, &owner, "Acme", 3).await;
        let admin = join(&app, &owner, "admin@acme.test", "admin").await;
        // A token is named by the owner: a name is required, trimmed, at most 60 characters.
        let (status, v) = call(&app, Method::POST, "/api/team/scim/tokens", Some(&owner.token), None).await;
        assert_eq!((status, error_code(&v)), (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type"), "no body: {v}");
        for body in [json!({ "name": "  " }), json!({ "name": "x".repeat(61) })] {
            let (status, v) = call(&app, Method::POST, "/api/team/scim/tokens", Some(&owner.token), Some(body)).await;
            assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_token_name"), "{v}");
        }
        let (status, v) = call(&app, Method::POST, "/api/team/scim/tokens", Some(&owner.token), Some(json!({ "name": " Okta production " }))).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        let token = v["token"].as_str().unwrap().to_owned();
        let id = v["id"].as_str().unwrap().to_owned();
        assert_eq!(v["name"], "Okta production");
        assert!(token.starts_with("cws_scim_"), "{token}");
        let (status, list) = call(&app, Method::GET, "/api/team/scim/tokens", Some(&owner.token), None).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(list["tokens"].as_array().unwrap().len(), 1);
        assert_eq!(list["tokens"][0]["id"], id.as_str());
        assert_eq!(list["tokens"][0]["name"], "Okta production");
        assert!(!list.to_string().contains(&token), "the secret is never listed: {list}");
        assert_eq!(list["tokens"][0]["last_used_at"], Value::Null);
        let (status, _, _) = scim(&app, Method::GET, "/Users", &token, None).await;
        assert_eq!(status, StatusCode::OK);
        let (_, list) = call(&app, Method::GET, "/api/team/scim/tokens", Some(&owner.token), None).await;
        assert!(list["tokens"][0]["last_used_at"].is_string(), "{list}");
        for method in [Method::POST, Method::GET] {
            let body = (method == Method::POST).then(|| json!({ "name": "Mine" }));
            let (status, v) = call(&app, method, "/api/team/scim/tokens", Some(&admin.token), body).await;
            assert_eq!((status, error_code(&v)), (StatusCode::FORBIDDEN, "forbidden_role"));
        }
        let path = format!("/api/team/scim/tokens/{id}");
        let (status, _) = call(&app, Method::DELETE, &path, Some(&admin.token), None).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        let (status, _) = call(&app, Method::DELETE, &path, Some(&owner.token), None).await;
        assert_eq!(status, StatusCode::NO_CONTENT);
        let (status, v) = call(&app, Method::DELETE, &path, Some(&owner.token), None).await;
        assert_eq!((status, error_code(&v)), (StatusCode::NOT_FOUND, "team_not_found"));
        let (status, kind, v) = scim(&app, Method::GET, "/Users", &token, None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_eq!(kind, "application/scim+json");
        assert_eq!((v["schemas"][0].as_str(), v["status"].as_str()), (Some(ERROR), Some("401")));
        let (status, _, _) = scim(&app, Method::GET, "/Users", "cws_scim_nothing", None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        let actions: Vec<String> = app.state.store.audit_log(100).await.unwrap().into_iter()
            .filter(|r| r.action.starts_with("team.scim.token"))
            .map(|r| { assert_eq!(r.actor, "owner@acme.test"); r.action })
            .collect();
        assert_eq!(actions.len(), 2, "{actions:?}");
    }
);

both!(
    async fn provisioned_users_take_seats_and_a_full_team_is_a_scim_409(app) {
        let owner = user(&app, "owner@acme.test").await;
        team(&app, &owner, "Acme", 3).await;
        verified_domain(&app, &owner, "acme.test").await;
        let token = scim_token(&app, &owner).await;
        user(&app, "rep1@acme.test").await;
        let (status, kind, v) = scim(&app, Method::POST, "/Users", &token, Some(new_user("Rep1@Acme.test"))).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        assert_eq!(kind, "application/scim+json");
        assert_eq!(v["schemas"], json!([USER]));
        assert_eq!(v["active"], true);
        assert_eq!(v["externalId"], "ext-Rep1@Acme.test");
        assert_eq!(v["name"]["givenName"], "Rep");
        assert!(v["meta"]["location"].as_str().unwrap().ends_with(&format!("/scim/v2/Users/{}", v["id"].as_str().unwrap())));
        assert_eq!(members(&app, &owner).await, ["owner@acme.test", "rep1@acme.test"]);
        // No account yet: an invitation mail holds the seat.
        let (status, _, v) = scim(&app, Method::POST, "/Users", &token, Some(new_user("rep2@acme.test"))).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        assert_eq!(app.mails_to("rep2@acme.test").await.len(), 1);
        let t = get_team(&app, &owner).await;
        assert_eq!(t["seats"]["free"], 0, "{t}");
        let (status, _, v) = scim(&app, Method::POST, "/Users", &token, Some(new_user("rep3@acme.test"))).await;
        assert_eq!(status, StatusCode::CONFLICT, "{v}");
        assert_eq!(v["status"], "409");
        assert_eq!(v["detail"], "All 3 seats are taken. Add seats to invite more people.");
        let (status, _, v) = scim(&app, Method::POST, "/Users", &token, Some(new_user("rep1@acme.test"))).await;
        assert_eq!((status, v["scimType"].as_str()), (StatusCode::CONFLICT, Some("uniqueness")));
        for (case, body) in [
            ("unverified domain", new_user("rep@other.test")),
            ("not an address", new_user("rep")),
            ("no userName", json!({"schemas": [USER]})),
        ] {
            let (status, _, v) = scim(&app, Method::POST, "/Users", &token, Some(body)).await;
            assert_eq!((status, v["scimType"].as_str()), (StatusCode::BAD_REQUEST, Some("invalidValue")), "{case}: {v}");
        }
        let (status, _, v) = scim(&app, Method::GET, "/Users?filter=userName%20eq%20%22REP1@acme.test%22", &token, None).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!((v["totalResults"].as_u64(), v["Resources"][0]["userName"].as_str()), (Some(1), Some("Rep1@Acme.test")));
        let (_, _, v) = scim(&app, Method::GET, "/Users?startIndex=2&count=1", &token, None).await;
        assert_eq!((v["totalResults"].as_u64(), v["startIndex"].as_u64(), v["itemsPerPage"].as_u64()), (Some(2), Some(2), Some(1)));
        assert_eq!(v["Resources"][0]["userName"], "rep2@acme.test");
        let (status, _, v) = scim(&app, Method::GET, "/Users?filter=title%20co%20%22x%22", &token, None).await;
        assert_eq!((status, v["scimType"].as_str()), (StatusCode::BAD_REQUEST, Some("invalidFilter")));
    }
);

both!(
    async fn deactivating_or_deleting_frees_the_seat_and_refuses_the_next_call_at_once(app) {
        let owner = user(&app, "owner@acme.test").await;
        team(&app, &owner, "Acme", 2).await;
        verified_domain(&app, &owner, "acme.test").await;
        let token = scim_token(&app, &owner).await;
        let rep = user(&app, "rep@acme.test").await;
        let (_, _, v) = scim(&app, Method::POST, "/Users", &token, Some(new_user("rep@acme.test"))).await;
        let id = v["id"].as_str().unwrap().to_owned();
        let (status, v) = crate::calls::start(&app, &rep.token, "before").await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        let (status, _, v) = scim(&app, Method::PATCH, &format!("/Users/{id}"), &token, Some(deactivate())).await;
        assert_eq!((status, &v["active"]), (StatusCode::OK, &json!(false)), "{v}");
        assert_eq!(members(&app, &owner).await, ["owner@acme.test"]);
        let (status, v) = crate::calls::start(&app, &rep.token, "after").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{v}");
        let (status, _) = body(app.get_auth("/api/entitlements", &rep.token).await).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        let (_, _, v) = scim(&app, Method::GET, &format!("/Users/{id}"), &token, None).await;
        assert_eq!(v["active"], false, "the user stays, inactive: {v}");
        // Reactivated (the no-path form), then deleted.
        let again = json!({"Operations": [{"op": "replace", "value": {"active": true}}]});
        let (status, _, v) = scim(&app, Method::PATCH, &format!("/Users/{id}"), &token, Some(again)).await;
        assert_eq!((status, &v["active"]), (StatusCode::OK, &json!(true)), "{v}");
        assert_eq!(members(&app, &owner).await, ["owner@acme.test", "rep@acme.test"]);
        let back = crate::calls::another_session(&app, "rep@acme.test").await;
        let (status, _, v) = scim(&app, Method::DELETE, &format!("/Users/{id}"), &token, None).await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{v}");
        assert_eq!(members(&app, &owner).await, ["owner@acme.test"]);
        let (status, _) = crate::calls::start(&app, &back, "deleted").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        let (status, _, _) = scim(&app, Method::GET, &format!("/Users/{id}"), &token, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        // The owner is Closewise's, not the provider's to remove.
        let (_, _, v) = scim(&app, Method::POST, "/Users", &token, Some(new_user("owner@acme.test"))).await;
        let owner_id = v["id"].as_str().unwrap().to_owned();
        let (status, _, v) = scim(&app, Method::PATCH, &format!("/Users/{owner_id}"), &token, Some(deactivate())).await;
        assert_eq!((status, v["scimType"].as_str()), (StatusCode::BAD_REQUEST, Some("mutability")));
        let removed: Vec<_> = app.state.store.audit_log(100).await.unwrap().into_iter()
            .filter(|r| r.action == "team.scim.member_remove").collect();
        assert_eq!(removed.len(), 2);
        assert!(removed[0].actor.starts_with("scim token "), "{:?}", removed[0]);
    }
);

both!(
    async fn another_team_s_token_finds_nothing(app) {
        let owner = user(&app, "owner@acme.test").await;
        team(&app, &owner, "Acme", 2).await;
        verified_domain(&app, &owner, "acme.test").await;
        let token = scim_token(&app, &owner).await;
        let other = user(&app, "boss@globex.test").await;
        team(&app, &other, "Globex", 2).await;
        verified_domain(&app, &other, "globex.test").await;
        let foreign = scim_token(&app, &other).await;
        user(&app, "rep@acme.test").await;
        let (_, _, v) = scim(&app, Method::POST, "/Users", &token, Some(new_user("rep@acme.test"))).await;
        let path = format!("/Users/{}", v["id"].as_str().unwrap());
        for (method, body) in [
            (Method::GET, None),
            (Method::PUT, Some(new_user("rep@acme.test"))),
            (Method::PATCH, Some(deactivate())),
            (Method::DELETE, None),
        ] {
            let (status, kind, v) = scim(&app, method.clone(), &path, &foreign, body).await;
            assert_eq!((status, v["status"].as_str()), (StatusCode::NOT_FOUND, Some("404")), "{method}: {v}");
            assert_eq!(kind, "application/scim+json");
        }
        let (_, _, v) = scim(&app, Method::GET, "/Users", &foreign, None).await;
        assert_eq!(v["totalResults"], 0);
        // Nor can it provision at a domain it does not hold.
        let (status, _, _) = scim(&app, Method::POST, "/Users", &foreign, Some(new_user("x@acme.test"))).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(members(&app, &owner).await, ["owner@acme.test", "rep@acme.test"]);
    }
);

both!(
    async fn discovery_declares_users_only(app) {
        let owner = user(&app, "owner@acme.test").await;
        team(&app, &owner, "Acme", 1).await;
        let token = scim_token(&app, &owner).await;
        let (status, kind, v) = scim(&app, Method::GET, "/ServiceProviderConfig", &token, None).await;
        assert_eq!((status, kind.as_str()), (StatusCode::OK, "application/scim+json"));
        assert_eq!((v["patch"]["supported"].as_bool(), v["bulk"]["supported"].as_bool()), (Some(true), Some(false)));
        let (_, _, v) = scim(&app, Method::GET, "/ResourceTypes", &token, None).await;
        assert_eq!(v["Resources"].as_array().unwrap().len(), 1);
        assert_eq!(v["Resources"][0]["id"], "User");
        let (_, _, v) = scim(&app, Method::GET, "/Schemas", &token, None).await;
        assert_eq!(v["Resources"][0]["id"], USER);
        let (status, _, v) = scim(&app, Method::GET, "/Groups", &token, None).await;
        assert_eq!((status, v["status"].as_str()), (StatusCode::NOT_FOUND, Some("404")));
    }
);

both!(
    async fn a_search_request_posted_to_users_search_answers_as_the_list(app) {
        let owner = user(&app, "owner@acme.test").await;
        team(&app, &owner, "Acme", 3).await;
        verified_domain(&app, &owner, "acme.test").await;
        let token = scim_token(&app, &owner).await;
        for email in ["rep1@acme.test", "rep2@acme.test"] {
            let (status, _, v) = scim(&app, Method::POST, "/Users", &token, Some(new_user(email))).await;
            assert_eq!(status, StatusCode::CREATED, "{v}");
        }
        let search = json!({
            "schemas": ["urn:ietf:params:scim:api:messages:2.0:SearchRequest"],
            "filter": "userName eq \"REP2@acme.test\"",
            "attributes": ["userName", "urn:ietf:params:scim:schemas:core:2.0:User:externalId"],
        });
        for path in ["/Users/.search", "/.search"] {
            let (status, kind, v) = scim(&app, Method::POST, path, &token, Some(search.clone())).await;
            assert_eq!((status, kind.as_str()), (StatusCode::OK, "application/scim+json"), "{path}: {v}");
            assert_eq!(v["schemas"], json!(["urn:ietf:params:scim:api:messages:2.0:ListResponse"]));
            assert_eq!(v["totalResults"], 1, "{path}: {v}");
            let found = v["Resources"][0].as_object().unwrap();
            let mut keys: Vec<&str> = found.keys().map(String::as_str).collect();
            keys.sort_unstable();
            assert_eq!(keys, ["externalId", "id", "schemas", "userName"], "{path}: {v}");
            assert_eq!(found["userName"], "rep2@acme.test");
        }
        let paged = json!({
            "schemas": ["urn:ietf:params:scim:api:messages:2.0:SearchRequest"],
            "startIndex": 2, "count": 1, "excludedAttributes": ["name", "emails"],
        });
        let (_, _, v) = scim(&app, Method::POST, "/Users/.search", &token, Some(paged)).await;
        assert_eq!((v["totalResults"].as_u64(), v["startIndex"].as_u64(), v["itemsPerPage"].as_u64()), (Some(2), Some(2), Some(1)), "{v}");
        assert_eq!(v["Resources"][0]["userName"], "rep2@acme.test");
        assert!(v["Resources"][0].get("name").is_none() && v["Resources"][0].get("emails").is_none(), "{v}");
        assert_eq!(v["Resources"][0]["active"], true);
        for (case, body, scim_type) in [
            ("no schemas", json!({"filter": "userName eq \"rep1@acme.test\""}), "invalidSyntax"),
            ("bad filter", json!({"schemas": ["urn:ietf:params:scim:api:messages:2.0:SearchRequest"], "filter": "title co \"x\""}), "invalidFilter"),
            ("bad count", json!({"schemas": ["urn:ietf:params:scim:api:messages:2.0:SearchRequest"], "count": "many"}), "invalidValue"),
        ] {
            let (status, _, v) = scim(&app, Method::POST, "/Users/.search", &token, Some(body)).await;
            assert_eq!((status, v["scimType"].as_str()), (StatusCode::BAD_REQUEST, Some(scim_type)), "{case}: {v}");
        }
        let (_, _, v) = scim(&app, Method::POST, "/Users/.search", "cws_scim_nothing", Some(search)).await;
        assert_eq!(v["status"], "401");
    }
);

both!(
    async fn a_patch_removing_active_leaves_it_unassigned_and_the_user_active(app) {
        let owner = user(&app, "owner@acme.test").await;
        team(&app, &owner, "Acme", 2).await;
        verified_domain(&app, &owner, "acme.test").await;
        let token = scim_token(&app, &owner).await;
        user(&app, "rep@acme.test").await;
        let (_, _, v) = scim(&app, Method::POST, "/Users", &token, Some(new_user("rep@acme.test"))).await;
        let path = format!("/Users/{}", v["id"].as_str().unwrap());
        let remove = json!({"schemas": ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
                            "Operations": [{"op": "remove", "path": "active"}]});
        let (status, _, v) = scim(&app, Method::PATCH, &path, &token, Some(remove.clone())).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert!(v.get("active").is_none(), "removed, so not returned: {v}");
        let (_, _, v) = scim(&app, Method::GET, &path, &token, None).await;
        assert!(v.get("active").is_none(), "{v}");
        assert_eq!(v["userName"], "rep@acme.test");
        assert_eq!(members(&app, &owner).await, ["owner@acme.test", "rep@acme.test"], "unassigned counts as active");
        // Only `false` deactivates: the seat frees; assigning it again shows it.
        let (_, _, v) = scim(&app, Method::PATCH, &path, &token, Some(deactivate())).await;
        assert_eq!(v["active"], false, "{v}");
        assert_eq!(members(&app, &owner).await, ["owner@acme.test"]);
        let (_, _, v) = scim(&app, Method::GET, &path, &token, None).await;
        assert_eq!(v["active"], false, "{v}");
        // Removing it from an inactive user makes them active again, as one created without it.
        let (status, _, v) = scim(&app, Method::PATCH, &path, &token, Some(remove)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert!(v.get("active").is_none(), "{v}");
        assert_eq!(members(&app, &owner).await, ["owner@acme.test", "rep@acme.test"]);
    }
);
