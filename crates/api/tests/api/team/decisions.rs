//! The decisions the team answer carries for the screens (docs/api.md, "Teams"): what the caller
//! may do, whom they may remove or give another role, the roles they may invite as, the seats
//! form to show and the range it accepts, a failed payment. The server decides; the web renders.

use reqwest::StatusCode;
use serde_json::{json, Value};

use super::*;
use crate::both;

/// `(email, may_remove, may_change_role)` of every member, in the answer's order.
fn member_decisions(t: &Value) -> Vec<(String, bool, bool)> {
    t["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let email = m["email"]
                .as_str()
                .unwrap()
                .split('@')
                .next()
                .unwrap()
                .to_string();
            (
                email,
                m["may_remove"].as_bool().unwrap(),
                m["may_change_role"].as_bool().unwrap(),
            )
        })
        .collect()
}

fn sorted(mut v: Vec<(String, bool, bool)>) -> Vec<(String, bool, bool)> {
    v.sort();
    v
}

both!(
    async fn each_role_is_told_what_it_may_do_and_to_whom(app) {
        let crew = crew(&app, "d").await;
        let row = |name: &str, remove: bool, role: bool| (name.to_string(), remove, role);

        let t = get_team(&app, &crew.owner).await;
        assert_eq!(t["may"], json!({
            "rename": true, "invite": true, "approve_join": true, "configure_domain_join": true,
            "leave": false, "transfer": true, "delete": true, "manage_billing": true,
            "buy_seats": true, "change_seats": false, "require_mfa": true,
            "start_trial": true, "pay_by_invoice": true,
            "remove_members": true, "set_policy": true, "manage_domains": true, "manage_scim": true,
            "configure_sso": true, "manage_streams": true, "view_adoption": true, "view_activity": true,
            "view_invoices": true, "edit_billing_details": true,
        }), "the owner, before any checkout");
        assert_eq!(t["invite_roles"], json!(["member", "admin"]));
        assert_eq!(sorted(member_decisions(&t)), vec![
            row("d-admin0", true, true), row("d-admin1", true, true),
            row("d-member0", true, true), row("d-member1", true, true),
            row("d-owner", false, false),
        ]);

        let t = get_team(&app, &crew.admins[0]).await;
        assert_eq!(t["may"], json!({
            "rename": false, "invite": true, "approve_join": true, "configure_domain_join": false,
            "leave": true, "transfer": false, "delete": false, "manage_billing": false,
            "buy_seats": false, "change_seats": false, "require_mfa": false,
            "start_trial": false, "pay_by_invoice": false,
            "remove_members": true, "set_policy": true, "manage_domains": false, "manage_scim": false,
            "configure_sso": false, "manage_streams": false, "view_adoption": true, "view_activity": true,
            "view_invoices": true, "edit_billing_details": false,
        }), "an admin");
        assert_eq!(t["invite_roles"], json!(["member"]), "admins invite members only");
        assert_eq!(sorted(member_decisions(&t)), vec![
            row("d-admin0", false, false), row("d-admin1", false, false),
            row("d-member0", true, false), row("d-member1", true, false),
            row("d-owner", false, false),
        ]);

        let t = get_team(&app, &crew.members[0]).await;
        assert_eq!(t["may"], json!({
            "rename": false, "invite": false, "approve_join": false, "configure_domain_join": false,
            "leave": true, "transfer": false, "delete": false, "manage_billing": false,
            "buy_seats": false, "change_seats": false, "require_mfa": false,
            "start_trial": false, "pay_by_invoice": false,
            "remove_members": false, "set_policy": false, "manage_domains": false, "manage_scim": false,
            "configure_sso": false, "manage_streams": false, "view_adoption": false, "view_activity": false,
            "view_invoices": false, "edit_billing_details": false,
        }), "a member");
        assert_eq!(t["invite_roles"], json!([]));
        assert!(member_decisions(&t).iter().all(|(_, remove, role)| !remove && !role), "{t}");
    }
);

both!(
    async fn the_seats_form_range_and_payment_follow_the_subscription(app) {
        let owner = user(&app, "ana@northwind.example").await;
        let t = team(&app, &owner, "Northwind", 0).await;
        assert_eq!((t["seats"].clone(), t["seat_range"].clone()), (json!({"total": 0, "used": 1, "free": 0}), json!({"min": 1, "max": 10000})), "the creation's answer");
        assert_eq!((t["may"]["buy_seats"].clone(), t["may"]["change_seats"].clone(), t["payment_failed"].clone()), (json!(true), json!(false), json!(false)));
        crate::helpers::record_seats(&app, owner.id, 3).await;
        let rep = join(&app, &owner, "rep@northwind.example", "member").await;
        assert_eq!(invite(&app, &owner, "next@northwind.example", "member").await.0, StatusCode::ACCEPTED);
        assert_eq!(get_team(&app, &owner).await["seat_range"], json!({"min": 3, "max": 10000}), "members and pending invites");
        for (status, buy, change, failed) in [
            ("active", false, true, false),
            ("trialing", false, true, false),
            ("past_due", false, true, true),
            ("unpaid", false, true, true),
            ("paused", false, true, true),
            ("incomplete", true, false, false),
            ("canceled", true, false, false),
            ("incomplete_expired", true, false, false),
        ] {
            app.execute(&format!("UPDATE teams SET subscription_status = '{status}'")).await;
            let t = get_team(&app, &owner).await;
            assert_eq!((t["may"]["buy_seats"].as_bool(), t["may"]["change_seats"].as_bool(), t["payment_failed"].as_bool()), (Some(buy), Some(change), Some(failed)), "the owner, {status}");
            let t = get_team(&app, &rep).await;
            assert_eq!((t["may"]["buy_seats"].as_bool(), t["may"]["change_seats"].as_bool(), t["payment_failed"].as_bool()), (Some(false), Some(false), Some(failed)), "a member, {status}");
        }
        app.execute("UPDATE teams SET seats = 1").await;
        let t = get_team(&app, &owner).await;
        assert_eq!((t["over_seats"].clone(), t["seat_range"]["min"].clone()), (json!(true), json!(3)), "over seats, the range still starts at the seats in use: {t}");
    }
);
