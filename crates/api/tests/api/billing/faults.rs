//! Stripe failing: wiremock stands in for it (errors, timeouts, unreachable).

use super::*;
use crate::both;
use wiremock::matchers::{method, path, path_regex};
use wiremock::{Mock, MockServer, ResponseTemplate};

async fn app_against(backend: Backend, server: &MockServer, timeout_secs: u64) -> TestApp {
    let uri = server.uri();
    spawn_app_with(backend, move |s| {
        s.stripe.api_base = uri;
        s.stripe.timeout = Duration::from_secs(timeout_secs);
    })
    .await
}

async fn user_id(app: &TestApp, token: &str) -> String {
    let (_, me) = body(app.get_auth("/api/auth/user", token).await).await;
    me["user"]["id"].as_str().unwrap().to_owned()
}

/// Checkout fails with the spec's message, quickly, and leaves nothing behind.
async fn assert_checkout_fails(app: &TestApp, token: &str, within: Duration) {
    let started = Instant::now();
    let (status, v) = body(app.post_auth("/api/checkout", token, checkout_body()).await).await;
    let took = started.elapsed();
    assert_eq!(
        (status, error_code(&v)),
        (StatusCode::BAD_GATEWAY, "checkout_failed"),
        "{v}"
    );
    assert_eq!(error_message(&v), "Failed to create checkout session");
    assert!(took < within, "took {took:?}");
    let (_, plan) = body(app.get_auth("/api/plan", token).await).await;
    assert_eq!(plan["plan_type"], "free");
    let (_, sub) = body(app.get_auth("/api/subscription", token).await).await;
    assert!(sub["subscription"].is_null());
}

both!(
    async fn stripe_errors_and_garbage_fail_the_checkout_cleanly(backend: Backend) {
        let server = MockServer::start().await;
        let app = app_against(backend, &server, 2).await;
        let token =
            access(&crate::helpers::signed_in_account(&app, "ana@example.com", PASSWORD).await);
        let uid = user_id(&app, &token).await;

        Mock::given(method("POST"))
            .and(path("/v1/customers"))
            .respond_with(
                ResponseTemplate::new(500)
                    .set_body_json(json!({"error": {"type": "api_error", "message": "boom"}})),
            )
            .up_to_n_times(1)
            .mount(&server)
            .await;
        assert_checkout_fails(&app, &token, Duration::from_secs(2)).await;
        Mock::given(method("POST"))
            .and(path("/v1/customers"))
            .respond_with(ResponseTemplate::new(200).set_body_string("<html>not json</html>"))
            .up_to_n_times(1)
            .mount(&server)
            .await;
        assert_checkout_fails(&app, &token, Duration::from_secs(2)).await;
        Mock::given(method("POST"))
            .and(path("/v1/customers"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({"id": 42})))
            .mount(&server)
            .await;
        assert_checkout_fails(&app, &token, Duration::from_secs(2)).await;
        assert!(
            app.state
                .store
                .stripe_customer_of(uid.parse().unwrap())
                .await
                .unwrap()
                .is_none(),
            "no customer remembered"
        );

        // A known customer, and the session creation fails: still nothing half-made.
        app.execute(
            "INSERT INTO stripe_customers (user_id, customer_id, created_at) \
             SELECT id, 'cus_known', created_at FROM users WHERE email = 'ana@example.com'",
        )
        .await;
        Mock::given(method("POST"))
            .and(path("/v1/checkout/sessions"))
            .respond_with(ResponseTemplate::new(502).set_body_string("bad gateway"))
            .up_to_n_times(1)
            .mount(&server)
            .await;
        assert_checkout_fails(&app, &token, Duration::from_secs(2)).await;
        Mock::given(method("POST"))
            .and(path("/v1/checkout/sessions"))
            .respond_with(
                ResponseTemplate::new(200).set_body_json(json!({"object": "checkout.session"})),
            )
            .mount(&server)
            .await;
        assert_checkout_fails(&app, &token, Duration::from_secs(2)).await;
    }
);

both!(
    async fn a_hanging_stripe_fails_the_checkout_after_the_timeout(backend: Backend) {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path_regex("^/v1/.*"))
            .respond_with(ResponseTemplate::new(200).set_delay(Duration::from_secs(3)))
            .mount(&server)
            .await;
        let app = app_against(backend, &server, 1).await;
        let token =
            access(&crate::helpers::signed_in_account(&app, "ana@example.com", PASSWORD).await);
        assert_checkout_fails(&app, &token, Duration::from_secs(3)).await;
        let uid = user_id(&app, &token).await;
        assert!(app
            .state
            .store
            .stripe_customer_of(uid.parse().unwrap())
            .await
            .unwrap()
            .is_none());
    }
);

both!(
    async fn an_account_with_a_live_subscription_is_kept_when_stripe_cannot_cancel_it(
        backend: Backend,
    ) {
        let server = MockServer::start().await;
        Mock::given(method("DELETE"))
            .and(path("/v1/subscriptions/sub_live"))
            .respond_with(ResponseTemplate::new(503).set_body_string("down"))
            .mount(&server)
            .await;
        let app = app_against(backend, &server, 1).await;
        let token =
            access(&crate::helpers::signed_in_account(&app, "ana@example.com", PASSWORD).await);
        let uid: uuid::Uuid = user_id(&app, &token).await.parse().unwrap();
        let record = closewise_core::store::SubscriptionRecord {
            customer_id: "cus_live".into(),
            subscription_id: "sub_live".into(),
            price_id: Some(PRICE.into()),
            status: closewise_domain::subscription::SubscriptionStatus::Active,
            cancel_at_period_end: false,
            current_period_end: Some(2_000_000_000),
            payment_method_brand: Some("visa".into()),
            payment_method_last4: Some("4242".into()),
            discount: None,
        };
        app.state
            .store
            .apply_subscription(uid, &record, app.state.clock.now())
            .await
            .unwrap();
        let resp = app
            .client
            .delete(app.url("/api/account"))
            .bearer_auth(&token)
            .json(&json!({ "password": PASSWORD }))
            .send()
            .await
            .unwrap();
        let (status, v) = body(resp).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_GATEWAY, "stripe_unavailable")
        );
        assert_eq!(
            app.signin("ana@example.com", PASSWORD).await.status(),
            StatusCode::OK,
            "the account is kept"
        );
        let (_, plan) = body(app.get_auth("/api/plan", &token).await).await;
        assert_eq!(plan["plan_type"], "monthly");
    }
);

both!(
    async fn an_older_answer_from_stripe_never_overwrites_a_newer_one(backend: Backend) {
        // Real Stripe objects, from stripe-mock: a paid session and its subscription.
        let (addr, mock) = stripe_mock::spawn(stripe_mock::Config::default())
            .await
            .unwrap();
        let mock_url = format!("http://{addr}");
        let server = MockServer::start().await;
        let app = app_against(backend, &server, 3).await;
        let token =
            access(&crate::helpers::signed_in_account(&app, "ana@example.com", PASSWORD).await);
        let uid = user_id(&app, &token).await;
        let http = reqwest::Client::new();
        let post = |path: String, form: Vec<(&'static str, String)>| {
            http.post(format!("{mock_url}{path}"))
                .bearer_auth(DEV_STRIPE_SECRET_KEY)
                .form(&form)
                .send()
        };
        let get = |path: String| {
            http.get(format!("{mock_url}{path}"))
                .bearer_auth(DEV_STRIPE_SECRET_KEY)
                .send()
        };
        let customer: Value = post(
            "/v1/customers".into(),
            vec![("email", "ana@example.com".into())],
        )
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
        let cus = customer["id"].as_str().unwrap().to_owned();
        let session: Value = post(
            "/v1/checkout/sessions".into(),
            vec![
                ("mode", "subscription".into()),
                ("customer", cus.clone()),
                ("line_items[0][price]", PRICE.into()),
                ("line_items[0][quantity]", "1".into()),
                ("success_url", format!("{BASE}/success")),
                ("metadata[user_id]", uid.clone()),
                ("client_reference_id", uid.clone()),
            ],
        )
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
        let cs = session["id"].as_str().unwrap().to_owned();
        mock.pay(&cs, CARD_OK).unwrap();
        let stale: Value = get(format!(
            "/v1/checkout/sessions/{cs}?expand[]=subscription&expand[]=subscription.default_payment_method"
        )).await.unwrap().json().await.unwrap();
        let sub = stale["subscription"]["id"].as_str().unwrap().to_owned();
        let mut fresh: Value = get(format!(
            "/v1/subscriptions/{sub}?expand[]=default_payment_method"
        ))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
        fresh["cancel_at_period_end"] = json!(true);
        app.state
            .store
            .save_stripe_customer(uid.parse().unwrap(), &cus, app.state.clock.now())
            .await
            .unwrap();

        // The confirm call reads first but slowly (the session, before the cancel); the
        // webhook reads later and fast (after the cancel).
        Mock::given(method("GET"))
            .and(path(format!("/v1/checkout/sessions/{cs}")))
            .respond_with(
                ResponseTemplate::new(200)
                    .set_body_json(&stale)
                    .set_delay(Duration::from_millis(1200)),
            )
            .mount(&server)
            .await;
        Mock::given(method("GET"))
            .and(path(format!("/v1/subscriptions/{sub}")))
            .respond_with(ResponseTemplate::new(200).set_body_json(&fresh))
            .mount(&server)
            .await;
        let event = json!({"id": "evt_cancel", "type": "customer.subscription.updated",
            "data": {"object": {"id": sub, "customer": cus}}});
        let raw = event.to_string();
        let t = app.state.clock.now().unix_timestamp();
        let confirm = app.post_auth("/api/checkout/confirm", &token, json!({ "session_id": cs }));
        let webhook = async {
            tokio::time::sleep(Duration::from_millis(300)).await;
            app.client
                .post(app.url("/api/stripe/webhook"))
                .header(
                    "stripe-signature",
                    sign(DEV_STRIPE_WEBHOOK_SECRET, t, raw.as_bytes()),
                )
                .body(raw.clone())
                .send()
                .await
                .unwrap()
        };
        let (confirmed, hooked) = tokio::join!(confirm, webhook);
        assert_eq!(confirmed.status(), StatusCode::OK);
        assert_eq!(hooked.status(), StatusCode::OK);
        let (_, v) = body(app.get_auth("/api/subscription", &token).await).await;
        assert_eq!(v["subscription"]["cancel_at_period_end"], true, "{v}");
        let (_, plan) = body(app.get_auth("/api/plan", &token).await).await;
        assert_eq!(plan["plan_type"], "monthly");
    }
);

both!(
    async fn confirm_and_webhook_say_stripe_is_unavailable(backend: Backend) {
        let server = MockServer::start().await;
        Mock::given(method("GET"))
            .and(path_regex("^/v1/.*"))
            .respond_with(
                ResponseTemplate::new(500).set_body_json(json!({"error": {"type": "api_error"}})),
            )
            .mount(&server)
            .await;
        let app = app_against(backend, &server, 1).await;
        let token =
            access(&crate::helpers::signed_in_account(&app, "ana@example.com", PASSWORD).await);
        let started = Instant::now();
        let (status, v) = body(
            app.post_auth(
                "/api/checkout/confirm",
                &token,
                json!({"session_id": "cs_test_x"}),
            )
            .await,
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_GATEWAY, "stripe_unavailable")
        );
        assert_eq!(
            error_message(&v),
            "Plan activation failed, but you can contact support."
        );
        assert!(started.elapsed() < Duration::from_secs(2));

        // A webhook whose subject cannot be read back is not lost: Stripe is asked to retry.
        let raw = json!({"id": "evt_1", "type": "customer.subscription.updated", "data": {"object": {"id": "sub_1"}}}).to_string();
        let t = app.state.clock.now().unix_timestamp();
        let resp = app
            .client
            .post(app.url("/api/stripe/webhook"))
            .header(
                "stripe-signature",
                sign(DEV_STRIPE_WEBHOOK_SECRET, t, raw.as_bytes()),
            )
            .body(raw)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::SERVICE_UNAVAILABLE);
        let recorded = app.state.store.webhook_events(10).await.unwrap();
        assert_eq!(recorded.len(), 1);
        assert!(recorded[0].processed_at.is_none());
        assert!(
            recorded[0]
                .error
                .as_deref()
                .unwrap_or("")
                .contains("unavailable"),
            "{recorded:?}"
        );
    }
);
