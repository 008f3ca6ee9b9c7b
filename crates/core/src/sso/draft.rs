//! A setup link's draft connection (docs/teams.md "Setup link for IT"): IT's settings checked
//! and read exactly as the owner's save does (`connection`), kept on the link, never the team's
//! connection until a real sign-in through it passed. The test sign-in is an ordinary one whose
//! sign-in row names the link: the ACS and the callback check it against the draft, sign nobody
//! in, and end here — passed: the draft becomes the team's connection (audited with the link as
//! actor; Require SSO as it was), failed: nothing saved. Either way the result is on the link.

use closewise_domain::email::Email;
use closewise_domain::setup_links::{setup_link_may, setup_link_state, stored_steps, SetupStep};
use closewise_domain::sso::{saml_acs_url, saml_sp_entity_id, Protocol, SsoConnection};
use closewise_domain::teams::Action;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use time::OffsetDateTime;
use uuid::Uuid;

use super::login::{Failure, Finished, Started};
use super::saml_login::certificates_of;
use super::{saml, CertificateInfo, Sso, SsoError, SsoView};
use crate::actor::Actor;
use crate::store::teams::setup_links::SetupTest;
use crate::store::teams::sso::TeamSsoRow;

/// A connection as a setup link keeps it: what would be saved (an OpenID secret sealed), and the
/// audit details of that save.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Draft {
    pub protocol: String,
    pub issuer: String,
    pub client_id: String,
    pub client_secret_sealed: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub jwks_uri: String,
    pub userinfo_endpoint: Option<String>,
    pub email_claim: String,
    pub saml_certificates: Option<String>,
    pub saml_metadata_url: Option<String>,
    pub saml_email_attribute: Option<String>,
    pub saml_idp_initiated: bool,
    pub details: Value,
}

/// What the setup page shows of a draft (never the secret).
#[derive(Clone, Debug)]
pub struct DraftView {
    pub protocol: Protocol,
    pub idp_entity_id: Option<String>,
    pub sso_url: Option<String>,
    pub certificates: Option<Vec<CertificateInfo>>,
    pub metadata_url: Option<String>,
    pub email_attribute: Option<String>,
    pub issuer: Option<String>,
    pub client_id: Option<String>,
    pub email_claim: Option<String>,
}

/// Our side of the connection, for IT to paste into the provider.
#[derive(Clone, Debug)]
pub struct SetupSsoUrls {
    pub sp_entity_id: String,
    pub acs_url: String,
    /// Our SP's metadata (its URL is the entity ID).
    pub metadata_url: String,
    pub redirect_uri: String,
}

impl Draft {
    fn of(row: TeamSsoRow, details: Value) -> Draft {
        Draft {
            protocol: row.protocol,
            issuer: row.issuer,
            client_id: row.client_id,
            client_secret_sealed: row.client_secret_sealed,
            authorization_endpoint: row.authorization_endpoint,
            token_endpoint: row.token_endpoint,
            jwks_uri: row.jwks_uri,
            userinfo_endpoint: row.userinfo_endpoint,
            email_claim: row.email_claim,
            saml_certificates: row.saml_certificates,
            saml_metadata_url: row.saml_metadata_url,
            saml_email_attribute: row.saml_email_attribute,
            saml_idp_initiated: row.saml_idp_initiated,
            details,
        }
    }

    pub fn parse(json: &str) -> anyhow::Result<Draft> {
        Ok(serde_json::from_str(json)?)
    }

    pub fn to_json(&self) -> String {
        json!(self).to_string()
    }

    /// The team's connection it would be: Require SSO and the creation time as `before` has them.
    fn row(&self, team_id: Uuid, before: Option<&TeamSsoRow>, now: OffsetDateTime) -> TeamSsoRow {
        let saml = self.protocol == Protocol::Saml.as_str();
        TeamSsoRow {
            team_id,
            issuer: self.issuer.clone(),
            client_id: self.client_id.clone(),
            client_secret_sealed: self.client_secret_sealed.clone(),
            authorization_endpoint: self.authorization_endpoint.clone(),
            token_endpoint: self.token_endpoint.clone(),
            jwks_uri: self.jwks_uri.clone(),
            userinfo_endpoint: self.userinfo_endpoint.clone(),
            email_claim: self.email_claim.clone(),
            required: before.is_some_and(|b| b.required),
            created_at: before.map_or(now, |b| b.created_at),
            updated_at: now,
            protocol: self.protocol.clone(),
            saml_certificates: self.saml_certificates.clone(),
            saml_metadata_url: self.saml_metadata_url.clone(),
            saml_email_attribute: self.saml_email_attribute.clone(),
            saml_idp_initiated: self.saml_idp_initiated,
            saml_certificate_in_use: None,
            saml_metadata_checked_at: self
                .saml_metadata_url
                .as_ref()
                .filter(|_| saml)
                .map(|_| now),
        }
    }
}

impl Sso {
    /// Checks and reads `connection` for `team_id` as the owner's save does (discovery document or
    /// metadata, the secret sealed): the draft a setup link keeps. Nothing is saved.
    pub async fn draft(
        &self,
        team_id: Uuid,
        connection: &SsoConnection<'_>,
    ) -> Result<Draft, SsoError> {
        let before = self.store.team_sso(team_id).await?;
        let now = self.clock.now();
        let (row, details) = match connection {
            SsoConnection::Oidc(s) => self.oidc_row(team_id, before.as_ref(), s, now).await?,
            SsoConnection::Saml(s) => self.saml_row(team_id, before.as_ref(), s, now).await?,
        };
        Ok(Draft::of(row, details))
    }

    pub fn draft_view(&self, draft: &Draft) -> Result<DraftView, SsoError> {
        let saml = draft.protocol == Protocol::Saml.as_str();
        let row = draft.row(Uuid::nil(), None, self.clock.now());
        let certificates = match saml {
            true => Some(
                certificates_of(&row)?
                    .iter()
                    .map(|der| saml::certificate_info(der))
                    .collect::<anyhow::Result<Vec<_>>>()?,
            ),
            false => None,
        };
        let saml_only = |v: &str| saml.then(|| v.to_string());
        let oidc_only = |v: &str| (!saml).then(|| v.to_string());
        Ok(DraftView {
            protocol: Protocol::parse(&draft.protocol).unwrap_or_default(),
            idp_entity_id: saml_only(&draft.issuer),
            sso_url: saml_only(&draft.authorization_endpoint),
            certificates,
            metadata_url: draft.saml_metadata_url.clone(),
            email_attribute: draft.saml_email_attribute.clone(),
            issuer: oidc_only(&draft.issuer),
            client_id: oidc_only(&draft.client_id),
            email_claim: oidc_only(&draft.email_claim),
        })
    }

    /// The team's saved connection as the owner sees it; None without one.
    pub async fn connection_view(&self, team_id: Uuid) -> Result<Option<SsoView>, SsoError> {
        let view = self.view_of(team_id).await?;
        Ok(view.configured.then_some(view))
    }

    pub fn setup_urls(&self, team_id: Uuid) -> SetupSsoUrls {
        let sp_entity_id = saml_sp_entity_id(&self.base_url, team_id);
        SetupSsoUrls {
            metadata_url: sp_entity_id.clone(),
            sp_entity_id,
            acs_url: saml_acs_url(&self.base_url, team_id),
            redirect_uri: self.redirect_uri(),
        }
    }

    /// Starts the test sign-in of `link_id`'s draft for `email` (already checked to be at one of
    /// the team's verified domains).
    pub async fn start_setup_test(
        &self,
        team_id: Uuid,
        link_id: Uuid,
        draft: &Draft,
        email: &Email,
    ) -> Result<Started, SsoError> {
        let row = draft.row(team_id, None, self.clock.now());
        self.begin(&row, email, None, true, Some(link_id)).await
    }

    /// The draft of `link_id` as a connection row, for the ACS and the callback to check against.
    pub(super) async fn link_draft(&self, link_id: Uuid) -> Result<TeamSsoRow, SsoError> {
        let link = self.store.setup_link(link_id).await?;
        let (team_id, draft) = link
            .and_then(|l| l.draft.map(|d| (l.team_id, d)))
            .ok_or(SsoError::NotConfigured)?;
        Ok(Draft::parse(&draft)?.row(team_id, None, self.clock.now()))
    }

    /// The end of a setup link's test sign-in: passed, the draft becomes the team's connection
    /// (while the link is open and allows single sign-on); failed, the reason is kept.
    pub(super) async fn finish_setup_test(
        &self,
        link_id: Uuid,
        checked: Result<Email, SsoError>,
    ) -> Result<Finished, Failure> {
        let email = match checked {
            Ok(email) => email,
            Err(error) => return Err(self.setup_test_failed(link_id, error).await),
        };
        match self.save_draft_of(link_id, &email).await {
            Ok(()) => Ok(Finished::SetupTested),
            Err(error) => Err(self.setup_test_failed(link_id, error).await),
        }
    }

    async fn save_draft_of(&self, link_id: Uuid, email: &Email) -> Result<(), SsoError> {
        let now = self.clock.now();
        let link = self
            .store
            .setup_link(link_id)
            .await?
            .filter(|l| {
                !setup_link_state(now, l.expires_at, l.revoked_at, l.finished_at).gone()
                    && setup_link_may(Action::ConfigureSso, &stored_steps(&l.steps))
            })
            .ok_or(SsoError::LoginExpired)?;
        let draft = Draft::parse(link.draft.as_deref().ok_or(SsoError::NotConfigured)?)?;
        let team_id = link.team_id;
        let before = self.store.team_sso(team_id).await?;
        let row = draft.row(team_id, before.as_ref(), now);
        let mut details = draft.details.clone();
        if let Some(d) = details.as_object_mut() {
            d.insert("team_id".into(), json!(team_id));
            d.insert("required".into(), json!(row.required));
            d.insert("required_before".into(), json!(row.required));
            d.insert("tested_with".into(), json!(email.as_str()));
        }
        let actor = Actor::SetupLink { team_id, link_id };
        let audit = actor.audit("team.sso.save", None, None, details, now);
        self.store.save_team_sso(&row, None, &audit).await?;
        let test = SetupTest {
            passed: true,
            error: None,
            email: Some(email.as_str()),
            at: now,
        };
        self.store.set_setup_link_test(link_id, &test).await?;
        self.store
            .mark_setup_link_done(link_id, SetupStep::Sso)
            .await?;
        tracing::info!(%team_id, %link_id, "setup link's test sign-in passed: SSO saved");
        Ok(())
    }

    /// Records a failed test sign-in on the link (nothing else changes); the refusal to answer.
    pub(super) async fn setup_test_failed(&self, link_id: Uuid, error: SsoError) -> Failure {
        if !matches!(error, SsoError::Database(_) | SsoError::Internal(_)) {
            let test = SetupTest {
                passed: false,
                error: Some(error.code()),
                email: None,
                at: self.clock.now(),
            };
            if let Err(e) = self.store.set_setup_link_test(link_id, &test).await {
                return SsoError::from(e).into();
            }
        }
        Failure {
            error,
            test: true,
            setup: true,
        }
    }
}
