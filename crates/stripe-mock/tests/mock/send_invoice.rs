//! Subscriptions paid by invoice (`collection_method=send_invoice`): active at once, the invoice
//! open with its `due_date`, sent (the mock's list of sent invoice e-mails), payable on its hosted
//! page, and overdue past the due date.

use serde_json::{json, Value};

use crate::helpers::*;

const DAY: i64 = 86_400;

async fn invoiced(m: &TestMock, customer: &str) -> (u16, Value) {
    let (status, body) = m
        .post(
            "/v1/subscriptions",
            &[
                ("customer", customer),
                ("items[0][price]", "price_closewise_yearly"),
                ("items[0][quantity]", "12"),
                ("collection_method", "send_invoice"),
                ("days_until_due", "30"),
                ("metadata[team_id]", "team-7"),
                ("expand[]", "latest_invoice"),
            ],
        )
        .await;
    (status.as_u16(), body)
}

async fn advance(m: &TestMock, seconds: i64) -> Vec<String> {
    let resp = m
        .http
        .post(m.url("/_mock/clock/advance"))
        .json(&json!({ "seconds": seconds }))
        .send()
        .await
        .unwrap();
    let (_, v) = json_of(resp).await;
    v["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap().to_owned())
        .collect()
}

async fn sent(m: &TestMock) -> Vec<Value> {
    let (status, v) = json_of(
        m.http
            .get(m.url("/_mock/sent_invoices"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200);
    v["data"].as_array().unwrap().clone()
}

#[tokio::test]
async fn a_send_invoice_subscription_is_active_at_once_with_its_invoice_open_and_sent() {
    let m = spawn_mock().await;
    let customer = m.create_customer("billing@acme.test").await;
    let now = m.handle.now();
    let (status, sub) = invoiced(&m, &customer).await;
    assert_eq!(status, 200, "{sub}");
    assert_eq!(sub["status"], "active");
    assert_eq!(sub["collection_method"], "send_invoice");
    assert_eq!(sub["days_until_due"], 30);
    assert_eq!(sub["quantity"], 12);
    assert_eq!(sub["metadata"]["team_id"], "team-7");
    assert!(sub["default_payment_method"].is_null());
    let invoice = &sub["latest_invoice"];
    assert_eq!(invoice["status"], "open");
    assert_eq!(invoice["collection_method"], "send_invoice");
    assert_eq!(invoice["amount_due"], 240_000);
    assert_eq!(invoice["billing_reason"], "subscription_create");
    let due = invoice["due_date"].as_i64().unwrap();
    assert!((due - (now + 30 * DAY)).abs() <= 2, "{due} vs {now}");
    assert!(invoice["next_payment_attempt"].is_null());
    let url = invoice["hosted_invoice_url"].as_str().unwrap();

    let mails = sent(&m).await;
    assert_eq!(mails.len(), 1);
    assert_eq!(mails[0]["invoice"], invoice["id"]);
    assert_eq!(mails[0]["to"], "billing@acme.test");
    assert_eq!(mails[0]["hosted_invoice_url"], url);
    assert_eq!(mails[0]["amount_due"], 240_000);
    assert_eq!(mails[0]["due_date"], due);
    assert_eq!(
        m.event_types(),
        [
            "customer.created",
            "customer.subscription.created",
            "invoice.sent"
        ]
    );
}

#[tokio::test]
async fn send_invoice_needs_days_until_due_and_a_customer() {
    let m = spawn_mock().await;
    let customer = m.create_customer("billing@acme.test").await;
    let (status, body) = m
        .post(
            "/v1/subscriptions",
            &[
                ("customer", &customer),
                ("items[0][price]", "price_closewise_yearly"),
                ("items[0][quantity]", "1"),
                ("collection_method", "send_invoice"),
            ],
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["param"], "days_until_due");
    let (status, body) = m
        .post(
            "/v1/subscriptions",
            &[
                ("items[0][price]", "price_closewise_yearly"),
                ("items[0][quantity]", "1"),
            ],
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["code"], "parameter_missing");
    // Charged automatically, a customer without a card cannot subscribe.
    let (status, body) = m
        .post(
            "/v1/subscriptions",
            &[
                ("customer", &customer),
                ("items[0][price]", "price_closewise_monthly"),
                ("items[0][quantity]", "1"),
            ],
        )
        .await;
    assert_eq!(status, 400, "{body}");
}

#[tokio::test]
async fn paying_on_the_hosted_page_marks_the_invoice_paid() {
    let m = spawn_mock().await;
    let customer = m.create_customer("billing@acme.test").await;
    let (_, sub) = invoiced(&m, &customer).await;
    let invoice = sub["latest_invoice"]["id"].as_str().unwrap().to_owned();
    assert!(advance(&m, 20 * DAY).await.is_empty());

    let page = m
        .http
        .get(m.url(&format!("/i/{invoice}")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("Pay $2400.00"), "{page}");
    assert!(page.contains("Due"), "{page}");

    let pay = |card: &'static str| {
        let m = &m;
        let invoice = invoice.clone();
        async move {
            m.http
                .post(m.url(&format!("/i/{invoice}/pay")))
                .form(&[("cardnumber", card), ("exp", "12 / 34"), ("cvc", "123")])
                .send()
                .await
                .unwrap()
        }
    };
    let declined = pay("4000 0000 0000 0002").await;
    assert_eq!(declined.status(), 402);
    assert_eq!(
        alert(&declined.text().await.unwrap()).as_deref(),
        Some("Your card was declined.")
    );
    let (_, still) = m.get(&format!("/v1/invoices/{invoice}")).await;
    assert_eq!(still["status"], "open");

    let paid = pay("4242 4242 4242 4242").await;
    assert_eq!(paid.status(), 303);
    let (_, after) = m.get(&format!("/v1/invoices/{invoice}")).await;
    assert_eq!(after["status"], "paid");
    assert_eq!(after["amount_paid"], 240_000);
    assert_eq!(m.event_types().last().unwrap(), "invoice.paid");
    // Paid before its due date: nothing more happens on it.
    assert!(advance(&m, 20 * DAY).await.is_empty());
    let (_, s) = m
        .get(&format!(
            "/v1/subscriptions/{}",
            sub["id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(s["status"], "active");
}

#[tokio::test]
async fn an_invoice_unpaid_past_its_due_date_is_overdue_and_the_subscription_past_due() {
    let m = spawn_mock().await;
    let customer = m.create_customer("billing@acme.test").await;
    let (_, sub) = invoiced(&m, &customer).await;
    let id = sub["id"].as_str().unwrap();
    let due = sub["latest_invoice"]["due_date"].as_i64().unwrap();
    assert!(advance(&m, 29 * DAY).await.is_empty());
    assert_eq!(
        advance(&m, 2 * DAY).await,
        ["invoice.overdue", "customer.subscription.updated"]
    );
    let events = m.handle.events();
    assert_eq!(events[events.len() - 2]["created"], due);
    let (_, s) = m.get(&format!("/v1/subscriptions/{id}")).await;
    assert_eq!(s["status"], "past_due");
    // Paying it late still brings the subscription back.
    let invoice = sub["latest_invoice"]["id"].as_str().unwrap();
    let resp = m
        .http
        .post(m.url(&format!("/i/{invoice}/pay")))
        .form(&[
            ("cardnumber", "4242 4242 4242 4242"),
            ("exp", "12 / 34"),
            ("cvc", "123"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 303);
    let (_, s) = m.get(&format!("/v1/subscriptions/{id}")).await;
    assert_eq!(s["status"], "active");
}
