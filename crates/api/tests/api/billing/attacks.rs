//! What an attacker or a confused client may try: unverified checkouts, other people's sessions,
//! unpaid and made-up sessions, forged and replayed webhooks, strangers' events, foreign return
//! URLs; and the subscription cancelled with the account.

use super::*;
use crate::both;

both!(
    async fn an_unverified_email_may_not_check_out(app) with |s| {
        s.allow_unverified_signin = true;
    } {
        assert_eq!(
            app.signup("bo@example.com", PASSWORD).await.status(),
            StatusCode::OK
        );
        let (status, session) = body(app.signin("bo@example.com", PASSWORD).await).await;
        assert_eq!(status, StatusCode::OK, "{session}");
        let (status, v) = body(
            app.post_auth("/api/checkout", &access(&session), checkout_body())
                .await,
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::FORBIDDEN, "email_not_verified")
        );
        assert_eq!(
            error_message(&v),
            "Please verify your email address before subscribing"
        );
        // Whatever the body says.
        let (status, v) = body(
            app.post_auth("/api/checkout", &access(&session), json!({"price_id": 1}))
                .await,
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::FORBIDDEN, "email_not_verified")
        );
    }
);

both!(
    async fn nobody_can_confirm_someone_elses_session(backend: Backend) {
        let b = spawn_billing(backend).await;
        b.mock.set_webhook_url(None);
        let ana = b.user("ana@example.com").await;
        let eve = b.user("eve@example.com").await;
        let url = b.checkout(&ana).await;
        assert_eq!(b.pay(&url, CARD_OK).await.status(), StatusCode::SEE_OTHER);
        let (status, v) = b.confirm(&eve, &Billing::session_id(&url)).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::FORBIDDEN, "session_not_yours")
        );
        assert_eq!(
            error_message(&v),
            "Plan activation failed, but you can contact support."
        );
        assert_eq!(b.plan(&eve).await["plan_type"], "free");
        assert!(b.subscription(&eve).await.is_null());
        // Eve having a customer of her own changes nothing.
        b.checkout(&eve).await;
        let (status, _) = b.confirm(&eve, &Billing::session_id(&url)).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert_eq!(b.plan(&eve).await["plan_type"], "free");
    }
);

both!(
    async fn unpaid_expired_and_made_up_sessions_activate_nothing(backend: Backend) {
        let b = spawn_billing(backend).await;
        let token = b.user("ana@example.com").await;
        let unpaid = Billing::session_id(&b.checkout(&token).await);
        let (status, v) = b.confirm(&token, &unpaid).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "session_not_paid")
        );

        let expired = Billing::session_id(&b.checkout(&token).await);
        let resp = b
            .app
            .client
            .post(format!(
                "{}/v1/checkout/sessions/{expired}/expire",
                b.mock_url
            ))
            .bearer_auth(DEV_STRIPE_SECRET_KEY)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        let (status, v) = b.confirm(&token, &expired).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "session_not_paid")
        );

        for made_up in [
            "cs_test_madeup0000000000",
            "../v1/customers",
            "",
            "cs_test_a?b=c",
        ] {
            let (status, v) = b.confirm(&token, made_up).await;
            assert_eq!(
                (status, error_code(&v)),
                (StatusCode::NOT_FOUND, "session_not_found"),
                "{made_up:?}"
            );
            assert_eq!(
                error_message(&v),
                "Plan activation failed, but you can contact support."
            );
        }
        let (status, v) = body(
            b.app
                .post("/api/checkout/confirm", json!({"session_id": unpaid}))
                .await,
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::UNAUTHORIZED, "not_signed_in")
        );
        assert_eq!(b.plan(&token).await["plan_type"], "free");
        assert!(b.subscription(&token).await.is_null());
    }
);

both!(
    async fn webhooks_with_a_bad_or_stale_signature_are_refused(backend: Backend) {
        let b = spawn_billing(backend).await;
        b.mock.set_webhook_url(None);
        let token = b.user("ana@example.com").await;
        let url = b.checkout(&token).await;
        assert_eq!(b.pay(&url, CARD_OK).await.status(), StatusCode::SEE_OTHER);
        let event = b.events_of_type("checkout.session.completed").remove(0);
        let raw = serde_json::to_string(&event).unwrap();
        let now = b.app.state.clock.now().unix_timestamp();

        let forged = sign("whsec_someone_else", now, raw.as_bytes());
        let tampered_body = raw.replace("complete", "completf");
        let stale = sign(DEV_STRIPE_WEBHOOK_SECRET, now - 301, raw.as_bytes());
        let future = sign(DEV_STRIPE_WEBHOOK_SECRET, now + 301, raw.as_bytes());
        let good = sign(DEV_STRIPE_WEBHOOK_SECRET, now, raw.as_bytes());
        let cases = [
            (raw.as_str(), forged.as_str()),
            (tampered_body.as_str(), good.as_str()),
            (raw.as_str(), stale.as_str()),
            (raw.as_str(), future.as_str()),
            (raw.as_str(), "t=1,v1=zz"),
            (raw.as_str(), ""),
        ];
        for (payload, signature) in cases {
            let (status, v) = b.post_webhook(payload, signature).await;
            assert_eq!(
                (status, error_code(&v)),
                (StatusCode::BAD_REQUEST, "invalid_signature"),
                "{signature}"
            );
        }
        let no_header = b
            .app
            .client
            .post(b.app.url("/api/stripe/webhook"))
            .body(raw.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(no_header.status(), StatusCode::BAD_REQUEST);
        assert!(
            b.app
                .state
                .store
                .webhook_events(10)
                .await
                .unwrap()
                .is_empty(),
            "nothing recorded"
        );
        assert_eq!(b.plan(&token).await["plan_type"], "free");

        // Several v1 values (a secret being rolled): one matching is enough.
        let rolled = format!(
            "{},v1={}",
            sign("whsec_old", now, raw.as_bytes()),
            good.split("v1=").nth(1).unwrap()
        );
        let (status, v) = b.post_webhook(&raw, &rolled).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(b.plan(&token).await["plan_type"], "monthly");
    }
);

both!(
    async fn a_replayed_event_changes_nothing(backend: Backend) {
        let b = spawn_billing(backend).await;
        b.mock.set_webhook_url(None);
        let token = b.user("ana@example.com").await;
        let url = b.checkout(&token).await;
        assert_eq!(b.pay(&url, CARD_OK).await.status(), StatusCode::SEE_OTHER);
        let event = b.events_of_type("customer.subscription.created").remove(0);
        let (status, _) = b.deliver(&event).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(b.plan(&token).await["plan_type"], "monthly");

        // Had the replay been processed, it would have read Stripe again and put this back.
        b.app
            .execute("UPDATE subscriptions SET status = 'past_due'")
            .await;
        let (status, v) = b.deliver(&event).await;
        assert_eq!((status, v), (StatusCode::OK, json!({ "received": true })));
        assert_eq!(
            b.subscription(&token).await["subscription_status"],
            "past_due"
        );
        let recorded = b.app.state.store.webhook_events(10).await.unwrap();
        assert_eq!(recorded.len(), 1);
        assert_eq!(
            (recorded[0].attempts, recorded[0].kind.as_str()),
            (2, "customer.subscription.created")
        );

        // A malformed but signed payload is refused without being recorded.
        let raw = "{\"type\": \"invoice.paid\"}";
        let t = b.app.state.clock.now().unix_timestamp();
        let (status, v) = b
            .post_webhook(raw, &sign(DEV_STRIPE_WEBHOOK_SECRET, t, raw.as_bytes()))
            .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_REQUEST, "invalid_payload")
        );
    }
);

both!(
    async fn events_of_strangers_and_unknown_types_are_acknowledged(backend: Backend) {
        let b = spawn_billing(backend).await;
        let token = b.user("ana@example.com").await;
        for event in [
            json!({"id": "evt_x1", "type": "customer.created", "data": {"object": {"id": "cus_nobody"}}}),
            json!({"id": "evt_x2", "type": "customer.subscription.updated", "data": {"object": {"id": "sub_nobody"}}}),
            json!({"id": "evt_x3", "type": "checkout.session.completed", "data": {"object": {"id": "cs_nobody"}}}),
        ] {
            let (status, v) = b.deliver(&event).await;
            assert_eq!(status, StatusCode::OK, "{v}");
        }
        assert_eq!(b.plan(&token).await["plan_type"], "free");
        let recorded = b.app.state.store.webhook_events(10).await.unwrap();
        assert!(
            recorded.iter().all(|e| e.processed_at.is_some()),
            "{recorded:?}"
        );
    }
);

both!(
    async fn the_portal_needs_a_customer_and_a_return_url_of_ours(backend: Backend) {
        let b = spawn_billing(backend).await;
        let token = b.user("ana@example.com").await;
        let (status, v) = body(
            b.app
                .post_auth("/api/billing/portal", &token, json!({}))
                .await,
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::NOT_FOUND, "no_customer")
        );
        assert_eq!(
            error_message(&v),
            "No billing account yet. Start a subscription first."
        );
        b.checkout(&token).await;
        let (status, v) = body(
            b.app
                .post_auth(
                    "/api/billing/portal",
                    &token,
                    json!({"return_url": "https://evil.example/"}),
                )
                .await,
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_REQUEST, "invalid_redirect_url")
        );
        // No body at all is the default return address.
        let resp = b
            .app
            .client
            .post(b.app.url("/api/billing/portal"))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap();
        let (status, v) = body(resp).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (status, _) = body(
            b.app
                .client
                .post(b.app.url("/api/billing/portal"))
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
);

both!(
    async fn deleting_the_account_cancels_the_subscription(backend: Backend) {
        let b = spawn_billing(backend).await;
        let token = b.subscribed_user("ana@example.com").await;
        let sub_id = b.plan(&token).await["stripe_subscription_id"]
            .as_str()
            .unwrap()
            .to_owned();
        let resp = b
            .app
            .client
            .delete(b.app.url("/api/account"))
            .bearer_auth(&token)
            .json(&json!({"password": PASSWORD}))
            .send()
            .await
            .unwrap();
        let (status, v) = body(resp).await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{v}");
        let sub = b.mock.object(&sub_id).unwrap();
        assert_eq!(sub["status"], "canceled");
        // The deleted user's last events are acknowledged and grant nothing.
        b.wait_for_deliveries().await;
    }
);
