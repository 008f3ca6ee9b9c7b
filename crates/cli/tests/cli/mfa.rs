//! `users mfa show|reset` (issue 24): the locked-out customer's second factor, shown and reset.

use closewise_core::mail::{Composer, Template};
use closewise_core::store::Store;
use uuid::Uuid;

use crate::helpers::{now, sign_in, stderr};

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
    async fn users_mfa_show_and_reset_for_a_locked_out_customer(db) {
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
