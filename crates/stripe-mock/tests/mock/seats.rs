//! Per-seat billing, driven with async-stripe: a quantity at checkout, quantity changes
//! with prorations (to the second, credit for the old quantity and charge for the new one, billed
//! at renewal through the test clock or at once), the invoice preview of a change, and the
//! `customer.subscription.updated` events that carry the old items.

use serde_json::Value;
use stripe::{Client, ClientBuilder};
use stripe_billing::invoice::{
    CreatePreviewInvoice, CreatePreviewInvoiceSubscriptionDetails,
    CreatePreviewInvoiceSubscriptionDetailsItems, RetrieveInvoice,
};
use stripe_billing::subscription::{
    RetrieveSubscription, UpdateSubscription, UpdateSubscriptionItems,
    UpdateSubscriptionProrationBehavior,
};
use stripe_billing::subscription_item::{
    RetrieveSubscriptionItem, UpdateSubscriptionItem, UpdateSubscriptionItemProrationBehavior,
};
use stripe_shared::{Invoice, InvoiceLineItem};

use crate::helpers::*;

const DAY: i64 = 86_400;
const UNIT: i64 = 2000;
const PRODUCT: &str = "Unlimited Sales Copilot";

fn client(m: &TestMock) -> Client {
    ClientBuilder::new(KEY).url(&m.base).build().unwrap()
}

/// The amount Stripe prorates: `unit × quantity × remaining / period`, rounded half away from zero.
fn prorated(quantity: i64, remaining: i64, period: i64) -> i64 {
    ((UNIT * quantity * remaining) as f64 / period as f64).round() as i64
}

/// A customer subscribed to `seats` seats of the seeded price; returns (session, subscription).
async fn subscribe(m: &TestMock, seats: &str) -> (Value, String) {
    let customer = m.create_customer("owner@example.com").await;
    let (status, session) = m
        .post(
            "/v1/checkout/sessions",
            &[
                ("mode", "subscription"),
                ("customer", &customer),
                ("line_items[0][price]", "price_closewise_monthly"),
                ("line_items[0][quantity]", seats),
                ("success_url", "http://app.test/success"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{session}");
    let id = session["id"].as_str().unwrap();
    m.pay(id, "4242 4242 4242 4242").await;
    let (_, session) = m.get(&format!("/v1/checkout/sessions/{id}")).await;
    let sub = session["subscription"].as_str().unwrap().to_owned();
    (session, sub)
}

/// The subscription's (only) item id and its period.
async fn item_and_period(client: &Client, sub: &str) -> (String, i64, i64) {
    let sub = RetrieveSubscription::new(sub).send(client).await.unwrap();
    let item = &sub.items.data[0];
    (
        item.id.as_str().to_owned(),
        item.current_period_start,
        item.current_period_end,
    )
}

fn is_proration(line: &InvoiceLineItem) -> bool {
    line.parent
        .as_ref()
        .and_then(|p| p.subscription_item_details.as_ref())
        .is_some_and(|d| d.proration)
}

fn amounts(invoice: &Invoice) -> Vec<i64> {
    invoice.lines.data.iter().map(|l| l.amount).collect()
}

/// The newest invoice of the subscription (after the clock renewed it).
async fn latest_invoice(client: &Client, sub: &str) -> Invoice {
    let sub = RetrieveSubscription::new(sub).send(client).await.unwrap();
    let id = sub.latest_invoice.unwrap().id().clone().unwrap();
    RetrieveInvoice::new(id).send(client).await.unwrap()
}

#[tokio::test]
async fn checkout_with_three_seats_subscribes_three_and_charges_three_prices() {
    let m = spawn_mock().await;
    let client = client(&m);
    let customer = m.create_customer("owner@example.com").await;
    let (_, session) = m
        .post(
            "/v1/checkout/sessions",
            &[
                ("mode", "subscription"),
                ("customer", &customer),
                ("line_items[0][price]", "price_closewise_monthly"),
                ("line_items[0][quantity]", "3"),
                ("success_url", "http://app.test/success"),
            ],
        )
        .await;
    assert_eq!(session["amount_total"], 3 * UNIT);
    let page = m
        .http
        .get(session["url"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("× 3"), "{page}");
    assert!(
        page.contains("$20.00 per month each, $60.00 per month"),
        "{page}"
    );
    assert!(page.contains("Total due today: $60.00"), "{page}");

    let id = session["id"].as_str().unwrap();
    m.pay(id, "4242 4242 4242 4242").await;
    let (_, session) = m.get(&format!("/v1/checkout/sessions/{id}")).await;
    let sub = session["subscription"].as_str().unwrap();
    let subscription = RetrieveSubscription::new(sub).send(&client).await.unwrap();
    assert_eq!(subscription.items.data[0].quantity, Some(3));
    let invoice = latest_invoice(&client, sub).await;
    assert_eq!((invoice.amount_paid, invoice.total), (3 * UNIT, 3 * UNIT));
    assert_eq!(invoice.lines.data[0].quantity, Some(3));
    assert_eq!(
        invoice.lines.data[0].description.as_deref(),
        Some("3 × Unlimited Sales Copilot")
    );
}

#[tokio::test]
async fn a_mid_period_decrease_is_prorated_to_the_second_and_billed_at_renewal() {
    let m = spawn_mock().await;
    let client = client(&m);
    let (_, sub) = subscribe(&m, "3").await;
    let (item, start, end) = item_and_period(&client, &sub).await;
    m.handle.advance_clock(10 * DAY + 3_601);
    let at = m.handle.now();

    let mut change = UpdateSubscriptionItems::new();
    change.id = Some(item.clone());
    change.quantity = Some(2);
    let updated = UpdateSubscription::new(sub.as_str())
        .items(vec![change])
        .proration_date(at)
        .send(&client)
        .await
        .expect("change the quantity");
    assert_eq!(updated.items.data[0].quantity, Some(2));
    let items = RetrieveSubscriptionItem::new(item.as_str())
        .send(&client)
        .await
        .expect("retrieve the item");
    assert_eq!(items.quantity, Some(2));
    assert_eq!(items.subscription, sub);

    // Nothing is charged now; the renewal carries the prorations and the new quantity.
    let (_, invoices) = m.get(&format!("/v1/invoices?subscription={sub}")).await;
    assert_eq!(invoices["data"].as_array().unwrap().len(), 1);
    m.handle.advance_clock(end - at + 1);
    let renewal = latest_invoice(&client, &sub).await;
    let (remaining, period) = (end - at, end - start);
    let credit = -prorated(3, remaining, period);
    let charge = prorated(2, remaining, period);
    assert_eq!(amounts(&renewal), [credit, charge, 2 * UNIT], "{renewal:?}");
    assert_eq!(renewal.total, credit + charge + 2 * UNIT);
    assert_eq!(renewal.amount_paid, renewal.total);
    let lines = &renewal.lines.data;
    assert!(is_proration(&lines[0]) && is_proration(&lines[1]) && !is_proration(&lines[2]));
    let unused = lines[0].description.clone().unwrap();
    let remaining_line = lines[1].description.clone().unwrap();
    assert!(
        unused.starts_with(&format!("Unused time on 3 × {PRODUCT} after ")),
        "{unused}"
    );
    assert!(
        remaining_line.starts_with(&format!("Remaining time on 2 × {PRODUCT} after ")),
        "{remaining_line}"
    );
    assert_eq!((lines[0].quantity, lines[1].quantity), (Some(3), Some(2)));
    assert_eq!((lines[0].period.start, lines[0].period.end), (at, end));
    assert_eq!(lines[2].period.start, end);

    // The next renewal is the new quantity only.
    m.handle.advance_clock(32 * DAY);
    assert_eq!(amounts(&latest_invoice(&client, &sub).await), [2 * UNIT]);
}

#[tokio::test]
async fn proration_behavior_none_changes_the_quantity_without_prorations() {
    let m = spawn_mock().await;
    let client = client(&m);
    let (_, sub) = subscribe(&m, "3").await;
    let (item, _, end) = item_and_period(&client, &sub).await;
    m.handle.advance_clock(12 * DAY);
    let updated = UpdateSubscriptionItem::new(item.as_str())
        .quantity(5u64)
        .proration_behavior(UpdateSubscriptionItemProrationBehavior::None)
        .send(&client)
        .await
        .expect("update the item");
    assert_eq!(updated.quantity, Some(5));
    let preview = CreatePreviewInvoice::new()
        .subscription(sub.as_str())
        .send(&client)
        .await
        .unwrap();
    assert_eq!(amounts(&preview), [5 * UNIT]);
    m.handle.advance_clock(end - m.handle.now() + 1);
    let renewal = latest_invoice(&client, &sub).await;
    assert_eq!(amounts(&renewal), [5 * UNIT]);
    assert!(!is_proration(&renewal.lines.data[0]));
}

#[tokio::test]
async fn always_invoice_charges_the_prorations_at_once() {
    let m = spawn_mock().await;
    let client = client(&m);
    let (_, sub) = subscribe(&m, "2").await;
    let (item, start, end) = item_and_period(&client, &sub).await;
    m.handle.advance_clock(20 * DAY);
    let at = m.handle.now();
    UpdateSubscriptionItem::new(item.as_str())
        .quantity(4u64)
        .proration_behavior(UpdateSubscriptionItemProrationBehavior::AlwaysInvoice)
        .proration_date(at)
        .send(&client)
        .await
        .expect("update the item");
    let now = latest_invoice(&client, &sub).await;
    let (credit, charge) = (
        -prorated(2, end - at, end - start),
        prorated(4, end - at, end - start),
    );
    assert_eq!(amounts(&now), [credit, charge]);
    assert_eq!(now.amount_paid, credit + charge);
    assert_eq!(
        now.billing_reason,
        Some(stripe_shared::invoice::InvoiceBillingReason::SubscriptionUpdate)
    );
    m.handle.advance_clock(end - m.handle.now() + 1);
    assert_eq!(amounts(&latest_invoice(&client, &sub).await), [4 * UNIT]);
}

#[tokio::test]
async fn a_net_credit_goes_to_the_customer_balance_and_pays_later_invoices() {
    let m = spawn_mock().await;
    let client = client(&m);
    let (session, sub) = subscribe(&m, "10").await;
    let customer = session["customer"].as_str().unwrap();
    let (item, start, end) = item_and_period(&client, &sub).await;
    m.handle.advance_clock(DAY);
    let at = m.handle.now();
    UpdateSubscriptionItem::new(item.as_str())
        .quantity(1u64)
        .proration_date(at)
        .send(&client)
        .await
        .unwrap();
    m.handle.advance_clock(end - at + 1);
    let renewal = latest_invoice(&client, &sub).await;
    let net = -prorated(10, end - at, end - start) + prorated(1, end - at, end - start) + UNIT;
    assert!(net < -UNIT, "{net}");
    assert_eq!(renewal.total, net);
    assert_eq!((renewal.amount_due, renewal.amount_paid), (0, 0));
    assert_eq!(renewal.starting_balance, 0);
    assert_eq!(renewal.ending_balance, Some(net));
    let (_, c) = m.get(&format!("/v1/customers/{customer}")).await;
    assert_eq!(c["balance"], net);

    // The credit pays the next renewal; the customer's preview already shows it.
    let preview = CreatePreviewInvoice::new()
        .subscription(sub.as_str())
        .send(&client)
        .await
        .unwrap();
    assert_eq!((preview.total, preview.amount_due), (UNIT, 0));
    assert_eq!(preview.starting_balance, net);
    m.handle.advance_clock(32 * DAY);
    let next = latest_invoice(&client, &sub).await;
    assert_eq!(
        (next.total, next.amount_due, next.amount_paid),
        (UNIT, 0, 0)
    );
    assert_eq!(next.starting_balance, net);
    assert_eq!(next.ending_balance, Some(net + UNIT));
    let (_, c) = m.get(&format!("/v1/customers/{customer}")).await;
    assert_eq!(c["balance"], net + UNIT);
}

#[tokio::test]
async fn the_preview_of_a_change_is_the_invoice_the_renewal_produces() {
    let m = spawn_mock().await;
    let client = client(&m);
    let (_, sub) = subscribe(&m, "3").await;
    let (item, start, end) = item_and_period(&client, &sub).await;
    m.handle.advance_clock(7 * DAY);
    let at = m.handle.now();

    let mut change = CreatePreviewInvoiceSubscriptionDetailsItems::new();
    change.id = Some(item.clone());
    change.quantity = Some(5);
    let mut details = CreatePreviewInvoiceSubscriptionDetails::new();
    details.items = Some(vec![change]);
    details.proration_date = Some(at);
    let preview = CreatePreviewInvoice::new()
        .subscription(sub.as_str())
        .subscription_details(details)
        .send(&client)
        .await
        .expect("preview the change");
    let (credit, charge) = (
        -prorated(3, end - at, end - start),
        prorated(5, end - at, end - start),
    );
    assert_eq!(amounts(&preview), [credit, charge, 5 * UNIT]);
    assert_eq!(preview.amount_due, credit + charge + 5 * UNIT);
    // Previewing changes nothing.
    let unchanged = RetrieveSubscription::new(sub.as_str())
        .send(&client)
        .await
        .unwrap();
    assert_eq!(unchanged.items.data[0].quantity, Some(3));

    let mut change = UpdateSubscriptionItems::new();
    change.id = Some(item);
    change.quantity = Some(5);
    UpdateSubscription::new(sub.as_str())
        .items(vec![change])
        .proration_behavior(UpdateSubscriptionProrationBehavior::CreateProrations)
        .proration_date(at)
        .send(&client)
        .await
        .unwrap();
    let after = CreatePreviewInvoice::new()
        .subscription(sub.as_str())
        .send(&client)
        .await
        .unwrap();
    assert_eq!(amounts(&after), amounts(&preview));
    m.handle.advance_clock(end - m.handle.now() + 1);
    let renewal = latest_invoice(&client, &sub).await;
    assert_eq!(amounts(&renewal), amounts(&preview));
    assert_eq!(renewal.total, preview.total);
    let descriptions = |i: &Invoice| -> Vec<Option<String>> {
        i.lines.data.iter().map(|l| l.description.clone()).collect()
    };
    assert_eq!(descriptions(&renewal), descriptions(&preview));
}

#[tokio::test]
async fn each_quantity_change_sends_subscription_updated_with_the_old_items() {
    let m = spawn_mock().await;
    let client = client(&m);
    let (_, sub) = subscribe(&m, "3").await;
    let (item, _, _) = item_and_period(&client, &sub).await;
    m.handle.advance_clock(DAY);
    UpdateSubscriptionItem::new(item.as_str())
        .quantity(4u64)
        .send(&client)
        .await
        .unwrap();
    let mut change = UpdateSubscriptionItems::new();
    change.id = Some(item.clone());
    change.quantity = Some(2);
    UpdateSubscription::new(sub.as_str())
        .items(vec![change])
        .send(&client)
        .await
        .unwrap();
    let updates: Vec<Value> = m
        .handle
        .events()
        .into_iter()
        .filter(|e| e["type"] == "customer.subscription.updated")
        .collect();
    assert_eq!(updates.len(), 2, "{updates:#?}");
    for (event, (old, new)) in updates.iter().zip([(3, 4), (4, 2)]) {
        let data = &event["data"];
        assert_eq!(data["object"]["items"]["data"][0]["quantity"], new);
        assert_eq!(data["object"]["quantity"], new);
        let previous = &data["previous_attributes"];
        assert_eq!(previous["items"]["data"][0]["quantity"], old, "{previous}");
        assert_eq!(previous["items"]["data"][0]["id"], item.as_str());
        assert_eq!(previous["quantity"], old);
    }
    // Setting the same quantity again changes nothing and sends nothing.
    UpdateSubscriptionItem::new(item.as_str())
        .quantity(2u64)
        .send(&client)
        .await
        .unwrap();
    let count = m
        .event_types()
        .iter()
        .filter(|t| *t == "customer.subscription.updated")
        .count();
    assert_eq!(count, 2);
}

#[tokio::test]
async fn quantity_parameters_are_checked_like_stripe() {
    let m = spawn_mock().await;
    let (_, sub) = subscribe(&m, "3").await;
    let (_, s) = m.get(&format!("/v1/subscriptions/{sub}")).await;
    let item = s["items"]["data"][0]["id"].as_str().unwrap().to_owned();
    let path = format!("/v1/subscriptions/{sub}");
    for key in ["items[0][price_data][foo]", "items[0][colour]", "proration"] {
        let (status, body) = m.post(&path, &[(key, "x")]).await;
        assert_eq!(status, 400, "{key}: {body}");
        assert_eq!(body["error"]["code"], "parameter_unknown", "{key}");
        assert_eq!(body["error"]["param"], key);
    }
    let (status, body) = m
        .post(
            &path,
            &[
                ("items[0][id]", &item),
                ("items[0][quantity]", "2"),
                ("proration_behavior", "sometimes"),
            ],
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["param"], "proration_behavior");
    let (status, body) = m
        .post(
            &path,
            &[("items[0][id]", "si_nope"), ("items[0][quantity]", "2")],
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["param"], "items[0][id]");
    let (status, body) = m
        .post(
            &format!("/v1/subscription_items/{item}"),
            &[("quantity", "-1")],
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["param"], "quantity");
    let (status, body) = m.get("/v1/subscription_items/si_nope").await;
    assert_eq!(status, 404, "{body}");
    let (status, body) = m
        .post(
            "/v1/invoices/create_preview",
            &[
                ("subscription", &sub),
                ("subscription_details[items][0][id]", &item),
                ("subscription_details[items][0][deleted]", "true"),
            ],
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["code"], "parameter_unknown");
    // Nothing above changed the subscription.
    let (_, s) = m.get(&path).await;
    assert_eq!(s["items"]["data"][0]["quantity"], 3);
}
