//! A subscription after its checkout, against stripe-mock: the portal cancels it at the period's
//! end, a renewal moves the period, and a checkout started outside the API is fulfilled by its
//! webhook.

use super::*;
use crate::both;

both!(
    async fn the_portal_cancels_at_period_end_and_the_clock_ends_the_plan(backend: Backend) {
        let b = spawn_billing(backend).await;
        let token = b.subscribed_user("ana@example.com").await;

        let (status, v) = body(
            b.app
                .post_auth("/api/billing/portal", &token, json!({}))
                .await,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let portal = v["url"].as_str().unwrap().to_owned();
        assert!(portal.starts_with(&b.mock_url), "{portal}");
        let page = b
            .app
            .client
            .get(&portal)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert!(
            page.contains(&format!("{BASE}/dashboard")),
            "the portal returns to the dashboard"
        );

        let canceled = b
            .app
            .client
            .post(format!("{portal}/cancel"))
            .send()
            .await
            .unwrap();
        assert!(
            canceled.status().is_success() || canceled.status().is_redirection(),
            "{}",
            canceled.status()
        );
        let sub = b
            .wait_for_subscription(&token, |s| s["cancel_at_period_end"] == true)
            .await;
        assert_eq!(sub["subscription_status"], "active");
        assert_eq!(
            b.plan(&token).await["plan_type"],
            "monthly",
            "paid until the period ends"
        );

        // Stripe's clock passes the period end: the subscription ends and so does the plan.
        b.mock.advance_clock(32 * 86_400);
        let plan = b.wait_for_plan(&token, |p| p["plan_type"] == "free").await;
        assert_eq!(plan["status"], "active");
        assert!(plan["stripe_subscription_id"].is_null());
        assert_eq!(
            b.subscription(&token).await["subscription_status"],
            "canceled"
        );

        // A new checkout is allowed again, with the same customer.
        let customer = plan["stripe_customer_id"].clone();
        b.checkout(&token).await;
        assert_eq!(b.plan(&token).await["stripe_customer_id"], customer);
    }
);

both!(
    async fn a_renewal_keeps_the_plan_and_moves_the_period_end(backend: Backend) {
        let b = spawn_billing(backend).await;
        let token = b.subscribed_user("ana@example.com").await;
        let before = b.subscription(&token).await["current_period_end"]
            .as_i64()
            .unwrap();
        b.mock.advance_clock(32 * 86_400);
        let sub = b
            .wait_for_subscription(&token, |s| s["current_period_end"].as_i64() > Some(before))
            .await;
        assert_eq!(sub["subscription_status"], "active");
        assert_eq!(b.plan(&token).await["plan_type"], "monthly");
    }
);

both!(
    async fn a_checkout_started_outside_the_api_is_fulfilled_by_its_webhook(backend: Backend) {
        let b = spawn_billing(backend).await;
        let token = b.user("ana@example.com").await;
        let (_, me) = body(b.app.get_auth("/api/auth/user", &token).await).await;
        let uid = me["user"]["id"].as_str().unwrap().to_owned();
        // A customer and session made straight at Stripe, naming our user.
        let stripe = |path: &str, form: Vec<(&str, &str)>| {
            b.app
                .client
                .post(format!("{}{path}", b.mock_url))
                .bearer_auth(DEV_STRIPE_SECRET_KEY)
                .form(&form)
                .send()
        };
        let customer: Value = stripe("/v1/customers", vec![("email", "ana@example.com")])
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let session: Value = stripe(
            "/v1/checkout/sessions",
            vec![
                ("mode", "subscription"),
                ("customer", customer["id"].as_str().unwrap()),
                ("line_items[0][price]", PRICE),
                ("line_items[0][quantity]", "1"),
                ("success_url", "http://127.0.0.1:8080/success"),
                ("metadata[user_id]", &uid),
                ("client_reference_id", &uid),
            ],
        )
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
        let url = session["url"].as_str().unwrap();
        assert_eq!(b.pay(url, CARD_OK).await.status(), StatusCode::SEE_OTHER);
        let plan = b
            .wait_for_plan(&token, |p| p["plan_type"] == "monthly")
            .await;
        assert_eq!(plan["stripe_customer_id"], customer["id"]);
        // Its later events find the user through the customer now remembered.
        b.wait_for_deliveries().await;
        let sub_id = plan["stripe_subscription_id"].as_str().unwrap();
        let resp = b
            .app
            .client
            .post(format!("{}/v1/subscriptions/{sub_id}", b.mock_url))
            .bearer_auth(DEV_STRIPE_SECRET_KEY)
            .form(&[("cancel_at_period_end", "true")])
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        b.wait_for_subscription(&token, |s| s["cancel_at_period_end"] == true)
            .await;
    }
);
