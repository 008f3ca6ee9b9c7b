//! `subscriptions sync` against stripe-mock in-process, and `webhooks list`.

use closewise_core::billing::{StripeClient, StripeConnection};
use closewise_core::store::Store;
use closewise_testkit::both;
use stripe_mock::MockHandle;

use crate::helpers::{now, stderr, Backend, TestDb, ACTOR};

fn stripe(mock: &MockHandle) -> StripeClient {
    StripeClient::new(&StripeConnection {
        api_base: mock.base_url(),
        secret_key: stripe_mock::DEFAULT_SECRET_KEY.to_owned().into(),
        timeout: std::time::Duration::from_secs(5),
    })
    .unwrap()
}

/// Buys the monthly plan for `email` at the mock, as checkout would, and stores what Stripe says
/// the way the API does. Returns the subscription id.
async fn subscribe(db: &TestDb, mock: &MockHandle, email: &str) -> String {
    subscribe_and(db, mock, email, true).await
}

/// As `subscribe`; `store_it` false leaves only the customer stored, as when both the webhook
/// and the success page's confirmation were lost.
async fn subscribe_and(db: &TestDb, mock: &MockHandle, email: &str, store_it: bool) -> String {
    let store: Store = db.store().await;
    let user = store.user_by_email(email).await.unwrap().unwrap();
    let client = stripe(mock);
    let customer = client.create_customer(user.id, email).await.unwrap();
    let page = client
        .create_checkout_session(
            user.id,
            &customer,
            stripe_mock::SEED_PRICE,
            "http://127.0.0.1:8080/success?session_id={CHECKOUT_SESSION_ID}",
            "http://127.0.0.1:8080/pricing",
            &closewise_core::billing::Promotion::Allow,
        )
        .await
        .unwrap();
    // The hosted page is `/c/pay/<session id>`.
    let session_id = page.rsplit('/').next().unwrap();
    mock.pay(session_id, "4242424242424242").unwrap();
    let record = client
        .checkout_session(session_id)
        .await
        .unwrap()
        .subscription
        .expect("a paid session has a subscription");
    store
        .save_stripe_customer(user.id, &customer, now())
        .await
        .unwrap();
    if store_it {
        store
            .apply_subscription(user.id, &record, now())
            .await
            .unwrap();
    }
    record.subscription_id
}

both!(
    async fn sync_repairs_a_drifted_plan_from_stripe_and_records_it(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let (_, mock) = stripe_mock::spawn(stripe_mock::Config::default()).await.unwrap();
        let base = mock.base_url();
        let sub_id = subscribe(&db, &mock, "ana@example.com").await;
        let plan = db.json(&["plans", "show", "ana@example.com"]).await;
        assert_eq!(plan["plan"]["plan_type"], "monthly");

        // The drift: the plan says free while Stripe bills the customer.
        db.ok(&["plans", "set", "ana@example.com", "free", "--reason", "simulated drift", "--yes"]).await;

        let dry = db
            .json(&["subscriptions", "sync", "ana@example.com", "--dry-run", "--stripe-api-base", &base])
            .await;
        assert_eq!(dry[0]["outcome"], "would_repair");
        assert_eq!(dry[0]["subscription_id"], sub_id.as_str());
        let change = dry[0]["changes"].as_array().unwrap().iter().find(|c| c["field"] == "plan.type").unwrap();
        assert_eq!((change["from"].as_str(), change["to"].as_str()), (Some("free"), Some("monthly")));
        let plan = db.json(&["plans", "show", "ana@example.com"]).await;
        assert_eq!(plan["plan"]["plan_type"], "free", "--dry-run changes nothing");

        let out = db
            .ok(&["subscriptions", "sync", "ana@example.com", "--reason", "ticket 7", "--yes", "--stripe-api-base", &base])
            .await;
        assert!(out.contains("repaired") && out.contains("plan.type: \"free\" -> \"monthly\""), "{out}");
        let shown = db.json(&["users", "show", "ana@example.com"]).await;
        assert_eq!(shown["plan"]["plan_type"], "monthly");
        assert_eq!(shown["plan"]["stripe_subscription_id"], sub_id.as_str());
        let entry = &shown["audit"][0];
        assert_eq!(entry["action"], "subscription.sync");
        assert_eq!(entry["actor"], ACTOR);
        assert_eq!(entry["reason"], "ticket 7");
        assert_eq!(entry["details"]["subscription_id"], sub_id.as_str());
        let audit_len = shown["audit"].as_array().unwrap().len();

        let again = db.json(&["subscriptions", "sync", "ana@example.com", "--yes", "--stripe-api-base", &base]).await;
        assert_eq!(again[0]["outcome"], "in_sync");
        let shown = db.json(&["users", "show", "ana@example.com"]).await;
        assert_eq!(shown["audit"].as_array().unwrap().len(), audit_len, "nothing changed, nothing recorded");

        // Canceled at Stripe while our copy still says active: the plan ends.
        stripe(&mock).cancel_subscription(&sub_id).await.unwrap();
        let ended = db.json(&["subscriptions", "sync", "ana@example.com", "--yes", "--stripe-api-base", &base]).await;
        assert_eq!(ended[0]["outcome"], "repaired");
        let plan = db.json(&["plans", "show", "ana@example.com"]).await;
        assert_eq!(plan["plan"]["plan_type"], "free");
        assert_eq!(plan["subscription"]["status"], "canceled");
        mock.shutdown().await;
    }
);

both!(
    async fn sync_writes_its_audit_row_in_the_same_transaction_as_its_change(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let (_, mock) = stripe_mock::spawn(stripe_mock::Config::default()).await.unwrap();
        let base = mock.base_url();
        subscribe(&db, &mock, "ana@example.com").await;
        db.ok(&["plans", "set", "ana@example.com", "free", "--reason", "simulated drift", "--yes"]).await;
        // The audit trail refuses the sync's row: the repair must not happen without it.
        let (refuse, allow) = match db.backend {
            Backend::Sqlite => (
                "CREATE TRIGGER refuse_sync_audit BEFORE INSERT ON audit_log \
                 WHEN NEW.action = 'subscription.sync' BEGIN SELECT RAISE(ABORT, 'refused'); END",
                "DROP TRIGGER refuse_sync_audit",
            ),
            Backend::Postgres => (
                "ALTER TABLE audit_log ADD CONSTRAINT refuse_sync_audit \
                 CHECK (action <> 'subscription.sync')",
                "ALTER TABLE audit_log DROP CONSTRAINT refuse_sync_audit",
            ),
        };
        db.execute(refuse).await;
        let sync = ["subscriptions", "sync", "ana@example.com", "--yes", "--stripe-api-base", base.as_str()];
        let failed = db.run(&sync).await;
        assert_eq!(failed.status.code(), Some(1), "{}", stderr(&failed));
        let plan = db.json(&["plans", "show", "ana@example.com"]).await;
        assert_eq!(plan["plan"]["plan_type"], "free", "no change without its audit row");

        db.execute(allow).await;
        let out = db.ok(&sync).await;
        assert!(out.contains("repaired"), "{out}");
        let shown = db.json(&["users", "show", "ana@example.com"]).await;
        assert_eq!(shown["plan"]["plan_type"], "monthly");
        assert_eq!(shown["audit"][0]["action"], "subscription.sync");
        mock.shutdown().await;
    }
);

both!(
    async fn sync_all_reports_subscriptions_stripe_does_not_know_and_fails(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let (_, mock) = stripe_mock::spawn(stripe_mock::Config::default()).await.unwrap();
        let base = mock.base_url();
        subscribe(&db, &mock, "bo@example.com").await;
        let out = db.run(&["subscriptions", "sync", "--all", "--json", "--yes", "--stripe-api-base", &base]).await;
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        let reports: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let by_email = |e: &str| {
            reports.as_array().unwrap().iter().find(|r| r["email"] == e).cloned().unwrap()
        };
        assert_eq!(by_email("bo@example.com")["outcome"], "in_sync");
        // The fixture's subscriptions have ids no Stripe knows.
        assert_eq!(by_email("cy@example.com")["outcome"], "failed");
        assert!(by_email("cy@example.com")["error"].as_str().unwrap().contains("Stripe has no subscription"));
        assert!(reports.as_array().unwrap().iter().all(|r| r["email"] != "ana@example.com"));
        assert!(stderr(&out).contains("could not be synchronised"), "{}", stderr(&out));

        let one_of_neither = db.run(&["subscriptions", "sync"]).await;
        assert_eq!(one_of_neither.status.code(), Some(2));
        mock.shutdown().await;
    }
);

both!(
    async fn webhooks_list_shows_events_and_failed_ones_alone(db: TestDb) from TestDb::new {
        let store = db.store().await;
        store.receive_webhook_event("evt_ok", "invoice.paid", now()).await.unwrap();
        store.finish_webhook_event("evt_ok", now(), None).await.unwrap();
        store
            .receive_webhook_event("evt_bad", "customer.subscription.updated", now())
            .await
            .unwrap();
        store
            .finish_webhook_event("evt_bad", now(), Some("Stripe is unavailable: timed out"))
            .await
            .unwrap();

        let all = db.json(&["webhooks", "list"]).await;
        assert_eq!(all.as_array().unwrap().len(), 2);
        let failed = db.json(&["webhooks", "list", "--failed"]).await;
        assert_eq!(failed.as_array().unwrap().len(), 1);
        assert_eq!(failed[0]["event_id"], "evt_bad");
        assert_eq!(failed[0]["type"], "customer.subscription.updated");
        assert!(failed[0]["processed_at"].is_null());
        let table = db.ok(&["webhooks", "list"]).await;
        assert!(table.contains("evt_ok") && table.contains("timed out"), "{table}");
    }
);

both!(
    async fn replay_fetches_a_failed_event_again_and_processes_it_once(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let (_, mock) = stripe_mock::spawn(stripe_mock::Config::default()).await.unwrap();
        let base = mock.base_url();
        let sub_id = subscribe(&db, &mock, "ana@example.com").await;
        let event = mock
            .events()
            .into_iter()
            .find(|e| e["type"] == "customer.subscription.created")
            .expect("the mock records the subscription's creation");
        let event_id = event["id"].as_str().unwrap().to_owned();
        // A delivery that failed, and a plan left behind.
        let store = db.store().await;
        store
            .receive_webhook_event(&event_id, "customer.subscription.created", now())
            .await
            .unwrap();
        store
            .finish_webhook_event(&event_id, now(), Some("Stripe is unavailable: timed out"))
            .await
            .unwrap();
        db.ok(&["plans", "set", "ana@example.com", "free", "--reason", "simulated drift", "--yes"]).await;

        let out = db
            .ok(&["webhooks", "replay", &event_id, "--reason", "Stripe outage", "--yes", "--stripe-api-base", &base])
            .await;
        assert!(out.contains("processed for ana@example.com"), "{out}");
        let row = store.webhook_event(&event_id).await.unwrap().unwrap();
        assert!(row.processed_at.is_some() && row.error.is_none());
        let shown = db.json(&["users", "show", "ana@example.com"]).await;
        assert_eq!(shown["plan"]["plan_type"], "monthly");
        assert_eq!(shown["plan"]["stripe_subscription_id"], sub_id.as_str());
        let entry = &shown["audit"][0];
        assert_eq!(entry["action"], "webhook.replay");
        assert_eq!(entry["reason"], "Stripe outage");
        assert_eq!(entry["details"]["event_id"], event_id.as_str());
        assert_eq!(entry["details"]["processed"], true);

        let again = db.ok(&["webhooks", "replay", &event_id, "--stripe-api-base", &base]).await;
        assert!(again.contains("would change nothing"), "{again}");

        let unknown = db.run(&["webhooks", "replay", "evt_unknown", "--yes", "--stripe-api-base", &base]).await;
        assert_eq!(unknown.status.code(), Some(1));
        assert!(stderr(&unknown).contains("Stripe has no event"), "{}", stderr(&unknown));
        let malformed = db.run(&["webhooks", "replay", "evt/../x", "--yes", "--stripe-api-base", &base]).await;
        assert_eq!(malformed.status.code(), Some(2));
        mock.shutdown().await;
    }
);

both!(
    async fn deleting_a_paying_account_cancels_its_subscription_at_stripe_first(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let (_, mock) = stripe_mock::spawn(stripe_mock::Config::default()).await.unwrap();
        let base = mock.base_url();
        let sub_id = subscribe(&db, &mock, "ana@example.com").await;
        assert_eq!(mock.object(&sub_id).unwrap()["status"], "active");

        let out = db
            .ok(&["users", "delete", "ana@example.com", "--yes", "--reason", "asked by mail", "--stripe-api-base", &base])
            .await;
        assert!(out.contains(&format!("Subscription {sub_id} canceled")), "{out}");
        assert_eq!(mock.object(&sub_id).unwrap()["status"], "canceled");
        let store = db.store().await;
        assert!(store.user_by_email("ana@example.com").await.unwrap().is_none());
        let audit = store.audit_of(None, "ana@example.com", 10).await.unwrap();
        assert_eq!(audit[0].action, "user.delete");
        let details: serde_json::Value = serde_json::from_str(&audit[0].details).unwrap();
        assert_eq!(details["subscription"], sub_id.as_str());
        mock.shutdown().await;
    }
);

both!(
    async fn sync_finds_a_paid_subscription_nobody_stored_through_the_customer(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let (_, mock) = stripe_mock::spawn(stripe_mock::Config::default()).await.unwrap();
        let base = mock.base_url();
        let sub_id = subscribe_and(&db, &mock, "ana@example.com", false).await;
        let before = db.json(&["plans", "show", "ana@example.com"]).await;
        assert_eq!(before["plan"]["plan_type"], "free");
        assert!(before["subscription"].is_null());

        let report = db
            .json(&["subscriptions", "sync", "ana@example.com", "--yes", "--stripe-api-base", &base])
            .await;
        assert_eq!(report[0]["outcome"], "repaired");
        assert_eq!(report[0]["subscription_id"], sub_id.as_str());
        let after = db.json(&["plans", "show", "ana@example.com"]).await;
        assert_eq!(after["plan"]["plan_type"], "monthly");
        assert_eq!(after["subscription"]["subscription_id"], sub_id.as_str());
        assert_eq!(after["subscription"]["status"], "active");
        mock.shutdown().await;
    }
);

both!(
    async fn users_show_lists_the_accounts_recent_webhook_events(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let (_, mock) = stripe_mock::spawn(stripe_mock::Config::default()).await.unwrap();
        let base = mock.base_url();
        subscribe(&db, &mock, "ana@example.com").await;
        let created = mock
            .events()
            .into_iter()
            .find(|e| e["type"] == "customer.subscription.created")
            .expect("the mock records the subscription's creation");
        let created_id = created["id"].as_str().unwrap().to_owned();
        // Delivered through the API's own handler, which notes the account it was about.
        db.ok(&["webhooks", "replay", &created_id, "--yes", "--stripe-api-base", &base]).await;
        let store = db.store().await;
        let ana = store.user_by_email("ana@example.com").await.unwrap().unwrap();
        store.receive_webhook_event("evt_failed", "invoice.payment_failed", now()).await.unwrap();
        store.link_webhook_event_user("evt_failed", ana.id).await.unwrap();
        store
            .finish_webhook_event("evt_failed", now(), Some("Stripe is unavailable: timed out"))
            .await
            .unwrap();
        store.receive_webhook_event("evt_someone_else", "invoice.paid", now()).await.unwrap();

        let shown = db.json(&["users", "show", "ana@example.com"]).await;
        let events = shown["webhook_events"].as_array().expect("webhook_events listed");
        assert_eq!(events.len(), 2, "{events:?}");
        assert_eq!(events[0]["event_id"], "evt_failed", "newest first");
        assert_eq!(events[0]["type"], "invoice.payment_failed");
        assert!(events[0]["processed_at"].is_null());
        assert_eq!(events[0]["error"], "Stripe is unavailable: timed out");
        assert_eq!(events[1]["event_id"], created_id.as_str());
        assert_eq!(events[1]["type"], "customer.subscription.created");
        assert!(events[1]["processed_at"].is_string() && events[1]["error"].is_null());
        assert!(events[1]["received_at"].is_string());

        let screen = db.ok(&["users", "show", "ana@example.com"]).await;
        assert!(screen.contains("Recent webhook events"), "{screen}");
        assert!(screen.contains(&created_id) && screen.contains("evt_failed"), "{screen}");
        assert!(screen.contains("timed out") && !screen.contains("evt_someone_else"), "{screen}");
        let bo = db.ok(&["users", "show", "bo@example.com"]).await;
        assert!(bo.contains("Recent webhook events\n  none"), "{bo}");

        for i in 0..12 {
            let id = format!("evt_many_{i:02}");
            store.receive_webhook_event(&id, "invoice.paid", now()).await.unwrap();
            store.link_webhook_event_user(&id, ana.id).await.unwrap();
        }
        let shown = db.json(&["users", "show", "ana@example.com"]).await;
        assert_eq!(shown["webhook_events"].as_array().unwrap().len(), 10, "up to ten");
        mock.shutdown().await;
    }
);

both!(
    async fn coupons_and_promotion_codes_are_made_listed_and_deactivated_at_stripe_and_audited(db: TestDb) from TestDb::new {
        let (_, mock) = stripe_mock::spawn(stripe_mock::Config::default()).await.unwrap();
        let base = mock.base_url();
        let stripe = ["--stripe-api-base", base.as_str()];

        let coupon = db.json(&with(&["billing", "coupons", "create", "--percent-off", "20", "--duration", "repeating", "--months", "3", "--reason", "launch", "--yes"], &stripe)).await;
        let coupon_id = coupon["id"].as_str().expect("the coupon's id").to_owned();
        assert_eq!((coupon["percent_off"].as_f64(), coupon["duration_in_months"].as_i64()), (Some(20.0), Some(3)));
        let listed = db.json(&with(&["billing", "coupons", "list"], &stripe)).await;
        assert_eq!(listed.as_array().map(Vec::len), Some(1), "{listed}");

        let code = db.json(&with(&["billing", "promo-codes", "create", "LAUNCH20", "--coupon", &coupon_id, "--reason", "launch", "--yes"], &stripe)).await;
        assert_eq!((code["code"].as_str(), code["active"].as_bool()), (Some("LAUNCH20"), Some(true)));
        let out = db.ok(&with(&["billing", "promo-codes", "deactivate", "LAUNCH20", "--reason", "launch over", "--yes"], &stripe)).await;
        assert!(out.contains("deactivated"), "{out}");
        let active = db.json(&with(&["billing", "promo-codes", "list", "--active"], &stripe)).await;
        assert_eq!(active.as_array().map(Vec::len), Some(0), "{active}");

        // Bad input is the operator's error (exit 2 for clap, 1 for Stripe's refusal), nothing made.
        let bad = db.run(&with(&["billing", "coupons", "create", "--percent-off", "150", "--reason", "x", "--yes"], &stripe)).await;
        assert_ne!(bad.status.code(), Some(0), "{}", stderr(&bad));
        assert!(!stderr(&bad).is_empty());

        let log = db.json(&["audit", "--limit", "10"]).await;
        let actions: Vec<&str> = log.as_array().unwrap().iter().filter_map(|r| r["action"].as_str()).collect();
        assert_eq!(actions, ["promotion_code.deactivate", "promotion_code.create", "coupon.create"]);
        mock.shutdown().await;
    }
);

/// `args` followed by the stripe-mock base flag.
fn with<'a>(args: &[&'a str], stripe: &[&'a str]) -> Vec<&'a str> {
    [args, stripe].concat()
}

both!(
    async fn dunning_list_shows_who_is_past_due_since_when_and_the_next_try(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        assert!(db
            .ok(&["billing", "dunning", "list"])
            .await
            .contains("Nobody is past due."));
        let store: Store = db.store().await;
        let user = store
            .user_by_email("ana@example.com")
            .await
            .unwrap()
            .unwrap();
        use closewise_core::store::payment_failures::{NewPaymentFailure, Payer};
        // 2026-12-01T00:00:00Z, the next try two days later.
        let since = 1_796_083_200;
        let failure = NewPaymentFailure {
            subscription_id: "sub_failing".into(),
            payer: Payer::User(user.id),
            invoice_id: "in_failing".into(),
            past_due_since: since,
            attempt_count: 2,
            next_payment_attempt: Some(since + 2 * 86_400),
            amount_due: 2000,
            currency: "usd".into(),
        };
        let audit = closewise_core::actor::Actor::System { job: "stripe" }.audit(
            "billing.payment_failed",
            Some(user.id),
            None,
            serde_json::json!({}),
            now(),
        );
        assert!(store
            .record_payment_failure(&failure, &audit, None)
            .await
            .unwrap());

        let table = db.ok(&["billing", "dunning", "list"]).await;
        let row = table.lines().nth(1).expect("a row");
        for cell in [
            "ana@example.com",
            "sub_failing",
            "20.00 USD",
            "2026-12-01 00:00 UTC",
            "2026-12-03 00:00 UTC",
        ] {
            assert!(row.contains(cell), "{cell} in {table}");
        }
        let json = db.json(&["billing", "dunning", "list"]).await;
        assert_eq!(json[0]["email"], "ana@example.com");
        assert_eq!(json[0]["attempt_count"], 2);
        assert_eq!(json[0]["past_due_since"], "2026-12-01T00:00:00Z");
        assert_eq!(json[0]["next_payment_attempt"], "2026-12-03T00:00:00Z");
        assert!(json[0]["team"].is_null());
    }
);
