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
async fn the_seeded_catalogue_has_the_monthly_price_and_its_product() {
    let m = spawn_mock().await;
    let (status, price) = m
        .get("/v1/prices/price_closewise_monthly?expand[]=product")
        .await;
    assert_eq!(status, 200);
    assert_eq!(price["object"], "price");
    assert_eq!(price["unit_amount"], 2000);
    assert_eq!(price["currency"], "usd");
    assert_eq!(price["recurring"]["interval"], "month");
    assert_eq!(price["livemode"], false);
    assert_eq!(price["product"]["id"], "prod_closewise_unlimited");
    assert_eq!(price["product"]["name"], "Unlimited Sales Copilot");

    let (_, product) = m.get("/v1/products/prod_closewise_unlimited").await;
    assert_eq!(product["object"], "product");
    assert_eq!(product["default_price"], "price_closewise_monthly");

    let (_, list) = m.get("/v1/prices?active=true&limit=5").await;
    assert_eq!(list["object"], "list");
    assert_eq!(list["data"][0]["id"], "price_closewise_monthly");
    assert_eq!(list["has_more"], false);
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
async fn customers_update_merges_metadata_and_emits_customer_updated() {
    let m = spawn_mock().await;
    let (_, c) = m
        .post(
            "/v1/customers",
            &[
                ("email", "a@example.com"),
                ("name", "Ada"),
                ("metadata[user_id]", "u1"),
                ("metadata[plan]", "free"),
            ],
        )
        .await;
    let id = c["id"].as_str().unwrap();
    assert_eq!(c["object"], "customer");
    assert_eq!(c["metadata"], json!({"user_id": "u1", "plan": "free"}));
    let (status, c) = m
        .post(
            &format!("/v1/customers/{id}"),
            &[
                ("email", "new@example.com"),
                ("metadata[plan]", ""),
                ("metadata[team]", "x"),
            ],
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(c["email"], "new@example.com");
    assert_eq!(c["name"], "Ada");
    assert_eq!(c["metadata"], json!({"user_id": "u1", "team": "x"}));
    let (_, got) = m.get(&format!("/v1/customers/{id}")).await;
    assert_eq!(got, c);
    let updated = m
        .handle
        .events()
        .into_iter()
        .find(|e| e["type"] == "customer.updated")
        .unwrap();
    assert_eq!(
        updated["data"]["previous_attributes"]["email"],
        "a@example.com"
    );

    let (status, body) = m.post("/v1/customers", &[("email", "not-an-email")]).await;
    assert_eq!(
        (status.as_u16(), body["error"]["param"].clone()),
        (400, json!("email"))
    );
    let (_, list) = m.get("/v1/customers?email=new%40example.com").await;
    assert_eq!(list["data"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn prices_can_be_created_with_product_data() {
    let m = spawn_mock().await;
    let (status, p) = m
        .post(
            "/v1/prices",
            &[
                ("currency", "usd"),
                ("unit_amount", "500"),
                ("product_data[name]", "Extra seat"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{p}");
    assert_eq!(p["type"], "one_time");
    let product = p["product"].as_str().unwrap();
    let (_, prod) = m.get(&format!("/v1/products/{product}")).await;
    assert_eq!(prod["name"], "Extra seat");
    let (status, body) = m
        .post(
            "/v1/prices",
            &[("currency", "usd"), ("product", "prod_closewise_unlimited")],
        )
        .await;
    assert_eq!(
        (status.as_u16(), body["error"]["param"].clone()),
        (400, json!("unit_amount"))
    );
}

#[tokio::test]
async fn expand_fills_in_nested_objects_on_sessions_and_subscriptions() {
    let m = spawn_mock().await;
    let (customer, session, sub) = m.subscribed().await;
    let (_, s) = m
        .get(&format!(
            "/v1/checkout/sessions/{session}?expand[]=subscription.default_payment_method&expand[]=customer&expand[]=line_items"
        ))
        .await;
    assert_eq!(s["customer"]["id"], customer.as_str());
    assert_eq!(s["customer"]["object"], "customer");
    assert_eq!(s["subscription"]["id"], sub.as_str());
    assert_eq!(
        s["subscription"]["default_payment_method"]["card"]["last4"],
        "4242"
    );
    assert_eq!(
        s["subscription"]["default_payment_method"]["card"]["brand"],
        "visa"
    );
    assert_eq!(
        s["line_items"]["data"][0]["price"]["id"],
        "price_closewise_monthly"
    );
    assert_eq!(s["line_items"]["data"][0]["quantity"], 1);

    // expand[0]= style (what async-stripe sends) works too.
    let (_, sub_json) = m
        .get(&format!("/v1/subscriptions/{sub}?expand%5B0%5D=latest_invoice&expand%5B1%5D=default_payment_method"))
        .await;
    assert_eq!(sub_json["latest_invoice"]["object"], "invoice");
    assert_eq!(sub_json["latest_invoice"]["status"], "paid");
    assert_eq!(
        sub_json["default_payment_method"]["object"],
        "payment_method"
    );

    let (_, unexpanded) = m.get(&format!("/v1/checkout/sessions/{session}")).await;
    assert_eq!(unexpanded["subscription"], sub.as_str());
    assert!(unexpanded.get("line_items").is_none());

    let (_, items) = m
        .get(&format!("/v1/checkout/sessions/{session}/line_items"))
        .await;
    assert_eq!(items["object"], "list");
    assert_eq!(items["data"][0]["amount_total"], 2000);
}

#[tokio::test]
async fn events_are_listed_newest_first_with_paging_and_type_filters() {
    let m = spawn_mock().await;
    for i in 0..3 {
        m.create_customer(&format!("c{i}@example.com")).await;
    }
    let (_, all) = m.get("/v1/events?limit=2").await;
    let data = all["data"].as_array().unwrap();
    assert_eq!(data.len(), 2);
    assert_eq!(all["has_more"], true);
    assert_eq!(data[0]["data"]["object"]["email"], "c2@example.com");
    assert_eq!(data[0]["object"], "event");
    assert_eq!(data[0]["type"], "customer.created");
    assert_eq!(data[0]["api_version"], stripe_mock::API_VERSION);
    let last = data[1]["id"].as_str().unwrap();
    let (_, next) = m
        .get(&format!("/v1/events?limit=2&starting_after={last}"))
        .await;
    assert_eq!(next["data"].as_array().unwrap().len(), 1);
    assert_eq!(next["has_more"], false);
    let (_, none) = m.get("/v1/events?type=invoice.paid").await;
    assert!(none["data"].as_array().unwrap().is_empty());
    let (_, wildcard) = m.get("/v1/events?type=customer.*").await;
    assert_eq!(wildcard["data"].as_array().unwrap().len(), 3);
    let id = data[0]["id"].as_str().unwrap();
    let (_, one) = m.get(&format!("/v1/events/{id}")).await;
    assert_eq!(one, data[0]);
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
}

#[tokio::test]
async fn expiring_a_session_closes_it_and_a_second_expire_is_refused() {
    let m = spawn_mock().await;
    let s = m.create_session(None).await;
    let id = s["id"].as_str().unwrap();
    let (status, s) = m
        .post(&format!("/v1/checkout/sessions/{id}/expire"), &[])
        .await;
    assert_eq!(status, 200);
    assert_eq!(s["status"], "expired");
    assert_eq!(s["url"], json!(null));
    let (status, body) = m
        .post(&format!("/v1/checkout/sessions/{id}/expire"), &[])
        .await;
    assert_eq!(status, 400);
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("status of \"expired\""));
    assert!(m
        .event_types()
        .contains(&"checkout.session.expired".to_owned()));
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
