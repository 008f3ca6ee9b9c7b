//! The test clock: renewals, cancellations at period end, failed renewals, session expiry.

use serde_json::{json, Value};

use crate::helpers::*;

async fn advance(m: &TestMock, body: Value) -> (u16, Value) {
    let resp = m
        .http
        .post(m.url("/_mock/clock/advance"))
        .json(&body)
        .send()
        .await
        .unwrap();
    let (status, v) = json_of(resp).await;
    (status.as_u16(), v)
}

#[tokio::test]
async fn the_clock_reads_wall_time_and_only_moves_forward() {
    let m = spawn_mock().await;
    let (_, clock) = json_of(m.http.get(m.url("/_mock/clock")).send().await.unwrap()).await;
    let now = clock["now"].as_i64().unwrap();
    assert!((now - stripe_mock::Clock::wall()).abs() <= 2);
    let (status, v) = advance(&m, json!({"seconds": 3600})).await;
    assert_eq!(status, 200);
    assert!(v["now"].as_i64().unwrap() >= now + 3600);
    // Form bodies and `to` work too.
    let target = now + 7200;
    let resp = m
        .http
        .post(m.url("/_mock/clock/advance"))
        .form(&[("to", target.to_string())])
        .send()
        .await
        .unwrap();
    let (_, v) = json_of(resp).await;
    assert!((v["now"].as_i64().unwrap() - target).abs() <= 1);
    let (status, v) = advance(&m, json!({"seconds": -5})).await;
    assert_eq!(status, 400, "{v}");
    let (status, _) = advance(&m, json!({})).await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn past_the_period_end_a_subscription_renews_with_a_paid_invoice() {
    let m = spawn_mock().await;
    let (_, _, sub) = m.subscribed().await;
    let (_, before) = m.get(&format!("/v1/subscriptions/{sub}")).await;
    let old_end = before["current_period_end"].as_i64().unwrap();
    let events_before = m.handle.events().len();

    let (status, v) = advance(&m, json!({"seconds": 32 * 86_400})).await;
    assert_eq!(status, 200);
    let types: Vec<_> = v["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(types, ["customer.subscription.updated", "invoice.paid"]);

    let (_, after) = m
        .get(&format!("/v1/subscriptions/{sub}?expand[]=latest_invoice"))
        .await;
    assert_eq!(after["status"], "active");
    assert_eq!(after["current_period_start"], old_end);
    assert!(after["current_period_end"].as_i64().unwrap() >= old_end + 28 * 86_400);
    assert_eq!(after["items"]["data"][0]["current_period_start"], old_end);
    assert_eq!(after["latest_invoice"]["status"], "paid");
    assert_eq!(
        after["latest_invoice"]["billing_reason"],
        "subscription_cycle"
    );
    assert_eq!(after["latest_invoice"]["period_start"], old_end);
    assert_ne!(after["latest_invoice"]["id"], before["latest_invoice"]);

    let events = m.handle.events();
    let updated = &events[events_before];
    assert_eq!(
        updated["data"]["previous_attributes"]["current_period_end"],
        old_end
    );
    assert_eq!(m.handle.snapshot().invoices.len(), 2);
}

#[tokio::test]
async fn several_periods_in_one_jump_renew_several_times() {
    let m = spawn_mock().await;
    m.subscribed().await;
    let (_, v) = advance(&m, json!({"seconds": 95 * 86_400})).await;
    let paid = v["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "invoice.paid")
        .count();
    assert_eq!(paid, 3);
}

#[tokio::test]
async fn a_subscription_set_to_cancel_ends_at_the_period_end() {
    let m = spawn_mock().await;
    let (_, _, sub) = m.subscribed().await;
    let (status, s) = m
        .post(
            &format!("/v1/subscriptions/{sub}"),
            &[("cancel_at_period_end", "true")],
        )
        .await;
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["cancel_at_period_end"], true);
    let end = s["current_period_end"].as_i64().unwrap();

    let (_, v) = advance(&m, json!({"seconds": 10 * 86_400})).await;
    assert!(
        v["events"].as_array().unwrap().is_empty(),
        "nothing happens mid-period"
    );

    let (_, v) = advance(&m, json!({"seconds": 25 * 86_400})).await;
    assert_eq!(v["events"][0]["type"], "customer.subscription.deleted");
    assert_eq!(v["events"].as_array().unwrap().len(), 1);
    let (_, s) = m.get(&format!("/v1/subscriptions/{sub}")).await;
    assert_eq!(s["status"], "canceled");
    assert_eq!(s["ended_at"], end);
    let deleted = m
        .handle
        .events()
        .into_iter()
        .find(|e| e["type"] == "customer.subscription.deleted")
        .unwrap();
    assert_eq!(deleted["data"]["object"]["status"], "canceled");
    let (status, body) = m
        .post(
            &format!("/v1/subscriptions/{sub}"),
            &[("cancel_at_period_end", "false")],
        )
        .await;
    assert_eq!(status, 400, "{body}");
}

#[tokio::test]
async fn a_cancellation_taken_back_before_the_period_end_renews_as_before() {
    let m = spawn_mock().await;
    let (_, _, sub) = m.subscribed().await;
    let path = format!("/v1/subscriptions/{sub}");
    let (_, s) = m.post(&path, &[("cancel_at_period_end", "true")]).await;
    let end = s["current_period_end"].as_i64().unwrap();
    assert_eq!(s["cancel_at"], end);
    assert_eq!(
        s["cancellation_details"]["reason"],
        "cancellation_requested"
    );
    advance(&m, json!({"seconds": 3600})).await;
    let events = m.event_types().len();

    // The same value again, an hour later, is no change: no new `canceled_at`, no event.
    let (status, _) = m.post(&path, &[("cancel_at_period_end", "true")]).await;
    assert_eq!(status, 200);
    assert_eq!(m.event_types().len(), events);

    let (status, s) = m.post(&path, &[("cancel_at_period_end", "false")]).await;
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["cancel_at_period_end"], false);
    assert!(
        s["cancel_at"].is_null() && s["canceled_at"].is_null(),
        "{s}"
    );
    assert!(s["cancellation_details"]["reason"].is_null(), "{s}");
    let updated = m.handle.events().last().cloned().unwrap();
    assert_eq!(updated["type"], "customer.subscription.updated");
    let previous = &updated["data"]["previous_attributes"];
    assert_eq!(previous["cancel_at_period_end"], true, "{previous}");
    assert_eq!(previous["cancel_at"], end);

    let (_, v) = advance(&m, json!({"seconds": 35 * 86_400})).await;
    let kinds: Vec<_> = v["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].clone())
        .collect();
    assert!(kinds.contains(&json!("invoice.paid")), "renewed: {kinds:?}");
    assert!(
        !kinds.contains(&json!("customer.subscription.deleted")),
        "{kinds:?}"
    );
}

#[tokio::test]
async fn deleting_a_subscription_cancels_it_now() {
    let m = spawn_mock().await;
    let (_, _, sub) = m.subscribed().await;
    let (status, s) = m.delete(&format!("/v1/subscriptions/{sub}")).await;
    assert_eq!(status, 200);
    assert_eq!(s["status"], "canceled");
    assert_eq!(
        m.event_types().last().unwrap(),
        "customer.subscription.deleted"
    );
    let (status, _) = m.delete(&format!("/v1/subscriptions/{sub}")).await;
    assert_eq!(status, 400);
    let (_, list) = m.get("/v1/subscriptions").await;
    assert!(
        list["data"].as_array().unwrap().is_empty(),
        "canceled ones are hidden by default"
    );
    let (_, list) = m.get("/v1/subscriptions?status=all").await;
    assert_eq!(list["data"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn a_card_that_fails_charges_makes_the_renewal_fail_then_the_subscription_end_after_the_retries(
) {
    let m = spawn_mock().await;
    let (customer, _, sub) = m.subscribed().await;
    let (_, p) = m
        .post("/v1/billing_portal/sessions", &[("customer", &customer)])
        .await;
    let url = p["url"].as_str().unwrap();
    let resp = m
        .http
        .post(format!("{url}/card"))
        .form(&[
            ("cardnumber", "4000 0000 0000 0341"),
            ("exp", "12/34"),
            ("cvc", "123"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 303, "0341 attaches fine");
    let (_, v) = advance(&m, json!({"seconds": 32 * 86_400})).await;
    let types: Vec<_> = v["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        types,
        [
            "customer.subscription.updated",
            "invoice.payment_failed",
            "customer.subscription.updated",
            "invoice.payment_failed"
        ],
        "the renewal fails (the subscription past due), then its day-1 retry"
    );
    let (_, s) = m
        .get(&format!("/v1/subscriptions/{sub}?expand[]=latest_invoice"))
        .await;
    assert_eq!(s["status"], "past_due");
    assert_eq!(s["latest_invoice"]["status"], "open");
    let html = m.http.get(url).send().await.unwrap().text().await.unwrap();
    assert!(html.contains("Payment failed"));
    let (_, v) = advance(&m, json!({"seconds": 8 * 86_400})).await;
    let last = v["events"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        last["type"], "customer.subscription.deleted",
        "after the last retry"
    );
}

#[tokio::test]
async fn open_sessions_expire_after_24_hours() {
    let m = spawn_mock().await;
    let s = m.create_session(None).await;
    let id = s["id"].as_str().unwrap();
    let (_, v) = advance(&m, json!({"seconds": 86_401})).await;
    assert_eq!(v["events"][0]["type"], "checkout.session.expired");
    let (_, s) = m.get(&format!("/v1/checkout/sessions/{id}")).await;
    assert_eq!(s["status"], "expired");
}

#[tokio::test]
async fn the_handle_moves_the_clock_too() {
    let m = spawn_mock().await;
    let (_, _, sub) = m.subscribed().await;
    let before = m.handle.now();
    let now = m.handle.advance_clock(40 * 86_400);
    assert!(now >= before + 40 * 86_400);
    let (_, s) = m.get(&format!("/v1/subscriptions/{sub}")).await;
    assert!(s["current_period_start"].as_i64().unwrap() > before);
}

#[tokio::test]
async fn state_persists_across_restarts_with_a_state_file() {
    let dir = std::env::temp_dir().join(format!("stripe-mock-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("state-{}.json", stripe_mock::Clock::wall()));
    let config = stripe_mock::Config {
        state_file: Some(file.clone()),
        ..fast_config()
    };
    let m = spawn_with(config.clone()).await;
    let (customer, session, sub) = m.subscribed().await;
    m.handle.shutdown().await;
    assert!(file.exists());

    let m = spawn_with(config).await;
    let (status, c) = m.get(&format!("/v1/customers/{customer}")).await;
    assert_eq!(status, 200);
    assert_eq!(c["email"], "buyer@example.com");
    let (_, s) = m.get(&format!("/v1/checkout/sessions/{session}")).await;
    assert_eq!(s["subscription"], sub.as_str());
    assert_eq!(m.handle.events().len(), 4);
    let _ = std::fs::remove_file(file);
}

#[tokio::test]
async fn a_subscription_only_takes_its_own_customers_payment_methods() {
    let m = spawn_mock().await;
    let (_, _, sub_a) = m.subscribed().await;
    let (_, _, sub_b) = m.subscribed().await;
    let (_, b) = m.get(&format!("/v1/subscriptions/{sub_b}")).await;
    let pm_b = b["default_payment_method"].as_str().unwrap();
    let (status, body) = m
        .post(
            &format!("/v1/subscriptions/{sub_a}"),
            &[("default_payment_method", pm_b)],
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["param"], "default_payment_method");
    let (status, body) = m
        .post(
            &format!("/v1/subscriptions/{sub_a}"),
            &[("default_payment_method", "pm_nope")],
        )
        .await;
    assert_eq!(
        (status.as_u16(), body["error"]["code"].clone()),
        (404, json!("resource_missing"))
    );
    let (status, body) = m
        .post(
            &format!("/v1/subscriptions/{sub_a}"),
            &[("cancel_at_period_end", "maybe")],
        )
        .await;
    assert_eq!(
        (status.as_u16(), body["error"]["param"].clone()),
        (400, json!("cancel_at_period_end"))
    );
}
