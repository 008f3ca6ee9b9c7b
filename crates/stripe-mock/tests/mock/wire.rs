//! Stripe's wire format: form bodies, errors, auth, idempotency, expand, lists.

use serde_json::json;

use crate::helpers::*;

#[tokio::test]
async fn requests_without_a_key_or_with_a_wrong_key_get_401_in_stripes_shape() {
    let m = spawn_mock().await;
    let resp = m
        .http
        .get(m.url("/v1/customers/cus_x"))
        .send()
        .await
        .unwrap();
    let (status, body) = json_of(resp).await;
    assert_eq!(status, 401);
    assert_eq!(body["error"]["type"], "invalid_request_error");
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .starts_with("You did not provide an API key."));

    let resp = m
        .http
        .get(m.url("/v1/prices/price_closewise_monthly"))
        .bearer_auth("sk_test_somebody_else_123")
        .send()
        .await
        .unwrap();
    let (status, body) = json_of(resp).await;
    assert_eq!(status, 401);
    assert_eq!(body["error"]["type"], "invalid_request_error");
    assert_eq!(
        body["error"]["message"],
        "Invalid API Key provided: sk_test_*************_123"
    );
}

#[tokio::test]
async fn basic_auth_with_the_key_as_user_name_is_accepted_like_stripe() {
    let m = spawn_mock().await;
    let resp = m
        .http
        .get(m.url("/v1/prices/price_closewise_monthly"))
        .basic_auth(KEY, Some(""))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert!(resp.headers()["request-id"]
        .to_str()
        .unwrap()
        .starts_with("req_"));
}

#[tokio::test]
async fn unknown_ids_are_404_resource_missing_with_the_param() {
    let m = spawn_mock().await;
    let cases = [
        (
            "/v1/customers/cus_nope",
            "No such customer: 'cus_nope'",
            "id",
        ),
        (
            "/v1/prices/price_nope",
            "No such price: 'price_nope'",
            "price",
        ),
        (
            "/v1/checkout/sessions/cs_test_nope",
            "No such checkout.session: 'cs_test_nope'",
            "session",
        ),
        (
            "/v1/subscriptions/sub_nope",
            "No such subscription: 'sub_nope'",
            "id",
        ),
        (
            "/v1/payment_methods/pm_nope",
            "No such PaymentMethod: 'pm_nope'",
            "payment_method",
        ),
        (
            "/v1/invoices/in_nope",
            "No such invoice: 'in_nope'",
            "invoice",
        ),
        ("/v1/events/evt_nope", "No such event: 'evt_nope'", "id"),
        (
            "/v1/products/prod_nope",
            "No such product: 'prod_nope'",
            "id",
        ),
    ];
    for (path, message, param) in cases {
        let (status, body) = m.get(path).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(body["error"]["code"], "resource_missing", "{path}");
        assert_eq!(body["error"]["type"], "invalid_request_error", "{path}");
        assert_eq!(body["error"]["message"], message, "{path}");
        assert_eq!(body["error"]["param"], param, "{path}");
    }
}

#[tokio::test]
async fn missing_checkout_parameters_are_400_parameter_missing_naming_the_param() {
    let m = spawn_mock().await;
    let good = [
        ("mode", "subscription"),
        ("success_url", "http://app.test/ok"),
        ("line_items[0][price]", "price_closewise_monthly"),
        ("line_items[0][quantity]", "1"),
    ];
    for missing in [
        "mode",
        "success_url",
        "line_items[0][quantity]",
        "line_items[0][price]",
    ] {
        let form: Vec<_> = good
            .iter()
            .copied()
            .filter(|(k, _)| *k != missing)
            .collect();
        let (status, body) = m.post("/v1/checkout/sessions", &form).await;
        assert_eq!(status, 400, "without {missing}: {body}");
        assert_eq!(
            body["error"]["code"], "parameter_missing",
            "without {missing}"
        );
        assert_eq!(body["error"]["param"], missing, "without {missing}");
    }
    let form: Vec<_> = good
        .iter()
        .copied()
        .filter(|(k, _)| !k.starts_with("line_items"))
        .collect();
    let (status, body) = m.post("/v1/checkout/sessions", &form).await;
    assert_eq!(
        (status.as_u16(), body["error"]["param"].clone()),
        (400, json!("line_items"))
    );

    let (status, body) = m.post("/v1/billing_portal/sessions", &[]).await;
    assert_eq!(
        (status.as_u16(), body["error"]["param"].clone()),
        (400, json!("customer"))
    );
}

#[tokio::test]
async fn checkout_rejects_unknown_prices_and_customers_and_mismatched_modes() {
    let m = spawn_mock().await;
    let base = |price: &'static str| {
        vec![
            ("mode", "subscription"),
            ("success_url", "http://app.test/ok"),
            ("line_items[0][price]", price),
            ("line_items[0][quantity]", "1"),
        ]
    };
    let (status, body) = m.post("/v1/checkout/sessions", &base("price_nope")).await;
    assert_eq!(status, 404);
    assert_eq!(body["error"]["param"], "line_items[0][price]");

    let mut form = base("price_closewise_monthly");
    form.push(("customer", "cus_ghost"));
    let (status, body) = m.post("/v1/checkout/sessions", &form).await;
    assert_eq!(status, 404);
    assert_eq!(body["error"]["param"], "customer");

    let mut form = base("price_closewise_monthly");
    form[0] = ("mode", "payment");
    let (status, body) = m.post("/v1/checkout/sessions", &form).await;
    assert_eq!(status, 400);
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("recurring price"));

    let mut form = base("price_closewise_monthly");
    form[1] = ("success_url", "not a url");
    let (status, body) = m.post("/v1/checkout/sessions", &form).await;
    assert_eq!(
        (status.as_u16(), body["error"]["param"].clone()),
        (400, json!("success_url"))
    );
}

#[tokio::test]
async fn a_created_session_is_open_unpaid_with_a_hosted_url_and_24h_expiry() {
    let m = spawn_mock().await;
    let customer = m.create_customer("ada@example.com").await;
    let s = m.create_session(Some(&customer)).await;
    let id = s["id"].as_str().unwrap();
    assert!(id.starts_with("cs_test_"));
    assert_eq!(s["object"], "checkout.session");
    assert_eq!(s["status"], "open");
    assert_eq!(s["payment_status"], "unpaid");
    assert_eq!(s["mode"], "subscription");
    assert_eq!(s["customer"], customer.as_str());
    assert_eq!(s["metadata"], json!({"user_id": "user-42"}));
    assert_eq!(s["client_reference_id"], "user-42");
    assert_eq!(s["amount_total"], 2000);
    assert_eq!(s["url"], format!("{}/c/pay/{id}", m.base));
    assert_eq!(
        s["expires_at"].as_i64().unwrap() - s["created"].as_i64().unwrap(),
        86_400
    );
    assert_eq!(s["subscription"], json!(null));
    assert_eq!(
        s["success_url"],
        "http://app.test/success?session_id={CHECKOUT_SESSION_ID}"
    );
}

#[tokio::test]
async fn the_same_idempotency_key_replays_the_first_answer() {
    let m = spawn_mock().await;
    let send = |key: &'static str, email: &'static str| {
        m.http
            .post(m.url("/v1/customers"))
            .bearer_auth(KEY)
            .header("Idempotency-Key", key)
            .form(&[("email", email)])
            .send()
    };
    let first = send("key-1", "a@example.com").await.unwrap();
    assert!(first.headers().get("idempotent-replayed").is_none());
    let (_, first) = json_of(first).await;
    let again = send("key-1", "a@example.com").await.unwrap();
    assert_eq!(again.headers()["idempotent-replayed"], "true");
    let (status, again) = json_of(again).await;
    assert_eq!(status, 200);
    assert_eq!(first, again);
    assert_eq!(
        m.handle.snapshot().customers.len(),
        1,
        "the replay created nothing"
    );

    let (status, other) = json_of(send("key-1", "b@example.com").await.unwrap()).await;
    assert_eq!(status, 400);
    assert_eq!(other["error"]["type"], "idempotency_error");

    let (_, fresh) = json_of(send("key-2", "a@example.com").await.unwrap()).await;
    assert_ne!(fresh["id"], first["id"]);
    let events = m.handle.events();
    assert_eq!(events[0]["request"]["idempotency_key"], "key-1");
    assert!(events[0]["request"]["id"]
        .as_str()
        .unwrap()
        .starts_with("req_"));
}

#[tokio::test]
async fn json_bodies_and_unknown_routes_get_stripe_errors() {
    let m = spawn_mock().await;
    let resp = m
        .http
        .post(m.url("/v1/customers"))
        .bearer_auth(KEY)
        .json(&json!({"email": "a@example.com"}))
        .send()
        .await
        .unwrap();
    let (status, body) = json_of(resp).await;
    assert_eq!(status, 400);
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("x-www-form-urlencoded"));
    let (status, body) = m.get("/v1/charges").await;
    assert_eq!(status, 404, "{body}");
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .starts_with("Unrecognized request URL (GET: /v1/charges)"));
    // A known path with a method it does not take is unknown too, as in Stripe (not a 405).
    let (status, body) = m.delete("/v1/customers").await;
    assert_eq!(status, 404, "{body}");
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .starts_with("Unrecognized request URL (DELETE: /v1/customers)"));
}

#[tokio::test]
async fn health_answers_200() {
    let m = spawn_mock().await;
    let resp = m.http.get(m.url("/_mock/health")).send().await.unwrap();
    assert_eq!(resp.status(), 200);
}

#[tokio::test]
async fn idempotency_keys_are_forgotten_after_24_hours() {
    let m = spawn_mock().await;
    let send = |email: &'static str| {
        m.http
            .post(m.url("/v1/customers"))
            .bearer_auth(KEY)
            .header("Idempotency-Key", "closewise-customer-1")
            .form(&[("email", email)])
            .send()
    };
    let (_, first) = json_of(send("a@example.com").await.unwrap()).await;
    m.handle.advance_clock(24 * 3600 + 1);
    let (status, second) = json_of(send("b@example.com").await.unwrap()).await;
    assert_eq!(status, 200, "{second}");
    assert_ne!(first["id"], second["id"]);
}

#[tokio::test]
async fn the_router_works_without_a_server() {
    use tower::ServiceExt;
    let state = stripe_mock::AppState::new(stripe_mock::Config::default()).unwrap();
    let app = stripe_mock::router(state);
    let req = axum::http::Request::get("/v1/prices/price_closewise_monthly")
        .header("authorization", format!("Bearer {KEY}"))
        .body(axum::body::Body::empty())
        .unwrap();
    let resp = app.oneshot(req).await.unwrap();
    assert_eq!(resp.status(), 200);
}
