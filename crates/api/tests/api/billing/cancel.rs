//! Cancelling at the period's end with a reason, and resuming, against stripe-mock: the reason
//! stored and answered by `GET /api/subscription`, audited; Stripe's webhooks about the same
//! change keep it, a resumption at Stripe clears it, a cancellation made at Stripe has none;
//! the refusals (nothing to cancel, already cancelling, nothing to resume, a reason off the
//! list); and the clock passing the period's end leaves the account free.

use super::*;
use crate::both;

async fn post(b: &Billing, path: &str, token: &str, raw: Option<&str>) -> (StatusCode, Value) {
    let mut req = b.app.client.post(b.app.url(path)).bearer_auth(token);
    if let Some(raw) = raw {
        req = req
            .header("content-type", "application/json")
            .body(raw.to_owned());
    }
    body(req.send().await.unwrap()).await
}

async fn cancel(b: &Billing, token: &str, raw: Option<&str>) -> (StatusCode, Value) {
    post(b, "/api/billing/cancel", token, raw).await
}

async fn resume(b: &Billing, token: &str) -> (StatusCode, Value) {
    post(b, "/api/billing/resume", token, None).await
}

async fn stripe_update(b: &Billing, subscription_id: &str, cancel: &str) {
    let resp = b
        .app
        .client
        .post(format!("{}/v1/subscriptions/{subscription_id}", b.mock_url))
        .bearer_auth(DEV_STRIPE_SECRET_KEY)
        .form(&[("cancel_at_period_end", cancel)])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
}

both!(
    async fn a_cancelled_plan_keeps_its_reason_until_resumed_and_ends_at_the_period_end(
        backend: Backend,
    ) {
        let b = spawn_billing(backend).await;
        let token = b.subscribed_user("ana@example.com").await;
        b.wait_for_deliveries().await;
        let end = b.subscription(&token).await["current_period_end"].clone();

        let (status, v) = cancel(&b, &token, Some(r#"{"reason": "too_expensive"}"#)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let sub = &v["subscription"];
        assert_eq!(sub["cancel_at_period_end"], true, "{v}");
        assert_eq!(sub["cancellation_reason"], "too_expensive");
        assert_eq!(
            sub["current_period_end"], end,
            "it runs to its period's end"
        );
        let updated = b.events_of_type("customer.subscription.updated");
        let last = &updated.last().expect("Stripe told")["data"];
        assert_eq!(last["object"]["cancel_at_period_end"], true);
        assert_eq!(last["previous_attributes"]["cancel_at_period_end"], false);

        // Stripe's webhook about the same change keeps the reason.
        b.wait_for_deliveries().await;
        let sub = b.subscription(&token).await;
        assert_eq!(
            (
                sub["cancel_at_period_end"].as_bool(),
                sub["cancellation_reason"].as_str()
            ),
            (Some(true), Some("too_expensive")),
            "{sub}"
        );
        assert_eq!(
            b.plan(&token).await["plan_type"],
            "monthly",
            "paid until the end"
        );

        let user = b
            .app
            .state
            .store
            .user_by_email("ana@example.com")
            .await
            .unwrap()
            .unwrap();
        let audit = b
            .app
            .state
            .store
            .audit_of(Some(user.id), "", 20)
            .await
            .unwrap();
        let row = audit
            .iter()
            .find(|a| a.action == "billing.cancel")
            .expect("audited");
        let details: Value = serde_json::from_str(&row.details).unwrap();
        assert_eq!(details["reason"], "too_expensive");
        assert_eq!(row.actor, "ana@example.com");

        let (status, v) = cancel(&b, &token, None).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "already_cancelling"),
            "{v}"
        );

        let (status, v) = resume(&b, &token).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["subscription"]["cancel_at_period_end"], false);
        assert!(v["subscription"]["cancellation_reason"].is_null(), "{v}");
        assert!(audit_has(&b, user.id, "billing.resume").await);
        let (status, v) = resume(&b, &token).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "nothing_to_resume"),
            "{v}"
        );

        // Cancelled again without a reason; the clock passes the period's end: free.
        let (status, v) = cancel(&b, &token, None).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert!(v["subscription"]["cancellation_reason"].is_null(), "{v}");
        b.wait_for_deliveries().await;
        b.mock.advance_clock(32 * 86_400);
        b.wait_for_plan(&token, |p| p["plan_type"] == "free").await;
        assert!(!b.events_of_type("customer.subscription.deleted").is_empty());
        assert_eq!(
            b.subscription(&token).await["subscription_status"],
            "canceled"
        );
        let (status, v) = cancel(&b, &token, None).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "nothing_to_cancel"),
            "{v}"
        );
    }
);

async fn audit_has(b: &Billing, user: uuid::Uuid, action: &str) -> bool {
    let audit = b
        .app
        .state
        .store
        .audit_of(Some(user), "", 20)
        .await
        .unwrap();
    audit.iter().any(|a| a.action == action)
}

both!(
    async fn changes_made_at_stripe_keep_the_reason_consistent(backend: Backend) {
        let b = spawn_billing(backend).await;
        let token = b.subscribed_user("ana@example.com").await;
        let (status, v) = cancel(&b, &token, Some(r#"{"reason": "switched_service"}"#)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let plan = b.plan(&token).await;
        let sub_id = plan["stripe_subscription_id"].as_str().unwrap().to_owned();
        b.wait_for_deliveries().await;

        // Resumed in Stripe's portal: the reason goes with the cancellation.
        stripe_update(&b, &sub_id, "false").await;
        let sub = b
            .wait_for_subscription(&token, |s| s["cancel_at_period_end"] == false)
            .await;
        assert!(sub["cancellation_reason"].is_null(), "{sub}");

        // Cancelled there: no reason was given.
        stripe_update(&b, &sub_id, "true").await;
        let sub = b
            .wait_for_subscription(&token, |s| s["cancel_at_period_end"] == true)
            .await;
        assert!(sub["cancellation_reason"].is_null(), "{sub}");
    }
);

both!(
    async fn a_cancellation_answers_bad_input_and_nothing_to_cancel_clearly(backend: Backend) {
        let b = spawn_billing(backend).await;
        let free = b.user("free@example.com").await;
        let (status, v) = cancel(&b, &free, None).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "nothing_to_cancel"),
            "{v}"
        );
        let (status, v) = resume(&b, &free).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "nothing_to_resume"),
            "{v}"
        );

        for (raw, code) in [
            (r#"{"reason": "because"}"#, "invalid_reason"),
            (r#"{"reason": 3}"#, "invalid_json"),
            ("not json", "invalid_json"),
        ] {
            let (status, v) = cancel(&b, &free, Some(raw)).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{raw}: {v}");
            assert_eq!(error_code(&v), code, "{raw}: {v}");
        }
        let (status, _) = b
            .app
            .client
            .post(b.app.url("/api/billing/cancel"))
            .send()
            .await
            .map(|r| (r.status(), ()))
            .unwrap();
        assert_eq!(status, StatusCode::UNAUTHORIZED);

        let (status, v) = body(
            b.app
                .client
                .get(b.app.url("/api/billing/cancellation-reasons"))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        let reasons = v["reasons"].as_array().unwrap();
        assert_eq!(reasons.len(), 5, "{v}");
        assert_eq!(
            reasons[0],
            json!({"reason": "too_expensive", "label": "It costs too much"})
        );
    }
);
