//! Paid calls re-check the plan at each heartbeat and have a server-side length:
//! a lapsed plan ends the call at the next heartbeat with `409 plan_lapsed`, a paid call ends
//! after 4 hours with `409 call_time_limit_reached`, a healthy paid call goes on.

use closewise_core::store::SubscriptionRecord;
use closewise_domain::subscription::SubscriptionStatus;
use closewise_domain::usage::{PAID_CALL_TIME_LIMIT_MESSAGE, PLAN_LAPSED_MESSAGE};
use reqwest::{Method, StatusCode};
use time::Duration;
use uuid::Uuid;

use crate::both;
use crate::calls::{another_session, end, entitlements, heartbeat, started, user};
use crate::entitlements::subscription;
use crate::helpers::*;

both!(
    async fn a_paid_call_ends_at_the_next_heartbeat_once_the_subscription_lapsed(app) {
        let (token, user_id) = user(&app, "ana@example.com").await;
        subscription(&app, user_id, SubscriptionStatus::Active).await;
        let id = started(&app, &token, "pitch").await;
        app.advance(Duration::seconds(30));
        let (status, v) = heartbeat(&app, &token, &id).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        // A failing payment only warns: the call goes on.
        subscription(&app, user_id, SubscriptionStatus::PastDue).await;
        app.advance(Duration::seconds(30));
        let (status, v) = heartbeat(&app, &token, &id).await;
        assert_eq!(status, StatusCode::OK, "past due is still paid: {v}");
        subscription(&app, user_id, SubscriptionStatus::Canceled).await;
        app.advance(Duration::seconds(30));
        let (status, v) = heartbeat(&app, &token, &id).await;
        assert_eq!((status, error_code(&v)), (StatusCode::CONFLICT, "plan_lapsed"), "{v}");
        assert_eq!(error_message(&v), PLAN_LAPSED_MESSAGE);
        app.advance(Duration::seconds(30));
        let (status, v) = heartbeat(&app, &token, &id).await;
        assert_eq!((status, error_code(&v)), (StatusCode::CONFLICT, "plan_lapsed"), "it stays ended: {v}");
        let (status, v) = end(&app, &token, &id).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["duration_seconds"], 90, "ended at the heartbeat that found the plan gone");
        let reason = closewise_testkit::scalar(
            &app.database_url,
            "SELECT COUNT(*) FROM calls WHERE ended_reason = 'plan_lapsed'",
        )
        .await;
        assert_eq!(reason, 1);
        assert_eq!(entitlements(&app, &token).await["plan_type"], "free");
    }
);

both!(
    async fn a_team_seat_given_up_mid_call_ends_it_at_the_next_heartbeat(app) {
        use crate::team::{call, join, team, user as team_user};
        let owner = team_user(&app, "owner@acme.test").await;
        let t = team(&app, &owner, "Acme", 3).await;
        let team_id: Uuid = t["id"].as_str().unwrap().parse().unwrap();
        let record = SubscriptionRecord {
            customer_id: "cus_acme".into(),
            subscription_id: "sub_acme".into(),
            price_id: Some("price_closewise_monthly".into()),
            status: SubscriptionStatus::Active,
            cancel_at_period_end: false,
            current_period_end: Some(app.state.clock.now().unix_timestamp() + 30 * 86_400),
            payment_method_brand: None,
            payment_method_last4: None,
            discount: None,
        };
        assert!(app.state.store.apply_team_subscription(team_id, &record, 3, app.state.clock.now()).await.unwrap());
        let rep = join(&app, &owner, "rep@acme.test", "member").await;
        assert_eq!(entitlements(&app, &rep.token).await["plan_type"], "monthly", "the seat pays");
        let id = started(&app, &rep.token, "team-call").await;
        app.advance(Duration::seconds(30));
        assert_eq!(heartbeat(&app, &rep.token, &id).await.0, StatusCode::OK);
        // Leaving keeps the session, so the call hears the plan lapse.
        let (status, v) = call(&app, Method::POST, "/api/team/leave", Some(&rep.token), None).await;
        assert!(status.is_success(), "{v}");
        app.advance(Duration::seconds(30));
        let (status, v) = heartbeat(&app, &rep.token, &id).await;
        assert_eq!((status, error_code(&v)), (StatusCode::CONFLICT, "plan_lapsed"), "{v}");
        // A removal ends the session itself (team::removal): the next heartbeat is 401.
        let back = join(&app, &owner, "rep2@acme.test", "member").await;
        let id = started(&app, &back.token, "team-call-2").await;
        let (status, v) = call(&app, Method::DELETE, &format!("/api/team/members/{}", back.id), Some(&owner.token), None).await;
        assert!(status.is_success(), "{v}");
        let (status, v) = heartbeat(&app, &back.token, &id).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{v}");
    }
);

both!(
    async fn a_paid_call_is_ended_after_four_hours_and_goes_on_until_then(app) {
        let (mut token, user_id) = user(&app, "ana@example.com").await;
        subscription(&app, user_id, SubscriptionStatus::Active).await;
        let id = started(&app, &token, "marathon").await;
        let step = Duration::seconds(100);
        let mut elapsed = Duration::ZERO;
        while elapsed + step < Duration::hours(4) {
            app.advance(step);
            elapsed += step;
            if elapsed.whole_seconds() % 3000 == 0 {
                // Access tokens last an hour; the app refreshes, a new sign-in does here.
                token = another_session(&app, "ana@example.com").await;
            }
            let (status, v) = heartbeat(&app, &token, &id).await;
            assert_eq!(status, StatusCode::OK, "at {elapsed}: {v}");
            assert_eq!(v["elapsed_seconds"], elapsed.whole_seconds());
        }
        app.advance(Duration::hours(4) - elapsed + Duration::seconds(1));
        let (status, v) = heartbeat(&app, &token, &id).await;
        assert_eq!((status, error_code(&v)), (StatusCode::CONFLICT, "call_time_limit_reached"), "{v}");
        assert_eq!(error_message(&v), PAID_CALL_TIME_LIMIT_MESSAGE);
        let (_, v) = end(&app, &token, &id).await;
        assert_eq!(v["duration_seconds"], 4 * 3600, "capped at four hours");
        // The next call starts as usual.
        let next = started(&app, &token, "next").await;
        assert_eq!(heartbeat(&app, &token, &next).await.0, StatusCode::OK);
    }
);
