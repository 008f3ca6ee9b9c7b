//! The whole flow against stripe-mock: checkout, paying, confirmation, webhooks and the checkout
//! preconditions.

use super::*;
use crate::both;

both!(
    async fn pay_then_webhook_then_confirm_activates_the_plan_once(backend: Backend) {
        let b = spawn_billing(backend).await;
        let token = b.user("ana@example.com").await;
        assert!(b.subscription(&token).await.is_null());
        let url = b.checkout(&token).await;
        let session_id = Billing::session_id(&url);

        let paid = b.pay(&url, CARD_OK).await;
        assert_eq!(paid.status(), StatusCode::SEE_OTHER);
        assert_eq!(
            paid.headers()["location"].to_str().unwrap(),
            format!("{BASE}/success?session_id={session_id}")
        );

        // The webhooks arrive on their own and activate the plan.
        b.wait_for_deliveries().await;
        let plan = b
            .wait_for_plan(&token, |p| p["plan_type"] == "monthly")
            .await;
        assert_eq!(plan["status"], "active");
        assert!(plan["stripe_subscription_id"]
            .as_str()
            .unwrap()
            .starts_with("sub_"));
        assert!(plan["stripe_customer_id"]
            .as_str()
            .unwrap()
            .starts_with("cus_"));
        assert_eq!(plan["subscription_id"], plan["stripe_subscription_id"]);

        // Then the success page confirms, twice, a minute later: same plan, not touched again.
        b.app.advance(time::Duration::minutes(1));
        for _ in 0..2 {
            let (status, v) = b.confirm(&token, &session_id).await;
            assert_eq!(status, StatusCode::OK, "{v}");
            assert_eq!(v["plan"]["plan_type"], "monthly");
            assert_eq!(v["plan"]["plan_started_at"], plan["plan_started_at"]);
            assert_eq!(v["subscription"]["subscription_status"], "active");
        }
        // And every event arrives a second time: nothing changes.
        for event in b.mock.events() {
            let (status, v) = b.deliver(&event).await;
            assert_eq!(status, StatusCode::OK, "{v}");
            assert_eq!(v, json!({ "received": true }));
        }
        let again = b.plan(&token).await;
        assert_eq!(again, plan, "the plan was activated exactly once");

        let sub = b.subscription(&token).await;
        assert_eq!(sub["price_id"], PRICE);
        assert_eq!(sub["subscription_status"], "active");
        assert_eq!(sub["cancel_at_period_end"], false);
        assert_eq!(sub["payment_method_brand"], "visa");
        assert_eq!(sub["payment_method_last4"], "4242");
        let period_end = sub["current_period_end"].as_i64().unwrap();
        let now = b.mock.now();
        assert!(
            period_end > now + 27 * 86_400 && period_end < now + 32 * 86_400,
            "{period_end} vs {now}"
        );

        // Each event is recorded once, delivered twice.
        let recorded = b.app.state.store.webhook_events(100).await.unwrap();
        assert_eq!(recorded.len(), b.mock.events().len());
        assert!(
            recorded
                .iter()
                .all(|e| e.processed_at.is_some() && e.attempts == 2 && e.error.is_none()),
            "{recorded:?}"
        );
    }
);

both!(
    async fn a_paid_checkouts_events_are_linked_to_its_user_newest_first(backend: Backend) {
        let b = spawn_billing(backend).await;
        b.subscribed_user("ana@example.com").await;
        b.subscribed_user("bob@example.com").await;
        b.wait_for_deliveries().await;
        let store = &b.app.state.store;
        let ana_id = store
            .user_by_email("ana@example.com")
            .await
            .unwrap()
            .unwrap()
            .id;
        let bob_id = store
            .user_by_email("bob@example.com")
            .await
            .unwrap()
            .unwrap()
            .id;
        // The mock's events about each user's checkout session and subscription.
        let events_of = |customer: &str| -> Vec<String> {
            b.mock
                .events()
                .into_iter()
                .filter(|e| {
                    let kind = e["type"].as_str().unwrap();
                    (kind == "checkout.session.completed"
                        || kind.starts_with("customer.subscription."))
                        && e["data"]["object"]["customer"] == customer
                })
                .map(|e| e["id"].as_str().unwrap().to_owned())
                .collect()
        };
        let ana_customer = store.stripe_customer_of(ana_id).await.unwrap().unwrap();
        let bob_customer = store.stripe_customer_of(bob_id).await.unwrap().unwrap();
        let (ana_expected, bob_expected) = (events_of(&ana_customer), events_of(&bob_customer));
        assert!(ana_expected.len() >= 2, "{:?}", b.mock.events());

        let linked = store.webhook_events_for_user(ana_id, 50).await.unwrap();
        let linked_ids: Vec<&str> = linked.iter().map(|e| e.event_id.as_str()).collect();
        for id in &ana_expected {
            assert!(
                linked_ids.contains(&id.as_str()),
                "{id} not linked: {linked_ids:?}"
            );
        }
        assert!(bob_expected
            .iter()
            .all(|id| !linked_ids.contains(&id.as_str())));
        assert!(linked
            .iter()
            .any(|e| e.kind == "checkout.session.completed"));
        assert!(linked
            .iter()
            .all(|e| e.processed_at.is_some() && e.error.is_none()));
        assert!(
            linked
                .windows(2)
                .all(|w| w[0].received_at >= w[1].received_at),
            "newest first: {linked:?}"
        );
        let bobs = store.webhook_events_for_user(bob_id, 50).await.unwrap();
        assert!(bobs.iter().all(|e| !ana_expected.contains(&e.event_id)));
        assert!(bob_expected
            .iter()
            .all(|id| bobs.iter().any(|e| &e.event_id == id)));
        // The limit holds.
        assert_eq!(
            store
                .webhook_events_for_user(ana_id, 1)
                .await
                .unwrap()
                .len(),
            1
        );
        // A stranger has none.
        assert!(store
            .webhook_events_for_user(uuid::Uuid::now_v7(), 10)
            .await
            .unwrap()
            .is_empty());
    }
);

both!(
    async fn confirm_before_the_webhooks_activates_the_plan_once(backend: Backend) {
        let b = spawn_billing(backend).await;
        // Stripe's webhooks are late: nothing is sent until we deliver them by hand.
        b.mock.set_webhook_url(None);
        let token = b.user("ana@example.com").await;
        let url = b.checkout(&token).await;
        let session_id = Billing::session_id(&url);
        assert_eq!(b.pay(&url, CARD_OK).await.status(), StatusCode::SEE_OTHER);
        assert_eq!(
            b.plan(&token).await["plan_type"],
            "free",
            "paying alone grants nothing here"
        );

        let (status, first) = b.confirm(&token, &session_id).await;
        assert_eq!(status, StatusCode::OK, "{first}");
        assert_eq!(first["plan"]["plan_type"], "monthly");
        assert_eq!(first["subscription"]["payment_method_last4"], "4242");
        b.app.advance(time::Duration::minutes(1));
        let (status, second) = b.confirm(&token, &session_id).await;
        assert_eq!(status, StatusCode::OK, "{second}");
        assert_eq!(second["plan"], first["plan"]);

        // Now the webhooks, twice each, in reverse order.
        let events: Vec<Value> = b.mock.events();
        assert!(!events.is_empty());
        for _ in 0..2 {
            for event in &events {
                let (status, v) = b.deliver(event).await;
                assert_eq!(status, StatusCode::OK, "{v}");
            }
        }
        assert_eq!(
            b.plan(&token).await,
            first["plan"],
            "the plan was activated exactly once"
        );
        assert_eq!(
            b.subscription(&token).await["subscription_status"],
            "active"
        );
    }
);

both!(
    async fn confirm_and_webhook_racing_end_with_one_monthly_plan(backend: Backend) {
        let b = spawn_billing(backend).await;
        b.mock.set_webhook_url(None);
        let token = b.user("ana@example.com").await;
        let url = b.checkout(&token).await;
        let session_id = Billing::session_id(&url);
        assert_eq!(b.pay(&url, CARD_OK).await.status(), StatusCode::SEE_OTHER);
        let completed = b.events_of_type("checkout.session.completed").remove(0);
        let created = b.events_of_type("customer.subscription.created").remove(0);
        let (c1, c2, w1, w2) = tokio::join!(
            b.confirm(&token, &session_id),
            b.confirm(&token, &session_id),
            b.deliver(&completed),
            b.deliver(&created),
        );
        for (status, v) in [c1, c2, w1, w2] {
            assert_eq!(status, StatusCode::OK, "{v}");
        }
        let plan = b.plan(&token).await;
        assert_eq!(plan["plan_type"], "monthly");
        b.app.advance(time::Duration::minutes(1));
        let (_, again) = b.confirm(&token, &session_id).await;
        assert_eq!(again["plan"], plan);
    }
);

both!(
    async fn a_declined_card_leaves_the_plan_free(backend: Backend) {
        let b = spawn_billing(backend).await;
        let token = b.user("ana@example.com").await;
        let url = b.checkout(&token).await;
        let declined = b.pay(&url, CARD_DECLINED).await;
        assert_eq!(declined.status(), StatusCode::PAYMENT_REQUIRED);
        assert!(declined
            .text()
            .await
            .unwrap()
            .contains("Your card was declined."));

        let (status, v) = b.confirm(&token, &Billing::session_id(&url)).await;
        assert_eq!(status, StatusCode::CONFLICT, "{v}");
        assert_eq!(error_code(&v), "session_not_paid");
        assert_eq!(
            error_message(&v),
            "Plan activation failed, but you can contact support."
        );
        b.wait_for_deliveries().await;
        assert_eq!(b.plan(&token).await["plan_type"], "free");
        assert!(b.subscription(&token).await.is_null());
    }
);

both!(
    async fn the_checkout_preconditions_are_checked_in_the_specs_order(backend: Backend) {
        let b = spawn_billing(backend).await;
        let app = &b.app;
        // Not signed in, even with a body that is wrong in every way.
        let (status, v) = body(app.post("/api/checkout", json!({"price_id": 5})).await).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::UNAUTHORIZED, "not_signed_in")
        );
        assert_eq!(error_message(&v), "Please sign in to continue");
        // A token that is not valid.
        let (status, v) = body(
            app.post_auth("/api/checkout", "not-a-token", json!({}))
                .await,
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::UNAUTHORIZED, "invalid_token")
        );
        assert_eq!(
            error_message(&v),
            "Authentication required. Please sign in again."
        );
        // A token whose session was signed out.
        let token = b.user("ana@example.com").await;
        let out = app
            .post_auth("/api/auth/logout?scope=local", &token, json!({}))
            .await;
        assert!(out.status().is_success());
        let (status, v) = body(
            app.post_auth("/api/checkout", &token, checkout_body())
                .await,
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::UNAUTHORIZED, "invalid_token")
        );

        // A verified user: bad input is refused before Stripe is asked.
        let token = access(
            &app.signin("ana@example.com", PASSWORD)
                .await
                .json::<Value>()
                .await
                .unwrap(),
        );
        let mut foreign = checkout_body();
        foreign["success_url"] =
            json!("https://evil.example/success?session_id={CHECKOUT_SESSION_ID}");
        let (status, v) = body(app.post_auth("/api/checkout", &token, foreign).await).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_REQUEST, "invalid_redirect_url")
        );
        let mut foreign = checkout_body();
        foreign["cancel_url"] = json!("//evil.example/pricing");
        let (status, v) = body(app.post_auth("/api/checkout", &token, foreign).await).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_REQUEST, "invalid_redirect_url")
        );
        let mut unknown = checkout_body();
        unknown["price_id"] = json!("price_free_lunch");
        let (status, v) = body(app.post_auth("/api/checkout", &token, unknown).await).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_REQUEST, "unknown_price")
        );
        let (status, v) = body(
            app.post_auth("/api/checkout", &token, json!({"price_id": PRICE}))
                .await,
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_REQUEST, "invalid_json")
        );
        assert!(
            b.mock.snapshot().customers.is_empty(),
            "Stripe was not asked"
        );

        // Subscribed: the same price is refused.
        let url = b.checkout(&token).await;
        assert_eq!(b.pay(&url, CARD_OK).await.status(), StatusCode::SEE_OTHER);
        b.wait_for_plan(&token, |p| p["plan_type"] == "monthly")
            .await;
        let (status, v) = body(
            app.post_auth("/api/checkout", &token, checkout_body())
                .await,
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "already_subscribed")
        );
        assert_eq!(error_message(&v), "You already have this subscription");
        assert_eq!(b.mock.snapshot().customers.len(), 1, "one customer, reused");
    }
);
