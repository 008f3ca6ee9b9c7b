//! A team owner requires a second factor; a member without one cannot approve devices
//! until they set one up.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::both;
use crate::device_signin::request_device;
use crate::helpers::*;
use crate::mfa::{code, status};
use crate::team::{call, crew, get_team};

both!(
    async fn the_owner_requires_a_factor_and_a_member_without_one_cannot_approve_devices(app) {
        let crew = crew(&app, "mfa").await;
        let member = &crew.members[0];
        let policy = |on: bool| json!({ "required": on });
        for who in [&crew.admins[0], &crew.members[1]] {
            let (s, v) = call(&app, Method::PUT, "/api/team/mfa-policy", Some(&who.token), Some(policy(true))).await;
            assert_eq!((s, error_code(&v)), (StatusCode::FORBIDDEN, "forbidden_role"), "{v}");
        }
        assert_eq!(status(&app, &member.token).await["required"], false);
        let (s, v) = call(&app, Method::PUT, "/api/team/mfa-policy", Some(&crew.owner.token), Some(policy(true))).await;
        assert_eq!((s, v.clone()), (StatusCode::OK, policy(true)), "{v}");
        assert_eq!(status(&app, &member.token).await["required"], true);
        // `/team` says so to a member; who has a factor (nobody yet) only to the owner and admins.
        let t = get_team(&app, member).await;
        assert_eq!(t["mfa_required"], true, "{t}");
        let t = get_team(&app, &crew.admins[0]).await;
        assert!(t["members"].as_array().unwrap().iter().all(|m| m["mfa"] == false), "{t}");
        assert_eq!(t["members_with_mfa"], 0, "{t}");

        let d = request_device(&app).await;
        let approve = json!({ "user_code": d["user_code"] });
        let (s, v) = call(&app, Method::POST, "/api/auth/device/approve", Some(&member.token), Some(approve.clone())).await;
        assert_eq!((s, error_code(&v)), (StatusCode::FORBIDDEN, "mfa_setup_required"), "{v}");

        let (_, e) = call(&app, Method::POST, "/api/auth/mfa/totp", Some(&member.token), None).await;
        let secret = e["secret"].as_str().unwrap();
        let (s, v) = call(&app, Method::POST, "/api/auth/mfa/totp/confirm", Some(&member.token), Some(json!({ "code": code(&app, secret, 0) }))).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let (s, v) = call(&app, Method::POST, "/api/auth/device/approve", Some(&member.token), Some(approve)).await;
        assert_eq!((s, v["status"].as_str()), (StatusCode::OK, Some("approved")), "{v}");
        let t = get_team(&app, &crew.owner).await;
        let with: Vec<String> = t["members"].as_array().unwrap().iter()
            .filter(|m| m["mfa"] == true).map(|m| m["user_id"].as_str().unwrap().to_string()).collect();
        assert_eq!(with, [member.id.to_string()], "the member who set up an app: {t}");
        assert_eq!(t["members_with_mfa"], 1, "counted for the whole team: {t}");

        // Turned off again: nothing is asked of members.
        let (s, _) = call(&app, Method::PUT, "/api/team/mfa-policy", Some(&crew.owner.token), Some(policy(false))).await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(status(&app, &member.token).await["required"], false);
        let (s, v) = call(&app, Method::PUT, "/api/team/mfa-policy", Some(&crew.owner.token), Some(json!({ "required": "yes" }))).await;
        assert_eq!((s, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_json"), "{v}");
    }
);

both!(
    async fn plain_members_are_not_told_who_has_a_second_factor(app) {
        let crew = crew(&app, "mfa-seen").await;
        let member = &crew.members[0];
        let (_, e) = call(&app, Method::POST, "/api/auth/mfa/totp", Some(&member.token), None).await;
        let secret = e["secret"].as_str().unwrap();
        let (s, v) = call(&app, Method::POST, "/api/auth/mfa/totp/confirm", Some(&member.token), Some(json!({ "code": code(&app, secret, 0) }))).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let has_factor = |t: &serde_json::Value| -> Vec<serde_json::Value> {
            t["members"].as_array().unwrap().iter().map(|m| m["mfa"].clone()).collect()
        };
        // A member: the members are listed, their second factors are not (in `/api/team` and in its pages).
        for who in [member, &crew.members[1]] {
            let t = get_team(&app, who).await;
            assert!(has_factor(&t).iter().all(serde_json::Value::is_null), "{t}");
            assert_eq!(t["members_with_mfa"], json!(null), "{t}");
            let (s, page) = call(&app, Method::GET, "/api/team/members", Some(&who.token), None).await;
            assert_eq!(s, StatusCode::OK, "{page}");
            assert!(has_factor(&page).iter().all(serde_json::Value::is_null), "{page}");
        }
        // The owner and admins see them.
        for who in [&crew.owner, &crew.admins[0]] {
            let t = get_team(&app, who).await;
            assert!(has_factor(&t).iter().all(serde_json::Value::is_boolean), "{t}");
            assert!(has_factor(&t).contains(&json!(true)), "{t}");
            assert_eq!(t["members_with_mfa"], 1, "{t}");
            let (_, page) = call(&app, Method::GET, "/api/team/members", Some(&who.token), None).await;
            assert_eq!(has_factor(&page), has_factor(&t), "{page}");
        }
    }
);
