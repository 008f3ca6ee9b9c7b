//! Two replicas on one PostgreSQL database: billing's per-user lock holds across
//! them, so the success page's confirm on one and Stripe's webhook on the other activate once.

use super::*;

/// The checkout session's completion event, among all the mock has.
fn completed_event(b: &Billing, session_id: &str) -> Value {
    b.events_of_type("checkout.session.completed")
        .into_iter()
        .find(|e| e["data"]["object"]["id"] == session_id)
        .expect("the session's completion event")
}

async fn deliver_to(app: &TestApp, event: &Value) -> (StatusCode, Value) {
    let raw = serde_json::to_string(event).unwrap();
    let t = app.state.clock.now().unix_timestamp();
    let signature = sign(DEV_STRIPE_WEBHOOK_SECRET, t, raw.as_bytes());
    let res = app
        .client
        .post(app.url("/api/stripe/webhook"))
        .header("content-type", "application/json")
        .header("stripe-signature", signature)
        .body(raw)
        .send()
        .await
        .unwrap();
    body(res).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_users_billing_lock_on_one_replica_makes_the_other_wait() {
    let a = spawn_app_with(Backend::Postgres, |_| {}).await;
    let b = spawn_replica(&a, |_| {}).await;
    let (ana, bo) = (uuid::Uuid::now_v7(), uuid::Uuid::now_v7());
    let held = a.state.billing.lock(ana).await.unwrap();
    let waiting = tokio::spawn({
        let billing = b.state.billing.clone();
        async move { billing.lock(ana).await.map(|_| ()) }
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        !waiting.is_finished(),
        "the other replica waits for the user's lock"
    );
    let other = tokio::time::timeout(Duration::from_secs(5), b.state.billing.lock(bo)).await;
    assert!(other.expect("another user's lock is free").is_ok());
    drop(held);
    tokio::time::timeout(Duration::from_secs(5), waiting)
        .await
        .expect("released with the guard")
        .unwrap()
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn confirm_on_one_replica_racing_the_webhook_on_another_activates_once_fifty_times() {
    let b = spawn_billing(Backend::Postgres).await;
    b.mock.set_webhook_url(None);
    let other = spawn_replica(&b.app, |_| {}).await;
    for i in 0..50 {
        let token = b.user(&format!("u{i}@example.com")).await;
        let url = b.checkout(&token).await;
        let session_id = Billing::session_id(&url);
        assert_eq!(b.pay(&url, CARD_OK).await.status(), StatusCode::SEE_OTHER);
        let completed = completed_event(&b, &session_id);
        let ((c, v), (w, x)) = tokio::join!(
            b.confirm(&token, &session_id),
            deliver_to(&other, &completed)
        );
        assert_eq!(c, StatusCode::OK, "round {i}: {v}");
        assert_eq!(w, StatusCode::OK, "round {i}: {x}");
        let plan = b.plan(&token).await;
        assert_eq!(plan["plan_type"], "monthly", "round {i}");
        // Later calls on either replica find the plan as it was: it was activated once.
        b.app.advance(time::Duration::seconds(1));
        let (_, again) = b.confirm(&token, &session_id).await;
        assert_eq!(again["plan"], plan, "round {i}");
        let (status, _) = deliver_to(&other, &completed).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(b.plan(&token).await, plan, "round {i}");
    }
    let monthly = closewise_testkit::scalar(
        &b.app.database_url,
        "SELECT COUNT(*) FROM user_plans WHERE plan_type = 'monthly'",
    )
    .await;
    assert_eq!(monthly, 50);
}
