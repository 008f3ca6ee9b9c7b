//! A team's single sign-on (migration 0016): its connection, OpenID Connect or SAML (the client
//! secret sealed by the service, never read back by an adapter), and which team's SSO an address
//! signs in by. The sign-ins on their way through the provider are in `logins`, the first sign-in
//! that makes the account and the membership, and the sessions Require SSO ends, in `join`.

mod join;
mod logins;
mod upkeep;

use uuid::Uuid;

use crate::store::audit::{commit_audited, NewAudit};
use crate::store::revocations::{notify_revoked, Revoked};
use crate::store::{dispatch, Store};
use time::OffsetDateTime;

pub use join::NewSsoUser;
pub use logins::{NewSsoLogin, SsoLoginRow};
pub use upkeep::RefreshedMetadata;

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct TeamSsoRow {
    pub team_id: Uuid,
    pub issuer: String,
    pub client_id: String,
    /// `SecretBox::seal(team_id, secret)`.
    pub client_secret_sealed: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub jwks_uri: String,
    /// The discovery document's `userinfo_endpoint` (migration 0031).
    pub userinfo_endpoint: Option<String>,
    /// `closewise_domain::sso::EmailClaim::as_str`.
    pub email_claim: String,
    pub required: bool,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
    /// `closewise_domain::sso::Protocol::as_str`. A SAML connection keeps the IdP's entity ID in
    /// `issuer` and its SSO URL in `authorization_endpoint`; its OpenID columns are empty.
    pub protocol: String,
    /// SAML: the IdP's signing certificates, a JSON array of base64 DER.
    pub saml_certificates: Option<String>,
    pub saml_metadata_url: Option<String>,
    /// SAML: the attribute carrying the address; None: the NameID.
    pub saml_email_attribute: Option<String>,
    /// SAML: unsolicited (IdP-initiated) responses are accepted.
    pub saml_idp_initiated: bool,
    /// SAML: the fingerprint of the certificate that verified the last accepted response
    /// (migration 0032; written by the ACS only).
    pub saml_certificate_in_use: Option<String>,
    /// SAML: when the metadata URL was last read (on save, then by the daily job).
    pub saml_metadata_checked_at: Option<OffsetDateTime>,
}

const SSO_COLUMNS: &str = "team_id, issuer, client_id, client_secret_sealed, \
    authorization_endpoint, token_endpoint, jwks_uri, userinfo_endpoint, email_claim, required, \
    created_at, updated_at, protocol, saml_certificates, saml_metadata_url, saml_email_attribute, \
    saml_idp_initiated, saml_certificate_in_use, saml_metadata_checked_at";

impl Store {
    pub async fn team_sso(&self, team_id: Uuid) -> Result<Option<TeamSsoRow>, sqlx::Error> {
        let sql = format!("SELECT {SSO_COLUMNS} FROM team_sso WHERE team_id = $1");
        dispatch!(self, |p| sqlx::query_as::<_, TeamSsoRow>(&sql)
            .bind(team_id)
            .fetch_optional(p)
            .await)
    }

    /// Creates or replaces the team's connection, with its audit row. Its `required` is the
    /// policy's `require_sso` in every member's entitlements: announced (`Revoked::AllReads`).
    pub async fn save_team_sso(
        &self,
        row: &TeamSsoRow,
        updated_by: Option<Uuid>,
        audit: &NewAudit,
    ) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            sqlx::query(
                "INSERT INTO team_sso (team_id, issuer, client_id, client_secret_sealed, \
                 authorization_endpoint, token_endpoint, jwks_uri, required, updated_by, \
                 created_at, updated_at, userinfo_endpoint, email_claim, protocol, \
                 saml_certificates, saml_metadata_url, saml_email_attribute, saml_idp_initiated, \
                 saml_metadata_checked_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11, $12, $13, $14, $15, \
                 $16, $17, $18) \
                 ON CONFLICT (team_id) DO UPDATE SET issuer = $2, client_id = $3, \
                 client_secret_sealed = $4, authorization_endpoint = $5, token_endpoint = $6, \
                 jwks_uri = $7, required = $8, updated_by = $9, updated_at = $10, \
                 userinfo_endpoint = $11, email_claim = $12, protocol = $13, \
                 saml_certificates = $14, saml_metadata_url = $15, saml_email_attribute = $16, \
                 saml_idp_initiated = $17, saml_metadata_checked_at = $18",
            )
            .bind(row.team_id)
            .bind(&row.issuer)
            .bind(&row.client_id)
            .bind(&row.client_secret_sealed)
            .bind(&row.authorization_endpoint)
            .bind(&row.token_endpoint)
            .bind(&row.jwks_uri)
            .bind(row.required)
            .bind(updated_by)
            .bind(row.updated_at)
            .bind(&row.userinfo_endpoint)
            .bind(&row.email_claim)
            .bind(&row.protocol)
            .bind(&row.saml_certificates)
            .bind(&row.saml_metadata_url)
            .bind(&row.saml_email_attribute)
            .bind(row.saml_idp_initiated)
            .bind(row.saml_metadata_checked_at)
            .execute(&mut *tx)
            .await?;
            notify_revoked!(self, tx, Revoked::AllReads);
            commit_audited!(self, tx, Some(audit));
        });
        self.revoked(Revoked::AllReads);
        Ok(())
    }

    /// Removes the team's connection, with its audit row (announced, as `save_team_sso`); false
    /// when there was none.
    pub async fn delete_team_sso(
        &self,
        team_id: Uuid,
        audit: &NewAudit,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let n = sqlx::query("DELETE FROM team_sso WHERE team_id = $1")
                .bind(team_id)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if n == 0 {
                return Ok(false);
            }
            notify_revoked!(self, tx, Revoked::AllReads);
            commit_audited!(self, tx, Some(audit));
        });
        self.revoked(Revoked::AllReads);
        Ok(true)
    }

    /// The team's verified domains.
    pub async fn team_verified_domains(&self, team_id: Uuid) -> Result<Vec<String>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_scalar::<_, String>(
            "SELECT domain FROM team_domains WHERE team_id = $1 AND status = 'verified' \
             ORDER BY domain"
        )
        .bind(team_id)
        .fetch_all(p)
        .await)
    }

    /// Whether SSO is required for addresses at `domain`, and of which team: `Some(team)` when a
    /// team holds the domain verified and requires SSO.
    pub async fn sso_required_at(&self, domain: &str) -> Result<Option<Uuid>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_scalar::<_, Uuid>(
            "SELECT s.team_id FROM team_sso s JOIN team_domains d ON d.team_id = s.team_id \
             WHERE d.domain = $1 AND d.status = 'verified' AND s.required"
        )
        .bind(domain)
        .fetch_optional(p)
        .await)
    }

    /// The team with SSO for addresses at `domain` (a verified domain of a team with a
    /// connection), with whether it is required.
    pub async fn sso_team_at(&self, domain: &str) -> Result<Option<Uuid>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_scalar::<_, Uuid>(
            "SELECT s.team_id FROM team_sso s JOIN team_domains d ON d.team_id = s.team_id \
             WHERE d.domain = $1 AND d.status = 'verified'"
        )
        .bind(domain)
        .fetch_optional(p)
        .await)
    }
}

impl Store {
    /// Whether `email` must sign in by SSO: its domain is verified by a team that requires SSO,
    /// and it is not that team's owner's (the owner keeps the password as a break-glass way in).
    pub async fn sso_required_for(&self, email: &str) -> Result<bool, sqlx::Error> {
        let Some((_, domain)) = email.rsplit_once('@') else {
            return Ok(false);
        };
        let Some(team_id) = self.sso_required_at(domain).await? else {
            return Ok(false);
        };
        let owner: Option<Uuid> = dispatch!(self, |p| sqlx::query_scalar::<_, Uuid>(
            "SELECT t.owner_id FROM teams t JOIN users u ON u.id = t.owner_id \
             WHERE t.id = $1 AND u.email = $2"
        )
        .bind(team_id)
        .bind(email)
        .fetch_optional(p)
        .await)?;
        Ok(owner.is_none())
    }
}
