use reqwest::StatusCode;

use crate::both;

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
