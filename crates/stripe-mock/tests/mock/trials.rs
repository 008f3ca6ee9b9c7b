//! Trials: a checkout with `subscription_data[trial_period_days]` takes the card and charges
//! nothing; the clock sends `customer.subscription.trial_will_end` three days before the end and
//! charges the first invoice at `trial_end`.

use serde_json::{json, Value};

use crate::helpers::*;

const DAY: i64 = 86_400;

async fn trial_session(m: &TestMock, customer: &str, days: &str) -> (u16, Value) {
    let (status, body) = m
        .post(
            "/v1/checkout/sessions",
            &[
                ("mode", "subscription"),
                ("customer", customer),
                ("line_items[0][price]", "price_closewise_monthly"),
                ("line_items[0][quantity]", "3"),
                ("success_url", "http://app.test/ok?s={CHECKOUT_SESSION_ID}"),
                ("cancel_url", "http://app.test/no"),
                ("subscription_data[trial_period_days]", days),
            ],
        )
        .await;
    (status.as_u16(), body)
}

/// A trial of 14 days paid with `card`; returns (customer, subscription).
async fn trialing(m: &TestMock, card: &str) -> (String, String) {
    let customer = m.create_customer("team@example.com").await;
    let (status, session) = trial_session(m, &customer, "14").await;
    assert_eq!(status, 200, "{session}");
    let id = session["id"].as_str().unwrap();
    m.pay(id, card).await;
    let (_, s) = m.get(&format!("/v1/checkout/sessions/{id}")).await;
    (customer, s["subscription"].as_str().unwrap().to_owned())
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

#[tokio::test]
async fn a_trial_checkout_takes_the_card_and_charges_nothing() {
    let m = spawn_mock().await;
    let customer = m.create_customer("team@example.com").await;
    let (_, session) = trial_session(&m, &customer, "14").await;
    assert_eq!(session["amount_total"], 0, "{session}");
    let page = m
        .http
        .get(m.url(&format!("/c/pay/{}", session["id"].as_str().unwrap())))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("14 days free"), "{page}");
    assert!(page.contains("Start trial"), "{page}");

    let start = m.handle.now();
    // The card that fails every charge attaches fine: nothing is charged yet.
    let id = session["id"].as_str().unwrap();
    m.pay(id, "4000 0000 0000 0341").await;
    let (_, s) = m
        .get(&format!(
            "/v1/checkout/sessions/{id}?expand[]=subscription.latest_invoice"
        ))
        .await;
    assert_eq!(s["status"], "complete");
    assert_eq!(s["payment_status"], "no_payment_required");
    let sub = &s["subscription"];
    assert_eq!(sub["status"], "trialing");
    let trial_start = sub["trial_start"].as_i64().unwrap();
    let trial_end = sub["trial_end"].as_i64().unwrap();
    assert!((trial_start - start).abs() <= 2);
    assert_eq!(trial_end, trial_start + 14 * DAY);
    assert_eq!(sub["current_period_end"], trial_end);
    assert!(sub["default_payment_method"].is_string());
    let invoice = &sub["latest_invoice"];
    assert_eq!(invoice["status"], "paid");
    assert_eq!(invoice["amount_due"], 0);
    assert_eq!(invoice["billing_reason"], "subscription_create");
    assert_eq!(
        invoice["lines"]["data"][0]["description"],
        "Trial period for Unlimited Sales Copilot"
    );
    assert_eq!(
        m.event_types(),
        [
            "customer.created",
            "customer.subscription.created",
            "invoice.paid",
            "checkout.session.completed"
        ]
    );
}

#[tokio::test]
async fn trial_days_out_of_range_are_refused() {
    let m = spawn_mock().await;
    let customer = m.create_customer("team@example.com").await;
    for days in ["0", "731", "two"] {
        let (status, body) = trial_session(&m, &customer, days).await;
        assert_eq!(status, 400, "{days}: {body}");
        assert_eq!(
            body["error"]["param"], "subscription_data[trial_period_days]",
            "{body}"
        );
    }
}

#[tokio::test]
async fn the_clock_warns_three_days_before_and_charges_at_the_trial_end() {
    let m = spawn_mock().await;
    let (_, sub) = trialing(&m, "4242 4242 4242 4242").await;
    let (_, before) = m.get(&format!("/v1/subscriptions/{sub}")).await;
    let trial_end = before["trial_end"].as_i64().unwrap();

    assert!(advance(&m, 10 * DAY).await.is_empty());
    assert_eq!(
        advance(&m, DAY + 60).await,
        ["customer.subscription.trial_will_end"]
    );
    let warned = m.handle.events().last().unwrap().clone();
    assert_eq!(warned["created"], trial_end - 3 * DAY);
    assert_eq!(warned["data"]["object"]["status"], "trialing");
    // Said once.
    assert!(advance(&m, DAY).await.is_empty());

    assert_eq!(
        advance(&m, 3 * DAY).await,
        ["customer.subscription.updated", "invoice.paid"]
    );
    let events = m.handle.events();
    let updated = &events[events.len() - 2];
    assert_eq!(updated["data"]["previous_attributes"]["status"], "trialing");
    let (_, after) = m
        .get(&format!("/v1/subscriptions/{sub}?expand[]=latest_invoice"))
        .await;
    assert_eq!(after["status"], "active");
    assert_eq!(after["trial_end"], trial_end);
    assert_eq!(after["current_period_start"], trial_end);
    let invoice = &after["latest_invoice"];
    assert_eq!(invoice["status"], "paid");
    assert_eq!(invoice["amount_paid"], 6000);
    assert_eq!(invoice["billing_reason"], "subscription_cycle");
}

#[tokio::test]
async fn a_declined_first_charge_leaves_the_subscription_past_due() {
    let m = spawn_mock().await;
    let (_, sub) = trialing(&m, "4000 0000 0000 0341").await;
    // Past the trial's end, before Stripe's first retry a day later: the new period, the failed
    // charge, then the status (Stripe's order).
    let types = advance(&m, 14 * DAY + 3600).await;
    assert_eq!(
        types,
        [
            "customer.subscription.trial_will_end",
            "customer.subscription.updated",
            "invoice.payment_failed",
            "customer.subscription.updated"
        ]
    );
    let (_, after) = m
        .get(&format!("/v1/subscriptions/{sub}?expand[]=latest_invoice"))
        .await;
    assert_eq!(after["status"], "past_due");
    assert_eq!(after["latest_invoice"]["status"], "open");
    assert_eq!(after["latest_invoice"]["amount_due"], 6000);
}
