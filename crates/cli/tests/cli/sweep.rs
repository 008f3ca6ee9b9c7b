//! `db sweep`: the API's sweep run once by an operator, confirmed and audited.

use closewise_core::clock::Clock;
use closewise_core::sessions::opaque_tokens::hash_token;
use closewise_core::store::oauth::NewDeviceCode;
use closewise_core::store::teams::sso::{NewSsoLogin, TeamSsoRow};
use closewise_core::store::Store;
use closewise_core::teams::Teams;
use closewise_testkit::both;
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

use crate::helpers::{stderr, TestDb};

async fn device_code(store: &Store, tag: &str, expires_at: OffsetDateTime) {
    store
        .insert_device_code(&NewDeviceCode {
            id: Uuid::now_v7(),
            device_code_hash: &hash_token(tag),
            user_code: &format!("{:0>8}", tag.to_uppercase()),
            client_id: "closewise-desktop",
            device_name: tag,
            platform: "test",
            interval_secs: 5,
            now: expires_at - Duration::minutes(10),
            expires_at,
            requested_ip: None,
        })
        .await
        .unwrap();
}

both!(
    async fn db_sweep_deletes_expired_requests_only_after_confirmation_and_audits_it(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let store = db.store().await;
        let now = OffsetDateTime::now_utc();
        device_code(&store, "old", now - Duration::hours(2)).await;
        device_code(&store, "live", now + Duration::minutes(10)).await;
        // A single sign-on attempt that can no longer finish goes too.
        let ana = store.user_by_email("ana@example.com").await.unwrap().unwrap();
        let team = Teams::new(store.clone(), Clock::System, closewise_core::mail::Composer::new("http://localhost"), closewise_core::limits::unlimited()).create(&closewise_core::actor::Actor::member(ana.id, ""), "Acme").await.unwrap();
        for (state, expires_at) in [("gone", now - Duration::minutes(1)), ("kept", now + Duration::minutes(9))] {
            let login = NewSsoLogin { state_hash: state, team_id: team.id, nonce: "n", pkce_verifier: "v",
                next_path: None, test: false, now: expires_at - Duration::minutes(10), expires_at, saml_email: None,
                setup_link_id: None };
            store.insert_sso_login(&login).await.unwrap();
        }

        let refused = db.run(&["db", "sweep"]).await;
        assert_eq!(refused.status.code(), Some(1), "{}", stderr(&refused));
        assert!(stderr(&refused).contains("--yes"), "{}", stderr(&refused));
        assert!(store.device_code_by_user_code("00000OLD").await.unwrap().is_some(), "nothing deleted");

        let out = db.ok(&["db", "sweep", "--yes", "--reason", "disk alert"]).await;
        assert!(out.contains("1 device request(s)"), "{out}");
        assert!(out.contains("1 single sign-on attempt(s)"), "{out}");
        assert!(store.device_code_by_user_code("00000OLD").await.unwrap().is_none());
        assert!(store.device_code_by_user_code("0000LIVE").await.unwrap().is_some());
        let audit = store.audit_log(5).await.unwrap();
        assert_eq!(audit[0].action, "db.sweep");
        assert_eq!(audit[0].actor, crate::helpers::ACTOR);
        assert_eq!(audit[0].reason.as_deref(), Some("disk alert"));
        let details: serde_json::Value = serde_json::from_str(&audit[0].details).unwrap();
        assert_eq!(details["deleted"]["device_codes"], 1, "{details}");
        assert_eq!(details["deleted"]["sso_logins"], 1, "{details}");
        store.close().await;
    }
);

both!(
    async fn db_sweep_mails_the_owner_once_about_an_expiring_saml_certificate_and_says_so(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let store = db.store().await;
        let now = OffsetDateTime::now_utc();
        let ana = store.user_by_email("ana@example.com").await.unwrap().unwrap();
        let team = Teams::new(store.clone(), Clock::System, closewise_core::mail::Composer::new("http://localhost"), closewise_core::limits::unlimited()).create(&closewise_core::actor::Actor::member(ana.id, ""), "Acme").await.unwrap();
        // The IdP's only certificate ended on January 1, 2021 (fixtures/saml).
        let pem = include_str!("../../../../fixtures/saml/expired-certificate.pem");
        let der_base64: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
        let row = TeamSsoRow {
            team_id: team.id, issuer: "https://idp.example.test/metadata".into(), client_id: String::new(),
            client_secret_sealed: String::new(), authorization_endpoint: "https://idp.example.test/sso".into(),
            token_endpoint: String::new(), jwks_uri: String::new(), userinfo_endpoint: None,
            email_claim: "email".into(), required: false, created_at: now, updated_at: now, protocol: "saml".into(),
            saml_certificates: Some(serde_json::json!([der_base64]).to_string()), saml_metadata_url: None,
            saml_email_attribute: None, saml_idp_initiated: false, saml_certificate_in_use: None,
            saml_metadata_checked_at: None,
        };
        let audit = closewise_core::actor::Actor::operator("test", None).audit("team.sso.save", None, None, serde_json::json!({ "team_id": team.id }), now);
        store.save_team_sso(&row, None, &audit).await.unwrap();

        let out = db.ok(&["db", "sweep", "--yes", "--reason", "certificates"]).await;
        assert!(out.contains("1 certificate expiry mail(s) to owners"), "{out}");
        let mails = store.list_mail(Some("ana@example.com"), Default::default(), 10).await.unwrap();
        let mail = mails.iter().find(|m| m.kind == "saml_certificate_expiring").expect("the owner is mailed");
        assert_eq!(mail.subject, "Acme: your identity provider's certificate expired on January 1, 2021");
        assert!(mail.text_body.contains("3A:80:72:BC:01:28:FA:AD"), "its fingerprint: {}", mail.text_body);
        let out = db.ok(&["db", "sweep", "--yes", "--reason", "again"]).await;
        assert!(out.contains("0 certificate expiry mail(s) to owners"), "once per certificate: {out}");
        store.close().await;
    }
);
