//! Commands whose audit row lands in the change's transaction, on both databases: an operator's
//! (here) and the team's directory's (`scim`). The trail shows the change exactly when it
//! happened. The audit table is moved away to make the row's write fail: the change goes with it.

use closewise_core::actor::Actor;
use closewise_core::app::{ServiceSettings, Services};
use closewise_core::billing::{StripeClient, StripeConnection};
use closewise_core::mail::{Composer, Template};
use closewise_core::store::fixture::TeamFixture;
use closewise_domain::email::Email;
use closewise_domain::password::Password;
use closewise_testkit::services::core_fixture;
use closewise_testkit::{both, execute, scalar, Backend, TempDir};

mod scim;
mod setup_links;

struct Fx {
    app: Services,
    url: String,
    _dir: TempDir,
}

async fn fixture(backend: Backend) -> Fx {
    let core = core_fixture(backend, "audited").await;
    let stripe = StripeClient::new(&StripeConnection {
        api_base: "http://127.0.0.1:9".into(),
        secret_key: "sk_test_unused".to_owned().into(),
        timeout: std::time::Duration::from_millis(200),
    })
    .unwrap();
    let mut settings = ServiceSettings::offline("http://127.0.0.1:8080", stripe, core.clock);
    settings.hasher = closewise_core::password::Hasher::fast_for_tests();
    Fx {
        app: Services::new(core.store, settings),
        url: core.url,
        _dir: core.dir,
    }
}

fn ops() -> Actor {
    Actor::operator("ops", Some("ticket 1".into()))
}

async fn trail(f: &Fx, action: &str) -> i64 {
    let sql = format!("SELECT COUNT(*) FROM audit_log WHERE action = '{action}'");
    scalar(&f.url, &sql).await
}

/// Makes every audit row's write fail until `restore`.
async fn break_audit(f: &Fx) {
    execute(&f.url, "ALTER TABLE audit_log RENAME TO audit_log_away").await;
}

async fn restore(f: &Fx) {
    execute(&f.url, "ALTER TABLE audit_log_away RENAME TO audit_log").await;
}

both!(
    async fn an_mfa_reset_is_recorded_exactly_when_it_removes_the_factors(backend: Backend) {
        let f = fixture(backend).await;
        let (email, password) = (
            Email::parse("ana@example.com").unwrap(),
            Password::parse("correct horse battery").unwrap(),
        );
        f.app
            .accounts
            .sign_up(&email, &password, None)
            .await
            .unwrap();
        let ana = f
            .app
            .accounts
            .find("ana@example.com")
            .await
            .unwrap()
            .unwrap();
        let store = &f.app.store;
        let now = f.app.clock.now();
        assert!(store.put_pending_totp(ana.id, "sealed", now).await.unwrap());
        let hashes: Vec<String> = (0..10).map(|i| format!("hash-{i}")).collect();
        let added = Composer::new("http://127.0.0.1:8080").compose(
            "ana@example.com",
            Template::MfaFactorAdded {
                factor: "An authenticator app".into(),
            },
            now,
        );
        assert!(store
            .confirm_totp(ana.id, 1, &hashes, &added, now)
            .await
            .unwrap());
        let notices = "SELECT COUNT(*) FROM mail_outbox WHERE kind = 'mfa_factor_removed'";

        break_audit(&f).await;
        let failed = f
            .app
            .mfa
            .reset_by_operator(&ops(), ana.id, &ana.email, false)
            .await;
        assert!(failed.is_err(), "the audit row could not be written");
        restore(&f).await;
        let factors = store.mfa_factors(ana.id).await.unwrap();
        assert!(
            factors.totp && factors.recovery_codes == 10,
            "nothing removed: {factors:?}"
        );
        assert_eq!(scalar(&f.url, notices).await, 0, "nor mailed");
        assert_eq!(trail(&f, "user.mfa_reset").await, 0);

        let done = f
            .app
            .mfa
            .reset_by_operator(&ops(), ana.id, &ana.email, false)
            .await
            .unwrap();
        assert!(done.app);
        assert!(!store.mfa_factors(ana.id).await.unwrap().totp);
        assert_eq!(scalar(&f.url, notices).await, 1);
        assert_eq!(trail(&f, "user.mfa_reset").await, 1);
    }
);

both!(
    async fn a_seeded_team_is_recorded_exactly_when_it_is_built(backend: Backend) {
        let f = fixture(backend).await;
        let team = |prefix: &str| TeamFixture {
            prefix: prefix.into(),
            domain: "seed.example".into(),
            members: 3,
            calls: 5,
            audit: 0,
            invites: 1,
            password_hash: String::new(),
            now: f.app.clock.now(),
        };

        break_audit(&f).await;
        let failed = f
            .app
            .seeding
            .seed_team(&ops(), team("a"), "correct horse battery")
            .await;
        assert!(failed.is_err(), "the audit row could not be written");
        restore(&f).await;
        assert_eq!(
            scalar(&f.url, "SELECT COUNT(*) FROM teams").await,
            0,
            "no team built"
        );
        assert_eq!(scalar(&f.url, "SELECT COUNT(*) FROM users").await, 0);

        let seeded = f
            .app
            .seeding
            .seed_team(&ops(), team("a"), "correct horse battery")
            .await
            .unwrap();
        assert_eq!(scalar(&f.url, "SELECT COUNT(*) FROM teams").await, 1);
        assert_eq!(trail(&f, "team.seed").await, 1);
        let taken = f
            .app
            .seeding
            .seed_team(&ops(), team("a"), "correct horse battery")
            .await;
        assert!(taken.is_err(), "the prefix is taken");
        assert_eq!(
            trail(&f, "team.seed").await,
            1,
            "the refusal recorded nothing"
        );
        assert_eq!(seeded.owner_email, "a-owner@seed.example");
    }
);
