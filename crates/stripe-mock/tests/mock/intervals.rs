//! Yearly billing: the seeded yearly price, a checkout of it (a year's period, renewed a year
//! later), and a monthly subscription switched to the yearly price the way Stripe's classic
//! billing does it: a change of interval resets the billing cycle to the change and invoices at
//! once, the unused monthly time credited; the invoice preview of the switch shows that invoice.

use serde_json::Value;
use stripe::{Client, ClientBuilder};
use stripe_billing::invoice::{
    CreatePreviewInvoice, CreatePreviewInvoiceSubscriptionDetails,
    CreatePreviewInvoiceSubscriptionDetailsItems, RetrieveInvoice,
};
use stripe_billing::subscription::{
    RetrieveSubscription, UpdateSubscription, UpdateSubscriptionItems,
};
use stripe_shared::Invoice;

use crate::helpers::*;

const DAY: i64 = 86_400;
const MONTHLY: &str = "price_closewise_monthly";
const YEARLY: &str = "price_closewise_yearly";

fn client(m: &TestMock) -> Client {
    ClientBuilder::new(KEY).url(&m.base).build().unwrap()
}

async fn subscribe(m: &TestMock, price: &str, seats: &str) -> String {
    let customer = m.create_customer("owner@example.com").await;
    let (status, session) = m
        .post(
            "/v1/checkout/sessions",
            &[
                ("mode", "subscription"),
                ("customer", &customer),
                ("line_items[0][price]", price),
                ("line_items[0][quantity]", seats),
                ("success_url", "http://app.test/success"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{session}");
    let id = session["id"].as_str().unwrap();
    m.pay(id, "4242 4242 4242 4242").await;
    let (_, session) = m.get(&format!("/v1/checkout/sessions/{id}")).await;
    session["subscription"].as_str().unwrap().to_owned()
}

async fn latest_invoice(client: &Client, sub: &str) -> Invoice {
    let sub = RetrieveSubscription::new(sub).send(client).await.unwrap();
    let id = sub.latest_invoice.unwrap().id().clone().unwrap();
    RetrieveInvoice::new(id).send(client).await.unwrap()
}

fn amounts(invoice: &Invoice) -> Vec<i64> {
    invoice.lines.data.iter().map(|l| l.amount).collect()
}

fn prorated(amount: i64, remaining: i64, period: i64) -> i64 {
    ((amount * remaining) as f64 / period as f64).round() as i64
}

/// A year after `ts`, the day clamped like Stripe (the tests run from today's wall clock).
fn a_year_after(ts: i64) -> i64 {
    let dt = time::OffsetDateTime::from_unix_timestamp(ts).unwrap();
    let year = dt.year() + 1;
    let day = dt.day().min(dt.month().length(year));
    dt.replace_date(time::Date::from_calendar_date(year, dt.month(), day).unwrap())
        .unix_timestamp()
}

#[tokio::test]
async fn the_yearly_price_is_seeded_at_two_hundred_dollars_a_year() {
    let m = spawn_mock().await;
    let (status, price) = m.get(&format!("/v1/prices/{YEARLY}")).await;
    assert_eq!(status, 200, "{price}");
    assert_eq!(price["unit_amount"], 20_000);
    assert_eq!(price["currency"], "usd");
    assert_eq!(price["recurring"]["interval"], "year");
    assert_eq!(price["recurring"]["interval_count"], 1);
    assert_eq!(price["product"], "prod_closewise_unlimited");
    let (_, product) = m.get("/v1/products/prod_closewise_unlimited").await;
    assert_eq!(
        product["default_price"], MONTHLY,
        "the monthly price stays the default"
    );
    let (_, yearly) = m.get("/v1/prices?recurring[interval]=year").await;
    let ids: Vec<&str> = yearly["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [YEARLY]);
}

#[tokio::test]
async fn a_yearly_checkout_runs_a_year_and_renews_a_year_later() {
    let m = spawn_mock().await;
    let client = client(&m);
    let sub = subscribe(&m, YEARLY, "2").await;
    let s = RetrieveSubscription::new(sub.as_str())
        .send(&client)
        .await
        .unwrap();
    let item = &s.items.data[0];
    assert_eq!(
        item.current_period_end,
        a_year_after(item.current_period_start)
    );
    assert_eq!(amounts(&latest_invoice(&client, &sub).await), [2 * 20_000]);

    // A month later nothing is due; a year later the renewal is another year.
    m.handle.advance_clock(40 * DAY);
    let (_, invoices) = m.get(&format!("/v1/invoices?subscription={sub}")).await;
    assert_eq!(invoices["data"].as_array().unwrap().len(), 1);
    m.handle
        .advance_clock(item.current_period_end - m.handle.now() + 1);
    let renewal = latest_invoice(&client, &sub).await;
    assert_eq!(amounts(&renewal), [2 * 20_000]);
    assert_eq!(renewal.period_start, item.current_period_end);
    assert_eq!(renewal.period_end, a_year_after(item.current_period_end));
}

#[tokio::test]
async fn switching_monthly_to_yearly_credits_the_unused_month_and_bills_the_year_at_once() {
    let m = spawn_mock().await;
    let client = client(&m);
    let sub = subscribe(&m, MONTHLY, "3").await;
    let s = RetrieveSubscription::new(sub.as_str())
        .send(&client)
        .await
        .unwrap();
    let (item, start, end) = (
        s.items.data[0].id.as_str().to_owned(),
        s.items.data[0].current_period_start,
        s.items.data[0].current_period_end,
    );
    m.handle.advance_clock(10 * DAY + 7);
    let at = m.handle.now();
    let credit = -prorated(3 * 2000, end - at, end - start);

    let mut preview_item = CreatePreviewInvoiceSubscriptionDetailsItems::new();
    preview_item.id = Some(item.clone());
    preview_item.price = Some(YEARLY.to_owned());
    let mut details = CreatePreviewInvoiceSubscriptionDetails::new();
    details.items = Some(vec![preview_item]);
    details.proration_date = Some(at);
    let preview = CreatePreviewInvoice::new()
        .subscription(sub.as_str())
        .subscription_details(details)
        .send(&client)
        .await
        .expect("preview the switch");
    assert_eq!(amounts(&preview), [credit, 3 * 20_000], "{preview:?}");
    assert_eq!(preview.total, credit + 3 * 20_000);
    let unused = preview.lines.data[0].description.clone().unwrap();
    assert!(
        unused.starts_with("Unused time on 3 × Unlimited Sales Copilot after "),
        "{unused}"
    );

    let mut change = UpdateSubscriptionItems::new();
    change.id = Some(item.clone());
    change.price = Some(YEARLY.to_owned());
    let updated = UpdateSubscription::new(sub.as_str())
        .items(vec![change])
        .proration_date(at)
        .send(&client)
        .await
        .expect("switch to yearly");
    let new_item = &updated.items.data[0];
    assert_eq!(new_item.price.id.as_str(), YEARLY);
    assert_eq!(new_item.quantity, Some(3));
    assert_eq!(new_item.current_period_start, at);
    assert_eq!(new_item.current_period_end, a_year_after(at));
    assert_eq!(updated.billing_cycle_anchor, at);

    let invoice = latest_invoice(&client, &sub).await;
    assert_eq!(
        amounts(&invoice),
        amounts(&preview),
        "the preview was the invoice"
    );
    assert_eq!(invoice.amount_paid, invoice.total);
    assert_eq!(
        invoice.billing_reason,
        Some(stripe_shared::invoice::InvoiceBillingReason::SubscriptionUpdate)
    );
}

#[tokio::test]
async fn switching_yearly_to_monthly_leaves_the_unused_year_as_credit() {
    let m = spawn_mock().await;
    let client = client(&m);
    let sub = subscribe(&m, YEARLY, "1").await;
    let s = RetrieveSubscription::new(sub.as_str())
        .send(&client)
        .await
        .unwrap();
    let customer = s.customer.id().as_str().to_owned();
    let (item, start, end) = (
        s.items.data[0].id.as_str().to_owned(),
        s.items.data[0].current_period_start,
        s.items.data[0].current_period_end,
    );
    m.handle.advance_clock(100 * DAY);
    let at = m.handle.now();
    let credit = -prorated(20_000, end - at, end - start);
    let mut change = UpdateSubscriptionItems::new();
    change.id = Some(item);
    change.price = Some(MONTHLY.to_owned());
    UpdateSubscription::new(sub.as_str())
        .items(vec![change])
        .proration_date(at)
        .send(&client)
        .await
        .expect("switch to monthly");
    let invoice = latest_invoice(&client, &sub).await;
    assert_eq!(amounts(&invoice), [credit, 2000]);
    assert_eq!(invoice.amount_paid, 0, "a net credit charges nothing");
    let (_, c) = m.get(&format!("/v1/customers/{customer}")).await;
    assert_eq!(
        c["balance"],
        credit + 2000,
        "the rest is the customer's credit"
    );
}

#[tokio::test]
async fn an_unknown_or_other_currency_price_is_refused_like_stripe() {
    let m = spawn_mock().await;
    let sub = subscribe(&m, MONTHLY, "1").await;
    let (_, s) = m.get(&format!("/v1/subscriptions/{sub}")).await;
    let item = s["items"]["data"][0]["id"].as_str().unwrap().to_owned();
    let (status, body): (_, Value) = m
        .post(
            &format!("/v1/subscriptions/{sub}"),
            &[("items[0][id]", &item), ("items[0][price]", "price_nope")],
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["code"], "resource_missing");
    assert_eq!(body["error"]["param"], "items[0][price]");
    assert_eq!(body["error"]["message"], "No such price: 'price_nope'");
    let (_, again) = m.get(&format!("/v1/subscriptions/{sub}")).await;
    assert_eq!(
        again["items"]["data"][0]["price"]["id"], MONTHLY,
        "nothing changed"
    );
}
