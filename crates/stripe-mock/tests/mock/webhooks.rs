//! Webhooks: Stripe's envelope, a verifiable signature, retries with back-off.

use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::helpers::*;

fn verify(header: &str, body: &str, secret: &str) -> bool {
    let mut t = None;
    let mut sigs = Vec::new();
    for part in header.split(',') {
        match part.split_once('=') {
            Some(("t", v)) => t = Some(v.to_owned()),
            Some(("v1", v)) => sigs.push(v.to_owned()),
            _ => {}
        }
    }
    let Some(t) = t else { return false };
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(format!("{t}.{body}").as_bytes());
    let expected = hex::encode(mac.finalize().into_bytes());
    let fresh = (stripe_mock::Clock::wall() - t.parse::<i64>().unwrap()).abs() < 300;
    fresh && sigs.contains(&expected)
}

#[tokio::test]
async fn events_are_posted_signed_in_order_with_stripes_envelope() {
    let (receiver, hook) = Receiver::start(0).await;
    let m = spawn_with(stripe_mock::Config {
        webhook_url: Some(hook),
        webhook_secret: "whsec_test_secret".into(),
        ..fast_config()
    })
    .await;
    let (_, session, sub) = m.subscribed().await;
    let bodies = receiver.wait_for(4).await;
    let types: Vec<_> = bodies.iter().map(|b| b["type"].as_str().unwrap()).collect();
    assert_eq!(
        types,
        [
            "customer.created",
            "customer.subscription.created",
            "invoice.paid",
            "checkout.session.completed"
        ]
    );
    for (headers, body) in receiver.received.lock().unwrap().iter() {
        let sig = headers["stripe-signature"].to_str().unwrap();
        assert!(
            verify(sig, body, "whsec_test_secret"),
            "signature {sig} verifies"
        );
        assert!(
            !verify(sig, body, "whsec_other"),
            "and not with another secret"
        );
        assert!(headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/json"));
    }
    let completed = &bodies[3];
    assert!(completed["id"].as_str().unwrap().starts_with("evt_"));
    assert_eq!(completed["object"], "event");
    assert_eq!(completed["livemode"], false);
    assert_eq!(completed["api_version"], stripe_mock::API_VERSION);
    assert!(completed["created"].is_i64());
    assert!(completed["pending_webhooks"].is_i64());
    assert!(completed.get("request").is_some());
    assert_eq!(completed["data"]["object"]["id"], session.as_str());
    assert_eq!(completed["data"]["object"]["subscription"], sub.as_str());
    assert_eq!(completed["data"]["object"]["payment_status"], "paid");
    assert_eq!(
        completed["data"]["object"]["metadata"]["user_id"],
        "user-42"
    );
    // Once delivered, the stored event no longer has pending webhooks.
    let path = format!("/v1/events/{}", completed["id"].as_str().unwrap());
    let mut pending = None;
    for _ in 0..250 {
        pending = Some(m.get(&path).await.1["pending_webhooks"].clone());
        if pending == Some(serde_json::json!(0)) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(pending, Some(serde_json::json!(0)));
}

#[tokio::test]
async fn a_failing_endpoint_is_retried_until_it_accepts() {
    let (receiver, hook) = Receiver::start(2).await;
    let m = spawn_with(stripe_mock::Config {
        webhook_url: Some(hook),
        ..fast_config()
    })
    .await;
    m.create_customer("retry@example.com").await;
    let bodies = receiver.wait_for(1).await;
    assert_eq!(bodies[0]["type"], "customer.created");
    // The receiver records the body before it answers; wait for the mock to log the answer.
    for _ in 0..250 {
        if m.handle.deliveries().len() >= 3 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let attempts: Vec<_> = m
        .handle
        .deliveries()
        .into_iter()
        .map(|d| (d.attempt, d.status))
        .collect();
    assert_eq!(attempts, [(1, Some(500)), (2, Some(500)), (3, Some(200))]);
}

#[tokio::test]
async fn an_unreachable_endpoint_is_tried_on_the_whole_schedule_then_given_up() {
    // A port that was free a moment ago: nothing listens there.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = format!("http://{}/hook", listener.local_addr().unwrap());
    drop(listener);
    let m = spawn_with(stripe_mock::Config {
        webhook_url: Some(dead),
        ..fast_config()
    })
    .await;
    m.create_customer("down@example.com").await;
    let tries = 1 + fast_config().webhook_retry_delays.len();
    for _ in 0..200 {
        if m.handle.deliveries().len() >= tries {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let deliveries = m.handle.deliveries();
    assert_eq!(deliveries.len(), tries);
    assert!(deliveries
        .iter()
        .all(|d| d.status.is_none() && d.error.is_some()));
    assert_eq!(m.handle.events()[0]["pending_webhooks"], 1);
}

#[tokio::test]
async fn the_webhook_url_can_be_set_while_running() {
    let m = spawn_mock().await;
    m.create_customer("before@example.com").await;
    let (receiver, hook) = Receiver::start(0).await;
    m.handle.set_webhook_url(Some(hook));
    m.create_customer("after@example.com").await;
    let bodies = receiver.wait_for(1).await;
    assert_eq!(bodies.len(), 1);
    assert_eq!(bodies[0]["data"]["object"]["email"], "after@example.com");
}
