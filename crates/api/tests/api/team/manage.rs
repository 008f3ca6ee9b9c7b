//! The team itself: creating (verified, once), its JSON, renaming, leaving, transferring, a member
//! deleting their account, the subscription fields, and bad input.

use closewise_core::store::SubscriptionRecord;
use closewise_domain::subscription::SubscriptionStatus;
use reqwest::{Method, StatusCode};
use serde_json::json;

use super::*;
use crate::both;

both!(
    async fn a_verified_user_creates_one_team_and_sees_it(app) {
        let ana = user(&app, "ana@northwind.example").await;
        let (status, v) = call(&app, Method::GET, "/api/team", Some(&ana.token), None).await;
        assert_eq!((status, v), (StatusCode::OK, json!({ "team": null })));
        let (status, v) = call(&app, Method::POST, "/api/team", Some(&ana.token), Some(json!({"name": "  Northwind Sales "}))).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        let t = &v["team"];
        assert!(t["id"].as_str().unwrap().parse::<Uuid>().is_ok());
        assert_eq!(t["name"], "Northwind Sales");
        assert_eq!(t["role"], "owner");
        assert_eq!(t["seats"], json!({"total": 0, "used": 1, "free": 0}));
        assert_eq!(t["subscription"], json!(null));
        assert_eq!(t["paid"], false);
        assert_eq!(t["join_domain"], json!(null));
        assert_eq!(t["domain_join_offer"], json!(null), "no verified domain yet");
        assert_eq!(t["personal_subscription_overlap"], false);
        assert_eq!(t["personal_subscription"], false);
        assert_eq!(t["invites"], json!([]));
        let m = &t["members"][0];
        assert_eq!((m["user_id"].as_str(), m["email"].as_str(), m["role"].as_str()), (Some(ana.id.to_string().as_str()), Some("ana@northwind.example"), Some("owner")));
        assert!(m["joined_at"].as_str().unwrap().ends_with('Z'));
        assert_eq!(m["calls_this_month"], 0);
        assert_eq!((m["mfa"].as_bool(), t["mfa_required"].as_bool()), (Some(false), Some(false)));
        let keys: Vec<&String> = t.as_object().unwrap().keys().collect();
        assert_eq!(t["invoice_min_seats"], 10);
        assert_eq!(keys.len(), 26, "exactly the documented fields: {keys:?}");
        // One member, no invites: the lists are whole (the first page, and no cursor after it).
        assert_eq!(
            (&t["members_count"], &t["members_with_mfa"], &t["members_next"]),
            (&json!(1), &json!(0), &json!(null))
        );
        assert_eq!((&t["invites_count"], &t["invites_next"]), (&json!(0), &json!(null)));
        assert_eq!(t["owner_email"], "ana@northwind.example");
        assert_eq!(get_team(&app, &ana).await, *t);
        assert_refused(call(&app, Method::POST, "/api/team", Some(&ana.token), Some(json!({"name": "Another"}))).await,
            StatusCode::CONFLICT, "already_in_team", "a second team");
        let (status, v) = call(&app, Method::PATCH, "/api/team", Some(&ana.token), Some(json!({"name": "Northwind EMEA"}))).await;
        assert_eq!((status, v["team"]["name"].as_str()), (StatusCode::OK, Some("Northwind EMEA")));
        let actions = audit_actions(&app).await;
        assert!(actions.iter().any(|a| a == "team.create") && actions.iter().any(|a| a == "team.rename"), "{actions:?}");
        let row = app.state.store.audit_log(10).await.unwrap().into_iter().find(|r| r.action == "team.rename").unwrap();
        assert_eq!(row.actor, "ana@northwind.example");
        assert_eq!(row.user_id, Some(ana.id));
    }
);

both!(
    async fn bad_input_is_a_clear_client_error(app) {
        let ana = user(&app, "ana@northwind.example").await;
        let t = Some(ana.token.as_str());
        for (case, body, code) in [
            ("empty name", json!({"name": "   "}), "invalid_team_name"),
            ("too long", json!({"name": "x".repeat(81)}), "invalid_team_name"),
            ("control character", json!({"name": "a\u{7}b"}), "invalid_team_name"),
            ("missing name", json!({}), "invalid_json"),
            ("name not a string", json!({"name": 5}), "invalid_json"),
        ] {
            assert_refused(call(&app, Method::POST, "/api/team", t, Some(body)).await, StatusCode::BAD_REQUEST, code, case);
        }
        let res = app.client.post(app.url("/api/team")).bearer_auth(&ana.token)
            .header("content-type", "application/json").body("{\"name\":").send().await.unwrap();
        assert_refused(body(res).await, StatusCode::BAD_REQUEST, "invalid_json", "malformed JSON");
        team(&app, &ana, "Northwind", 5).await;
        for (case, body, code) in [
            ("bad e-mail", json!({"email": "not-an-address", "role": "member"}), "invalid_email"),
            ("bad role", json!({"email": "rep@northwind.example", "role": "boss"}), "invalid_role"),
            ("owner role", json!({"email": "rep@northwind.example", "role": "owner"}), "invalid_role"),
            ("missing role", json!({"email": "rep@northwind.example"}), "invalid_json"),
        ] {
            assert_refused(call(&app, Method::POST, "/api/team/invites", t, Some(body)).await, StatusCode::BAD_REQUEST, code, case);
        }
        assert_refused(call(&app, Method::PATCH, "/api/team", t, Some(json!({"name": ""}))).await, StatusCode::BAD_REQUEST, "invalid_team_name", "rename empty");
        assert_refused(call(&app, Method::POST, "/api/team/transfer", t, Some(json!({"user_id": "nope"}))).await, StatusCode::BAD_REQUEST, "invalid_json", "transfer to a non-uuid");
        assert_refused(call(&app, Method::PUT, &format!("/api/team/members/{}/role", ana.id), t, Some(json!({"role": 1}))).await, StatusCode::BAD_REQUEST, "invalid_json", "role not a string");
        assert_refused(call(&app, Method::DELETE, "/api/team/invites/%20", t, None).await, StatusCode::NOT_FOUND, "team_not_found", "blank id");
        assert_refused(call(&app, Method::POST, "/api/team/invites/lookup", None, Some(json!({}))).await, StatusCode::BAD_REQUEST, "invalid_json", "lookup without token");
        assert_refused(call(&app, Method::GET, "/api/team", None, None).await, StatusCode::UNAUTHORIZED, "not_signed_in", "no token");
    }
);

both!(
    async fn an_unverified_user_cannot_create_a_team(app) {
        let ana = user(&app, "ana@northwind.example").await;
        app.execute("UPDATE users SET email_confirmed_at = NULL").await;
        assert_refused(call(&app, Method::POST, "/api/team", Some(&ana.token), Some(json!({"name": "Northwind"}))).await,
            StatusCode::FORBIDDEN, "email_not_verified", "unverified");
        assert_eq!(get_team(&app, &ana).await, json!(null));
    }
);

both!(
    async fn members_leave_the_owner_transfers_first(app) {
        let owner = user(&app, "ana@northwind.example").await;
        team(&app, &owner, "Northwind", 5).await;
        let rep = join(&app, &owner, "rep@northwind.example", "member").await;
        let got = call(&app, Method::POST, "/api/team/leave", Some(&owner.token), None).await;
        assert_refused(got, StatusCode::BAD_REQUEST, "owner_cannot_leave", "the owner");
        assert_refused(call(&app, Method::POST, "/api/team/transfer", Some(&owner.token), Some(json!({"user_id": owner.id}))).await,
            StatusCode::BAD_REQUEST, "invalid_transfer", "to oneself");
        let stranger = user(&app, "solo@northwind.example").await;
        assert_refused(call(&app, Method::POST, "/api/team/transfer", Some(&owner.token), Some(json!({"user_id": stranger.id}))).await,
            StatusCode::NOT_FOUND, "team_not_found", "to a non-member");
        let (status, v) = call(&app, Method::POST, "/api/team/transfer", Some(&owner.token), Some(json!({"user_id": rep.id}))).await;
        assert_eq!((status, v["team"]["role"].as_str()), (StatusCode::OK, Some("admin")), "{v}");
        assert_eq!(call(&app, Method::POST, "/api/team/leave", Some(&owner.token), None).await.0, StatusCode::NO_CONTENT);
        let t = get_team(&app, &rep).await;
        assert_eq!(t["role"], "owner");
        assert_eq!(t["seats"]["used"], 1);
        assert_eq!(get_team(&app, &owner).await, json!(null));
        assert_refused(call(&app, Method::POST, "/api/team/leave", Some(&owner.token), None).await, StatusCode::NOT_FOUND, "team_not_found", "in no team");
        let actions = audit_actions(&app).await;
        assert!(actions.iter().any(|a| a == "team.transfer") && actions.iter().any(|a| a == "team.leave"), "{actions:?}");
    }
);

both!(
    async fn a_member_deleting_their_account_frees_their_seat(app) {
        let owner = user(&app, "ana@northwind.example").await;
        team(&app, &owner, "Northwind", 2).await;
        let rep = join(&app, &owner, "rep@northwind.example", "member").await;
        assert_eq!(get_team(&app, &owner).await["seats"], json!({"total": 2, "used": 2, "free": 0}));
        let res = app.client.delete(app.url("/api/account")).bearer_auth(&rep.token)
            .json(&json!({"password": PASSWORD})).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::NO_CONTENT);
        let t = get_team(&app, &owner).await;
        assert_eq!(t["seats"], json!({"total": 2, "used": 1, "free": 1}));
        assert_eq!(t["members"].as_array().unwrap().len(), 1);
        assert_eq!(invite(&app, &owner, "next@northwind.example", "member").await.0, StatusCode::ACCEPTED, "the seat is free again");
    }
);

both!(
    async fn the_subscription_paid_and_the_personal_overlap_follow_the_rows(app) {
        let owner = user(&app, "ana@northwind.example").await;
        team(&app, &owner, "Northwind", 2).await;
        let rep = join(&app, &owner, "rep@northwind.example", "member").await;
        app.execute("UPDATE teams SET subscription_status = 'past_due', current_period_end = 1795000000").await;
        let t = get_team(&app, &rep).await;
        assert_eq!(t["subscription"], json!({"status": "past_due", "current_period_end": 1795000000, "cancel_at_period_end": false, "interval": null, "discount": null, "trial_end": null, "past_due_since": null, "attempt_count": null, "next_payment_attempt": null, "cancellation_reason": null}));
        assert_eq!((t["paid"].as_bool(), t["invites"].clone()), (Some(false), json!([])), "members do not see invites");
        let record = SubscriptionRecord {
            customer_id: "cus_rep".into(),
            subscription_id: "sub_rep".into(),
            price_id: Some("price_closewise_monthly".into()),
            status: SubscriptionStatus::Active,
            cancel_at_period_end: false,
            current_period_end: Some(1_795_000_000),
            payment_method_brand: None,
            payment_method_last4: None,
            discount: None,
        };
        app.state.store.apply_subscription(rep.id, &record, app.state.clock.now()).await.unwrap();
        let t = get_team(&app, &rep).await;
        assert_eq!((t["personal_subscription"].as_bool(), t["personal_subscription_overlap"].as_bool()), (Some(true), Some(false)), "the team is not paid: {t}");
        app.execute("UPDATE teams SET subscription_status = 'trialing'").await;
        let t = get_team(&app, &rep).await;
        assert_eq!((t["paid"].as_bool(), t["personal_subscription_overlap"].as_bool()), (Some(true), Some(true)));
        let t = get_team(&app, &owner).await;
        assert_eq!((t["personal_subscription"].as_bool(), t["personal_subscription_overlap"].as_bool()), (Some(false), Some(false)), "the owner pays nothing personally");
    }
);
