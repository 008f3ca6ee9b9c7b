//! Billing-portal configurations: created, read and listed as in Stripe's API (by hand and
//! through async-stripe), and the hosted portal offering only what a session's configuration
//! allows — on the page and when a form is posted anyway.

use std::collections::HashMap;

use stripe::{Client, ClientBuilder};
use stripe_billing::billing_portal_configuration::{
    CreateBillingPortalConfiguration, CreateBillingPortalConfigurationFeatures,
    CreateBillingPortalConfigurationFeaturesSubscriptionCancel,
    CreateBillingPortalConfigurationFeaturesSubscriptionUpdate,
    CreateBillingPortalConfigurationFeaturesSubscriptionUpdateDefaultAllowedUpdates,
    InvoiceListParam, ListBillingPortalConfiguration, PaymentMethodUpdateParam,
    RetrieveBillingPortalConfiguration,
};
use stripe_billing::billing_portal_session::CreateBillingPortalSession;
use stripe_billing::PortalSubscriptionUpdateDefaultAllowedUpdates;

use crate::helpers::*;

/// A configuration with everything but what `off` names; `quantity` allows quantity changes.
async fn configuration(m: &TestMock, quantity: bool, off: &[&str]) -> String {
    let on = |f: &str| if off.contains(&f) { "false" } else { "true" };
    let mut form = vec![
        ("features[invoice_history][enabled]", on("invoice_history")),
        (
            "features[payment_method_update][enabled]",
            on("payment_method_update"),
        ),
        (
            "features[subscription_cancel][enabled]",
            on("subscription_cancel"),
        ),
        ("features[subscription_cancel][mode]", "at_period_end"),
        ("metadata[purpose]", "test"),
    ];
    if quantity {
        form.extend([
            ("features[subscription_update][enabled]", "true"),
            (
                "features[subscription_update][default_allowed_updates][0]",
                "quantity",
            ),
            (
                "features[subscription_update][proration_behavior]",
                "create_prorations",
            ),
        ]);
    } else {
        form.push(("features[subscription_update][enabled]", "false"));
    }
    let (status, c) = m.post("/v1/billing_portal/configurations", &form).await;
    assert_eq!(status, 200, "{c}");
    assert_eq!(c["object"], "billing_portal.configuration");
    assert_eq!(c["is_default"], false);
    assert_eq!(c["metadata"]["purpose"], "test");
    c["id"].as_str().unwrap().to_owned()
}

async fn portal_with(m: &TestMock, customer: &str, configuration: &str) -> String {
    let (status, p) = m
        .post(
            "/v1/billing_portal/sessions",
            &[("customer", customer), ("configuration", configuration)],
        )
        .await;
    assert_eq!(status, 200, "{p}");
    assert_eq!(p["configuration"]["id"], configuration);
    p["url"].as_str().unwrap().to_owned()
}

async fn page(m: &TestMock, url: &str) -> String {
    m.http.get(url).send().await.unwrap().text().await.unwrap()
}

fn quantity_of(m: &TestMock, sub: &str) -> u64 {
    m.handle.snapshot().subscriptions[sub].items[0].quantity
}

#[tokio::test]
async fn a_configuration_without_quantity_updates_offers_no_quantity_change() {
    let m = spawn_mock().await;
    let (customer, _, sub) = m.subscribed().await;
    let id = configuration(&m, false, &[]).await;
    let (_, c) = m
        .get(&format!("/v1/billing_portal/configurations/{id}"))
        .await;
    assert_eq!(c["features"]["subscription_update"]["enabled"], false);
    assert_eq!(c["features"]["subscription_cancel"]["enabled"], true);
    let url = portal_with(&m, &customer, &id).await;
    let html = page(&m, &url).await;
    assert!(
        html.contains("Cancel plan") && html.contains("Card number"),
        "{html}"
    );
    assert!(html.contains("Invoice history"), "{html}");
    assert!(!html.contains("Update quantity"), "{html}");

    let before = m.handle.events().len();
    let resp = m
        .http
        .post(format!("{url}/quantity"))
        .form(&[("quantity", "1")])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 403);
    assert!(resp
        .text()
        .await
        .unwrap()
        .contains("does not allow changing the quantity"));
    assert_eq!(quantity_of(&m, &sub), 1);
    assert_eq!(m.handle.events().len(), before, "nothing happened");
}

#[tokio::test]
async fn a_configuration_with_quantity_updates_lets_the_customer_change_it_prorated() {
    let m = spawn_mock().await;
    let (customer, _, sub) = m.subscribed().await;
    let id = configuration(&m, true, &[]).await;
    let url = portal_with(&m, &customer, &id).await;
    assert!(page(&m, &url).await.contains("Update quantity"));
    let resp = m
        .http
        .post(format!("{url}/quantity"))
        .form(&[("quantity", "3")])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 303);
    assert_eq!(quantity_of(&m, &sub), 3);
    let events = m.handle.events();
    let last = events.last().unwrap();
    assert_eq!(last["type"], "customer.subscription.updated");
    assert_eq!(last["data"]["object"]["items"]["data"][0]["quantity"], 3);
    assert_eq!(
        m.handle.snapshot().subscriptions[&sub]
            .pending_invoice_items
            .len(),
        2,
        "prorated as the configuration says"
    );
}

#[tokio::test]
async fn features_turned_off_are_neither_shown_nor_accepted() {
    let m = spawn_mock().await;
    let (customer, _, sub) = m.subscribed().await;
    let id = configuration(
        &m,
        false,
        &[
            "subscription_cancel",
            "payment_method_update",
            "invoice_history",
        ],
    )
    .await;
    let url = portal_with(&m, &customer, &id).await;
    let html = page(&m, &url).await;
    for absent in [
        "Cancel plan",
        "Card number",
        "Invoice history",
        "Update quantity",
    ] {
        assert!(!html.contains(absent), "{absent} shown: {html}");
    }
    let resp = m.http.post(format!("{url}/cancel")).send().await.unwrap();
    assert_eq!(resp.status(), 403);
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
    assert_eq!(resp.status(), 403);
    let s = &m.handle.snapshot().subscriptions[&sub];
    assert!(!s.cancel_at_period_end);

    // Without a configuration, the default one: cancel and card, no quantity.
    let (_, p) = m
        .post(
            "/v1/billing_portal/sessions",
            &[("customer", customer.as_str())],
        )
        .await;
    assert_eq!(p["configuration"]["id"], "bpc_closewise_default");
    let html = page(&m, p["url"].as_str().unwrap()).await;
    assert!(html.contains("Cancel plan") && !html.contains("Update quantity"));
}

#[tokio::test]
async fn configurations_are_checked_listed_and_a_session_needs_a_known_one() {
    let m = spawn_mock().await;
    let customer = m.create_customer("ada@example.com").await;
    let (status, e) = m.post("/v1/billing_portal/configurations", &[]).await;
    assert_eq!(
        (status.as_u16(), &e["error"]["param"]),
        (400, &"features".into())
    );
    let (status, e) = m
        .post(
            "/v1/billing_portal/configurations",
            &[("features[subscription_update][enabled]", "true")],
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        e["error"]["param"],
        "features[subscription_update][default_allowed_updates]"
    );
    let (status, e) = m
        .post(
            "/v1/billing_portal/configurations",
            &[("features[invoice_history][mode]", "x")],
        )
        .await;
    assert_eq!(
        (status.as_u16(), &e["error"]["code"]),
        (400, &"parameter_unknown".into())
    );

    let id = configuration(&m, false, &[]).await;
    let (_, list) = m.get("/v1/billing_portal/configurations").await;
    let ids: Vec<&str> = list["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 2);
    assert!(ids.contains(&id.as_str()) && ids.contains(&"bpc_closewise_default"));
    let (_, defaults) = m
        .get("/v1/billing_portal/configurations?is_default=true")
        .await;
    assert_eq!(defaults["data"].as_array().unwrap().len(), 1);

    let (status, e) = m
        .post(
            "/v1/billing_portal/sessions",
            &[
                ("customer", customer.as_str()),
                ("configuration", "bpc_nope"),
            ],
        )
        .await;
    assert_eq!(
        (status.as_u16(), &e["error"]["code"]),
        (404, &"resource_missing".into())
    );
    let (status, _) = m.get("/v1/billing_portal/configurations/bpc_nope").await;
    assert_eq!(status, 404);
}

fn client(m: &TestMock) -> Client {
    ClientBuilder::new(KEY).url(&m.base).build().unwrap()
}

#[tokio::test]
async fn async_stripe_creates_reads_lists_and_uses_a_configuration() {
    let m = spawn_mock().await;
    let client = client(&m);
    let (customer, _, _) = m.subscribed().await;
    let mut features = CreateBillingPortalConfigurationFeatures::new();
    features.invoice_history = Some(InvoiceListParam::new(true));
    features.payment_method_update = Some(PaymentMethodUpdateParam::new(true));
    features.subscription_cancel =
        Some(CreateBillingPortalConfigurationFeaturesSubscriptionCancel::new(true));
    let mut update = CreateBillingPortalConfigurationFeaturesSubscriptionUpdate::new(true);
    update.default_allowed_updates = Some(vec![
        CreateBillingPortalConfigurationFeaturesSubscriptionUpdateDefaultAllowedUpdates::Quantity,
    ]);
    features.subscription_update = Some(update);
    let created = CreateBillingPortalConfiguration::new(features)
        .metadata(HashMap::from([("purpose".to_owned(), "team".to_owned())]))
        .send(&client)
        .await
        .expect("create configuration");
    assert!(created.features.subscription_update.enabled);
    assert_eq!(
        created.features.subscription_update.default_allowed_updates,
        vec![PortalSubscriptionUpdateDefaultAllowedUpdates::Quantity]
    );
    let read = RetrieveBillingPortalConfiguration::new(created.id.clone())
        .send(&client)
        .await
        .expect("retrieve configuration");
    assert_eq!(read.id, created.id);
    assert_eq!(
        read.metadata
            .unwrap_or_default()
            .get("purpose")
            .map(String::as_str),
        Some("team")
    );
    let list = ListBillingPortalConfiguration::new()
        .active(true)
        .send(&client)
        .await
        .expect("list configurations");
    assert!(list.data.iter().any(|c| c.id == created.id));
    assert!(list.data.iter().any(|c| c.is_default));
    let portal = CreateBillingPortalSession::new()
        .customer(customer.as_str())
        .configuration(created.id.as_str())
        .send(&client)
        .await
        .expect("portal session with the configuration");
    assert_eq!(portal.configuration.id(), &created.id);
    assert!(page(&m, &portal.url).await.contains("Update quantity"));
}
