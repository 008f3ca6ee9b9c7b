//! Wire compatibility beyond the main flow: every object and every event the mock produces must
//! parse with async-stripe's own types (what the API's client and webhook handler use).

use serde_json::{json, Value};
use stripe_webhook::{EventObject, Webhook};

use crate::helpers::*;

/// A bit of everything: customers, a subscription with a card change, cancel and renew, a
/// renewal, a failed renewal, seat changes (invoiced at once, a credit, pending prorations), a
/// payment-mode purchase and an expired session.
async fn busy_mock(m: &TestMock) {
    let (customer, _, sub) = m.subscribed().await;
    let (_, _, seats) = m.subscribed().await;
    let (_, s) = m.get(&format!("/v1/subscriptions/{seats}")).await;
    let item = s["items"]["data"][0]["id"].as_str().unwrap().to_owned();
    m.handle.advance_clock(86_400);
    for (quantity, behavior) in [
        ("5", "always_invoice"),
        ("1", "always_invoice"),
        ("2", "create_prorations"),
    ] {
        let (status, body) = m
            .post(
                &format!("/v1/subscription_items/{item}"),
                &[("quantity", quantity), ("proration_behavior", behavior)],
            )
            .await;
        assert_eq!(status, 200, "{body}");
    }
    m.post(
        &format!("/v1/customers/{customer}"),
        &[("name", "Ada"), ("metadata[user_id]", "u1")],
    )
    .await;
    let (_, portal) = m
        .post("/v1/billing_portal/sessions", &[("customer", &customer)])
        .await;
    let url = portal["url"].as_str().unwrap();
    m.http.post(format!("{url}/cancel")).send().await.unwrap();
    m.http.post(format!("{url}/renew")).send().await.unwrap();
    m.handle.advance_clock(32 * 86_400);
    let resp = m
        .http
        .post(format!("{url}/card"))
        .form(&[
            ("cardnumber", "4000000000000341"),
            ("exp", "12/34"),
            ("cvc", "123"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 303);
    m.handle.advance_clock(32 * 86_400);
    m.post(
        &format!("/v1/subscriptions/{sub}"),
        &[("metadata[note]", "x")],
    )
    .await;
    m.handle.advance_clock(32 * 86_400);

    let (_, price) = m
        .post(
            "/v1/prices",
            &[
                ("currency", "usd"),
                ("unit_amount", "900"),
                ("product_data[name]", "Pack"),
            ],
        )
        .await;
    let (_, s) = m
        .post(
            "/v1/checkout/sessions",
            &[
                ("mode", "payment"),
                ("success_url", "http://app.test/ok"),
                ("line_items[0][price]", price["id"].as_str().unwrap()),
                ("line_items[0][quantity]", "1"),
            ],
        )
        .await;
    m.pay(s["id"].as_str().unwrap(), "5555555555554444").await;
    let expired = m.create_session(None).await;
    m.post(
        &format!(
            "/v1/checkout/sessions/{}/expire",
            expired["id"].as_str().unwrap()
        ),
        &[],
    )
    .await;
}

fn parse<T: miniserde::Deserialize>(what: &str, v: &Value) -> T {
    miniserde::json::from_str(&v.to_string())
        .unwrap_or_else(|_| panic!("{what} does not parse with async-stripe: {v:#}"))
}

#[tokio::test]
async fn every_event_parses_with_async_stripe_webhook_construct_event() {
    let (receiver, hook) = Receiver::start(0).await;
    let m = spawn_with(stripe_mock::Config {
        webhook_url: Some(hook),
        ..fast_config()
    })
    .await;
    busy_mock(&m).await;
    let total = m.handle.events().len();
    receiver.wait_for(total).await;
    let mut kinds = std::collections::BTreeSet::new();
    for (headers, body) in receiver.received.lock().unwrap().iter() {
        let sig = headers["stripe-signature"].to_str().unwrap();
        let event = Webhook::construct_event(body, sig, stripe_mock::DEFAULT_WEBHOOK_SECRET)
            .unwrap_or_else(|e| panic!("construct_event failed ({e:?}) for {body}"));
        let kind = event.type_.as_str().to_owned();
        if !matches!(kind.as_str(), "price.created" | "product.created") {
            assert!(
                !matches!(event.data.object, EventObject::Unknown(_)),
                "{kind} parsed as Unknown: {body}"
            );
        }
        if kind == "checkout.session.completed" {
            let EventObject::CheckoutSessionCompleted(s) = &event.data.object else {
                panic!("{kind}")
            };
            assert_eq!(
                s.payment_status,
                stripe_checkout::CheckoutSessionPaymentStatus::Paid
            );
        }
        kinds.insert(kind);
    }
    for kind in [
        "customer.created",
        "customer.updated",
        "customer.subscription.created",
        "customer.subscription.updated",
        "customer.subscription.deleted",
        "invoice.paid",
        "invoice.payment_failed",
        "checkout.session.completed",
        "checkout.session.expired",
        "payment_method.attached",
    ] {
        assert!(kinds.contains(kind), "no {kind} in {kinds:?}");
    }
}

#[tokio::test]
async fn every_object_with_every_expansion_parses_into_async_stripe_types() {
    // The check has teeth: an object missing required fields does not parse.
    assert!(miniserde::json::from_str::<stripe_shared::Customer>(r#"{"id":"cus_1"}"#).is_err());
    let m = spawn_mock().await;
    busy_mock(&m).await;
    let snap = m.handle.snapshot();
    for id in snap.customers.keys() {
        let (_, v) = m
            .get(&format!(
                "/v1/customers/{id}?expand[]=invoice_settings.default_payment_method"
            ))
            .await;
        let _: stripe_shared::Customer = parse("customer", &v);
    }
    for id in snap.prices.keys() {
        let (_, v) = m.get(&format!("/v1/prices/{id}?expand[]=product")).await;
        let _: stripe_shared::Price = parse("price", &v);
    }
    for id in snap.products.keys() {
        let (_, v) = m.get(&format!("/v1/products/{id}")).await;
        let _: stripe_shared::Product = parse("product", &v);
    }
    for id in snap.sessions.keys() {
        let (_, v) = m
            .get(&format!("/v1/checkout/sessions/{id}?expand[]=customer&expand[]=line_items&expand[]=invoice&expand[]=subscription.default_payment_method&expand[]=subscription.latest_invoice&expand[]=subscription.customer"))
            .await;
        let s: stripe_shared::CheckoutSession = parse("checkout session", &v);
        assert!(s.line_items.is_some());
        let (_, v) = m.get(&format!("/v1/checkout/sessions/{id}")).await;
        let _: stripe_shared::CheckoutSession = parse("checkout session", &v);
        let (_, v) = m
            .get(&format!("/v1/checkout/sessions/{id}/line_items"))
            .await;
        let _: stripe_types::List<stripe_shared::CheckoutSessionItem> = parse("line items", &v);
    }
    for id in snap.subscriptions.keys() {
        let (_, v) = m.get(&format!("/v1/subscriptions/{id}?expand[]=default_payment_method&expand[]=latest_invoice&expand[]=customer")).await;
        let _: stripe_shared::Subscription = parse("subscription", &v);
    }
    for sub in snap.subscriptions.values() {
        for item in &sub.items {
            let (_, v) = m.get(&format!("/v1/subscription_items/{}", item.id)).await;
            let _: stripe_shared::SubscriptionItem = parse("subscription item", &v);
        }
    }
    for id in snap.payment_methods.keys() {
        let (_, v) = m
            .get(&format!("/v1/payment_methods/{id}?expand[]=customer"))
            .await;
        let _: stripe_shared::PaymentMethod = parse("payment method", &v);
    }
    for id in snap.invoices.keys() {
        let (_, v) = m.get(&format!("/v1/invoices/{id}?expand[]=customer")).await;
        let _: stripe_shared::Invoice = parse("invoice", &v);
        let (_, v) = m.get(&format!("/v1/invoices/{id}/lines")).await;
        let _: stripe_types::List<stripe_shared::InvoiceLineItem> = parse("invoice lines", &v);
    }
    for (id, sub) in &snap.subscriptions {
        let (status, v) = m
            .post("/v1/invoices/create_preview", &[("subscription", id)])
            .await;
        if sub.status == "active" && !sub.cancel_at_period_end {
            assert_eq!(status, 200, "{v}");
            let _: stripe_shared::Invoice = parse("invoice preview", &v);
            for behavior in ["create_prorations", "always_invoice"] {
                let (status, v) = m
                    .post(
                        "/v1/invoices/create_preview",
                        &[
                            ("subscription", id),
                            ("subscription_details[items][0][id]", &sub.items[0].id),
                            ("subscription_details[items][0][quantity]", "7"),
                            ("subscription_details[proration_behavior]", behavior),
                        ],
                    )
                    .await;
                assert_eq!(status, 200, "{v}");
                let _: stripe_shared::Invoice = parse("invoice preview of a change", &v);
            }
        }
    }
    let (_, v) = m.get("/v1/invoices?limit=100").await;
    let _: stripe_types::List<stripe_shared::Invoice> = parse("invoice list", &v);
    let (_, v) = m.get("/v1/products").await;
    let _: stripe_types::List<stripe_shared::Product> = parse("product list", &v);
    let (_, v) = m.get("/v1/events?limit=100").await;
    let events: stripe_types::List<stripe_shared::Event> = parse("event list", &v);
    assert_eq!(events.data.len(), snap.events.len().min(100));
    let (_, v) = m.get("/v1/subscriptions?status=all").await;
    let _: stripe_types::List<stripe_shared::Subscription> = parse("subscription list", &v);
    let (_, v) = m.get("/v1/prices").await;
    let _: stripe_types::List<stripe_shared::Price> = parse("price list", &v);
    let (_, v) = m.get("/v1/customers").await;
    let _: stripe_types::List<stripe_shared::Customer> = parse("customer list", &v);
    let (_, v) = m.get("/v1/checkout/sessions").await;
    let _: stripe_types::List<stripe_shared::CheckoutSession> = parse("session list", &v);
    let (_, v) = m.get("/v1/customers/cus_nope").await;
    let e: stripe_shared::Error = parse("error", &v);
    assert_eq!(e.error.param.as_deref(), Some("id"));
    assert_eq!(json!(e.error.message), v["error"]["message"]);
}
