//! The hosted billing portal: plan, card, cancel / renew at period end, update card.

use serde_json::json;

use crate::helpers::*;

async fn portal_url(m: &TestMock, customer: &str) -> String {
    let (status, p) = m
        .post(
            "/v1/billing_portal/sessions",
            &[
                ("customer", customer),
                ("return_url", "http://app.test/account?tab=billing&x=1"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{p}");
    assert_eq!(p["object"], "billing_portal.session");
    assert_eq!(p["return_url"], "http://app.test/account?tab=billing&x=1");
    p["url"].as_str().unwrap().to_owned()
}

async fn page(m: &TestMock, url: &str) -> String {
    let resp = m.http.get(url).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    resp.text().await.unwrap()
}

async fn press(m: &TestMock, url: &str, action: &str) -> reqwest::Response {
    m.http.post(format!("{url}/{action}")).send().await.unwrap()
}

#[tokio::test]
async fn the_portal_shows_plan_status_renewal_date_and_card() {
    let m = spawn_mock().await;
    let (customer, _, sub) = m.subscribed().await;
    let url = portal_url(&m, &customer).await;
    assert!(url.starts_with(&format!("{}/p/session/bps_", m.base)));
    let (_, s) = m.get(&format!("/v1/subscriptions/{sub}")).await;
    let renews = long_date(s["current_period_end"].as_i64().unwrap());
    let html = page(&m, &url).await;
    for needle in [
        "Unlimited Sales Copilot".to_owned(),
        "$20.00 per month".to_owned(),
        format!("Renews on {renews}"),
        "Visa</span> •••• 4242".to_owned(),
        "<button type=\"submit\">Cancel plan</button>".to_owned(),
        "<a href=\"http://app.test/account?tab=billing&amp;x=1\"><span aria-hidden=\"true\">←</span> Return to Closewise</a>".to_owned(),
        ">Card number</label>".to_owned(),
    ] {
        assert!(html.contains(&needle), "missing {needle:?} in {html}");
    }
}

fn long_date(ts: i64) -> String {
    let fmt = time::macros::format_description!("[month repr:long] [day padding:none], [year]");
    time::OffsetDateTime::from_unix_timestamp(ts)
        .unwrap()
        .format(&fmt)
        .unwrap()
}

#[tokio::test]
async fn cancel_plan_sets_cancel_at_period_end_and_renew_plan_undoes_it() {
    let m = spawn_mock().await;
    let (customer, _, sub) = m.subscribed().await;
    let url = portal_url(&m, &customer).await;
    let before = m.handle.events().len();

    let resp = press(&m, &url, "cancel").await;
    assert_eq!(resp.status(), 303);
    let (_, s) = m.get(&format!("/v1/subscriptions/{sub}")).await;
    assert_eq!(s["cancel_at_period_end"], true);
    assert_eq!(s["status"], "active");
    assert_eq!(s["cancel_at"], s["current_period_end"]);
    let events = m.handle.events();
    assert_eq!(events.len(), before + 1);
    let e = &events[before];
    assert_eq!(e["type"], "customer.subscription.updated");
    assert_eq!(e["data"]["object"]["cancel_at_period_end"], true);
    assert_eq!(
        e["data"]["previous_attributes"]["cancel_at_period_end"],
        false
    );
    assert_eq!(
        e["request"]["id"],
        json!(null),
        "a portal action has no API request"
    );

    let html = page(&m, &format!("{url}?done=canceled")).await;
    assert!(html.contains(&format!(
        "Cancels on {}",
        long_date(s["current_period_end"].as_i64().unwrap())
    )));
    assert!(html.contains("Renew plan") && !html.contains("Cancel plan"));

    let resp = press(&m, &url, "renew").await;
    assert_eq!(resp.status(), 303);
    let (_, s) = m.get(&format!("/v1/subscriptions/{sub}")).await;
    assert_eq!(s["cancel_at_period_end"], false);
    assert_eq!(s["cancel_at"], json!(null));
    assert!(page(&m, &url).await.contains("Renews on"));
    assert_eq!(
        m.event_types().last().unwrap(),
        "customer.subscription.updated"
    );
}

#[tokio::test]
async fn updating_the_card_changes_the_default_payment_method() {
    let m = spawn_mock().await;
    let (customer, _, sub) = m.subscribed().await;
    let url = portal_url(&m, &customer).await;
    let resp = m
        .http
        .post(format!("{url}/card"))
        .form(&[
            ("cardnumber", "5555 5555 5555 4444"),
            ("exp", "03/33"),
            ("cvc", "321"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 303);
    let (_, s) = m
        .get(&format!(
            "/v1/subscriptions/{sub}?expand[]=default_payment_method"
        ))
        .await;
    assert_eq!(s["default_payment_method"]["card"]["brand"], "mastercard");
    assert_eq!(s["default_payment_method"]["card"]["last4"], "4444");
    assert_eq!(s["default_payment_method"]["customer"], customer.as_str());
    let html = page(&m, &format!("{url}?done=card")).await;
    assert!(html.contains("Mastercard</span> •••• 4444"));
    assert!(html.contains("Your card has been updated."));
    let types = m.event_types();
    assert_eq!(
        &types[types.len() - 2..],
        ["payment_method.attached", "customer.subscription.updated"]
    );
}

#[tokio::test]
async fn a_declined_card_in_the_portal_shows_the_error_and_keeps_the_old_card() {
    let m = spawn_mock().await;
    let (customer, _, sub) = m.subscribed().await;
    let url = portal_url(&m, &customer).await;
    for (card, message) in [
        ("4000 0000 0000 0002", "Your card was declined."),
        ("4000 0000 0000 9995", "Your card has insufficient funds."),
        ("4111 1111 1111 1112", "Your card number is invalid."),
    ] {
        let resp = m
            .http
            .post(format!("{url}/card"))
            .form(&[("cardnumber", card), ("exp", "03/33"), ("cvc", "321")])
            .send()
            .await
            .unwrap();
        assert!(resp.status().is_client_error(), "{card}");
        assert_eq!(
            alert(&resp.text().await.unwrap()).as_deref(),
            Some(message),
            "{card}"
        );
    }
    let (_, s) = m
        .get(&format!(
            "/v1/subscriptions/{sub}?expand[]=default_payment_method"
        ))
        .await;
    assert_eq!(s["default_payment_method"]["card"]["last4"], "4242");
}

#[tokio::test]
async fn a_customer_without_a_subscription_sees_no_plan_and_unknown_sessions_are_404() {
    let m = spawn_mock().await;
    let customer = m.create_customer("free@example.com").await;
    let url = portal_url(&m, &customer).await;
    assert!(page(&m, &url).await.contains("No active subscription."));
    let resp = m
        .http
        .get(m.url("/p/session/bps_nope"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 404);
    let (status, body) = m
        .post("/v1/billing_portal/sessions", &[("customer", "cus_nope")])
        .await;
    assert_eq!(
        (status.as_u16(), body["error"]["code"].clone()),
        (404, json!("resource_missing"))
    );
}

#[tokio::test]
async fn the_return_url_is_escaped_in_the_page() {
    let m = spawn_mock().await;
    let (customer, _, _) = m.subscribed().await;
    let (status, p) = m
        .post(
            "/v1/billing_portal/sessions",
            &[
                ("customer", &customer),
                ("return_url", "http://app.test/\"><script>alert(1)</script>"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{p}");
    let html = page(&m, p["url"].as_str().unwrap()).await;
    assert!(!html.contains("<script>"));
    assert!(html.contains("http://app.test/&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"));
}

#[tokio::test]
async fn the_portal_shows_the_seats_and_what_they_cost() {
    let m = spawn_mock().await;
    let (customer, _, sub) = m.subscribed().await;
    let (_, s) = m.get(&format!("/v1/subscriptions/{sub}")).await;
    let item = s["items"]["data"][0]["id"].as_str().unwrap().to_owned();
    let (status, body) = m
        .post(
            &format!("/v1/subscription_items/{item}"),
            &[("quantity", "3"), ("proration_behavior", "none")],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let html = page(&m, &portal_url(&m, &customer).await).await;
    assert!(
        html.contains("Unlimited Sales Copilot × 3"),
        "missing the seats in {html}"
    );
    assert!(
        html.contains("$20.00 per month each, $60.00 per month"),
        "missing the price in {html}"
    );
}
