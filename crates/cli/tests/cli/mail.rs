//! `mail ...`: the outbox written by the API's store.

use closewise_core::store::{NewMail, Store};
use closewise_testkit::both;
use uuid::Uuid;

use crate::helpers::{now, stderr, TestDb, ACTOR};

async fn enqueue(store: &Store, to: &str) -> Uuid {
    let id = Uuid::now_v7();
    store
        .enqueue_mail(&NewMail {
            id,
            to: to.into(),
            kind: "verification",
            subject: "Confirm your Closewise account".into(),
            text_body: "Confirm: http://localhost:8080/verify?token=abc".into(),
            html_body: "<p>html</p>".into(),
            link: Some("http://localhost:8080/verify?token=abc".into()),
            created_at: now(),
        })
        .await
        .unwrap();
    id
}

both!(
    async fn mail_list_prints_the_outbox_as_json_for_one_address(db: TestDb) from TestDb::new {
        let store = db.store().await;
        for to in ["ana@example.com", "bo@example.com"] {
            enqueue(&store, to).await;
        }
        let mails = db.json(&["mail", "list", "--to", "ANA@example.com"]).await;
        assert_eq!(mails.as_array().unwrap().len(), 1);
        assert_eq!(mails[0]["to_email"], "ana@example.com");
        assert_eq!(mails[0]["link"], "http://localhost:8080/verify?token=abc");
        let table = db.ok(&["mail", "list"]).await;
        assert!(table.starts_with("ID") && table.contains("bo@example.com"), "{table}");
    }
);

both!(
    async fn a_failed_mail_is_shown_and_retried_with_an_audit_row(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let store = db.store().await;
        let id = enqueue(&store, "ana@example.com").await;
        store
            .mark_mail_attempt_failed(id, "550 mailbox unavailable", None, now())
            .await
            .unwrap();

        let failed = db.json(&["mail", "list", "--failed"]).await;
        assert_eq!(failed.as_array().unwrap().len(), 1);
        assert_eq!(failed[0]["id"], id.to_string());
        let shown = db.json(&["mail", "show", &id.to_string()]).await;
        assert_eq!(shown["last_error"], "550 mailbox unavailable");
        let human = db.ok(&["mail", "show", &id.to_string()]).await;
        assert!(human.contains("failed") && human.contains("550 mailbox unavailable"), "{human}");

        db.ok(&["mail", "retry", &id.to_string(), "--reason", "mailbox fixed", "--yes"]).await;
        let pending = db.json(&["mail", "list", "--pending"]).await;
        assert_eq!(pending[0]["id"], id.to_string());
        assert!(pending[0]["failed_at"].is_null());
        let ana = store.user_by_email("ana@example.com").await.unwrap().unwrap();
        let audit = store.audit_of(Some(ana.id), &ana.email, 10).await.unwrap();
        assert_eq!(audit[0].action, "mail.retry");
        assert_eq!(audit[0].reason.as_deref(), Some("mailbox fixed"));

        store.mark_mail_sent(id, now()).await.unwrap();
        let sent = db.run(&["mail", "retry", &id.to_string(), "--yes"]).await;
        assert_eq!(sent.status.code(), Some(1));
        assert!(stderr(&sent).contains("already delivered"), "{}", stderr(&sent));
        let unknown = db.run(&["mail", "show", &Uuid::now_v7().to_string()]).await;
        assert_eq!(unknown.status.code(), Some(1));
        assert!(stderr(&unknown).contains("closewise mail list"), "{}", stderr(&unknown));
        let malformed = db.run(&["mail", "show", "42"]).await;
        assert_eq!(malformed.status.code(), Some(2));
    }
);

both!(
    async fn mail_show_records_who_read_the_mail_since_it_holds_live_links(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let store = db.store().await;
        let id = enqueue(&store, "ana@example.com").await;
        let shown = db.ok(&["mail", "show", &id.to_string(), "--reason", "ticket 31"]).await;
        assert!(shown.contains("verify?token=abc"), "{shown}");
        let ana = store.user_by_email("ana@example.com").await.unwrap().unwrap();
        let trail = store.audit_of(Some(ana.id), &ana.email, 10).await.unwrap();
        assert_eq!(trail[0].action, "mail.show");
        assert_eq!(trail[0].actor, ACTOR);
        assert_eq!(trail[0].target_email.as_deref(), Some("ana@example.com"));
        assert_eq!(trail[0].reason.as_deref(), Some("ticket 31"));
        let details: serde_json::Value = serde_json::from_str(&trail[0].details).unwrap();
        assert_eq!(details["mail_id"], id.to_string());

        // As JSON too, and for an address with no account.
        let other = enqueue(&store, "nobody@example.com").await;
        db.json(&["mail", "show", &other.to_string()]).await;
        let trail = store.audit_of(None, "nobody@example.com", 10).await.unwrap();
        assert_eq!(trail.len(), 1);
        assert_eq!(trail[0].action, "mail.show");

        // Nobody to record on a production database: nothing is shown.
        let out = db.run_env(&["mail", "show", &id.to_string()], &[("APP_ENV", "production")]).await;
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
    }
);

#[test]
fn a_usage_error_exits_with_2() {
    let out = assert_cmd::Command::cargo_bin("closewise")
        .unwrap()
        .args(["mail", "list", "--pending", "--failed"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn every_command_has_help_with_an_example() {
    let commands: &[&[&str]] = &[
        &["users", "list"],
        &["users", "show"],
        &["users", "verify"],
        &["users", "sign-out"],
        &["users", "delete"],
        &["plans", "show"],
        &["plans", "set"],
        &["subscriptions", "sync"],
        &["mail", "list"],
        &["mail", "show"],
        &["mail", "retry"],
        &["webhooks", "list"],
        &["webhooks", "replay"],
        &["db", "migrate"],
        &["db", "seed"],
        &["stats"],
        &["audit"],
    ];
    for c in commands {
        let out = assert_cmd::Command::cargo_bin("closewise")
            .unwrap()
            .args(*c)
            .arg("--help")
            .output()
            .unwrap();
        assert!(out.status.success(), "{c:?}");
        let help = String::from_utf8(out.stdout).unwrap();
        assert!(
            help.contains("Example: closewise"),
            "{c:?} has no example:\n{help}"
        );
    }
}
