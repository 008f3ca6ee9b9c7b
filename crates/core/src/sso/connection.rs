//! The owner's connection (`PUT` and `DELETE /api/team/sso`): one command saves it, OpenID Connect
//! or SAML, in place of any other. OpenID: the issuer's discovery document read, the client secret
//! sealed (left out: the stored one kept). SAML: the IdP's metadata read from its URL (under the
//! provider reach) or as given, its certificates kept. Either way the change is audited in its own
//! transaction, and a connection that becomes required ends the password sessions of the
//! addresses at the team's verified domains.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use closewise_domain::sso::{
    parse_issuer, EmailClaim, IssuerError, OidcSettings, Protocol, SamlSettings, SsoConnection,
};
use serde_json::{json, Value};
use time::OffsetDateTime;
use uuid::Uuid;

use super::saml;
use super::{FetchError, Sso, SsoError, SsoView};
use crate::actor::Actor;
use crate::store::teams::sso::TeamSsoRow;

impl Sso {
    /// `PUT /api/team/sso`: checks and reads what the connection needs (discovery document or
    /// metadata), saves it with its audit row (`team.sso.save`), and when SSO becomes required
    /// ends the password sessions of the members at the team's domains.
    pub async fn save(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        connection: &SsoConnection<'_>,
    ) -> Result<SsoView, SsoError> {
        let team_id = self.owned_team(actor, team).await?;
        let before = self.store.team_sso(team_id).await?;
        let now = self.clock.now();
        let (row, mut details) = match connection {
            SsoConnection::Oidc(s) => self.oidc_row(team_id, before.as_ref(), s, now).await?,
            SsoConnection::Saml(s) => self.saml_row(team_id, before.as_ref(), s, now).await?,
        };
        let required_before = before.as_ref().is_some_and(|b| b.required);
        if let Some(d) = details.as_object_mut() {
            d.insert("team_id".into(), json!(team_id));
            d.insert("required".into(), json!(row.required));
            d.insert("required_before".into(), json!(required_before));
        }
        let audit = actor.audit("team.sso.save", None, None, details, now);
        self.store
            .save_team_sso(&row, actor.user_id(), &audit)
            .await?;
        if row.required && !required_before {
            self.store.end_password_sessions(team_id, now).await?;
        }
        self.view_of(team_id).await
    }

    /// `DELETE /api/team/sso`.
    pub async fn remove(&self, actor: &Actor, team: Option<Uuid>) -> Result<(), SsoError> {
        let team_id = self.owned_team(actor, team).await?;
        let details = json!({ "team_id": team_id });
        let audit = actor.audit("team.sso.delete", None, None, details, self.clock.now());
        if !self.store.delete_team_sso(team_id, &audit).await? {
            return Err(SsoError::NotConfigured);
        }
        Ok(())
    }

    /// An OpenID connection's row and audit details: the issuer's discovery document read, the
    /// secret sealed (or the stored one of an OpenID connection kept).
    pub(super) async fn oidc_row(
        &self,
        team_id: Uuid,
        before: Option<&TeamSsoRow>,
        s: &OidcSettings<'_>,
        now: OffsetDateTime,
    ) -> Result<(TeamSsoRow, Value), SsoError> {
        let issuer = parse_issuer(s.issuer, self.reach).map_err(|e| match e {
            IssuerError::NotPublic => SsoError::IssuerNotPublic,
            e => SsoError::InvalidIssuer(e),
        })?;
        let client_id = s.client_id.trim();
        if client_id.is_empty() {
            return Err(SsoError::ClientIdRequired);
        }
        let email_claim = match s.email_claim {
            None => EmailClaim::default(),
            Some(raw) => EmailClaim::parse(raw).ok_or(SsoError::InvalidEmailClaim)?,
        };
        if self.store.team_verified_domains(team_id).await?.is_empty() {
            return Err(SsoError::NoVerifiedDomain);
        }
        let new_secret = s.client_secret.map(str::trim).filter(|x| !x.is_empty());
        let sealed = match new_secret {
            Some(secret) => self.secrets.seal(team_id, secret.as_bytes()),
            None => match before {
                Some(b) if b.protocol == Protocol::Oidc.as_str() => b.client_secret_sealed.clone(),
                _ => return Err(SsoError::ClientSecretRequired),
            },
        };
        let d = self.provider.discover(&issuer).await.map_err(|e| match e {
            FetchError::NotPublic => SsoError::IssuerNotPublic,
            FetchError::NotHttps => SsoError::InvalidIssuer(IssuerError::NotHttps),
            FetchError::Unusable(why) => SsoError::DiscoveryUnusable(why),
            FetchError::Failed(cause) => {
                tracing::warn!(team_id = %team_id, error = %format!("{cause:#}"), "SSO discovery failed");
                SsoError::Discovery
            }
        })?;
        let row = TeamSsoRow {
            team_id,
            issuer: issuer.clone(),
            client_id: client_id.to_string(),
            client_secret_sealed: sealed,
            authorization_endpoint: d.authorization_endpoint,
            token_endpoint: d.token_endpoint,
            jwks_uri: d.jwks_uri,
            userinfo_endpoint: d.userinfo_endpoint,
            email_claim: email_claim.as_str().to_string(),
            required: s.required,
            created_at: before.map_or(now, |b| b.created_at),
            updated_at: now,
            protocol: Protocol::Oidc.as_str().to_string(),
            saml_certificates: None,
            saml_metadata_url: None,
            saml_email_attribute: None,
            saml_idp_initiated: false,
            saml_certificate_in_use: None,
            saml_metadata_checked_at: None,
        };
        let details = json!({
            "protocol": "oidc",
            "issuer": issuer,
            "client_id": client_id,
            "email_claim": email_claim.as_str(),
            "secret_changed": new_secret.is_some(),
        });
        Ok((row, details))
    }

    /// A SAML connection's row and audit details: the IdP's metadata read from its URL (under the
    /// provider reach) or as given.
    pub(super) async fn saml_row(
        &self,
        team_id: Uuid,
        before: Option<&TeamSsoRow>,
        s: &SamlSettings<'_>,
        now: OffsetDateTime,
    ) -> Result<(TeamSsoRow, Value), SsoError> {
        let url = s.metadata_url.map(str::trim).filter(|u| !u.is_empty());
        let xml = s.metadata_xml.map(str::trim).filter(|x| !x.is_empty());
        if self.store.team_verified_domains(team_id).await?.is_empty() {
            return Err(SsoError::NoVerifiedDomain);
        }
        let document = match (url, xml) {
            (Some(url), None) => self.metadata_at(team_id, url).await?,
            (None, Some(xml)) => xml.to_string(),
            _ => return Err(SsoError::SamlMetadataRequired),
        };
        let idp = saml::parse_idp_metadata(&document, self.reach)
            .map_err(|e| SsoError::InvalidSamlMetadata(e.0))?;
        let email_attribute = s
            .email_attribute
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .map(str::to_string);
        let certificates: Vec<String> = idp
            .certificates
            .iter()
            .map(|d| STANDARD.encode(d))
            .collect();
        let row = TeamSsoRow {
            team_id,
            issuer: idp.entity_id.clone(),
            client_id: String::new(),
            client_secret_sealed: String::new(),
            authorization_endpoint: idp.sso_url.clone(),
            token_endpoint: String::new(),
            jwks_uri: String::new(),
            userinfo_endpoint: None,
            email_claim: EmailClaim::default().as_str().to_string(),
            required: s.required,
            created_at: before.map_or(now, |b| b.created_at),
            updated_at: now,
            protocol: Protocol::Saml.as_str().to_string(),
            saml_certificates: Some(json!(certificates).to_string()),
            saml_metadata_url: url.map(str::to_string),
            saml_email_attribute: email_attribute.clone(),
            saml_idp_initiated: s.allow_idp_initiated,
            saml_certificate_in_use: None,
            saml_metadata_checked_at: url.map(|_| now),
        };
        let details = json!({
            "protocol": "saml",
            "idp_entity_id": idp.entity_id,
            "sso_url": idp.sso_url,
            "certificates": fingerprints(&idp.certificates),
            "metadata_url": url,
            "email_attribute": email_attribute,
            "allow_idp_initiated": s.allow_idp_initiated,
        });
        Ok((row, details))
    }

    /// The IdP's metadata document at `url`, its failures as the owner is told them (the cause of
    /// a failed fetch logged, never shown).
    pub(super) async fn metadata_at(&self, team_id: Uuid, url: &str) -> Result<String, SsoError> {
        self.provider.metadata(url).await.map_err(|e| match e {
            FetchError::NotPublic => SsoError::IssuerNotPublic,
            FetchError::NotHttps => {
                SsoError::InvalidSamlMetadata("The metadata URL must be an https URL.")
            }
            FetchError::Unusable(why) => SsoError::InvalidSamlMetadata(why),
            FetchError::Failed(cause) => {
                tracing::warn!(team_id = %team_id, error = %format!("{cause:#}"), "SAML metadata fetch failed");
                SsoError::InvalidSamlMetadata(
                    "Could not read the metadata URL. Check it and that the identity provider is reachable.",
                )
            }
        })
    }
}

/// The SHA-256 fingerprints of certificates (DER), as the owner's IdP console shows them.
pub(super) fn fingerprints(certificates: &[Vec<u8>]) -> Vec<String> {
    certificates
        .iter()
        .filter_map(|der| saml::certificate_info(der).ok())
        .map(|c| c.fingerprint)
        .collect()
}
