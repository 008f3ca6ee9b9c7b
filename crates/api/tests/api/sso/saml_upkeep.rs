//! What the sweeper keeps up of a SAML connection (the upkeep `closewise db sweep` and the
//! server's sweeper run), against the real IdP (samlify, `idp::SamlIdp`): the owner mailed once,
//! 30 days before the certificate in use expires, about that certificate only; metadata from a URL
//! read again daily, a new certificate taken, a failed read keeping the connection as it was.

use reqwest::StatusCode;
use serde_json::{json, Value};
use time::Duration;

use super::idp::{Browser, SamlIdp};
use super::{owner_with_domain, save, start, DOMAIN};
use crate::both;
use crate::helpers::*;
use crate::team::User;

const CERTIFICATE_MAIL: &str = "saml_certificate_expiring";

async fn team_id(app: &TestApp, owner: &User) -> uuid::Uuid {
    app.state
        .store
        .membership_of(owner.id)
        .await
        .unwrap()
        .unwrap()
        .0
}

async fn connect(app: &TestApp, owner: &User, metadata_url: &str) -> Value {
    let body = json!({ "protocol": "saml", "metadata_url": metadata_url, "required": false });
    let (s, v) = save(app, owner, body).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v
}

/// What `GET /api/team/sso` shows the owner, read through the same core call (the owner's access
/// token has expired by the days the tests move the clock on).
async fn shown(app: &TestApp, owner: &User) -> Value {
    let owner = closewise_core::actor::Actor::member(owner.id, format!("owner@{DOMAIN}"));
    let v = app.state.sso.show(&owner, None).await.unwrap();
    let certificates: Vec<Value> = v
        .saml
        .iter()
        .flat_map(|s| &s.certificates)
        .map(|c| json!({ "subject": c.subject, "fingerprint": c.fingerprint }))
        .collect();
    json!({ "configured": v.configured, "protocol": v.protocol.as_str(), "saml": { "certificates": certificates } })
}

/// The fingerprints of the connection's certificates whose subject names `name`.
fn fingerprints(sso: &Value, name: &str) -> Vec<String> {
    sso["saml"]["certificates"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["subject"].as_str().unwrap().contains(name))
        .map(|c| c["fingerprint"].as_str().unwrap().to_string())
        .collect()
}

/// The certificate mails to the owner (`owner_with_domain`'s).
async fn certificate_mails(app: &TestApp) -> Vec<closewise_core::store::MailRow> {
    let mails = app.mails_to(&format!("owner@{DOMAIN}")).await;
    mails
        .into_iter()
        .filter(|m| m.kind == CERTIFICATE_MAIL)
        .collect()
}

async fn audit_actions(app: &TestApp) -> Vec<(String, Value)> {
    let trail = app.state.store.audit_log(50).await.unwrap();
    trail
        .into_iter()
        .map(|a| (a.action, serde_json::from_str(&a.details).unwrap()))
        .collect()
}

both!(
    async fn the_owner_is_mailed_once_thirty_days_before_the_certificate_in_use_expires(app) {
        let owner = owner_with_domain(&app, 3).await;
        let team = team_id(&app, &owner).await;
        let ana = format!("ana@{DOMAIN}");
        let idp = SamlIdp::start_with(&app, team, json!({ ana.clone(): {} }), json!({ "cert_days": 60 })).await;
        // A rotation underway: another key's certificate first, the one the IdP signs with second.
        let sso = connect(&app, &owner, &idp.metadata_url(Some("both"))).await;
        let (real, other) = (fingerprints(&sso, "Closewise test IdP"), fingerprints(&sso, "Another IdP"));
        assert_eq!((real.len(), other.len()), (1, 1), "{sso}");
        let browser = Browser::new();
        assert_eq!(browser.saml_sign_in(&app, &start(&app, &ana, "/team"), |u| u).await, "/team");

        let report = app.state.sweeper.saml_upkeep(app.state.clock.now()).await.unwrap();
        assert_eq!(report.certificate_mails, 0, "60 days before: {report:?}");
        app.advance(Duration::days(29));
        assert_eq!(app.state.sweeper.saml_upkeep(app.state.clock.now()).await.unwrap().certificate_mails, 0, "31 days before");
        app.advance(Duration::days(2));
        let report = app.state.sweeper.saml_upkeep(app.state.clock.now()).await.unwrap();
        assert_eq!(report.certificate_mails, 1, "29 days before: {report:?}");
        let mails = certificate_mails(&app).await;
        assert_eq!(mails.len(), 1);
        assert!(mails[0].subject.starts_with("Acme Sales: your identity provider's certificate expires on "), "{}", mails[0].subject);
        assert!(mails[0].text_body.contains(&real[0]), "the certificate in use: {}", mails[0].text_body);
        assert!(!mails[0].text_body.contains(&other[0]), "not the one that signs nothing: {}", mails[0].text_body);
        assert!(mails[0].text_body.contains("http://127.0.0.1:8080/team#sso-title"), "{}", mails[0].text_body);

        app.advance(Duration::days(1));
        assert_eq!(app.state.sweeper.saml_upkeep(app.state.clock.now()).await.unwrap().certificate_mails, 0, "once per certificate");
        assert_eq!(certificate_mails(&app).await.len(), 1);
    }
);

both!(
    async fn before_any_sign_in_each_configured_certificate_counts_as_in_use_and_the_sweep_by_hand_runs_it(app) {
        let owner = owner_with_domain(&app, 3).await;
        let team = team_id(&app, &owner).await;
        let idp = SamlIdp::start(&app, team, json!({ format!("ana@{DOMAIN}"): {} })).await;
        connect(&app, &owner, &idp.metadata_url(Some("both"))).await;
        // A day on, both 30-day certificates end within 30 days.
        app.advance(Duration::days(1));
        let run = app.state.ops.sweep(&closewise_core::actor::Actor::operator("ops", Some("test".into()))).await.unwrap();
        assert_eq!(run.saml.certificate_mails, 2, "30-day certificates, neither known to sign: {:?}", run.saml);
        assert_eq!(certificate_mails(&app).await.len(), 2);
        let (action, details) = audit_actions(&app).await.into_iter().find(|(a, _)| a == "db.sweep").unwrap();
        assert_eq!((action.as_str(), &details["saml"]["certificate_mails"]), ("db.sweep", &json!(2)), "{details}");
        let run = app.state.ops.sweep(&closewise_core::actor::Actor::operator("ops", None)).await.unwrap();
        assert_eq!(run.saml.certificate_mails, 0);
    }
);

both!(
    async fn metadata_from_a_url_is_read_again_daily_and_a_failed_read_keeps_the_connection(app) {
        let owner = owner_with_domain(&app, 3).await;
        let team = team_id(&app, &owner).await;
        let idp = SamlIdp::start_with(&app, team, json!({ format!("ana@{DOMAIN}"): {} }), json!({ "cert_days": 365 })).await;
        let sso = connect(&app, &owner, &idp.metadata_url(None)).await;
        let real = fingerprints(&sso, "Closewise test IdP");
        let upkeep = || async { app.state.sweeper.saml_upkeep(app.state.clock.now()).await.unwrap() };

        // The IdP publishes its next certificate beside the current one.
        idp.control("cert=both").await;
        assert_eq!(upkeep().await.metadata_read, 0, "read on save, not again the same day");
        app.advance(Duration::days(1));
        let report = upkeep().await;
        assert_eq!((report.metadata_read, report.metadata_changed, report.metadata_failed), (1, 1, 0), "{report:?}");
        let sso = shown(&app, &owner).await;
        assert_eq!(sso["saml"]["certificates"].as_array().unwrap().len(), 2, "{sso}");
        let other = fingerprints(&sso, "Another IdP");
        let trail = audit_actions(&app).await;
        let (_, refresh) = trail.iter().find(|(a, _)| a == "team.sso.metadata_refresh").expect("audited");
        assert_eq!(refresh["team_id"], team.to_string());
        assert_eq!(refresh["certificates_before"], json!(real), "{refresh}");
        assert_eq!(upkeep().await.metadata_read, 0, "once a day");

        // Unreachable for a day: the connection is kept, the failure logged and audited.
        idp.control("fail=1").await;
        app.advance(Duration::days(1));
        let report = upkeep().await;
        assert_eq!((report.metadata_read, report.metadata_changed, report.metadata_failed), (1, 0, 1), "{report:?}");
        let kept = shown(&app, &owner).await;
        assert_eq!((kept["configured"].as_bool(), kept["protocol"].as_str()), (Some(true), Some("saml")), "{kept}");
        assert_eq!(kept["saml"]["certificates"], sso["saml"]["certificates"], "{kept}");
        let trail = audit_actions(&app).await;
        let (_, failed) = trail.iter().find(|(a, _)| a == "team.sso.metadata_failed").expect("audited");
        assert_eq!((failed["team_id"].as_str(), failed["code"].as_str()), (Some(team.to_string().as_str()), Some("invalid_saml_metadata")), "{failed}");

        // Back, the rotation over: only the new certificate is trusted.
        idp.control("fail=0&cert=other").await;
        app.advance(Duration::days(1));
        assert_eq!(upkeep().await.metadata_changed, 1);
        let after = shown(&app, &owner).await;
        assert_eq!(fingerprints(&after, "Closewise test IdP"), Vec::<String>::new(), "{after}");
        assert_eq!(fingerprints(&after, "Another IdP"), other, "{after}");
        app.advance(Duration::days(1));
        let report = upkeep().await;
        assert_eq!((report.metadata_read, report.metadata_changed), (1, 0), "read alike: {report:?}");
    }
);
