//! Policies, signed into the entitlement: `GET`/`PUT /api/team/policy` (owner and
//! admins, audited), the policy in the entitlement token, heartbeats recording the version the app
//! obeys, and the devices on the current policy.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use closewise_domain::policy::{canonical_json, version_of};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::both;
use crate::device_signin::device_session;
use crate::helpers::*;
use crate::team::{call, crew};

fn policy() -> Value {
    json!({
        "consent_notice": {"mode": "show", "text": "This call is recorded by Closewise.",
            "regions": {"US-CA": "California: everyone on this call consents to recording.",
                "EU": "EU: this call is recorded."}},
        "allowed_apps": ["meet", "teams", "phone"],
        "hint_categories": {"objections": true, "replies": false, "follow_ups": true},
        "retention_days": 7, "require_mfa": false, "require_sso": false
    })
}

/// The claims of an entitlement token (its signature is checked by `entitlements`' tests and the
/// client's).
fn claims(token: &str) -> Value {
    let payload = token.split('.').nth(1).unwrap();
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap()
}

async fn heartbeat(app: &TestApp, token: &str, call_id: &str, version: &str) -> StatusCode {
    let path = format!("/api/calls/{call_id}/heartbeat");
    let (s, v) = call(
        app,
        Method::POST,
        &path,
        Some(token),
        Some(json!({ "policy_version": version })),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    s
}

both!(
    async fn owner_and_admins_set_the_policy_members_cannot_and_every_change_is_audited(app) {
        let crew = crew(&app, "pol").await;
        let (s, v) = call(&app, Method::GET, "/api/team/policy", Some(&crew.admins[0].token), None).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["policy"]["consent_notice"]["mode"], "off");
        assert_eq!(v["policy"]["allowed_apps"], json!(["zoom", "meet", "teams", "phone"]));
        assert!(v["updated_at"].is_null() && v["may_change_require_mfa"] == false);
        for m in &crew.members {
            let (s, v) = call(&app, Method::GET, "/api/team/policy", Some(&m.token), None).await;
            assert_eq!((s, error_code(&v)), (StatusCode::FORBIDDEN, "forbidden_role"), "{v}");
            let (s, _) = call(&app, Method::PUT, "/api/team/policy", Some(&m.token), Some(policy())).await;
            assert_eq!(s, StatusCode::FORBIDDEN);
        }
        let (s, v) = call(&app, Method::PUT, "/api/team/policy", Some(&crew.admins[0].token), Some(policy())).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["policy"], policy());
        assert_eq!(v["updated_by"], "pol-admin0@northwind.example");
        let version = v["policy_version"].as_str().unwrap().to_owned();
        assert_eq!(version, version_of(&canonical_json(&policy())));

        // An admin may not flip the owner's "require a second factor" switch; the owner may, and
        // PUT /api/team/mfa-policy shows in the policy (one source of truth).
        let mut mfa = policy();
        mfa["require_mfa"] = json!(true);
        let (s, v) = call(&app, Method::PUT, "/api/team/policy", Some(&crew.admins[1].token), Some(mfa.clone())).await;
        assert_eq!((s, error_code(&v)), (StatusCode::FORBIDDEN, "forbidden_role"), "{v}");
        let (s, v) = call(&app, Method::PUT, "/api/team/policy", Some(&crew.owner.token), Some(mfa)).await;
        assert_eq!((s, v["policy"]["require_mfa"].as_bool()), (StatusCode::OK, Some(true)), "{v}");
        let (s, _) = call(&app, Method::PUT, "/api/team/mfa-policy", Some(&crew.owner.token), Some(json!({"required": false}))).await;
        assert_eq!(s, StatusCode::OK);
        let (_, v) = call(&app, Method::GET, "/api/team/policy", Some(&crew.owner.token), None).await;
        assert_eq!(v["policy"]["require_mfa"], false);
        assert_eq!(v["policy_version"], version.as_str(), "back to the admin's policy");

        let audits = app.state.store.audit_of(Some(crew.admins[0].id), "", 50).await.unwrap();
        let row = audits.iter().find(|a| a.action == "team.policy").expect("audited");
        assert_eq!(row.actor, "pol-admin0@northwind.example");
        let details: Value = serde_json::from_str(&row.details).unwrap();
        assert_eq!(details["before"]["consent_notice"]["mode"], "off");
        assert_eq!(details["after"], policy());
    }
);

both!(
    async fn a_wrong_field_is_a_400_naming_it(app) {
        let crew = crew(&app, "bad").await;
        let cases = [
            ("/consent_notice/regions", json!({"US-XX": "x"}), "consent_notice.regions.US-XX"),
            ("/allowed_apps", json!(["zoom", "fax"]), "allowed_apps"),
            ("/hint_categories", json!({"objections": true, "replies": true, "follow_ups": true, "gossip": true}), "hint_categories.gossip"),
            ("/consent_notice/text", json!("a".repeat(1001)), "consent_notice.text"),
            ("/retention_days", json!(14), "retention_days"),
        ];
        for (pointer, value, field) in cases {
            let mut p = policy();
            *p.pointer_mut(pointer).unwrap() = value;
            let (s, v) = call(&app, Method::PUT, "/api/team/policy", Some(&crew.owner.token), Some(p)).await;
            assert_eq!((s, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_policy"), "{v}");
            let message = v["error"]["message"].as_str().unwrap();
            assert!(message.starts_with(&format!("{field}: ")), "{field}: {message}");
        }
        let mut p = policy();
        p.as_object_mut().unwrap().remove("retention_days");
        let (s, v) = call(&app, Method::PUT, "/api/team/policy", Some(&crew.owner.token), Some(p)).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
        assert!(v["error"]["message"].as_str().unwrap().contains("retention_days"), "{v}");
        let (_, v) = call(&app, Method::GET, "/api/team/policy", Some(&crew.owner.token), None).await;
        assert!(v["updated_at"].is_null(), "nothing was saved");
    }
);

both!(
    async fn the_token_carries_the_policy_and_heartbeats_record_its_version(app) {
        let crew = crew(&app, "tok").await;
        // A member of no team gets the default, notice off.
        let loner = crate::helpers::signed_in_account(&app, "solo@example.com", crate::calls::PASSWORD).await;
        let loner = loner["access_token"].as_str().unwrap();
        let (_, e) = call(&app, Method::GET, "/api/entitlements", Some(loner), None).await;
        let c = claims(e["entitlement_token"].as_str().unwrap());
        assert_eq!(c["policy"]["consent_notice"]["mode"], "off");
        assert_eq!(c["policy_version"], version_of(&canonical_json(&c["policy"])));
        assert_eq!(e["policy"], c["policy"]);

        let (s, v) = call(&app, Method::PUT, "/api/team/policy", Some(&crew.owner.token), Some(policy())).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let version = v["policy_version"].as_str().unwrap().to_owned();
        assert_eq!(v["adoption"], json!({"devices": 0, "current": 0, "behind": 0, "behind_last_seen_at": null}));

        // Two desktop devices of members: one obeys the new policy, one an older version.
        let (device, _) = device_session(&app, &crew.members[0].token).await;
        let (old_device, _) = device_session(&app, &crew.members[1].token).await;
        let (_, e) = call(&app, Method::GET, "/api/entitlements", Some(&device), None).await;
        let c = claims(e["entitlement_token"].as_str().unwrap());
        assert_eq!(c["policy"], policy());
        assert_eq!(c["policy_version"], version.as_str());
        assert_eq!(e["policy_version"], version.as_str());

        let (s, v) = call(&app, Method::POST, "/api/calls", Some(&device), Some(json!({"client_call_id": "p1"}))).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let call_id = v["call_id"].as_str().unwrap().to_owned();
        heartbeat(&app, &device, &call_id, &version).await;
        let (_, v) = call(&app, Method::POST, "/api/calls", Some(&old_device), Some(json!({"client_call_id": "p2"}))).await;
        let old_call = v["call_id"].as_str().unwrap().to_owned();
        heartbeat(&app, &old_device, &old_call, &"0".repeat(64)).await;
        // A heartbeat without a body still works (older apps).
        let (s, v) = call(&app, Method::POST, &format!("/api/calls/{call_id}/heartbeat"), Some(&device), None).await;
        assert_eq!(s, StatusCode::OK, "{v}");

        let recorded = closewise_testkit::scalar(
            &app.database_url,
            &format!("SELECT COUNT(*) FROM calls WHERE policy_version = '{version}'"),
        )
        .await;
        assert_eq!(recorded, 1, "the call is recorded with the version it ran under");
        let (_, v) = call(&app, Method::GET, "/api/team/policy", Some(&crew.owner.token), None).await;
        let a = &v["adoption"];
        assert_eq!((a["devices"].as_u64(), a["current"].as_u64(), a["behind"].as_u64()), (Some(2), Some(1), Some(1)), "{v}");
        assert!(a["behind_last_seen_at"].is_string(), "{v}");
    }
);
