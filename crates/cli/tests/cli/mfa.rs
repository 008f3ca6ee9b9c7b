//! `users mfa show|reset`: the locked-out customer's second factor, shown and reset.

use closewise_core::mail::{Composer, Template};
use closewise_core::store::Store;
use closewise_testkit::both;
use uuid::Uuid;

use crate::helpers::{now, sign_in, stderr, TestDb};

/// Gives `email` a confirmed app (the secret's content does not matter here), 10 recovery codes
/// and a live session.
async fn enrol(store: &Store, email: &str) -> Uuid {
    let user = store.user_by_email(email).await.unwrap().unwrap();
    assert!(store
        .put_pending_totp(user.id, "sealed", now())
        .await
        .unwrap());
    let hashes: Vec<String> = (0..10).map(|i| format!("hash-{i}")).collect();
    let mail = Composer::new("http://localhost:8080").compose(
        email,
        Template::MfaFactorAdded {
            factor: "An authenticator app".into(),
        },
        now(),
    );
    assert!(store
        .confirm_totp(user.id, 1, &hashes, &mail, now())
        .await
        .unwrap());
    sign_in(store, email).await
}

both!(
    async fn users_mfa_show_and_reset_for_a_locked_out_customer(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let store = db.store().await;
        let v = db.json(&["users", "mfa", "show", "ana@example.com"]).await;
        assert_eq!((v["totp"].as_bool(), v["recovery_codes_remaining"].as_u64()), (Some(false), Some(0)), "{v}");
        let out = db.ok(&["users", "mfa", "reset", "ana@example.com", "--reason", "ticket #1", "-y"]).await;
        assert!(out.contains("nothing changed"), "{out}");

        let ana = enrol(&store, "ana@example.com").await;
        let v = db.json(&["users", "mfa", "show", "ana@example.com"]).await;
        assert_eq!((v["totp"].as_bool(), v["recovery_codes_remaining"].as_u64()), (Some(true), Some(10)), "{v}");
        assert!(v["totp_confirmed_at"].is_string());
        assert!(db.ok(&["users", "mfa", "show", "ana@example.com"]).await.contains("10 unused"));

        // Refused at the question: nothing changes.
        let refused = db.run_with_stdin(&["users", "mfa", "reset", "ana@example.com", "--reason", "ticket #77"], "n\n").await;
        assert!(!refused.status.success(), "{}", stderr(&refused));
        assert!(store.mfa_factors(ana).await.unwrap().totp);

        let out = db.ok(&["users", "mfa", "reset", "ana@example.com", "--reason", "ticket #77: lost phone and codes", "-y"]).await;
        assert!(out.contains("removed"), "{out}");
        let f = store.mfa_factors(ana).await.unwrap();
        assert!(!f.totp && f.recovery_codes == 0, "{f:?}");
        assert!(store.sessions_of(ana).await.unwrap().iter().all(|s| s.revoked_at.is_some()));
        let mails = store.list_mail(Some("ana@example.com"), Default::default(), 10).await.unwrap();
        let notice = mails.iter().find(|m| m.kind == "mfa_factor_removed").expect("the user is mailed");
        assert!(notice.text_body.contains("support removed an authenticator app"), "{}", notice.text_body);
        let audit = store.audit_of(Some(ana), "ana@example.com", 10).await.unwrap();
        assert!(audit.iter().any(|a| a.action == "user.mfa_reset" && a.reason.as_deref() == Some("ticket #77: lost phone and codes")), "{audit:?}");

        let unknown = db.run(&["users", "mfa", "show", "nobody@example.com"]).await;
        assert!(!unknown.status.success());
    }
);

/// Gives `email` a passkey named `name` (its key's content does not matter here).
async fn add_passkey(store: &Store, email: &str, name: &str) {
    let user = store.user_by_email(email).await.unwrap().unwrap();
    let row = closewise_core::store::passkeys::PasskeyRow {
        id: Uuid::now_v7(),
        user_id: user.id,
        credential_id: format!("cred-{name}"),
        name: name.into(),
        public_key: "key".into(),
        sign_count: 0,
        created_at: now(),
        last_used_at: None,
    };
    let mail = Composer::new("http://localhost:8080").compose(
        email,
        Template::PasskeyAdded {
            name: name.into(),
            link: "http://localhost:8080/settings#security".into(),
        },
        now(),
    );
    assert!(store.insert_passkey(&row, &mail).await.unwrap());
}

both!(
    async fn users_mfa_reset_removes_the_passkeys_too_unless_told_to_keep_them(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let store = db.store().await;

        // An app and two passkeys: all go, and the output says so.
        let ana = enrol(&store, "ana@example.com").await;
        add_passkey(&store, "ana@example.com", "Phone").await;
        add_passkey(&store, "ana@example.com", "Laptop").await;
        let out = db.ok(&["users", "mfa", "reset", "ana@example.com", "--reason", "ticket #78", "-y"]).await;
        assert!(out.contains("2 passkey(s)"), "{out}");
        let f = store.mfa_factors(ana).await.unwrap();
        assert_eq!((f.totp, f.recovery_codes, f.passkeys), (false, 0, 0), "{f:?}");
        let audit = store.audit_of(Some(ana), "ana@example.com", 10).await.unwrap();
        let row = audit.iter().find(|a| a.action == "user.mfa_reset").expect("audited");
        assert!(row.details.contains("\"passkeys\":2"), "{}", row.details);

        // Passkeys alone (no app) are a second factor too: the reset removes them.
        let bo = store.user_by_email("bo@example.com").await.unwrap().unwrap().id;
        add_passkey(&store, "bo@example.com", "Key").await;
        let session = sign_in(&store, "bo@example.com").await;
        let out = db.ok(&["users", "mfa", "reset", "bo@example.com", "--reason", "ticket #79", "-y"]).await;
        assert!(out.contains("1 passkey(s)"), "{out}");
        assert_eq!(store.mfa_factors(bo).await.unwrap().passkeys, 0);
        let sessions = store.sessions_of(bo).await.unwrap();
        assert!(sessions.iter().filter(|s| s.id == session).all(|s| s.revoked_at.is_some()));
        let mails = store.list_mail(Some("bo@example.com"), Default::default(), 10).await.unwrap();
        let notice = mails.iter().find(|m| m.kind == "mfa_factor_removed").expect("the user is mailed");
        assert!(notice.text_body.contains("passkey"), "{}", notice.text_body);

        // --keep-passkeys: the app goes, the passkeys stay, and the output says they stayed.
        let cy = enrol(&store, "cy@example.com").await;
        add_passkey(&store, "cy@example.com", "Key").await;
        let out = db.ok(&["users", "mfa", "reset", "cy@example.com", "--keep-passkeys", "--reason", "ticket #80", "-y"]).await;
        assert!(out.contains("1 passkey(s) kept"), "{out}");
        let f = store.mfa_factors(cy).await.unwrap();
        assert_eq!((f.totp, f.passkeys), (false, 1), "{f:?}");
    }
);
