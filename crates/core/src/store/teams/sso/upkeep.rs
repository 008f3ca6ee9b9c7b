//! What the sweeper keeps up of SAML connections (migration 0032): the certificate in use, the
//! mail about its coming expiry (once per certificate, written with the mail), and the metadata
//! read again from its URL (a change, or a failed read, written with its audit row).

use time::OffsetDateTime;
use uuid::Uuid;

use super::{TeamSsoRow, SSO_COLUMNS};
use crate::store::audit::{commit_audited, NewAudit};
use crate::store::mail::bind_mail;
use crate::store::{dispatch, NewMail, Store};

/// A SAML connection's metadata as read again: what the IdP's metadata now says.
pub struct RefreshedMetadata<'a> {
    pub idp_entity_id: &'a str,
    pub sso_url: &'a str,
    /// A JSON array of base64 DER, as `TeamSsoRow::saml_certificates`.
    pub certificates: &'a str,
}

impl Store {
    /// Every team's SAML connection.
    pub async fn saml_connections(&self) -> Result<Vec<TeamSsoRow>, sqlx::Error> {
        let sql =
            format!("SELECT {SSO_COLUMNS} FROM team_sso WHERE protocol = 'saml' ORDER BY team_id");
        dispatch!(self, |p| sqlx::query_as::<_, TeamSsoRow>(&sql)
            .fetch_all(p)
            .await)
    }

    /// Records `fingerprint` as the certificate that verified the team's last accepted response.
    pub async fn set_saml_certificate_in_use(
        &self,
        team_id: Uuid,
        fingerprint: &str,
    ) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| sqlx::query(
            "UPDATE team_sso SET saml_certificate_in_use = $2 WHERE team_id = $1 \
             AND (saml_certificate_in_use IS NULL OR saml_certificate_in_use <> $2)"
        )
        .bind(team_id)
        .bind(fingerprint)
        .execute(p)
        .await
        .map(|_| ()))
    }

    /// Notes the owner mailed about the certificate `fingerprint`, with the mail, in one
    /// transaction: false (and nothing written) when it was noted before.
    pub async fn record_certificate_mail(
        &self,
        team_id: Uuid,
        fingerprint: &str,
        mail: &NewMail,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let noted = sqlx::query(
                "INSERT INTO saml_certificate_mails (team_id, fingerprint, mailed_at) \
                 VALUES ($1, $2, $3) ON CONFLICT (team_id, fingerprint) DO NOTHING",
            )
            .bind(team_id)
            .bind(fingerprint)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            if noted.rows_affected() != 1 {
                return Ok(false);
            }
            bind_mail!(mail).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok(true)
        })
    }

    /// The metadata of the team's SAML connection read again at `now`: `changed` replaces the
    /// IdP's entity ID, SSO URL and certificates (the connection read from the same URL still);
    /// None keeps them (read alike, or the read failed). `audit` goes with it in one transaction.
    pub async fn saml_metadata_read(
        &self,
        team_id: Uuid,
        changed: Option<&RefreshedMetadata<'_>>,
        now: OffsetDateTime,
        audit: Option<&NewAudit>,
    ) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            match changed {
                Some(m) => sqlx::query(
                    "UPDATE team_sso SET issuer = $2, authorization_endpoint = $3, \
                     saml_certificates = $4, saml_metadata_checked_at = $5, updated_at = $5 \
                     WHERE team_id = $1 AND protocol = 'saml'",
                )
                .bind(team_id)
                .bind(m.idp_entity_id)
                .bind(m.sso_url)
                .bind(m.certificates)
                .bind(now),
                None => sqlx::query(
                    "UPDATE team_sso SET saml_metadata_checked_at = $2 \
                     WHERE team_id = $1 AND protocol = 'saml'",
                )
                .bind(team_id)
                .bind(now),
            }
            .execute(&mut *tx)
            .await?;
            commit_audited!(self, tx, audit);
        });
        Ok(())
    }
}
