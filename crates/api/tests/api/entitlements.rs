//! `GET /api/entitlements`: the Free Trial's meter, the paid plan, plan changes at once, the
//! payment warning, operators' grants and the signed entitlement token.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use closewise_core::actor::Actor;
use closewise_core::store::SubscriptionRecord;
use closewise_domain::subscription::SubscriptionStatus;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use reqwest::StatusCode;
use serde_json::{json, Value};
use time::Duration;
use uuid::Uuid;

use crate::both;
use crate::calls::{another_session, end, entitlements, heartbeat, start, started, user};
use crate::helpers::*;

/// Stores a subscription of `status` for the user, as a webhook would (also used by `paid_calls`).
pub async fn subscription(app: &TestApp, user_id: Uuid, status: SubscriptionStatus) {
    let record = SubscriptionRecord {
        customer_id: "cus_ana".into(),
        subscription_id: "sub_ana".into(),
        price_id: Some("price_closewise_monthly".into()),
        status,
        cancel_at_period_end: false,
        current_period_end: Some(app.state.clock.now().unix_timestamp() + 30 * 86_400),
        payment_method_brand: Some("visa".into()),
        payment_method_last4: Some("4242".into()),
        discount: None,
    };
    app.state
        .store
        .apply_subscription(user_id, &record, app.state.clock.now())
        .await
        .unwrap();
}

fn verify(jwks: &Value, token: &str) -> Option<Value> {
    let key = DecodingKey::from_ed_components(jwks["keys"][0]["x"].as_str().unwrap()).unwrap();
    let mut validation = Validation::new(Algorithm::EdDSA);
    validation.set_audience(&["closewise-desktop"]);
    validation.set_issuer(&["http://127.0.0.1:8080"]);
    jsonwebtoken::decode::<Value>(token, &key, &validation)
        .ok()
        .map(|d| d.claims)
}

both!(
    async fn a_new_free_user_has_five_calls_of_five_minutes(app) {
        let (token, _) = user(&app, "ana@example.com").await;
        let e = entitlements(&app, &token).await;
        assert_eq!(e["plan_type"], "free");
        assert_eq!(e["unlimited"], false);
        assert_eq!(e["calls"], json!({ "limit": 5, "used": 0, "remaining": 5 }));
        assert_eq!(e["max_call_seconds"], 300);
        assert_eq!(e["calls_this_month"], 0);
        assert!(e["warning"].is_null());
        assert!(e["entitlement_token"].as_str().unwrap().starts_with("eyJ"));
        let seen = closewise_testkit::scalar(
            &app.database_url,
            "SELECT COUNT(*) FROM sessions WHERE last_seen_at IS NOT NULL",
        )
        .await;
        assert_eq!(seen, 1, "the asking device is noted as seen");
        let (status, v) = body(app.client.get(app.url("/api/entitlements")).send().await.unwrap()).await;
        assert_eq!((status, error_code(&v)), (StatusCode::UNAUTHORIZED, "not_signed_in"));
    }
);

both!(
    async fn a_paid_user_is_unlimited_with_uncapped_calls(app) {
        let (token, user_id) = user(&app, "ana@example.com").await;
        subscription(&app, user_id, SubscriptionStatus::Active).await;
        let e = entitlements(&app, &token).await;
        assert_eq!((e["plan_type"].as_str(), e["unlimited"].as_bool()), (Some("monthly"), Some(true)));
        assert!(e["calls"].is_null() && e["max_call_seconds"].is_null() && e["warning"].is_null());
        for n in 0..7 {
            let (status, v) = start(&app, &token, &format!("paid-{n}")).await;
            assert_eq!(status, StatusCode::CREATED, "{v}");
            assert!(v["max_seconds"].is_null());
        }
        let id = started(&app, &token, "long").await;
        for _ in 0..8 {
            app.advance(Duration::seconds(60));
            let (status, v) = heartbeat(&app, &token, &id).await;
            assert_eq!(status, StatusCode::OK, "{v}");
        }
        let (_, v) = end(&app, &token, &id).await;
        assert_eq!(v["duration_seconds"], 480);
        assert_eq!(entitlements(&app, &token).await["calls_this_month"], 8);
    }
);

both!(
    async fn an_upgrade_lifts_the_limit_at_once_and_an_ended_subscription_puts_it_back(app) {
        let (token, user_id) = user(&app, "ana@example.com").await;
        for n in 0..5 {
            started(&app, &token, &format!("free-{n}")).await;
        }
        assert_eq!(start(&app, &token, "blocked").await.0, StatusCode::FORBIDDEN);

        subscription(&app, user_id, SubscriptionStatus::Active).await;
        assert_eq!(entitlements(&app, &token).await["unlimited"], true);
        let (status, v) = start(&app, &token, "blocked").await;
        assert_eq!((status, v["max_seconds"].is_null()), (StatusCode::CREATED, true));

        subscription(&app, user_id, SubscriptionStatus::Canceled).await;
        let e = entitlements(&app, &token).await;
        assert_eq!(e["plan_type"], "free");
        assert_eq!(e["calls"], json!({ "limit": 5, "used": 5, "remaining": 0 }), "paid calls never count");
        assert_eq!(e["max_call_seconds"], 300);
        let (status, v) = start(&app, &token, "after").await;
        assert_eq!((status, error_code(&v)), (StatusCode::FORBIDDEN, "free_calls_used_up"));
    }
);

both!(
    async fn a_failed_payment_warns_without_locking(app) {
        let (token, user_id) = user(&app, "ana@example.com").await;
        subscription(&app, user_id, SubscriptionStatus::Active).await;
        subscription(&app, user_id, SubscriptionStatus::PastDue).await;
        let e = entitlements(&app, &token).await;
        assert_eq!((e["unlimited"].as_bool(), e["warning"].as_str()), (Some(true), Some("payment_failed")));
        let (status, v) = start(&app, &token, "still-works").await;
        assert_eq!((status, v["max_seconds"].is_null()), (StatusCode::CREATED, true));

        subscription(&app, user_id, SubscriptionStatus::Unpaid).await;
        assert_eq!(entitlements(&app, &token).await["warning"], "payment_failed");
        app.advance(Duration::days(31));
        let token = another_session(&app, "ana@example.com").await;
        let e = entitlements(&app, &token).await;
        assert_eq!((e["unlimited"].as_bool(), e["warning"].is_null()), (Some(false), true), "the unpaid period ended: {e}");
    }
);

both!(
    async fn operator_grants_raise_the_free_limit(app) {
        let (token, user_id) = user(&app, "ana@example.com").await;
        for n in 0..5 {
            started(&app, &token, &format!("c-{n}")).await;
        }
        let ops = Actor::operator("ops@closewise.app", Some("ticket 7: calls dropped".into()));
        let ana = (user_id, "ana@example.com");
        let grant = app.state.usage.grant(&ops, ana, 3).await.unwrap();
        assert_eq!((grant.calls, grant.actor.as_str()), (3, "ops@closewise.app"));
        assert!(app.state.usage.grant(&ops, ana, 0).await.is_err(), "nothing to grant");

        let e = entitlements(&app, &token).await;
        assert_eq!(e["calls"], json!({ "limit": 8, "used": 5, "remaining": 3 }));
        for n in 5..8 {
            started(&app, &token, &format!("c-{n}")).await;
        }
        let (status, v) = start(&app, &token, "c-8").await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert_eq!(error_message(&v), "You have used your 8 free calls. Upgrade to keep getting live hints.");
        // The fixture's seeding of the account is on the trail too; the grant is the one row after it.
        let trail = app.state.store.audit_of(Some(user_id), "ana@example.com", 10).await.unwrap();
        let trail: Vec<_> = trail.into_iter().filter(|r| r.actor != "test fixture").collect();
        assert_eq!(trail.len(), 1, "{trail:?}");
        assert_eq!((trail[0].action.as_str(), trail[0].reason.as_deref()), ("usage.grant", Some("ticket 7: calls dropped")));
    }
);

both!(
    async fn the_entitlement_token_verifies_against_the_jwks_and_a_tampered_one_does_not(app) {
        let (token, user_id) = user(&app, "ana@example.com").await;
        started(&app, &token, "one").await;
        let e = entitlements(&app, &token).await;
        let jwt = e["entitlement_token"].as_str().unwrap();
        let (_, jwks) = body(app.client.get(app.url("/.well-known/jwks.json")).send().await.unwrap()).await;

        let header = jsonwebtoken::decode_header(jwt).unwrap();
        assert_eq!(header.typ.as_deref(), Some("entitlement+jwt"));
        assert_eq!(header.kid.as_deref(), jwks["keys"][0]["kid"].as_str());
        assert_eq!(header.alg, Algorithm::EdDSA);

        let claims = verify(&jwks, jwt).expect("verifies");
        let iat = app.state.clock.now().unix_timestamp();
        assert_eq!(claims["sub"], user_id.to_string());
        assert_eq!(claims["iss"], "http://127.0.0.1:8080");
        assert_eq!(claims["aud"], "closewise-desktop");
        assert_eq!((claims["plan_type"].as_str(), claims["unlimited"].as_bool()), (Some("free"), Some(false)));
        assert_eq!((claims["calls_limit"].as_i64(), claims["calls_remaining"].as_i64()), (Some(5), Some(4)));
        assert_eq!(claims["max_call_seconds"], 300);
        assert_eq!(claims["iat"], iat);
        assert_eq!(claims["valid_until"], iat + 86_400);
        assert_eq!(claims["grace_until"], iat + 8 * 86_400);
        assert_eq!(claims["exp"], claims["grace_until"]);

        // More calls than were paid for, with the signature left as it was.
        let parts: Vec<&str> = jwt.split('.').collect();
        let mut forged = claims.clone();
        forged["calls_limit"] = json!(500);
        forged["calls_remaining"] = json!(499);
        let payload = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&forged).unwrap());
        let tampered = format!("{}.{}.{}", parts[0], payload, parts[2]);
        assert!(verify(&jwks, &tampered).is_none(), "a tampered token fails");
        // And an access token is not an entitlement token.
        assert!(verify(&jwks, &token).is_none());
    }
);

both!(
    async fn a_paid_user_starting_calls_nonstop_is_limited_per_hour(app) {
        let (token, user_id) = user(&app, "ana@example.com").await;
        subscription(&app, user_id, SubscriptionStatus::Active).await;
        let per_hour = closewise_domain::usage::CALL_STARTS_PER_HOUR;
        for n in 0..per_hour {
            let (status, v) = start(&app, &token, &format!("burst-{n}")).await;
            assert_eq!(status, StatusCode::CREATED, "call {n}: {v}");
        }
        let (status, v) = start(&app, &token, "one-too-many").await;
        assert_eq!((status, error_code(&v)), (StatusCode::TOO_MANY_REQUESTS, "rate_limited"), "{v}");
        // An hour later the budget is back.
        app.state.clock.advance(Duration::hours(1) + Duration::seconds(1));
        let token = another_session(&app, "ana@example.com").await;
        let (status, v) = start(&app, &token, "next-hour").await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
    }
);

both!(
    async fn the_same_claims_within_a_minute_answer_the_same_token_and_any_change_mints_a_new_one(app) {
        let (token, _) = user(&app, "ana@example.com").await;
        let first = entitlements(&app, &token).await;
        let jwt = first["entitlement_token"].as_str().unwrap().to_owned();
        let (_, jwks) = body(app.client.get(app.url("/.well-known/jwks.json")).send().await.unwrap()).await;
        let iat = verify(&jwks, &jwt).unwrap()["iat"].as_i64().unwrap();

        // Nothing changed, 59 s later: the token minted then (its times a minute older, well
        // inside valid_until's 24 h), not a new signature.
        app.advance(Duration::seconds(59));
        let again = entitlements(&app, &token).await;
        assert_eq!(again["entitlement_token"].as_str(), Some(jwt.as_str()));

        // A call started changes the claims (calls_remaining): a new token at once, with its own iat.
        started(&app, &token, "one").await;
        let after_call = entitlements(&app, &token).await;
        let jwt2 = after_call["entitlement_token"].as_str().unwrap().to_owned();
        assert_ne!(jwt2, jwt);
        let claims = verify(&jwks, &jwt2).unwrap();
        assert_eq!(claims["calls_remaining"], 4);
        assert_eq!(claims["iat"], iat + 59);

        // Another session of the same user: its own token (the sid differs).
        let other = another_session(&app, "ana@example.com").await;
        let theirs = entitlements(&app, &other).await;
        assert_ne!(theirs["entitlement_token"], after_call["entitlement_token"]);

        // A minute after it was minted: a new one, whose times follow the clock.
        app.advance(Duration::seconds(60));
        let later = entitlements(&app, &token).await;
        let jwt3 = later["entitlement_token"].as_str().unwrap();
        assert_ne!(jwt3, jwt2);
        assert_eq!(verify(&jwks, jwt3).unwrap()["iat"], iat + 119);
    }
);
