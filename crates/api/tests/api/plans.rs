use closewise_domain::subscription::SubscriptionStatus;
use reqwest::StatusCode;

use crate::both;
use crate::helpers::{body, TestApp};

/// The caller's `GET /api/plan`.
pub async fn plan(app: &TestApp, token: &str) -> serde_json::Value {
    body(app.get_auth("/api/plan", token).await).await.1
}

both!(
    async fn the_plan_is_the_callers_free_row_and_a_missing_one_is_created(app) {
        let s = app.signed_in_user("ana@example.com", "sales-pro-2026").await;
        let access = s["access_token"].as_str().unwrap();
        let (status, plan) = body(app.get_auth("/api/plan", access).await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(plan["plan_type"], "free");
        assert_eq!(plan["status"], "active");
        assert_eq!(plan["user_id"], s["user"]["id"]);
        assert!(plan["stripe_customer_id"].is_null());

        app.execute("DELETE FROM user_plans").await;
        let (status, again) = body(app.get_auth("/api/plan", access).await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!((again["plan_type"].as_str(), again["status"].as_str()), (Some("free"), Some("active")));
        assert_ne!(again["id"], plan["id"], "a new row");
    }
);

both!(
    async fn the_catalogue_lists_the_one_product(app) {
        let (status, v) = body(app.client.get(app.url("/api/products")).send().await.unwrap()).await;
        assert_eq!(status, StatusCode::OK);
        let p = &v["products"][0];
        assert_eq!(p["name"], "Unlimited Sales Copilot");
        assert_eq!(p["priceId"], "price_closewise_monthly");
        assert_eq!((p["mode"].as_str(), p["price"].as_u64(), p["currency"].as_str(), p["interval"].as_str()),
            (Some("subscription"), Some(20), Some("usd"), Some("month")));
        assert_eq!(v["products"].as_array().unwrap().len(), 1);
    }
);

both!(
    async fn the_plan_says_whether_the_user_is_paid_and_what_the_checkout_button_offers(app) {
        let s = app.signed_in_user("ana@example.com", "sales-pro-2026").await;
        let access = s["access_token"].as_str().unwrap();
        let user_id: uuid::Uuid = s["user"]["id"].as_str().unwrap().parse().unwrap();
        let p = plan(&app, access).await;
        assert_eq!((p["paid"].as_bool(), p["checkout"].as_str()), (Some(false), Some("available")), "{p}");

        crate::entitlements::subscription(&app, user_id, SubscriptionStatus::Active).await;
        let p = plan(&app, access).await;
        assert_eq!((p["paid"].as_bool(), p["checkout"].as_str()), (Some(true), Some("current_plan")), "{p}");

        crate::entitlements::subscription(&app, user_id, SubscriptionStatus::Canceled).await;
        let p = plan(&app, access).await;
        assert_eq!((p["paid"].as_bool(), p["checkout"].as_str()), (Some(false), Some("available")), "{p}");

        // An address not verified (any more) comes first, as at checkout; a paid plan does not skip it.
        crate::entitlements::subscription(&app, user_id, SubscriptionStatus::Active).await;
        app.execute("UPDATE users SET email_confirmed_at = NULL").await;
        let p = plan(&app, access).await;
        assert_eq!((p["paid"].as_bool(), p["checkout"].as_str()), (Some(true), Some("verify_email")), "{p}");
    }
);

/// The prerendered pricing pages are built from a snapshot of the catalogue
/// (`web/src/lib/billing/catalogue.json`): it is what `GET /api/products` answers, so the page
/// without JavaScript and the page after it loaded show the same prices and features.
const CATALOGUE_SNAPSHOT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../web/src/lib/billing/catalogue.json"
);

#[test]
fn the_web_catalogue_snapshot_matches_the_code() {
    let committed = std::fs::read_to_string(CATALOGUE_SNAPSHOT).unwrap_or_default();
    let generated = closewise_api::plans::catalogue_json();
    if committed != generated {
        if std::env::var("UPDATE_CATALOGUE").is_ok() {
            std::fs::write(CATALOGUE_SNAPSHOT, &generated).unwrap();
        } else {
            panic!("web/src/lib/billing/catalogue.json is out of date: run `./just catalogue` and commit it");
        }
    }
}

both!(
    async fn the_products_answer_is_the_web_snapshot_with_features_and_the_free_trial(app) {
        let (status, v) = body(app.client.get(app.url("/api/products")).send().await.unwrap()).await;
        assert_eq!(status, StatusCode::OK);
        let snapshot: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(CATALOGUE_SNAPSHOT).unwrap()).unwrap();
        assert_eq!(v, snapshot);
        assert_eq!(v["products"][0]["features"][0], "Unlimited usage");
        assert_eq!(v["free_trial"]["name"], "Free Trial");
        assert_eq!(v["free_trial"]["features"][0], "5 calls of 5 minutes each");
    }
);
