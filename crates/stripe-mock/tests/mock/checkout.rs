//! The hosted checkout page, driven as a browser would: GET the page, POST the form.

use serde_json::json;

use crate::helpers::*;

#[tokio::test]
async fn the_page_shows_the_product_price_card_fields_and_cancel_link() {
    let m = spawn_mock().await;
    let customer = m.create_customer("ada@example.com").await;
    let s = m.create_session(Some(&customer)).await;
    let html = m
        .http
        .get(s["url"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for needle in [
        "Unlimited Sales Copilot",
        "$20.00 per month",
        ">Card number</label>",
        ">Expiration</label>",
        "placeholder=\"MM / YY\"",
        ">CVC</label>",
        ">Name on card</label>",
        "<button type=\"submit\">Subscribe</button>",
        "<a href=\"http://app.test/pricing\"><span aria-hidden=\"true\">←</span> Cancel</a>",
        "value=\"ada@example.com\"",
    ] {
        assert!(html.contains(needle), "missing {needle:?} in {html}");
    }
}

#[tokio::test]
async fn each_succeeding_test_card_subscribes_and_redirects_to_the_success_url() {
    for (card, brand, last4, cvc) in [
        ("4242 4242 4242 4242", "visa", "4242", "123"),
        ("5555 5555 5555 4444", "mastercard", "4444", "123"),
        ("3782 822463 10005", "amex", "0005", "1234"),
    ] {
        let m = spawn_mock().await;
        let s = m.create_session(None).await;
        let id = s["id"].as_str().unwrap();
        let resp = m
            .submit_checkout(
                id,
                &[
                    ("email", "buyer@example.com"),
                    ("cardnumber", card),
                    ("exp", "04 / 31"),
                    ("cvc", cvc),
                    ("name", "Ada"),
                ],
            )
            .await;
        assert_eq!(resp.status(), 303, "{card}");
        assert_eq!(
            resp.headers()["location"],
            format!("http://app.test/success?session_id={id}").as_str(),
            "{card}"
        );
        let (_, s) = m.get(&format!("/v1/checkout/sessions/{id}?expand[]=subscription.default_payment_method&expand[]=subscription.latest_invoice")).await;
        assert_eq!(
            (s["status"].as_str(), s["payment_status"].as_str()),
            (Some("complete"), Some("paid")),
            "{card}"
        );
        assert_eq!(s["customer_details"]["email"], "buyer@example.com");
        let sub = &s["subscription"];
        assert_eq!(sub["status"], "active", "{card}");
        assert_eq!(sub["cancel_at_period_end"], false);
        let start = sub["current_period_start"].as_i64().unwrap();
        let end = sub["current_period_end"].as_i64().unwrap();
        assert!(
            (28 * 86_400..=31 * 86_400).contains(&(end - start)),
            "a month: {start}..{end}"
        );
        assert_eq!(sub["items"]["data"][0]["current_period_end"], end);
        assert_eq!(sub["items"]["data"][0]["current_period_start"], start);
        assert_eq!(
            sub["items"]["data"][0]["price"]["id"],
            "price_closewise_monthly"
        );
        assert_eq!(
            sub["default_payment_method"]["card"]["brand"], brand,
            "{card}"
        );
        assert_eq!(
            sub["default_payment_method"]["card"]["last4"], last4,
            "{card}"
        );
        assert_eq!(sub["default_payment_method"]["card"]["exp_month"], 4);
        assert_eq!(sub["default_payment_method"]["card"]["exp_year"], 2031);
        assert_eq!(sub["latest_invoice"]["status"], "paid");
        assert_eq!(sub["latest_invoice"]["amount_paid"], 2000);
        let customer = s["customer"].as_str().unwrap();
        assert_eq!(sub["customer"], customer);
        let (_, c) = m.get(&format!("/v1/customers/{customer}")).await;
        assert_eq!(
            c["email"], "buyer@example.com",
            "a customer was created with the e-mail"
        );
        assert_eq!(
            m.event_types(),
            [
                "customer.created",
                "customer.subscription.created",
                "invoice.paid",
                "checkout.session.completed"
            ],
            "{card}"
        );
    }
}

#[tokio::test]
async fn failing_cards_rerender_the_page_with_stripes_message_and_change_nothing() {
    let cases = [
        (
            "4000 0000 0000 0002",
            "12/34",
            "123",
            "Your card was declined.",
            402,
        ),
        (
            "4000 0000 0000 9995",
            "12/34",
            "123",
            "Your card has insufficient funds.",
            402,
        ),
        (
            "4000 0000 0000 0341",
            "12/34",
            "123",
            "Your card was declined.",
            402,
        ),
        (
            "1234 5678 9012 3456",
            "12/34",
            "123",
            "Your card number is invalid.",
            400,
        ),
        ("", "12/34", "123", "Your card number is incomplete.", 400),
        (
            "4242 4242 4242 4242",
            "01/20",
            "123",
            "Your card's expiration date is in the past.",
            400,
        ),
        (
            "4242 4242 4242 4242",
            "",
            "123",
            "Your card's expiration date is incomplete.",
            400,
        ),
        (
            "4242 4242 4242 4242",
            "12/34",
            "",
            "Your card's security code is incomplete.",
            400,
        ),
    ];
    let m = spawn_mock().await;
    let s = m.create_session(None).await;
    let id = s["id"].as_str().unwrap();
    for (card, exp, cvc, message, status) in cases {
        let resp = m
            .submit_checkout(
                id,
                &[
                    ("email", "buyer@example.com"),
                    ("cardnumber", card),
                    ("exp", exp),
                    ("cvc", cvc),
                ],
            )
            .await;
        assert_eq!(resp.status(), status, "{card} {exp} {cvc}");
        let html = resp.text().await.unwrap();
        assert_eq!(alert(&html).as_deref(), Some(message), "{card} {exp} {cvc}");
        assert!(html.contains("Subscribe"), "the form is shown again");
    }
    let (_, s) = m.get(&format!("/v1/checkout/sessions/{id}")).await;
    assert_eq!(
        (s["status"].clone(), s["payment_status"].clone()),
        (json!("open"), json!("unpaid"))
    );
    let snap = m.handle.snapshot();
    assert!(snap.subscriptions.is_empty() && snap.invoices.is_empty() && snap.customers.is_empty());
    assert!(
        m.handle.events().is_empty(),
        "a failed checkout emits no event, as in Stripe"
    );

    // The session can still be paid afterwards.
    m.pay(id, "4242424242424242").await;
}

#[tokio::test]
async fn a_missing_email_is_refused_when_the_session_has_no_customer() {
    let m = spawn_mock().await;
    let (_, s) = m
        .post(
            "/v1/checkout/sessions",
            &[
                ("mode", "subscription"),
                ("success_url", "http://app.test/ok"),
                ("line_items[0][price]", "price_closewise_monthly"),
                ("line_items[0][quantity]", "1"),
            ],
        )
        .await;
    let id = s["id"].as_str().unwrap();
    let resp = m
        .submit_checkout(
            id,
            &[
                ("cardnumber", "4242424242424242"),
                ("exp", "12/34"),
                ("cvc", "123"),
            ],
        )
        .await;
    assert_eq!(resp.status(), 400);
    assert_eq!(
        alert(&resp.text().await.unwrap()).as_deref(),
        Some("Your email is incomplete.")
    );
}

#[tokio::test]
async fn a_completed_or_expired_session_cannot_be_paid_again() {
    let m = spawn_mock().await;
    let (_, session, _) = m.subscribed().await;
    let resp = m
        .submit_checkout(
            &session,
            &[
                ("email", "x@example.com"),
                ("cardnumber", "4242424242424242"),
                ("exp", "12/34"),
                ("cvc", "123"),
            ],
        )
        .await;
    assert_eq!(resp.status(), 409);
    assert!(resp
        .text()
        .await
        .unwrap()
        .contains("already been completed"));
    assert_eq!(m.handle.snapshot().subscriptions.len(), 1);

    let s = m.create_session(None).await;
    let id = s["id"].as_str().unwrap();
    m.post(&format!("/v1/checkout/sessions/{id}/expire"), &[])
        .await;
    let html = m
        .http
        .get(m.url(&format!("/c/pay/{id}")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(html.contains("no longer active"));
    let resp = m
        .submit_checkout(
            id,
            &[
                ("email", "x@example.com"),
                ("cardnumber", "4242424242424242"),
                ("exp", "12/34"),
                ("cvc", "123"),
            ],
        )
        .await;
    assert_eq!(resp.status(), 409);
}

#[tokio::test]
async fn payment_mode_shows_pay_and_completes_without_a_subscription() {
    let m = spawn_mock().await;
    let (_, price) = m
        .post(
            "/v1/prices",
            &[
                ("currency", "usd"),
                ("unit_amount", "1500"),
                ("product_data[name]", "Call <pack> & more"),
            ],
        )
        .await;
    let price = price["id"].as_str().unwrap();
    let (status, s) = m
        .post(
            "/v1/checkout/sessions",
            &[
                ("mode", "payment"),
                ("success_url", "http://app.test/ok/{CHECKOUT_SESSION_ID}"),
                ("line_items[0][price]", price),
                ("line_items[0][quantity]", "2"),
                ("customer_email", "p@example.com"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{s}");
    let id = s["id"].as_str().unwrap();
    let html = m
        .http
        .get(m.url(&format!("/c/pay/{id}")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(html.contains("<button type=\"submit\">Pay</button>"));
    assert!(
        html.contains("Call &lt;pack&gt; &amp; more"),
        "names are escaped"
    );
    assert!(!html.contains("<pack>"));
    assert!(html.contains("$30.00"));
    let location = m.pay(id, "4242424242424242").await;
    assert_eq!(location, format!("http://app.test/ok/{id}"));
    let (_, s) = m.get(&format!("/v1/checkout/sessions/{id}")).await;
    assert_eq!(s["payment_status"], "paid");
    assert_eq!(s["subscription"], json!(null));
    assert!(s["payment_intent"].as_str().unwrap().starts_with("pi_"));
}

#[tokio::test]
async fn the_handle_can_pay_like_the_form_for_other_crates_tests() {
    let m = spawn_mock().await;
    let s = m.create_session(None).await;
    let id = s["id"].as_str().unwrap();
    assert_eq!(
        m.handle.pay(id, "4000 0000 0000 0002"),
        Err("Your card was declined.".to_owned())
    );
    let url = m.handle.pay(id, "3782 822463 10005").unwrap();
    assert_eq!(url, format!("http://app.test/success?session_id={id}"));
}
