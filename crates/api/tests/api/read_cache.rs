//! The read path's cache of what authenticated reads return never outlives a write:
//! for every write that changes `GET /api/auth/user`, `/api/plan` or `/api/subscription`, the
//! very next read, whose answer the cache already holds, shows it. On both databases, in one
//! process; `tests/replicas` covers other processes.

use closewise_core::store::SubscriptionRecord;
use closewise_domain::subscription::SubscriptionStatus;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use uuid::Uuid;

use crate::both;
use crate::helpers::*;
use crate::revocation::warm;
use crate::team::{call, invite, team, user, User};

/// `GET path` with the token: 200 and its body.
pub async fn read(app: &TestApp, path: &str, token: &str) -> Value {
    let (status, v) = body(app.get_auth(path, token).await).await;
    assert_eq!(status, StatusCode::OK, "{path}: {v}");
    v
}

/// Reads the three cached endpoints twice (the first fills the caches, the second is answered
/// from them), once the caches are live.
async fn cached(app: &TestApp, token: &str) {
    warm(app, token).await;
    for path in ["/api/auth/user", "/api/plan", "/api/subscription"] {
        let first = read(app, path, token).await;
        assert_eq!(read(app, path, token).await, first, "{path} twice");
    }
}

fn team_record(status: SubscriptionStatus) -> SubscriptionRecord {
    SubscriptionRecord {
        customer_id: "cus_team".into(),
        subscription_id: "sub_team".into(),
        price_id: Some("price_closewise_monthly".into()),
        status,
        cancel_at_period_end: false,
        current_period_end: Some(1_795_000_000),
        payment_method_brand: None,
        payment_method_last4: None,
        discount: None,
    }
}

async fn team_of(app: &TestApp, u: &User) -> Uuid {
    app.state
        .store
        .membership_of(u.id)
        .await
        .unwrap()
        .expect("a team")
        .0
}

both!(
    async fn an_operators_plan_change_shows_in_the_next_read(app) {
        let ana = user(&app, "ana@example.com").await;
        cached(&app, &ana.token).await;
        assert_eq!(read(&app, "/api/plan", &ana.token).await["plan_type"], "free");
        let now = app.state.clock.now();
        app.state.store.set_plan(ana.id, "monthly", now, None).await.unwrap();
        let plan = read(&app, "/api/plan", &ana.token).await;
        assert_eq!((plan["plan_type"].as_str(), plan["paid"].as_bool()), (Some("monthly"), Some(true)));
        app.state.store.set_plan(ana.id, "free", now, None).await.unwrap();
        assert_eq!(read(&app, "/api/plan", &ana.token).await["plan_type"], "free");
    }
);

both!(
    async fn a_subscription_from_stripe_shows_in_the_next_reads(app) {
        // The webhook and the checkout's confirmation both store it with `apply_subscription`.
        let ana = user(&app, "ana@example.com").await;
        cached(&app, &ana.token).await;
        assert_eq!(read(&app, "/api/subscription", &ana.token).await, json!({"subscription": null}));
        crate::entitlements::subscription(&app, ana.id, SubscriptionStatus::Active).await;
        let s = read(&app, "/api/subscription", &ana.token).await;
        assert_eq!(s["subscription"]["subscription_status"], "active", "{s}");
        let plan = read(&app, "/api/plan", &ana.token).await;
        assert_eq!((plan["plan_type"].as_str(), plan["checkout"].as_str()), (Some("monthly"), Some("current_plan")));
        crate::entitlements::subscription(&app, ana.id, SubscriptionStatus::Canceled).await;
        assert_eq!(read(&app, "/api/subscription", &ana.token).await["subscription"]["subscription_status"], "canceled");
        assert_eq!(read(&app, "/api/plan", &ana.token).await["plan_type"], "free");
    }
);

both!(
    async fn an_operators_confirmation_shows_in_the_next_read(app) {
        let ana = user(&app, "ana@example.com").await;
        app.execute("UPDATE users SET email_confirmed_at = NULL").await;
        cached(&app, &ana.token).await;
        assert!(read(&app, "/api/auth/user", &ana.token).await["user"]["email_confirmed_at"].is_null());
        assert_eq!(read(&app, "/api/plan", &ana.token).await["checkout"], "verify_email");
        let now = app.state.clock.now();
        assert!(app.state.store.confirm_email(ana.id, now).await.unwrap());
        let u = read(&app, "/api/auth/user", &ana.token).await;
        assert!(u["user"]["email_confirmed_at"].is_string(), "{u}");
        assert_eq!(read(&app, "/api/plan", &ana.token).await["checkout"], "available");
    }
);

both!(
    async fn a_teams_subscription_and_its_seats_show_in_the_members_next_read(app) {
        let owner = user(&app, "ana@northwind.example").await;
        team(&app, &owner, "Northwind", 3).await;
        let team_id = team_of(&app, &owner).await;
        cached(&app, &owner.token).await;
        assert_eq!(read(&app, "/api/plan", &owner.token).await["checkout"], "available");
        let now = app.state.clock.now();
        let store = &app.state.store;
        assert!(store.apply_team_subscription(team_id, &team_record(SubscriptionStatus::Active), 3, now).await.unwrap());
        assert_eq!(read(&app, "/api/plan", &owner.token).await["checkout"], "current_plan", "the team pays");

        // A seat taken: the invitee's cached plan follows the team they joined.
        let (status, v) = invite(&app, &owner, "rep@northwind.example", "member").await;
        assert_eq!(status, StatusCode::ACCEPTED, "{v}");
        let link = app.token_from_mail("rep@northwind.example", "team_invite").await;
        let rep = user(&app, "rep@northwind.example").await;
        cached(&app, &rep.token).await;
        assert_eq!(read(&app, "/api/plan", &rep.token).await["checkout"], "available");
        let (status, v) = call(&app, Method::POST, "/api/team/invites/accept", Some(&rep.token), Some(json!({ "token": link }))).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(read(&app, "/api/plan", &rep.token).await["checkout"], "current_plan", "joined");

        // A role changed, then the seat given back.
        let path = format!("/api/team/members/{}/role", rep.id);
        let (status, v) = call(&app, Method::PUT, &path, Some(&owner.token), Some(json!({"role": "admin"}))).await;
        assert!(status.is_success(), "{v}");
        assert_eq!(read(&app, "/api/plan", &rep.token).await["checkout"], "current_plan");
        let path = format!("/api/team/members/{}", rep.id);
        let (status, v) = call(&app, Method::DELETE, &path, Some(&owner.token), None).await;
        assert!(status.is_success(), "{v}");
        // Removed: that session ended (team::removal); a new one reads the plan without the team.
        assert_eq!(app.get_auth("/api/plan", &rep.token).await.status(), StatusCode::UNAUTHORIZED);
        let again = crate::calls::another_session(&app, "rep@northwind.example").await;
        assert_eq!(read(&app, "/api/plan", &again).await["checkout"], "available", "removed");

        // The team's subscription ends: every member's cached plan follows.
        assert!(store.apply_team_subscription(team_id, &team_record(SubscriptionStatus::Canceled), 3, now).await.unwrap());
        assert_eq!(read(&app, "/api/plan", &owner.token).await["checkout"], "available", "the team no longer pays");
    }
);

both!(
    async fn leaving_or_losing_the_team_shows_in_the_next_read(app) {
        let owner = user(&app, "ana@northwind.example").await;
        team(&app, &owner, "Northwind", 3).await;
        let team_id = team_of(&app, &owner).await;
        let now = app.state.clock.now();
        let store = &app.state.store;
        store.apply_team_subscription(team_id, &team_record(SubscriptionStatus::Active), 3, now).await.unwrap();
        let rep = crate::team::join(&app, &owner, "rep@northwind.example", "member").await;
        cached(&app, &rep.token).await;
        assert_eq!(read(&app, "/api/plan", &rep.token).await["checkout"], "current_plan");
        let (status, v) = call(&app, Method::POST, "/api/team/leave", Some(&rep.token), None).await;
        assert!(status.is_success(), "{v}");
        assert_eq!(read(&app, "/api/plan", &rep.token).await["checkout"], "available", "left");

        // An operator deletes the team: the owner's seat goes with it.
        cached(&app, &owner.token).await;
        assert_eq!(read(&app, "/api/plan", &owner.token).await["checkout"], "current_plan");
        let audit = closewise_core::store::audit::NewAudit {
            actor: "operator".into(),
            action: "team.delete",
            user_id: None,
            target_email: None,
            reason: None,
            details: json!({}),
            now,
        };
        assert!(store.delete_team_audited(team_id, &audit).await.unwrap());
        assert_eq!(read(&app, "/api/plan", &owner.token).await["checkout"], "available", "no team");
    }
);

both!(
    async fn raw_sql_in_a_test_empties_the_caches_too(app) {
        let ana = user(&app, "ana@example.com").await;
        cached(&app, &ana.token).await;
        app.execute("UPDATE user_plans SET plan_type = 'monthly'").await;
        assert_eq!(read(&app, "/api/plan", &ana.token).await["plan_type"], "monthly");
    }
);
