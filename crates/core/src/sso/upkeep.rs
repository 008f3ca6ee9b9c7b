//! What the sweeper keeps up of the teams' SAML connections (docs/teams.md "Single sign-on"), run
//! after each sweep and by `closewise db sweep`:
//! - metadata given as a URL is read again daily (`closewise_domain::sso::metadata_refresh_due`):
//!   a change (a new certificate, a rotation's end) replaces what the connection trusts, audited
//!   `team.sso.metadata_refresh`; a failed read or unusable metadata keeps the connection as it
//!   was, logged and audited `team.sso.metadata_failed`, and is tried again the next day;
//! - the owner is mailed once per certificate from 30 days before the certificate in use expires
//!   (`closewise_domain::sso::certificates_in_use`, `certificate_expiry_due`).

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use closewise_domain::dunning::day_label;
use closewise_domain::sso::{certificate_expiry_due, certificates_in_use, metadata_refresh_due};
use serde_json::json;
use time::OffsetDateTime;

use super::connection::fingerprints;
use super::saml::{self, IdpMetadata};
use super::saml_login::certificates_of;
use super::{Sso, SsoError};
use crate::actor::Actor;
use crate::mail::Template;
use crate::store::teams::sso::{RefreshedMetadata, TeamSsoRow};

/// How the audit trail names the job.
pub const UPKEEP_ACTOR: Actor = Actor::System { job: "closewise" };

/// What one upkeep did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct SamlUpkeepReport {
    /// Metadata URLs read again.
    pub metadata_read: u32,
    /// Of those, the ones whose metadata changed (and was taken).
    pub metadata_changed: u32,
    /// Of those, the ones that could not be read or used (the connection kept as it was).
    pub metadata_failed: u32,
    /// Owners mailed about a certificate's coming expiry.
    pub certificate_mails: u32,
}

impl Sso {
    /// Reads again the metadata URLs due, then mails the owners whose certificate in use expires
    /// within 30 days and who were not mailed about it yet.
    pub async fn saml_upkeep(&self, now: OffsetDateTime) -> Result<SamlUpkeepReport, SsoError> {
        let mut report = SamlUpkeepReport::default();
        for row in self.store.saml_connections().await? {
            if row.saml_metadata_url.is_some()
                && metadata_refresh_due(row.saml_metadata_checked_at, now)
            {
                report.metadata_read += 1;
                match self.read_metadata_again(&row, now).await? {
                    Some(true) => report.metadata_changed += 1,
                    Some(false) => {}
                    None => report.metadata_failed += 1,
                }
            }
        }
        for row in self.store.saml_connections().await? {
            report.certificate_mails += self.mail_expiring_certificates(&row, now).await?;
        }
        Ok(report)
    }

    /// One connection's metadata read again: Some(changed), or None when it failed (kept).
    async fn read_metadata_again(
        &self,
        row: &TeamSsoRow,
        now: OffsetDateTime,
    ) -> Result<Option<bool>, SsoError> {
        let url = row.saml_metadata_url.as_deref().unwrap_or_default();
        let read = match self.metadata_at(row.team_id, url).await {
            Ok(document) => saml::parse_idp_metadata(&document, self.reach)
                .map_err(|e| SsoError::InvalidSamlMetadata(e.0)),
            Err(e) => Err(e),
        };
        let idp = match read {
            Ok(idp) => idp,
            Err(refusal) => {
                tracing::warn!(team_id = %row.team_id, error = %refusal, "SAML metadata not read again; the connection is kept");
                let details = json!({
                    "team_id": row.team_id,
                    "metadata_url": url,
                    "code": refusal.code(),
                    "error": refusal.to_string(),
                });
                let audit =
                    UPKEEP_ACTOR.audit("team.sso.metadata_failed", None, None, details, now);
                self.store
                    .saml_metadata_read(row.team_id, None, now, Some(&audit))
                    .await?;
                return Ok(None);
            }
        };
        let stored = certificates_of(row)?;
        if unchanged(row, &stored, &idp) {
            self.store
                .saml_metadata_read(row.team_id, None, now, None)
                .await?;
            return Ok(Some(false));
        }
        let encoded: Vec<String> = idp
            .certificates
            .iter()
            .map(|d| STANDARD.encode(d))
            .collect();
        let certificates = json!(encoded).to_string();
        let details = json!({
            "team_id": row.team_id,
            "metadata_url": url,
            "idp_entity_id": idp.entity_id,
            "sso_url": idp.sso_url,
            "certificates": fingerprints(&idp.certificates),
            "certificates_before": fingerprints(&stored),
        });
        let audit = UPKEEP_ACTOR.audit("team.sso.metadata_refresh", None, None, details, now);
        let changed = RefreshedMetadata {
            idp_entity_id: &idp.entity_id,
            sso_url: &idp.sso_url,
            certificates: &certificates,
        };
        self.store
            .saml_metadata_read(row.team_id, Some(&changed), now, Some(&audit))
            .await?;
        tracing::info!(team_id = %row.team_id, "SAML metadata changed at its URL and was taken");
        Ok(Some(true))
    }

    /// Mails the owner about each certificate in use that expires within 30 days (once each);
    /// how many mails were queued.
    async fn mail_expiring_certificates(
        &self,
        row: &TeamSsoRow,
        now: OffsetDateTime,
    ) -> Result<u32, SsoError> {
        let mut infos = Vec::new();
        for der in certificates_of(row)? {
            match saml::certificate_info(&der) {
                Ok(info) => infos.push(info),
                Err(e) => {
                    tracing::warn!(team_id = %row.team_id, error = %format!("{e:#}"), "a stored SAML certificate cannot be read")
                }
            }
        }
        let configured: Vec<String> = infos.iter().map(|c| c.fingerprint.clone()).collect();
        let in_use = certificates_in_use(&configured, row.saml_certificate_in_use.as_deref());
        let Some(team) = self.store.team_by_id(row.team_id).await? else {
            return Ok(0);
        };
        let Some(owner) = self.store.user_by_id(team.owner_id).await? else {
            return Ok(0);
        };
        let mut sent = 0;
        for info in infos
            .iter()
            .filter(|c| in_use.contains(&c.fingerprint.as_str()))
        {
            if !certificate_expiry_due(info.not_after, now) {
                continue;
            }
            let mail = self.mail.compose(
                &owner.email,
                Template::SamlCertificateExpiring {
                    team: team.name.clone(),
                    subject: info.subject.clone(),
                    fingerprint: info.fingerprint.clone(),
                    expires_on: day_label(info.not_after.unix_timestamp()),
                    expired: info.not_after <= now,
                    link: self.mail.page("/team#sso-title"),
                },
                now,
            );
            if self
                .store
                .record_certificate_mail(row.team_id, &info.fingerprint, &mail, now)
                .await?
            {
                tracing::info!(team_id = %row.team_id, fingerprint = %info.fingerprint, "owner mailed about the IdP certificate's expiry");
                sent += 1;
            }
        }
        Ok(sent)
    }
}

/// Whether metadata read again says what the connection holds already.
fn unchanged(row: &TeamSsoRow, stored: &[Vec<u8>], idp: &IdpMetadata) -> bool {
    row.issuer == idp.entity_id
        && row.authorization_endpoint == idp.sso_url
        && stored == idp.certificates
}
