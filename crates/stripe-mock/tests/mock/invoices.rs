//! The products list, invoices (list, retrieve, lines) and the upcoming-invoice
//! preview computed from the subscription and the test clock.

use serde_json::{json, Value};

use crate::helpers::*;

const MONTH: i64 = 31 * 86_400;

#[tokio::test]
async fn products_are_listed_newest_first_with_pagination() {
    let m = spawn_mock().await;
    for name in ["Seat", "Add-on"] {
        let (status, body) = m.post("/v1/products", &[("name", name)]).await;
        assert_eq!(status, 200, "{body}");
    }
    m.handle.advance_clock(5);
    let (_, newest) = m.post("/v1/products", &[("name", "Newest")]).await;
    let (status, list) = m.get("/v1/products?limit=2").await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["object"], "list");
    assert_eq!(list["url"], "/v1/products");
    assert_eq!(list["has_more"], true);
    assert_eq!(list["data"][0]["id"], newest["id"]);
    assert_eq!(list["data"][0]["object"], "product");
    let last = list["data"][1]["id"].as_str().unwrap();
    let (_, rest) = m
        .get(&format!("/v1/products?limit=2&starting_after={last}"))
        .await;
    assert_eq!(rest["data"].as_array().unwrap().len(), 2, "{rest}");
    assert_eq!(rest["has_more"], false);
    let (_, active) = m.get("/v1/products?active=false").await;
    assert_eq!(active["data"], json!([]));
}

#[tokio::test]
async fn invoices_are_listed_by_customer_or_subscription_and_retrieved_with_their_lines() {
    let m = spawn_mock().await;
    let (customer, _, sub) = m.subscribed().await;
    let (other, _, _) = m.subscribed().await;
    m.handle.advance_clock(MONTH);
    m.handle.advance_clock(MONTH);

    let (status, list) = m
        .get(&format!("/v1/invoices?customer={customer}&limit=2"))
        .await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["url"], "/v1/invoices");
    assert_eq!(list["has_more"], true, "three invoices, two per page");
    let data = list["data"].as_array().unwrap();
    assert_eq!(data[0]["billing_reason"], "subscription_cycle");
    assert!(data[0]["created"].as_i64() >= data[1]["created"].as_i64());
    assert!(data.iter().all(|i| i["customer"] == customer.as_str()));
    let last = data[1]["id"].as_str().unwrap();
    let (_, rest) = m
        .get(&format!(
            "/v1/invoices?customer={customer}&limit=2&starting_after={last}"
        ))
        .await;
    assert_eq!(rest["data"][0]["billing_reason"], "subscription_create");
    assert_eq!(rest["has_more"], false);

    let (_, by_sub) = m.get(&format!("/v1/invoices?subscription={sub}")).await;
    assert_eq!(by_sub["data"].as_array().unwrap().len(), 3);
    let (_, paid) = m.get("/v1/invoices?status=paid&limit=100").await;
    assert_eq!(paid["data"].as_array().unwrap().len(), 6);
    let (_, theirs) = m.get(&format!("/v1/invoices?customer={other}")).await;
    assert!(theirs["data"]
        .as_array()
        .unwrap()
        .iter()
        .all(|i| i["customer"] == other.as_str()));

    let id = data[0]["id"].as_str().unwrap();
    let (status, invoice) = m.get(&format!("/v1/invoices/{id}?expand[]=customer")).await;
    assert_eq!(status, 200);
    assert_eq!(invoice["customer"]["id"], customer.as_str());
    assert_eq!(invoice["lines"]["data"][0]["amount"], 2000);
    let (status, lines) = m.get(&format!("/v1/invoices/{id}/lines")).await;
    assert_eq!(status, 200, "{lines}");
    assert_eq!(lines["url"], format!("/v1/invoices/{id}/lines"));
    assert_eq!(lines["data"], invoice["lines"]["data"]);
    let (status, body) = m.get("/v1/invoices/in_nope/lines").await;
    assert_eq!(
        (status.as_u16(), body["error"]["code"].clone()),
        (404, json!("resource_missing"))
    );
}

#[tokio::test]
async fn the_preview_is_the_next_renewal_of_the_subscription_on_the_mock_clock() {
    let m = spawn_mock().await;
    let (customer, _, sub) = m.subscribed().await;
    let (_, s) = m.get(&format!("/v1/subscriptions/{sub}")).await;
    let period_end = s["items"]["data"][0]["current_period_end"]
        .as_i64()
        .unwrap();

    let (status, preview) = m
        .post("/v1/invoices/create_preview", &[("subscription", &sub)])
        .await;
    assert_eq!(status, 200, "{preview}");
    assert_eq!(preview["object"], "invoice");
    assert_eq!(preview["status"], "draft");
    assert_eq!(preview["billing_reason"], "upcoming");
    assert_eq!(preview["customer"], customer.as_str());
    assert_eq!(preview["subscription"], sub.as_str());
    assert_eq!(preview["amount_due"], 2000);
    assert_eq!(preview["period_start"], period_end);
    assert_eq!(preview["next_payment_attempt"], period_end);
    assert_eq!(preview["lines"]["data"][0]["period"]["start"], period_end);
    assert_eq!(preview["lines"]["data"][0]["quantity"], 1);
    assert!(preview["id"].as_str().unwrap().starts_with("upcoming_in_"));
    let (_, by_customer) = m
        .post("/v1/invoices/create_preview", &[("customer", &customer)])
        .await;
    assert_eq!(by_customer["subscription"], sub.as_str());
    let (_, list) = m.get(&format!("/v1/invoices?subscription={sub}")).await;
    assert_eq!(
        list["data"].as_array().unwrap().len(),
        1,
        "a preview is not an invoice"
    );

    // The clock moves past the renewal: the preview moves to the next period.
    m.handle.advance_clock(MONTH);
    let (_, next) = m
        .post("/v1/invoices/create_preview", &[("subscription", &sub)])
        .await;
    assert!(next["period_start"].as_i64().unwrap() > period_end);

    // Canceling at period end leaves nothing to preview, as in Stripe.
    m.post(
        &format!("/v1/subscriptions/{sub}"),
        &[("cancel_at_period_end", "true")],
    )
    .await;
    let (status, body) = m
        .post("/v1/invoices/create_preview", &[("subscription", &sub)])
        .await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["error"]["code"], "invoice_upcoming_none");

    let (status, body) = m.post("/v1/invoices/create_preview", &[]).await;
    assert_eq!(
        (status.as_u16(), body["error"]["code"].clone()),
        (400, json!("parameter_missing"))
    );
    let (status, _) = m
        .post(
            "/v1/invoices/create_preview",
            &[("subscription", "sub_nope")],
        )
        .await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn paying_a_failed_renewal_declines_the_failing_card_and_succeeds_with_a_good_one() {
    // One retry, late: the clock's month does not reach it.
    let m = spawn_with(stripe_mock::Config {
        retry_days: vec![20],
        ..fast_config()
    })
    .await;
    let (customer, _, sub) = m.subscribed().await;
    let (_, portal) = m
        .post("/v1/billing_portal/sessions", &[("customer", &customer)])
        .await;
    let card = |number: &'static str| {
        m.http
            .post(format!("{}/card", portal["url"].as_str().unwrap()))
            .form(&[("cardnumber", number), ("exp", "12 / 34"), ("cvc", "123")])
            .send()
    };
    assert_eq!(card("4000 0000 0000 0341").await.unwrap().status(), 303);
    m.handle.advance_clock(MONTH);
    let (_, s) = m
        .get(&format!("/v1/subscriptions/{sub}?expand[]=latest_invoice"))
        .await;
    assert_eq!(s["status"], "past_due");
    let invoice = s["latest_invoice"]["id"].as_str().unwrap().to_owned();
    assert_eq!(s["latest_invoice"]["status"], "open");

    let (status, body) = m.post(&format!("/v1/invoices/{invoice}/pay"), &[]).await;
    assert_eq!(status, 402, "{body}");
    assert_eq!(body["error"]["type"], "card_error");
    assert_eq!(body["error"]["code"], "card_declined");
    assert_eq!(body["error"]["decline_code"], "generic_decline");
    assert_eq!(body["error"]["message"], "Your card was declined.");
    let (_, still) = m.get(&format!("/v1/invoices/{invoice}")).await;
    assert_eq!(
        (still["status"].clone(), still["attempt_count"].clone()),
        (json!("open"), json!(2))
    );

    let good = m
        .handle
        .snapshot()
        .payment_methods
        .values()
        .find(|p| p.customer.as_deref() == Some(customer.as_str()) && !p.fails_charges)
        .map(|p| p.id.clone())
        .expect("the checkout's card");
    let (status, paid) = m
        .post(
            &format!("/v1/invoices/{invoice}/pay"),
            &[("payment_method", &good)],
        )
        .await;
    assert_eq!(status, 200, "{paid}");
    assert_eq!(paid["status"], "paid");
    assert_eq!(paid["amount_paid"], 2000);
    assert_eq!(paid["next_payment_attempt"], Value::Null);
    let (_, s) = m.get(&format!("/v1/subscriptions/{sub}")).await;
    assert_eq!(s["status"], "active");
    let (status, body) = m.post(&format!("/v1/invoices/{invoice}/pay"), &[]).await;
    assert_eq!(
        (status.as_u16(), body["error"]["message"].clone()),
        (400, json!("Invoice is already paid"))
    );
    let kinds = m.event_types();
    assert_eq!(
        kinds[kinds.len() - 2..],
        ["invoice.paid", "customer.subscription.updated"]
    );
    let failed = kinds
        .iter()
        .filter(|k| *k == "invoice.payment_failed")
        .count();
    assert_eq!(failed, 2, "the renewal and the declined retry");
}
