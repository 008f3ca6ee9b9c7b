//! `db seed` and `stats`.

use closewise_core::password::Hasher;
use closewise_testkit::both;

use crate::helpers::{fixture, stderr, TestDb};

both!(
    async fn seeding_creates_every_user_once_with_a_working_password(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let again = db.ok(&["db", "seed", &fixture("seed.json"), "--yes"]).await;
        assert!(again.contains("0 created, 5 already there"), "{again}");

        let store = db.store().await;
        let cy = store.user_by_email("cy@example.com").await.unwrap().unwrap();
        assert!(Hasher::new()
            .verify("correct horse battery", Some(&cy.password_hash))
            .await
            .unwrap());
        let sub = store.subscription_of(cy.id).await.unwrap().unwrap();
        assert_eq!(sub.status.as_str(), "active");
        assert_eq!(sub.payment_method_brand.as_deref(), Some("visa"));
        let di = store.user_by_email("di@example.com").await.unwrap().unwrap();
        assert_eq!(store.plan_of(di.id).await.unwrap().unwrap().plan_type.as_str(), "free");
        let audit = store.audit_of(Some(cy.id), &cy.email, 10).await.unwrap();
        assert_eq!(audit.len(), 1);
        assert_eq!(audit[0].action, "user.seed");
    }
);

both!(
    async fn a_bad_fixture_is_a_usage_error_and_writes_nothing(db: TestDb) from TestDb::new {
        let out = db.run(&["db", "seed", &fixture("bad-seed.json"), "--yes"]).await;
        assert_eq!(out.status.code(), Some(2));
        assert!(stderr(&out).contains("users[1]"), "{}", stderr(&out));
        let users = db.json(&["users", "list"]).await;
        assert!(users.as_array().unwrap().is_empty());
        let weak = db.run(&["db", "seed", &fixture("weak-password-seed.json"), "--yes"]).await;
        assert_eq!(weak.status.code(), Some(2));
        assert!(stderr(&weak).contains("users[1]"), "{}", stderr(&weak));
        assert!(db.json(&["users", "list"]).await.as_array().unwrap().is_empty());
        let missing = db.run(&["db", "seed", "/nonexistent/seed.json", "--yes"]).await;
        assert_eq!(missing.status.code(), Some(2));
    }
);

both!(
    async fn stats_count_sign_ups_conversion_revenue_and_churn(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let s = db.json(&["stats", "--days", "7"]).await;
        assert_eq!(s["days"], 7);
        assert_eq!(s["signups"], 5);
        assert_eq!(s["verified"], 4);
        assert_eq!(s["converted"], 2);
        assert_eq!(s["conversion_percent"], 40.0);
        assert_eq!(s["paid"], 2);
        assert_eq!(s["active_subscriptions"], 2);
        assert_eq!(s["mrr_cents"], 4000);
        assert_eq!(s["churned"], 1);
        assert_eq!(s["per_day"].as_array().unwrap().len(), 7);
        assert_eq!(s["per_day"][6]["signups"], 5);

        let human = db.ok(&["stats", "--days", "7"]).await;
        let today = s["per_day"][6]["day"].as_str().unwrap();
        let bar = format!("{today}    5 {}", "█".repeat(40));
        assert!(human.contains(&bar), "{bar:?} missing from:\n{human}");
        assert!(human.contains("$40.00"), "{human}");
        let zero = db.run(&["stats", "--days", "0"]).await;
        assert_eq!(zero.status.code(), Some(2));
    }
);

both!(
    async fn the_repository_fixture_loads_every_account_state(db: TestDb) from TestDb::new {
        let path = format!("{}/../../fixtures/seed.json", env!("CARGO_MANIFEST_DIR"));
        let out = db.ok(&["db", "seed", &path, "--yes"]).await;
        assert!(out.contains("4 created"), "{out}");
        assert_eq!(
            crate::helpers::emails(&db.json(&["users", "list", "--paid"]).await),
            ["cancelling@example.com", "paid@example.com"]
        );
        assert_eq!(
            crate::helpers::emails(&db.json(&["users", "list", "--unverified"]).await),
            ["unverified@example.com"]
        );
        let cancelling = db.json(&["plans", "show", "cancelling@example.com"]).await;
        assert_eq!(cancelling["subscription"]["cancel_at_period_end"], true);
        assert_eq!(cancelling["subscription"]["payment_method_last4"], "4444");
        let store = db.store().await;
        let paid = store.user_by_email("paid@example.com").await.unwrap().unwrap();
        assert!(Hasher::new()
            .verify("closewise-seed-1", Some(&paid.password_hash))
            .await
            .unwrap());
    }
);

both!(
    async fn seed_team_builds_the_bench_team_in_bulk_and_refuses_production(db: TestDb) from TestDb::new {
        let out = db
            .run(&[
                "db", "seed-team", "--members", "5", "--calls", "50", "--audit", "7", "--invites",
                "2", "--prefix", "t5", "--password", "Bench-password-42", "--json", "--yes",
            ])
            .await;
        assert!(out.status.success(), "{}", stderr(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["owner_email"], "t5-owner@bench.example.com");
        assert_eq!(v["member_email"], "t5-m1@bench.example.com");
        let team: uuid::Uuid = v["team_id"].as_str().unwrap().parse().unwrap();

        let store = db.store().await;
        let owner = store.user_by_email("t5-owner@bench.example.com").await.unwrap().unwrap();
        assert!(Hasher::new()
            .verify("Bench-password-42", Some(&owner.password_hash))
            .await
            .unwrap());
        let (members, invites) = store.team_headcount(team).await.unwrap();
        assert_eq!((members, invites), (5, 2));
        // The fixture's 7 rows and the seeding's own.
        let audit = store.team_audit(team, 100).await.unwrap();
        assert_eq!(audit.len(), 8);
        assert_eq!(audit[0].action, "team.seed");

        let again = db
            .run(&["db", "seed-team", "--members", "2", "--prefix", "t5", "--password", "Bench-password-42", "--yes"])
            .await;
        assert!(!again.status.success(), "a taken prefix is refused");
        let prod = db
            .run(&["db", "seed-team", "--members", "2", "--prefix", "p", "--password", "Bench-password-42", "--yes", "--env", "production"])
            .await;
        assert!(!prod.status.success());
        assert!(stderr(&prod).contains("refuses a production database"), "{}", stderr(&prod));
    }
);

both!(
    async fn stats_count_cancellations_by_reason(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let store = db.store().await;
        let cy = store.user_by_email("cy@example.com").await.unwrap().unwrap();
        let me = closewise_core::actor::Actor::member(cy.id, &cy.email);
        let now = time::OffsetDateTime::now_utc();
        for (action, reason) in [
            ("billing.cancel", Some("too_expensive")),
            ("billing.resume", None),
            ("billing.cancel", None),
        ] {
            let details = serde_json::json!({ "reason": reason });
            let audit = me.audit(action, Some(cy.id), None, details, now);
            store.record_audit(&audit).await.unwrap();
        }
        let s = db.json(&["stats", "--days", "7"]).await;
        let c = &s["cancellations"];
        assert_eq!((c["cancelled"].as_u64(), c["resumed"].as_u64()), (Some(2), Some(1)), "{c}");
        assert_eq!(c["reasons"][0]["reason"], "too_expensive");
        assert_eq!(c["reasons"][1]["label"], "No reason given");

        let human = db.ok(&["stats", "--days", "7"]).await;
        assert!(human.contains("Cancellations: 2 set to end, 1 resumed"), "{human}");
        assert!(human.contains("It costs too much"), "{human}");
    }
);
