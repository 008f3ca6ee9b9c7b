//! The composition root on both databases: every service built once from the settings over one
//! store, and the operators' commands through it, each writing its own audit row.

use closewise_core::actor::Actor;
use closewise_core::app::{ServiceSettings, Services};
use closewise_core::billing::{StripeClient, StripeConnection};
use closewise_core::store::mail::MailFilter;
use closewise_domain::email::Email;
use closewise_domain::password::Password;
use closewise_testkit::services::core_fixture;
use closewise_testkit::{both, Backend, TempDir};

async fn root(backend: Backend) -> (Services, TempDir) {
    let core = core_fixture(backend, "composition_root").await;
    let stripe = StripeClient::new(&StripeConnection {
        api_base: "http://127.0.0.1:9".into(),
        secret_key: "sk_test_unused".to_owned().into(),
        timeout: std::time::Duration::from_millis(200),
    })
    .unwrap();
    let mut settings = ServiceSettings::offline("http://127.0.0.1:8080", stripe, core.clock);
    settings.hasher = closewise_core::password::Hasher::fast_for_tests();
    (Services::new(core.store, settings), core.dir)
}

fn ops() -> Actor {
    Actor::operator("ops", Some("ticket 1".into()))
}

async fn signed_up(app: &Services, address: &str) -> closewise_core::store::UserRow {
    let (email, password) = (
        Email::parse(address).unwrap(),
        Password::parse("correct horse battery").unwrap(),
    );
    app.accounts.sign_up(&email, &password, None).await.unwrap();
    app.accounts
        .find(address)
        .await
        .unwrap()
        .expect("signed up")
}

both!(
    async fn operators_changes_go_through_the_services_and_are_audited((app, _dir): (Services, TempDir)) from root {
        let ana = signed_up(&app, "ana@example.com").await;
        let mails = app
            .outbox
            .list(Some("ana@example.com"), MailFilter::All, 10)
            .await
            .unwrap();
        assert_eq!(
            mails.len(),
            1,
            "the sign-up's verification, composed with the root's base URL"
        );
        assert!(
            mails[0].text_body.contains("http://127.0.0.1:8080"),
            "{}",
            mails[0].text_body
        );

        assert!(app
            .accounts
            .verify_by_operator(&ops(), &ana)
            .await
            .unwrap()
            .is_some());
        assert!(
            app.accounts
                .verify_by_operator(&ops(), &ana)
                .await
                .unwrap()
                .is_none(),
            "already"
        );
        let before = app
            .accounts
            .set_plan_by_operator(&ops(), &ana, "monthly")
            .await
            .unwrap();
        assert_eq!(
            before.as_deref(),
            Some("free"),
            "sign-up gave it the free plan"
        );
        app.usage
            .grant(&ops(), (ana.id, &ana.email), 2)
            .await
            .unwrap();

        let trail = app.ops.audit_log(10).await.unwrap();
        let actions: Vec<&str> = trail.iter().map(|r| r.action.as_str()).collect();
        assert_eq!(actions, ["usage.grant", "plan.set", "user.verify"]);
        assert!(trail
            .iter()
            .all(|r| r.actor == "ops" && r.reason.as_deref() == Some("ticket 1")));
        assert_eq!(app.accounts.explain(&ana).await.unwrap().audit.len(), 3);
    }
);

both!(
    async fn an_mfa_reset_with_nothing_to_remove_changes_and_records_nothing((app, _dir): (Services, TempDir)) from root {
        let ana = signed_up(&app, "ana@example.com").await;
        let view = app.mfa.operator_view(ana.id).await.unwrap();
        assert!(!view.removable(false));
        let done = app
            .mfa
            .reset_by_operator(&ops(), ana.id, &ana.email, false)
            .await
            .unwrap();
        assert!(!done.any(), "nothing to remove");
        assert!(app.ops.audit_log(10).await.unwrap().is_empty());
    }
);

both!(
    async fn a_sweep_by_hand_is_recorded_with_what_it_deleted((app, _dir): (Services, TempDir)) from root {
        let report = app.ops.sweep(&ops()).await.unwrap();
        let trail = app.ops.audit_log(10).await.unwrap();
        assert_eq!(trail.len(), 1);
        assert_eq!(trail[0].action, "db.sweep");
        let details: serde_json::Value = serde_json::from_str(&trail[0].details).unwrap();
        assert_eq!(details["deleted"]["device_codes"], report.deleted.device_codes);
        assert_eq!(details["saml"]["certificate_mails"], 0, "no SAML connection: {details}");
    }
);
