//! `users ...` and `plans ...`.

use closewise_core::store::NewMail;
use closewise_testkit::both;
use uuid::Uuid;

use crate::helpers::{emails, now, sign_in, stderr, TestDb, ACTOR};

both!(
    async fn users_list_filters_unverified_paid_and_recent_accounts(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let all = db.json(&["users", "list"]).await;
        assert_eq!(
            emails(&all),
            ["ana@example.com", "bo@example.com", "cy@example.com", "di@example.com", "ed@example.com"]
        );
        let cy = all.as_array().unwrap().iter().find(|u| u["email"] == "cy@example.com").unwrap();
        assert_eq!(cy["plan_type"], "monthly");
        assert_eq!(cy["subscription_status"], "active");

        assert_eq!(emails(&db.json(&["users", "list", "--unverified"]).await), ["bo@example.com"]);
        assert_eq!(
            emails(&db.json(&["users", "list", "--paid"]).await),
            ["cy@example.com", "ed@example.com"]
        );
        assert!(db.json(&["users", "list", "--since", "2999-01-01"]).await.as_array().unwrap().is_empty());
        assert_eq!(db.json(&["users", "list", "--since", "2000-01-01"]).await.as_array().unwrap().len(), 5);

        let table = db.ok(&["users", "list", "--paid"]).await;
        assert!(table.starts_with("EMAIL"), "{table}");
        assert!(table.contains("cy@example.com") && !table.contains("ana@example.com"), "{table}");

        let bad = db.run(&["users", "list", "--since", "yesterday"]).await;
        assert_eq!(bad.status.code(), Some(2));
        assert!(stderr(&bad).contains("YYYY-MM-DD"), "{}", stderr(&bad));
    }
);

both!(
    async fn users_show_explains_the_account_on_one_screen(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let store = db.store().await;
        sign_in(&store, "cy@example.com").await;
        store
            .enqueue_mail(&NewMail {
                id: Uuid::now_v7(),
                to: "cy@example.com".into(),
                kind: "verification",
                subject: "Confirm your Closewise account".into(),
                text_body: "text".into(),
                html_body: "<p>html</p>".into(),
                link: None,
                created_at: now(),
            })
            .await
            .unwrap();

        let v = db.json(&["users", "show", "CY@example.com"]).await;
        assert_eq!(v["user"]["email"], "cy@example.com");
        assert!(v["user"]["email_confirmed_at"].is_string());
        assert_eq!(v["plan"]["plan_type"], "monthly");
        assert_eq!(v["subscription"]["status"], "active");
        assert_eq!(v["subscription"]["payment_method_last4"], "4242");
        assert_eq!(v["sessions"].as_array().unwrap().len(), 1);
        assert!(v["sessions"][0]["revoked_at"].is_null());
        assert_eq!(v["mails"][0]["kind"], "verification");
        assert_eq!(v["audit"][0]["action"], "user.seed");
        assert_eq!(v["audit"][0]["details"]["plan"], "monthly");

        let screen = db.ok(&["users", "show", "cy@example.com"]).await;
        for part in ["Account", "verified:", "monthly (active)", "visa ending 4242", "Renews:", "Sessions (1 active of 1)", "Last mails", "Audit trail", "user.seed"] {
            assert!(screen.contains(part), "{part:?} missing from:\n{screen}");
        }

        // A plan that disagrees with the subscription is pointed out.
        db.ok(&["plans", "set", "cy@example.com", "free", "--reason", "test", "--yes"]).await;
        let screen = db.ok(&["users", "show", "cy@example.com"]).await;
        assert!(screen.contains("subscriptions sync"), "{screen}");
    }
);

both!(
    async fn unknown_and_malformed_addresses_fail_with_a_hint(db: TestDb) from TestDb::new {
        let unknown = db.run(&["users", "show", "nobody@example.com"]).await;
        assert_eq!(unknown.status.code(), Some(1));
        assert!(stderr(&unknown).contains("closewise users list"), "{}", stderr(&unknown));
        let malformed = db.run(&["users", "show", "not-an-address"]).await;
        assert_eq!(malformed.status.code(), Some(2));
        assert!(stderr(&malformed).contains("name@example.com"), "{}", stderr(&malformed));
    }
);

both!(
    async fn verify_confirms_the_address_once_and_records_who_and_why(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let out = db.ok(&["users", "verify", "bo@example.com", "--reason", "ticket 12", "--yes"]).await;
        assert!(out.contains("now verified"), "{out}");
        let v = db.json(&["users", "show", "bo@example.com"]).await;
        assert!(v["user"]["email_confirmed_at"].is_string());
        assert_eq!(v["audit"][0]["action"], "user.verify");
        assert_eq!(v["audit"][0]["actor"], ACTOR);
        assert_eq!(v["audit"][0]["reason"], "ticket 12");

        let again = db.ok(&["users", "verify", "bo@example.com", "--actor", "someone-else"]).await;
        assert!(again.contains("already verified"), "{again}");
        let v = db.json(&["users", "show", "bo@example.com"]).await;
        assert_eq!(v["audit"].as_array().unwrap().len(), 2, "seed and one verify only");
    }
);

both!(
    async fn verify_after_sign_ups_that_disagreed_activates_neither_password(db: TestDb) from TestDb::new {
        // Two sign-ups of one unconfirmed address (closewise_domain::signup): the password on the
        // row may be the other person's, so the operator's confirmation must not make it usable.
        let db = db.seeded().await;
        db.execute("UPDATE users SET signup_passwords = 2 WHERE email = 'bo@example.com'").await;
        let store = db.store().await;
        let before = store.user_by_email("bo@example.com").await.unwrap().unwrap().password_hash;
        let out = db.ok(&["users", "verify", "bo@example.com", "--reason", "ticket 13", "--yes"]).await;
        assert!(out.contains("now verified"), "{out}");
        assert!(out.contains("Forgot password?"), "the operator is told how the user gets in: {out}");
        let after = store.user_by_email("bo@example.com").await.unwrap().unwrap().password_hash;
        assert_ne!(after, before, "the pending password is not the account's");
        assert!(after.starts_with("$argon2id$"), "a well-formed hash nobody knows: {after}");

        // One sign-up keeps its password, as before.
        db.execute("UPDATE users SET signup_passwords = 1, email_confirmed_at = NULL WHERE email = 'bo@example.com'").await;
        let before = store.user_by_email("bo@example.com").await.unwrap().unwrap().password_hash;
        let out = db.ok(&["users", "verify", "bo@example.com", "--reason", "ticket 14", "--yes"]).await;
        assert!(!out.contains("Forgot password?"), "{out}");
        let after = store.user_by_email("bo@example.com").await.unwrap().unwrap().password_hash;
        assert_eq!(after, before);
    }
);

both!(
    async fn sign_out_asks_first_then_ends_every_session(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let store = db.store().await;
        sign_in(&store, "ana@example.com").await;
        sign_in(&store, "ana@example.com").await;

        let refused = db.run_with_stdin(&["users", "sign-out", "ana@example.com"], "n\n").await;
        assert_eq!(refused.status.code(), Some(1));
        assert!(stderr(&refused).contains("--yes"), "{}", stderr(&refused));
        let ana = store.user_by_email("ana@example.com").await.unwrap().unwrap();
        assert!(store.sessions_of(ana.id).await.unwrap().iter().all(|s| s.revoked_at.is_none()));

        let out = db
            .ok(&["users", "sign-out", "ana@example.com", "-y", "--reason", "lost laptop", "--actor", "ops-ana"])
            .await;
        assert!(out.contains("2 session(s) ended"), "{out}");
        let sessions = store.sessions_of(ana.id).await.unwrap();
        assert!(sessions.iter().all(|s| s.revoked_at.is_some()));
        let audit = store.audit_of(Some(ana.id), &ana.email, 10).await.unwrap();
        assert_eq!(audit[0].action, "user.sign_out");
        assert_eq!(audit[0].actor, "ops-ana");
        assert_eq!(audit[0].reason.as_deref(), Some("lost laptop"));
        let details: serde_json::Value = serde_json::from_str(&audit[0].details).unwrap();
        assert_eq!(details["active_sessions"], 2);

        // Without a terminal nobody can answer: a piped "y" is refused too.
        sign_in(&store, "ana@example.com").await;
        let piped = db.run_with_stdin(&["users", "sign-out", "ana@example.com"], "y\n").await;
        assert_eq!(piped.status.code(), Some(1));
        assert!(stderr(&piped).contains("not a terminal"), "{}", stderr(&piped));
        assert!(store.sessions_of(ana.id).await.unwrap().iter().any(|s| s.revoked_at.is_none()));
    }
);

both!(
    async fn delete_asks_first_and_the_audit_trail_outlives_the_account(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let store = db.store().await;
        let refused = db.run(&["users", "delete", "bo@example.com"]).await;
        assert_eq!(refused.status.code(), Some(1));
        assert!(store.user_by_email("bo@example.com").await.unwrap().is_some());

        db.ok(&["users", "delete", "bo@example.com", "--yes", "--reason", "GDPR request"]).await;
        assert!(store.user_by_email("bo@example.com").await.unwrap().is_none());
        let audit = store.audit_of(None, "bo@example.com", 10).await.unwrap();
        assert_eq!(audit[0].action, "user.delete");
        assert_eq!(audit[0].reason.as_deref(), Some("GDPR request"));
        let gone = db.run(&["users", "show", "bo@example.com"]).await;
        assert_eq!(gone.status.code(), Some(1));
    }
);

both!(
    async fn an_account_with_a_live_subscription_is_kept_when_stripe_cannot_cancel_it(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let out = db
            .run(&["users", "delete", "cy@example.com", "--yes", "--stripe-api-base", "http://127.0.0.1:9", "--stripe-timeout-secs", "1"])
            .await;
        assert_eq!(out.status.code(), Some(1));
        assert!(stderr(&out).contains("the account was kept"), "{}", stderr(&out));
        let store = db.store().await;
        let cy = store.user_by_email("cy@example.com").await.unwrap().unwrap();
        let audit = store.audit_of(Some(cy.id), &cy.email, 10).await.unwrap();
        assert!(audit.iter().all(|a| a.action != "user.delete"));
    }
);

both!(
    async fn plans_set_changes_the_plan_with_a_reason_and_records_before_and_after(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        db.ok(&["plans", "set", "ana@example.com", "monthly", "--reason", "paid by invoice", "--yes"]).await;
        let v = db.json(&["plans", "show", "ana@example.com"]).await;
        assert_eq!(v["plan"]["plan_type"], "monthly");
        assert_eq!(v["plan"]["status"], "active");
        assert!(v["subscription"].is_null());
        let shown = db.json(&["users", "show", "ana@example.com"]).await;
        let entry = &shown["audit"][0];
        assert_eq!(entry["action"], "plan.set");
        assert_eq!(entry["reason"], "paid by invoice");
        assert_eq!(entry["details"]["before"], "free");
        assert_eq!(entry["details"]["after"], "monthly");

        let human = db.ok(&["plans", "show", "ana@example.com"]).await;
        assert!(human.contains("monthly (active)"), "{human}");

        let log = db.json(&["audit", "--limit", "1"]).await;
        assert_eq!(log.as_array().unwrap().len(), 1);
        assert_eq!(log[0]["action"], "plan.set");
        assert_eq!(log[0]["target_email"], "ana@example.com");
        let log = db.ok(&["audit"]).await;
        assert!(log.starts_with("WHEN") && log.contains("paid by invoice"), "{log}");

        let no_reason = db.run(&["plans", "set", "ana@example.com", "free", "--yes"]).await;
        assert_eq!(no_reason.status.code(), Some(2));
        let bad_plan = db.run(&["plans", "set", "ana@example.com", "pro", "--reason", "x", "--yes"]).await;
        assert_eq!(bad_plan.status.code(), Some(2));
        let v = db.json(&["plans", "show", "ana@example.com"]).await;
        assert_eq!(v["plan"]["plan_type"], "monthly", "refused commands change nothing");
    }
);
