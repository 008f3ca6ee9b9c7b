//! Resources in Stripe's shape: the catalogue, customers, prices, expansions, events, expiry.

use serde_json::json;

use crate::helpers::*;

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
    // Newest first, as Stripe lists: the yearly price was seeded after the monthly one.
    let ids: Vec<&str> = list["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["price_closewise_yearly", "price_closewise_monthly"]);
    assert_eq!(list["has_more"], false);
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
async fn a_line_item_with_price_data_makes_an_inline_price_for_that_session() {
    let m = spawn_mock().await;
    let (status, s) = m
        .post(
            "/v1/checkout/sessions",
            &[
                ("mode", "subscription"),
                ("success_url", "http://app.test/ok"),
                ("line_items[0][quantity]", "2"),
                ("line_items[0][price_data][currency]", "eur"),
                ("line_items[0][price_data][unit_amount]", "1500"),
                ("line_items[0][price_data][product_data][name]", "Team seat"),
                ("line_items[0][price_data][recurring][interval]", "month"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["amount_total"], 3000);
    assert_eq!(s["currency"], "eur");
    let id = s["id"].as_str().unwrap();
    let (_, items) = m
        .get(&format!("/v1/checkout/sessions/{id}/line_items"))
        .await;
    let price = &items["data"][0]["price"];
    assert_eq!(price["unit_amount"], 1500);
    assert_eq!(price["active"], false, "inline prices are not for sale");
    assert_eq!(items["data"][0]["description"], "Team seat");
    m.handle.pay(id, "4242 4242 4242 4242").unwrap();
    let (_, s) = m
        .get(&format!("/v1/checkout/sessions/{id}?expand[]=subscription"))
        .await;
    assert_eq!(
        s["subscription"]["items"]["data"][0]["price"]["id"],
        price["id"]
    );
    assert_eq!(s["subscription"]["items"]["data"][0]["quantity"], 2);

    let (status, body) = m
        .post(
            "/v1/checkout/sessions",
            &[
                ("mode", "payment"),
                ("success_url", "http://app.test/ok"),
                ("line_items[0][quantity]", "1"),
                ("line_items[0][price_data][currency]", "usd"),
                ("line_items[0][price_data][unit_amount]", "100"),
                ("line_items[0][price_data][product]", "prod_nope"),
            ],
        )
        .await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["error"]["param"], "line_items[0][price_data][product]");
}

#[tokio::test]
async fn a_subscription_s_items_are_listed_by_subscription() {
    let m = spawn_mock().await;
    let (_, _, sub) = m.subscribed().await;
    let (_, s) = m.get(&format!("/v1/subscriptions/{sub}")).await;
    let url = s["items"]["url"].as_str().unwrap();
    let (status, list) = m.get(url).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["object"], "list");
    assert_eq!(list["url"], "/v1/subscription_items");
    assert_eq!(list["data"], s["items"]["data"]);
    assert_eq!(list["has_more"], false);
    let (status, body) = m.get("/v1/subscription_items").await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["code"], "parameter_missing");
    assert_eq!(body["error"]["param"], "subscription");
    let (status, body) = m.get("/v1/subscription_items?subscription=sub_nope").await;
    assert_eq!(status, 404, "{body}");
}
