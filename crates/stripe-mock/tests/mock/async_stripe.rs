//! The mock driven by async-stripe exactly as the API does: if a field async-stripe requires is
//! missing from our JSON, these calls fail to deserialise.

use std::collections::HashMap;

use stripe::{Client, ClientBuilder, IdempotencyKey, RequestStrategy, StripeError, StripeRequest};
use stripe_billing::billing_portal_session::CreateBillingPortalSession;
use stripe_billing::invoice::RetrieveInvoice;
use stripe_billing::subscription::{CancelSubscription, RetrieveSubscription, UpdateSubscription};
use stripe_billing::SubscriptionStatus;
use stripe_checkout::checkout_session::{
    CreateCheckoutSession, CreateCheckoutSessionLineItems, ExpireCheckoutSession,
    ListLineItemsCheckoutSession, RetrieveCheckoutSession,
};
use stripe_checkout::{CheckoutSessionMode, CheckoutSessionPaymentStatus, CheckoutSessionStatus};
use stripe_core::customer::{CreateCustomer, RetrieveCustomer, RetrieveCustomerReturned};
use stripe_core::event::ListEvent;
use stripe_core::EventType;

use crate::helpers::*;

fn client(m: &TestMock) -> Client {
    ClientBuilder::new(KEY).url(&m.base).build().unwrap()
}

#[tokio::test]
async fn async_stripe_drives_the_whole_subscription_flow() {
    let m = spawn_mock().await;
    let client = client(&m);

    // Customer.
    let customer = CreateCustomer::new()
        .email("ada@example.com")
        .metadata(HashMap::from([(
            "user_id".to_owned(),
            "user-42".to_owned(),
        )]))
        .send(&client)
        .await
        .expect("create customer");
    assert_eq!(customer.email.as_deref(), Some("ada@example.com"));
    match RetrieveCustomer::new(customer.id.clone())
        .send(&client)
        .await
        .expect("retrieve customer")
    {
        RetrieveCustomerReturned::Customer(c) => assert_eq!(c.id, customer.id),
        RetrieveCustomerReturned::DeletedCustomer(_) => panic!("not deleted"),
    }

    // Checkout session.
    let mut item = CreateCheckoutSessionLineItems::new();
    item.price = Some("price_closewise_monthly".to_owned());
    item.quantity = Some(1);
    let session = CreateCheckoutSession::new()
        .mode(CheckoutSessionMode::Subscription)
        .customer(customer.id.as_str())
        .line_items(vec![item])
        .success_url("http://app.test/success?session_id={CHECKOUT_SESSION_ID}")
        .cancel_url("http://app.test/pricing")
        .client_reference_id("user-42")
        .metadata(HashMap::from([(
            "user_id".to_owned(),
            "user-42".to_owned(),
        )]))
        .send(&client)
        .await
        .expect("create checkout session");
    assert_eq!(session.status, Some(CheckoutSessionStatus::Open));
    assert_eq!(session.payment_status, CheckoutSessionPaymentStatus::Unpaid);
    let url = session.url.clone().expect("a hosted url");
    assert!(url.starts_with(&m.base));

    let items = ListLineItemsCheckoutSession::new(session.id.clone())
        .send(&client)
        .await
        .expect("line items");
    assert_eq!(
        items.data[0].price.as_ref().unwrap().id.as_str(),
        "price_closewise_monthly"
    );

    // Pay on the hosted page, as a browser would.
    let resp = m
        .http
        .post(&url)
        .form(&[
            ("email", "ada@example.com"),
            ("cardnumber", "4242 4242 4242 4242"),
            ("exp", "12 / 34"),
            ("cvc", "123"),
            ("name", "Ada"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 303);
    assert_eq!(
        resp.headers()["location"],
        format!("http://app.test/success?session_id={}", session.id).as_str()
    );

    // What the success page's confirm call does.
    let session = RetrieveCheckoutSession::new(session.id.clone())
        .expand(vec![
            "subscription".to_owned(),
            "subscription.default_payment_method".to_owned(),
        ])
        .send(&client)
        .await
        .expect("retrieve expanded session");
    assert_eq!(session.status, Some(CheckoutSessionStatus::Complete));
    assert_eq!(session.payment_status, CheckoutSessionPaymentStatus::Paid);
    assert_eq!(
        session.customer.as_ref().unwrap().id().as_str(),
        customer.id.as_str()
    );
    assert_eq!(session.metadata.as_ref().unwrap()["user_id"], "user-42");
    let sub = session
        .subscription
        .as_ref()
        .unwrap()
        .as_object()
        .expect("expanded subscription");
    assert_eq!(sub.status, SubscriptionStatus::Active);
    let pm = sub
        .default_payment_method
        .as_ref()
        .unwrap()
        .as_object()
        .expect("expanded payment method");
    let card = pm.card.as_ref().unwrap();
    assert_eq!((card.brand.as_str(), card.last4.as_str()), ("visa", "4242"));
    let item = &sub.items.data[0];
    assert_eq!(item.price.id.as_str(), "price_closewise_monthly");
    assert!(item.current_period_end > item.current_period_start);

    // Subscription, as the webhook handler re-fetches it.
    let sub = RetrieveSubscription::new(sub.id.clone())
        .expand(vec![
            "default_payment_method".to_owned(),
            "latest_invoice".to_owned(),
        ])
        .send(&client)
        .await
        .expect("retrieve subscription");
    assert!(!sub.cancel_at_period_end);
    let invoice_id = sub
        .latest_invoice
        .as_ref()
        .unwrap()
        .id()
        .clone()
        .expect("an invoice id");
    let invoice = RetrieveInvoice::new(invoice_id)
        .send(&client)
        .await
        .expect("retrieve invoice");
    assert_eq!(invoice.amount_paid, 2000);

    let sub = UpdateSubscription::new(sub.id.clone())
        .cancel_at_period_end(true)
        .send(&client)
        .await
        .expect("update subscription");
    assert!(sub.cancel_at_period_end);

    // Billing portal.
    let portal = CreateBillingPortalSession::new()
        .customer(customer.id.as_str())
        .return_url("http://app.test/account")
        .send(&client)
        .await
        .expect("create portal session");
    assert!(portal.url.starts_with(&m.base));

    // Events.
    let events = ListEvent::new()
        .limit(100)
        .send(&client)
        .await
        .expect("list events");
    let types: Vec<EventType> = events.data.iter().map(|e| e.type_.clone()).collect();
    assert!(types.contains(&EventType::CheckoutSessionCompleted));
    assert!(types.contains(&EventType::CustomerSubscriptionCreated));
    assert!(types.contains(&EventType::InvoicePaid));
    assert_eq!(
        types[0],
        EventType::CustomerSubscriptionUpdated,
        "newest first"
    );

    let canceled = CancelSubscription::new(sub.id.clone())
        .send(&client)
        .await
        .expect("cancel");
    assert_eq!(canceled.status, SubscriptionStatus::Canceled);
}

#[tokio::test]
async fn async_stripe_sees_stripe_errors_with_their_codes() {
    let m = spawn_mock().await;
    let client = client(&m);
    let err = RetrieveCheckoutSession::new("cs_test_nope")
        .send(&client)
        .await
        .unwrap_err();
    match err {
        StripeError::Stripe(e, status) => {
            assert_eq!(status, 404);
            assert_eq!(
                e.code.map(|c| c.as_str().to_owned()).as_deref(),
                Some("resource_missing")
            );
            assert_eq!(e.param.as_deref(), Some("session"));
        }
        other => panic!("expected a Stripe error, got {other:?}"),
    }
    let bad = ClientBuilder::new("sk_test_wrong_key_0000")
        .url(&m.base)
        .build()
        .unwrap();
    match CreateCustomer::new().send(&bad).await.unwrap_err() {
        StripeError::Stripe(e, 401) => {
            assert!(e.message.unwrap().starts_with("Invalid API Key provided"))
        }
        other => panic!("expected 401, got {other:?}"),
    }
    let session = m.create_session(None).await;
    let id = session["id"].as_str().unwrap();
    let expired = ExpireCheckoutSession::new(id)
        .send(&client)
        .await
        .expect("expire");
    assert_eq!(expired.status, Some(CheckoutSessionStatus::Expired));
}

#[tokio::test]
async fn an_idempotent_create_customer_replays_the_same_customer() {
    let m = spawn_mock().await;
    let client = client(&m);
    let create = || {
        let key = IdempotencyKey::new("closewise-customer-7f1c").unwrap();
        CreateCustomer::new()
            .email("ada@example.com")
            .customize()
            .request_strategy(RequestStrategy::Idempotent(key))
            .send(&client)
    };
    let first = create().await.expect("first");
    let second = create().await.expect("replayed");
    assert_eq!(first.id, second.id);
    assert_eq!(m.handle.snapshot().customers.len(), 1);
}
