//! Failed renewals: Smart-Retries-like retries on the clock, what happens after the last one,
//! and a new card paying the open invoice at once.

use serde_json::{json, Value};
use stripe_mock::AfterRetries;

use crate::helpers::*;

const DAY: i64 = 86_400;

/// A subscription whose card (set in the portal) attaches and then fails every charge, moved
/// to its renewal: (mock, customer, subscription, portal URL, the renewal's first event index).
async fn failing_renewal(config: stripe_mock::Config) -> (TestMock, String, String, String, usize) {
    let m = spawn_with(config).await;
    let (customer, _, sub) = m.subscribed().await;
    let (_, portal) = m
        .post("/v1/billing_portal/sessions", &[("customer", &customer)])
        .await;
    let url = portal["url"].as_str().unwrap().to_owned();
    assert_eq!(portal_card(&m, &url, "4000 0000 0000 0341").await, 303);
    let (_, s) = m.get(&format!("/v1/subscriptions/{sub}")).await;
    let from = m.handle.events().len();
    let end = s["current_period_end"].as_i64().unwrap();
    m.handle.advance_clock(end - m.handle.now() + 60);
    (m, customer, sub, url, from)
}

async fn portal_card(m: &TestMock, url: &str, number: &str) -> u16 {
    m.http
        .post(format!("{url}/card"))
        .form(&[("cardnumber", number), ("exp", "12 / 34"), ("cvc", "123")])
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

fn events_since(m: &TestMock, from: usize) -> Vec<Value> {
    m.handle.events().into_iter().skip(from).collect()
}

fn types(events: &[Value]) -> Vec<&str> {
    events.iter().map(|e| e["type"].as_str().unwrap()).collect()
}

fn failures(events: &[Value]) -> Vec<(Value, Value)> {
    events
        .iter()
        .filter(|e| e["type"] == "invoice.payment_failed")
        .map(|e| {
            let i = &e["data"]["object"];
            (
                i["attempt_count"].clone(),
                i["next_payment_attempt"].clone(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_failed_renewal_is_retried_on_days_1_3_5_and_7_then_the_subscription_is_canceled() {
    let (m, _, sub, _, from) = failing_renewal(fast_config()).await;
    let events = events_since(&m, from);
    assert_eq!(
        types(&events),
        [
            "customer.subscription.updated",
            "invoice.payment_failed",
            "customer.subscription.updated"
        ],
        "the new period, the failed charge, then past_due"
    );
    assert_eq!(
        events[2]["data"]["previous_attributes"]["status"], "active",
        "{}",
        events[2]
    );
    let invoice = events[1]["data"]["object"].clone();
    let failed_at = invoice["created"].as_i64().unwrap();
    assert_eq!(
        (
            invoice["status"].clone(),
            invoice["attempted"].clone(),
            invoice["attempt_count"].clone(),
            invoice["next_payment_attempt"].clone()
        ),
        (json!("open"), json!(true), json!(1), json!(failed_at + DAY))
    );
    let (_, s) = m.get(&format!("/v1/subscriptions/{sub}")).await;
    assert_eq!(s["status"], "past_due");

    // Day 2: the day-1 retry failed; the day-3 one is next.
    m.handle.advance_clock(2 * DAY);
    let later = events_since(&m, from + 3);
    assert_eq!(failures(&later), [(json!(2), json!(failed_at + 3 * DAY))]);

    m.handle.advance_clock(6 * DAY);
    let all = events_since(&m, from);
    assert_eq!(
        failures(&all),
        [
            (json!(1), json!(failed_at + DAY)),
            (json!(2), json!(failed_at + 3 * DAY)),
            (json!(3), json!(failed_at + 5 * DAY)),
            (json!(4), json!(failed_at + 7 * DAY)),
            (json!(5), Value::Null),
        ]
    );
    let last = all.last().unwrap();
    assert_eq!(last["type"], "customer.subscription.deleted");
    assert_eq!(
        last["data"]["object"]["cancellation_details"]["reason"],
        "payment_failed"
    );
    let (_, s) = m
        .get(&format!("/v1/subscriptions/{sub}?expand[]=latest_invoice"))
        .await;
    assert_eq!(s["status"], "canceled");
    assert_eq!(
        s["latest_invoice"]["status"], "open",
        "left open, as Stripe"
    );
    m.handle.advance_clock(40 * DAY);
    assert_eq!(m.handle.events().len(), from + all.len(), "nothing more");
}

#[tokio::test]
async fn the_schedule_and_the_end_are_settings_unpaid_keeps_the_subscription() {
    let config = stripe_mock::Config {
        retry_days: vec![2],
        after_retries: AfterRetries::Unpaid,
        ..fast_config()
    };
    let (m, _, sub, _, from) = failing_renewal(config).await;
    m.handle.advance_clock(3 * DAY);
    let events = events_since(&m, from);
    let failed_at = events[1]["data"]["object"]["created"].as_i64().unwrap();
    assert_eq!(
        failures(&events),
        [
            (json!(1), json!(failed_at + 2 * DAY)),
            (json!(2), Value::Null)
        ]
    );
    let last = events.last().unwrap();
    assert_eq!(last["type"], "customer.subscription.updated");
    assert_eq!(last["data"]["object"]["status"], "unpaid");
    let (_, s) = m.get(&format!("/v1/subscriptions/{sub}")).await;
    assert_eq!(s["status"], "unpaid");
}

#[tokio::test]
async fn a_card_updated_in_the_portal_pays_the_open_invoice_at_once() {
    let (m, _, sub, url, from) = failing_renewal(fast_config()).await;
    m.handle.advance_clock(2 * DAY);
    let before = m.handle.events().len();
    assert_eq!(portal_card(&m, &url, "4242 4242 4242 4242").await, 303);
    let events = events_since(&m, before);
    assert_eq!(
        types(&events),
        [
            "payment_method.attached",
            "customer.subscription.updated",
            "invoice.paid",
            "customer.subscription.updated"
        ]
    );
    let paid = &events[2]["data"]["object"];
    assert_eq!(
        (
            paid["status"].clone(),
            paid["attempt_count"].clone(),
            paid["next_payment_attempt"].clone(),
            paid["amount_paid"].clone()
        ),
        (json!("paid"), json!(3), Value::Null, json!(2000))
    );
    assert_eq!(events[3]["data"]["object"]["status"], "active");
    let (_, s) = m.get(&format!("/v1/subscriptions/{sub}")).await;
    assert_eq!(s["status"], "active");
    m.handle.advance_clock(10 * DAY);
    assert!(
        failures(&events_since(&m, from + 4)).is_empty(),
        "no more retries once paid"
    );
}

#[tokio::test]
async fn a_new_default_card_through_the_api_pays_the_open_invoice() {
    let (m, customer, sub, _, _) = failing_renewal(fast_config()).await;
    // The checkout's card (4242) is still attached to the customer.
    let good = m
        .handle
        .snapshot()
        .payment_methods
        .values()
        .find(|p| p.customer.as_deref() == Some(customer.as_str()) && !p.fails_charges)
        .map(|p| p.id.clone())
        .expect("the checkout's card");
    let (status, body) = m
        .post(
            &format!("/v1/customers/{customer}"),
            &[("invoice_settings[default_payment_method]", &good)],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (_, s) = m
        .get(&format!("/v1/subscriptions/{sub}?expand[]=latest_invoice"))
        .await;
    assert_eq!(s["status"], "active");
    assert_eq!(s["latest_invoice"]["status"], "paid");
    assert_eq!(s["latest_invoice"]["next_payment_attempt"], Value::Null);
}
