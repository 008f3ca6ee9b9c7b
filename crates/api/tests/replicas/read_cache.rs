//! The read path's cache of what reads return across replicas: a write on one replica,
//! or by the CLI's store in no replica at all, shows in the other replica's cached
//! `GET /api/plan`, `/api/subscription` and `/api/entitlements` within a second.

use std::time::{Duration, Instant};

use closewise_core::store::{Store, SubscriptionRecord};
use closewise_domain::subscription::SubscriptionStatus;
use reqwest::StatusCode;
use serde_json::{json, Value};
use sqlx::Connection;
use uuid::Uuid;

use crate::checkout_body;
use crate::cluster::Cluster;
use crate::revocation::listening;

/// Reads `path` on both replicas twice: the second is answered from each one's cache.
async fn cached(c: &Cluster, path: &str, token: &str) -> Value {
    let (_, first) = c.get(c.direct(0, path), token).await;
    for i in [0, 1, 0, 1] {
        let (status, v) = c.get(c.direct(i, path), token).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v, first, "{path} on replica {i}");
    }
    first
}

/// Waits until `path` on both replicas answers what `shows` accepts, within a second.
async fn shows_everywhere_within_a_second(
    c: &Cluster,
    path: &str,
    token: &str,
    shows: impl Fn(&Value) -> bool,
) {
    let started = Instant::now();
    for i in [1, 0] {
        loop {
            let (status, v) = c.get(c.direct(i, path), token).await;
            assert_eq!(status, StatusCode::OK, "{v}");
            if shows(&v) {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(1),
                "{path} on replica {i} still {v} after 1 s"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

async fn user_id(c: &Cluster, email: &str) -> Uuid {
    let mut db = sqlx::PgConnection::connect(&c.database_url).await.unwrap();
    sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
        .bind(email)
        .fetch_one(&mut db)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_checkout_confirmed_on_one_replica_shows_in_the_others_cached_plan_within_a_second() {
    let c = Cluster::start(&[]).await;
    c.mock.set_webhook_url(None);
    listening(&c, 0, 1).await;
    listening(&c, 1, 1).await;
    let token = c.user("ana@example.com").await;
    assert_eq!(cached(&c, "/api/plan", &token).await["plan_type"], "free");
    let none = cached(&c, "/api/subscription", &token).await;
    assert_eq!(none, json!({ "subscription": null }));
    let (status, v) = c
        .post(c.direct(0, "/api/checkout"), Some(&token), checkout_body())
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let url = v["url"].as_str().unwrap().to_owned();
    let session_id = url.rsplit('/').next().unwrap().to_owned();
    let paid = c
        .client
        .post(&url)
        .form(&[
            ("email", "buyer@example.com"),
            ("cardnumber", "4242 4242 4242 4242"),
            ("exp", "12 / 34"),
            ("cvc", "123"),
            ("name", "Ana Buyer"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(paid.status(), StatusCode::SEE_OTHER);
    let (status, v) = c
        .post(
            c.direct(0, "/api/checkout/confirm"),
            Some(&token),
            json!({ "session_id": session_id }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    shows_everywhere_within_a_second(&c, "/api/plan", &token, |v| v["plan_type"] == "monthly")
        .await;
    shows_everywhere_within_a_second(&c, "/api/subscription", &token, |v| {
        !v["subscription"].is_null()
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clis_plan_and_team_changes_show_on_both_replicas_within_a_second() {
    let c = Cluster::start(&[]).await;
    listening(&c, 0, 1).await;
    listening(&c, 1, 1).await;
    let token = c.user("ana@example.com").await;
    let uid = user_id(&c, "ana@example.com").await;
    assert_eq!(cached(&c, "/api/plan", &token).await["plan_type"], "free");
    // What `closewise plans set` does: the core's store, in no replica.
    let store = Store::connect(&c.database_url, Duration::from_secs(5))
        .await
        .unwrap();
    let now = time::OffsetDateTime::now_utc();
    store.set_plan(uid, "monthly", now, None).await.unwrap();
    shows_everywhere_within_a_second(&c, "/api/plan", &token, |v| v["plan_type"] == "monthly")
        .await;
    store.set_plan(uid, "free", now, None).await.unwrap();
    shows_everywhere_within_a_second(&c, "/api/plan", &token, |v| v["plan_type"] == "free").await;

    // A team's subscription, as the webhook or `closewise teams sync` stores it: every member's
    // cached plan follows.
    let (status, v) = c
        .post(
            c.direct(0, "/api/team"),
            Some(&token),
            json!({ "name": "Northwind" }),
        )
        .await;
    assert!(status.is_success(), "{v}");
    let (team_id, _) = store.membership_of(uid).await.unwrap().expect("a team");
    assert_eq!(
        cached(&c, "/api/plan", &token).await["checkout"],
        "available"
    );
    let record = SubscriptionRecord {
        customer_id: "cus_team".into(),
        subscription_id: "sub_team".into(),
        price_id: Some("price_closewise_monthly".into()),
        status: SubscriptionStatus::Active,
        cancel_at_period_end: false,
        current_period_end: Some(now.unix_timestamp() + 30 * 86_400),
        payment_method_brand: None,
        payment_method_last4: None,
        discount: None,
    };
    assert!(store
        .apply_team_subscription(team_id, &record, 1, now)
        .await
        .unwrap());
    shows_everywhere_within_a_second(&c, "/api/plan", &token, |v| v["checkout"] == "current_plan")
        .await;
    store.close().await;
}

/// `cached` for `/api/entitlements`, without its token (minted per read).
async fn cached_entitlements(c: &Cluster, token: &str) -> Value {
    let facts = |mut v: Value| {
        v.as_object_mut().unwrap().remove("entitlement_token");
        v
    };
    let (_, first) = c.get(c.direct(0, "/api/entitlements"), token).await;
    let first = facts(first);
    for i in [0, 1, 0, 1] {
        let (status, v) = c.get(c.direct(i, "/api/entitlements"), token).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(facts(v), first, "/api/entitlements on replica {i}");
    }
    first
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_or_a_policy_change_on_one_replica_shows_in_the_others_cached_entitlements() {
    let c = Cluster::start(&[]).await;
    listening(&c, 0, 1).await;
    listening(&c, 1, 1).await;
    let token = c.user("ana@example.com").await;
    let e = cached_entitlements(&c, &token).await;
    assert_eq!(e["calls_this_month"], 0);

    // A call started on replica 0: replica 1's next entitlements count it.
    let (status, v) = c
        .post(
            c.direct(0, "/api/calls"),
            Some(&token),
            json!({ "client_call_id": "on-replica-0" }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    shows_everywhere_within_a_second(&c, "/api/entitlements", &token, |v| {
        v["calls_this_month"] == 1 && v["calls"]["used"] == 1
    })
    .await;

    // The team's policy saved on replica 0: replica 1's next entitlements carry it.
    let (status, v) = c
        .post(
            c.direct(0, "/api/team"),
            Some(&token),
            json!({ "name": "Northwind" }),
        )
        .await;
    assert!(status.is_success(), "{v}");
    let e = cached_entitlements(&c, &token).await;
    assert_eq!(e["policy"]["consent_notice"]["mode"], "off");
    let mut policy = e["policy"].clone();
    policy["consent_notice"] = json!({ "mode": "show", "text": "Recorded.", "regions": {} });
    let saved = c
        .client
        .put(c.direct(0, "/api/team/policy"))
        .bearer_auth(&token)
        .json(&policy)
        .send()
        .await
        .unwrap();
    assert_eq!(saved.status(), StatusCode::OK);
    shows_everywhere_within_a_second(&c, "/api/entitlements", &token, |v| {
        v["policy"]["consent_notice"]["mode"] == "show"
    })
    .await;
}
