//! The discount on a subscription: a promotion code taken at checkout shows on `GET
//! /api/subscription` with its coupon's terms and words, read back from Stripe's subscription;
//! without one the discount is null.

use super::*;
use crate::both;

impl Billing {
    /// A coupon made on stripe-mock from `coupon` (form fields) and a promotion code `code` for
    /// it, as an operator would.
    async fn coupon_with_code(&self, coupon: &[(&str, &str)], code: &str) {
        let post = |path: &str, form: Vec<(String, String)>| {
            self.app
                .client
                .post(format!("{}{path}", self.mock_url))
                .bearer_auth(DEV_STRIPE_SECRET_KEY)
                .form(&form)
                .send()
        };
        let form = coupon
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        let coupon: Value = post("/v1/coupons", form)
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let id = coupon["id"].as_str().expect("a coupon").to_owned();
        let form = vec![
            ("promotion[type]".to_owned(), "coupon".to_owned()),
            ("promotion[coupon]".to_owned(), id),
            ("code".to_owned(), code.to_owned()),
        ];
        let promo: Value = post("/v1/promotion_codes", form)
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert!(promo["id"].is_string(), "{promo}");
    }

    /// Checks out with `code` (or none), pays on the hosted page and waits for the webhook's
    /// subscription; returns it.
    async fn subscribe_with(&self, token: &str, code: Option<&str>) -> Value {
        let mut order = checkout_body();
        if let Some(code) = code {
            order["promotion_code"] = json!(code);
        }
        let (status, v) = body(self.app.post_auth("/api/checkout", token, order).await).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let url = v["url"].as_str().unwrap().to_owned();
        assert_eq!(
            self.pay(&url, CARD_OK).await.status(),
            StatusCode::SEE_OTHER
        );
        self.wait_for_subscription(token, |s| s["subscription_status"] == "active")
            .await
    }
}

both!(
    async fn a_promotion_code_taken_at_checkout_shows_as_the_subscriptions_discount(
        backend: Backend,
    ) {
        let b = spawn_billing(backend).await;
        let token = b.user("ana@example.com").await;
        b.coupon_with_code(
            &[
                ("name", "Launch"),
                ("percent_off", "20"),
                ("duration", "repeating"),
                ("duration_in_months", "4"),
            ],
            "LAUNCH20",
        )
        .await;

        let sub = b.subscribe_with(&token, Some("LAUNCH20")).await;
        let discount = &sub["discount"];
        assert_eq!(discount["name"], "Launch", "{sub}");
        assert_eq!(discount["percent_off"], 20.0);
        assert_eq!(discount["amount_off"], Value::Null);
        assert_eq!(discount["duration"], "repeating");
        assert_eq!(discount["duration_in_months"], 4);
        // Stripe's discount ends four months after it started, and says so in words.
        let plan = b.plan(&token).await;
        let stripe_sub = b
            .mock
            .object(plan["stripe_subscription_id"].as_str().unwrap())
            .unwrap();
        let stripe_discount = b
            .mock
            .object(stripe_sub["discounts"][0].as_str().expect("a discount id"))
            .unwrap();
        let end = stripe_discount["end"]
            .as_i64()
            .expect("a repeating discount ends");
        assert_eq!(discount["ends_at"], end);
        let end = time::OffsetDateTime::from_unix_timestamp(end).unwrap();
        assert_eq!(
            discount["label"],
            format!("20% off until {} {}", end.month(), end.year())
        );

        // The confirmation answers the same subscription.
        let (status, v) = b
            .confirm(
                &token,
                stripe_discount["checkout_session"].as_str().unwrap(),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["subscription"]["discount"], sub["discount"]);

        // Once it has ended it no longer shows, though no webhook said so yet.
        b.app.advance(time::Duration::days(200));
        let (_, session) = body(b.app.signin("ana@example.com", PASSWORD).await).await;
        let token = session["access_token"].as_str().expect("signed in again");
        assert_eq!(b.subscription(token).await["discount"], Value::Null);
    }
);

both!(
    async fn an_amount_coupon_forever_is_said_in_dollars(backend: Backend) {
        let b = spawn_billing(backend).await;
        let token = b.user("ana@example.com").await;
        b.coupon_with_code(
            &[
                ("amount_off", "500"),
                ("currency", "usd"),
                ("duration", "forever"),
            ],
            "FIVE",
        )
        .await;
        let sub = b.subscribe_with(&token, Some("five")).await;
        let discount = &sub["discount"];
        assert_eq!(discount["name"], Value::Null, "{sub}");
        assert_eq!(discount["amount_off"], 500);
        assert_eq!(discount["currency"], "usd");
        assert_eq!(discount["percent_off"], Value::Null);
        assert_eq!(discount["ends_at"], Value::Null);
        assert_eq!(discount["label"], "$5 off forever");
    }
);

both!(
    async fn without_a_promotion_code_the_discount_is_null(backend: Backend) {
        let b = spawn_billing(backend).await;
        let token = b.user("ana@example.com").await;
        let sub = b.subscribe_with(&token, None).await;
        assert!(sub.get("discount").is_some(), "the field is there: {sub}");
        assert_eq!(sub["discount"], Value::Null);
    }
);
