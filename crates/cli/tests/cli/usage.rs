//! `usage show` and `usage grant`.

use closewise_core::clock::Clock;
use closewise_core::usage::Usage;
use closewise_testkit::both;

use crate::helpers::{stderr, TestDb, ACTOR};

/// Ana (free) starts `n` calls through the service the API uses, and ends the first.
async fn calls(db: &crate::helpers::TestDb, email: &str, n: usize) {
    let store = db.store().await;
    let user = store.user_by_email(email).await.unwrap().unwrap();
    let usage = Usage::new(store.clone(), Clock::System);
    let mut first = None;
    for i in 0..n {
        let started = usage
            .start_call(user.id, None, &format!("cli-{i}"))
            .await
            .unwrap();
        first.get_or_insert(started.call.id);
    }
    if let Some(id) = first {
        usage.end_call(user.id, id).await.unwrap();
    }
    store.close().await;
}

both!(
    async fn usage_show_tells_the_plan_the_meter_the_grants_and_the_newest_calls(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        calls(&db, "ana@example.com", 2).await;
        let v = db.json(&["usage", "show", "ana@example.com"]).await;
        assert_eq!(v["email"], "ana@example.com");
        assert_eq!((v["plan_type"].as_str(), v["unlimited"].as_bool()), (Some("free"), Some(false)));
        assert_eq!(v["calls"], serde_json::json!({ "limit": 5, "used": 2, "remaining": 3 }));
        assert_eq!((v["calls_this_month"].as_i64(), v["granted"].as_i64()), (Some(2), Some(0)));
        assert_eq!(v["max_call_seconds"], 300);
        let recent = v["recent_calls"].as_array().unwrap();
        assert_eq!(recent.len(), 2);
        assert_eq!(recent.iter().filter(|c| c["ended_reason"] == "ended").count(), 1);
        assert!(recent.iter().all(|c| c["free"] == true));

        let screen = db.ok(&["usage", "show", "ana@example.com"]).await;
        for part in ["Usage of ana@example.com", "2 used of 5 (3 left)", "Grants", "Recent calls", "cli-1", "going"] {
            assert!(screen.contains(part), "{part:?} missing from:\n{screen}");
        }

        let paid = db.json(&["usage", "show", "cy@example.com"]).await;
        assert_eq!((paid["plan_type"].as_str(), paid["unlimited"].as_bool()), (Some("monthly"), Some(true)));
        assert!(paid["calls"].is_null() && paid["max_call_seconds"].is_null());
        assert!(db.ok(&["usage", "show", "cy@example.com"]).await.contains("not metered"));
    }
);

both!(
    async fn usage_grant_raises_the_limit_and_records_who_and_why(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        calls(&db, "ana@example.com", 5).await;
        let out = db
            .ok(&["usage", "grant", "ana@example.com", "--calls", "3", "--reason", "ticket 9: dropped calls", "--yes"])
            .await;
        assert!(out.contains("the limit is 8 (was 5), 3 left"), "{out}");

        let v = db.json(&["usage", "show", "ana@example.com"]).await;
        assert_eq!(v["calls"], serde_json::json!({ "limit": 8, "used": 5, "remaining": 3 }));
        assert_eq!(v["granted"], 3);
        assert_eq!(v["grants"][0]["actor"], ACTOR);
        assert_eq!(v["grants"][0]["reason"], "ticket 9: dropped calls");

        let account = db.json(&["users", "show", "ana@example.com"]).await;
        assert_eq!(account["audit"][0]["action"], "usage.grant");
        assert_eq!(account["audit"][0]["actor"], ACTOR);
        assert_eq!(account["audit"][0]["reason"], "ticket 9: dropped calls");
        assert_eq!(account["audit"][0]["details"]["calls"], 3);
    }
);

both!(
    async fn usage_grant_asks_first_and_refuses_nonsense(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let unconfirmed = db
            .run(&["usage", "grant", "ana@example.com", "--calls", "2", "--reason", "r"])
            .await;
        assert_eq!(unconfirmed.status.code(), Some(1));
        assert!(stderr(&unconfirmed).contains("--yes"), "{}", stderr(&unconfirmed));

        for bad in [
            vec!["usage", "grant", "ana@example.com", "--calls", "0", "--reason", "r", "--yes"],
            vec!["usage", "grant", "ana@example.com", "--calls", "1001", "--reason", "r", "--yes"],
            vec!["usage", "grant", "ana@example.com", "--calls", "2", "--yes"],
            vec!["usage", "grant", "ana@example.com", "--calls", "2", "--reason", " ", "--yes"],
        ] {
            let out = db.run(&bad).await;
            assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", stderr(&out));
        }
        let v = db.json(&["usage", "show", "ana@example.com"]).await;
        assert_eq!(v["calls"]["limit"], 5, "nothing was granted");
        assert!(v["grants"].as_array().unwrap().is_empty());
    }
);
