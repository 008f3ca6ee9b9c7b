//! `GET /api/entitlements` is answered from the facts cached per user, and never
//! outlives a write: for every kind of write that changes what it answers — the meter (a call
//! started, ended, lapsed; an operator's grant), the plan, the team seat, the team's policy — the
//! very next read, whose facts the cache already holds, shows it; and what depends on the clock
//! (a call's cap, the month) is decided afresh at each read. On both databases, in one process;
//! `tests/replicas/read_cache.rs` covers other processes.

use closewise_core::actor::Actor;
use closewise_domain::subscription::SubscriptionStatus;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use time::Duration;

use crate::both;
use crate::calls::{end, started};
use crate::helpers::*;
use crate::read_cache::read;
use crate::revocation::warm;
use crate::team::{call, crew, user};

/// Reads `/api/entitlements` twice once the caches are live (the first fills the cache, the
/// second is answered from it) and returns the answer without its token (minted per read).
pub async fn cached(app: &TestApp, token: &str) -> Value {
    warm(app, token).await;
    let first = facts(&read(app, "/api/entitlements", token).await);
    assert_eq!(
        facts(&read(app, "/api/entitlements", token).await),
        first,
        "twice"
    );
    first
}

pub async fn next(app: &TestApp, token: &str) -> Value {
    facts(&read(app, "/api/entitlements", token).await)
}

fn facts(v: &Value) -> Value {
    let mut v = v.clone();
    v.as_object_mut().unwrap().remove("entitlement_token");
    v
}

fn ops() -> Actor {
    Actor::operator("ops@closewise.app", Some("ticket 9".into()))
}

both!(
    async fn a_call_started_and_a_grant_show_in_the_next_entitlements(app) {
        let ana = user(&app, "ana@example.com").await;
        let e = cached(&app, &ana.token).await;
        assert_eq!((e["calls"].clone(), e["calls_this_month"].as_u64()), (json!({"limit": 5, "used": 0, "remaining": 5}), Some(0)));
        let id = started(&app, &ana.token, "one").await;
        let e = next(&app, &ana.token).await;
        assert_eq!((e["calls"].clone(), e["calls_this_month"].as_u64()), (json!({"limit": 5, "used": 1, "remaining": 4}), Some(1)), "started");
        assert_eq!(end(&app, &ana.token, &id).await.0, StatusCode::OK);
        assert_eq!(next(&app, &ana.token).await["calls"]["used"], 1, "ended: still counted");

        cached(&app, &ana.token).await;
        app.state.usage.grant(&ops(), (ana.id, "ana@example.com"), 2).await.unwrap();
        assert_eq!(next(&app, &ana.token).await["calls"], json!({"limit": 7, "used": 1, "remaining": 6}), "granted");
    }
);

both!(
    async fn a_lapsed_call_is_ended_at_the_next_entitlements_though_its_facts_are_cached(app) {
        let ana = user(&app, "ana@example.com").await;
        started(&app, &ana.token, "left-open").await;
        cached(&app, &ana.token).await;
        assert_eq!(app.state.store.open_calls_of(ana.id).await.unwrap().len(), 1);
        // Still within its cap and heartbeat window: the cached facts need no query.
        app.advance(Duration::seconds(30));
        next(&app, &ana.token).await;
        assert_eq!(app.state.store.open_calls_of(ana.id).await.unwrap().len(), 1);
        // Abandoned (no heartbeat) and past the Free Trial's 5 minutes: ended at the next read.
        app.advance(Duration::seconds(300));
        let e = next(&app, &ana.token).await;
        assert_eq!(e["calls"]["used"], 1);
        assert!(app.state.store.open_calls_of(ana.id).await.unwrap().is_empty(), "lapsed call ended");
    }
);

both!(
    async fn the_months_count_starts_again_at_the_month_boundary_though_cached(app) {
        let ana = user(&app, "ana@example.com").await;
        let id = started(&app, &ana.token, "one").await;
        end(&app, &ana.token, &id).await;
        assert_eq!(cached(&app, &ana.token).await["calls_this_month"], 1);
        app.advance(Duration::days(32));
        // The access token has expired meanwhile: another sign-in; the facts are the user's.
        let token = crate::calls::another_session(&app, "ana@example.com").await;
        let e = next(&app, &token).await;
        assert_eq!((e["calls_this_month"].as_u64(), e["calls"]["used"].as_u64()), (Some(0), Some(1)), "{e}");
    }
);

both!(
    async fn a_plan_and_a_subscriptions_period_end_show_in_the_next_entitlements(app) {
        let ana = user(&app, "ana@example.com").await;
        assert_eq!(cached(&app, &ana.token).await["unlimited"], false);
        crate::entitlements::subscription(&app, ana.id, SubscriptionStatus::Active).await;
        assert_eq!(next(&app, &ana.token).await["unlimited"], true, "subscribed");
        crate::entitlements::subscription(&app, ana.id, SubscriptionStatus::Unpaid).await;
        assert_eq!(cached(&app, &ana.token).await["warning"], "payment_failed");
        // The unpaid period ends with the clock, not with a write.
        app.advance(Duration::days(31));
        let token = crate::calls::another_session(&app, "ana@example.com").await;
        let e = next(&app, &token).await;
        assert_eq!((e["unlimited"].as_bool(), e["warning"].is_null()), (Some(false), true), "{e}");
        let now = app.state.clock.now();
        app.state.store.set_plan(ana.id, "monthly", now, None).await.unwrap();
        assert_eq!(next(&app, &token).await["unlimited"], true, "operator's plan");
    }
);

both!(
    async fn the_teams_policy_and_seat_show_in_the_members_next_entitlements(app) {
        let crew = crew(&app, "ent").await;
        let rep = &crew.members[0];
        let e = cached(&app, &rep.token).await;
        assert_eq!((e["team"]["name"].as_str(), e["policy"]["consent_notice"]["mode"].as_str()), (Some("ent Sales"), Some("off")));
        let (s, v) = call(&app, Method::GET, "/api/team/policy", Some(&crew.owner.token), None).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let mut policy = v["policy"].clone();
        policy["consent_notice"] = json!({"mode": "show", "text": "Recorded.", "regions": {}});
        let (s, v) = call(&app, Method::PUT, "/api/team/policy", Some(&crew.admins[0].token), Some(policy)).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(next(&app, &rep.token).await["policy"]["consent_notice"]["mode"], "show", "policy saved");

        cached(&app, &rep.token).await;
        let (s, v) = call(&app, Method::PUT, "/api/team/mfa-policy", Some(&crew.owner.token), Some(json!({"required": true}))).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(next(&app, &rep.token).await["policy"]["require_mfa"], true, "require_mfa flipped");

        // The seat given back: no team, the default policy.
        let other = &crew.members[1];
        cached(&app, &other.token).await;
        let (s, v) = call(&app, Method::POST, "/api/team/leave", Some(&other.token), None).await;
        assert!(s.is_success(), "{v}");
        let e = next(&app, &other.token).await;
        assert!(e["team"].is_null(), "left: {e}");
        assert_eq!(e["policy"]["require_mfa"], false);
    }
);

both!(
    async fn a_team_joined_shows_in_the_next_entitlements(app) {
        let owner = user(&app, "ana@northwind.example").await;
        crate::team::team(&app, &owner, "Northwind", 3).await;
        let rep = user(&app, "rep@northwind.example").await;
        assert!(cached(&app, &rep.token).await["team"].is_null());
        let (status, v) = crate::team::invite(&app, &owner, "rep@northwind.example", "member").await;
        assert_eq!(status, StatusCode::ACCEPTED, "{v}");
        let link = app.token_from_mail("rep@northwind.example", "team_invite").await;
        let (status, v) = call(&app, Method::POST, "/api/team/invites/accept", Some(&rep.token), Some(json!({ "token": link }))).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(next(&app, &rep.token).await["team"]["name"], "Northwind", "joined");
    }
);

both!(
    async fn the_device_is_noted_as_seen_once_a_minute_not_at_every_read(app) {
        let ana = user(&app, "ana@example.com").await;
        let seen = || closewise_testkit::scalar(&app.database_url, "SELECT COUNT(*) FROM sessions WHERE last_seen_at IS NOT NULL");
        cached(&app, &ana.token).await;
        assert_eq!(seen().await, 1);
        // Forgotten in the database: the process still knows it noted the device this minute.
        app.execute("UPDATE sessions SET last_seen_at = NULL").await;
        app.advance(Duration::seconds(30));
        next(&app, &ana.token).await;
        assert_eq!(seen().await, 0, "within the minute: not written again");
        app.advance(Duration::seconds(31));
        next(&app, &ana.token).await;
        assert_eq!(seen().await, 1, "a minute later: seen again");
    }
);

both!(
    async fn raw_sql_in_a_test_empties_the_entitlements_cache_too(app) {
        let ana = user(&app, "ana@example.com").await;
        cached(&app, &ana.token).await;
        app.execute("UPDATE user_plans SET plan_type = 'monthly'").await;
        assert_eq!(next(&app, &ana.token).await["unlimited"], true);
    }
);
