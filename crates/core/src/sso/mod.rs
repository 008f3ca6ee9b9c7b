//! Single sign-on with OpenID Connect (docs/teams.md "Single sign-on"): the owner's
//! connection to the company's provider (here), and the sign-in through it (`login`): the
//! authorization code flow with PKCE, the provider's ID token checked (`provider`), the account
//! and membership made on the first sign-in, a session as every other sign-in's. The rules are
//! `closewise_domain::sso`'s; the client secret is sealed with the MFA key
//! (`crate::mfa::SecretBox`, the team's id as associated data) and never shown again.

mod admin;
mod login;
pub mod provider;

use closewise_domain::sso::{
    parse_issuer, redirect_uri, IdentityRefusal, IssuerError, ProviderReach,
};
use closewise_domain::teams::{may, Action, SeatError};
use serde_json::json;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::actor::Actor;
use crate::clock::Clock;
use crate::mfa::SecretBox;
use crate::password::Hasher;
use crate::sessions::{SessionError, Sessions};
use crate::store::teams::sso::TeamSsoRow;
use crate::store::{DbError, Store};
use crate::teams::acting::acting_on;
use crate::teams::TeamsError;

pub use admin::{SsoAdmin, SsoAdminView};
pub use login::{Failure, Finished, Started};
pub use provider::{FetchError, Provider};

#[derive(Debug, thiserror::Error)]
pub enum SsoError {
    #[error(transparent)]
    Team(#[from] TeamsError),
    #[error("{0}")]
    InvalidIssuer(IssuerError),
    #[error("Enter the client ID your identity provider gave you.")]
    ClientIdRequired,
    #[error("Enter the client secret your identity provider gave you.")]
    ClientSecretRequired,
    /// The discovery document could not be read (the provider's answer is logged, never shown:
    /// an issuer must not be a way to read what the server can reach).
    #[error("Could not read the provider's discovery document. Check the issuer URL and that the provider is reachable.")]
    Discovery,
    /// The document was read but does not hold (a fixed reason, nothing of the provider's text).
    #[error("{0}")]
    DiscoveryUnusable(&'static str),
    /// The issuer, an endpoint it names, or an address either resolves to is loopback,
    /// link-local, private or otherwise not public (production).
    #[error("{}", IssuerError::NotPublic)]
    IssuerNotPublic,
    /// Single sign-on needs at least one verified domain.
    #[error("Verify a company domain first: single sign-on signs in addresses at your verified domains.")]
    NoVerifiedDomain,
    #[error("This team has no single sign-on.")]
    NotConfigured,
    /// No team offers SSO for the address's domain.
    #[error("Single sign-on is not set up for this e-mail address.")]
    NoSsoForDomain,
    /// A callback whose state is unknown, used or expired.
    #[error("This sign-in has expired or was already used. Please start again.")]
    LoginExpired,
    /// The provider said no (`error` in the callback), or sent no code.
    #[error("Your identity provider did not sign you in. Please try again.")]
    ProviderDenied,
    /// The token exchange or the ID token failed a check (the cause is logged).
    #[error("Your identity provider's answer could not be verified. Please try again or contact your team's owner.")]
    InvalidIdToken(String),
    #[error("{0}")]
    Identity(IdentityRefusal),
    /// First sign-in with no free seat: nothing was created.
    #[error("{}", closewise_domain::sso::no_free_seat_message(*total))]
    NoFreeSeat { total: u32 },
    /// The account is in another team.
    #[error("You are already in another team. Leave it before signing in with this team's single sign-on.")]
    OtherTeam,
    #[error(transparent)]
    Session(#[from] SessionError),
    #[error(transparent)]
    Database(#[from] DbError),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl SsoError {
    pub fn code(&self) -> &'static str {
        match self {
            SsoError::Team(e) => e.code(),
            SsoError::InvalidIssuer(_) => "invalid_issuer",
            SsoError::ClientIdRequired => "client_id_required",
            SsoError::ClientSecretRequired => "client_secret_required",
            SsoError::Discovery | SsoError::DiscoveryUnusable(_) => "sso_discovery_failed",
            SsoError::IssuerNotPublic => "issuer_not_public",
            SsoError::NoVerifiedDomain => "domain_not_verified",
            SsoError::NotConfigured => "sso_not_configured",
            SsoError::NoSsoForDomain => "sso_not_available",
            SsoError::LoginExpired => "sso_login_expired",
            SsoError::ProviderDenied => "sso_denied",
            SsoError::InvalidIdToken(_) => "invalid_id_token",
            SsoError::Identity(IdentityRefusal::EmailNotVerified) => "email_not_verified",
            SsoError::Identity(IdentityRefusal::DomainNotVerified) => "domain_not_verified",
            SsoError::NoFreeSeat { .. } => SeatError::AllTaken { total: 0 }.code(),
            SsoError::OtherTeam => "already_in_team",
            SsoError::Session(e) => e.code(),
            SsoError::Database(_) | SsoError::Internal(_) => "internal",
        }
    }
}

/// What `GET /api/team/sso` shows the owner (never the secret).
#[derive(Clone, Debug)]
pub struct SsoView {
    pub configured: bool,
    pub issuer: Option<String>,
    pub client_id: Option<String>,
    pub required: bool,
    /// The redirect URI to register at the provider.
    pub redirect_uri: String,
    /// The team's verified domains whose addresses sign in by SSO.
    pub domains: Vec<String>,
    pub updated_at: Option<OffsetDateTime>,
}

/// The owner's change: `client_secret` None keeps the stored one.
pub struct SsoSettings<'a> {
    pub issuer: &'a str,
    pub client_id: &'a str,
    pub client_secret: Option<&'a str>,
    pub required: bool,
}

#[derive(Clone)]
pub struct Sso {
    store: Store,
    clock: Clock,
    secrets: SecretBox,
    hasher: Hasher,
    sessions: Sessions,
    provider: Provider,
    reach: ProviderReach,
    base_url: String,
}

impl Sso {
    /// `reach`: which provider addresses the server may fetch from (production: public only).
    pub fn new(
        store: Store,
        clock: Clock,
        secrets: SecretBox,
        hasher: Hasher,
        sessions: Sessions,
        base_url: &str,
        reach: ProviderReach,
    ) -> Self {
        Sso {
            store,
            clock,
            secrets,
            hasher,
            sessions,
            provider: Provider::new(reach),
            reach,
            base_url: base_url.trim_end_matches('/').to_string(),
        }
    }

    pub fn redirect_uri(&self) -> String {
        redirect_uri(&self.base_url)
    }

    /// The team whose SSO `actor` configures: the owner's (a member: their own team; anyone
    /// else: `team`).
    async fn owned_team(&self, actor: &Actor, team: Option<Uuid>) -> Result<Uuid, SsoError> {
        match acting_on(&self.store, actor, team).await? {
            Some((team, role)) if may(role, Action::ConfigureSso) => Ok(team),
            Some(_) => Err(TeamsError::ForbiddenRole.into()),
            None => Err(TeamsError::TeamNotFound.into()),
        }
    }

    async fn view_of(&self, team_id: Uuid) -> Result<SsoView, SsoError> {
        let row = self.store.team_sso(team_id).await?;
        Ok(SsoView {
            configured: row.is_some(),
            issuer: row.as_ref().map(|r| r.issuer.clone()),
            client_id: row.as_ref().map(|r| r.client_id.clone()),
            required: row.as_ref().is_some_and(|r| r.required),
            redirect_uri: self.redirect_uri(),
            domains: self.store.team_verified_domains(team_id).await?,
            updated_at: row.map(|r| r.updated_at),
        })
    }

    /// `GET /api/team/sso`.
    pub async fn show(&self, actor: &Actor, team: Option<Uuid>) -> Result<SsoView, SsoError> {
        let team_id = self.owned_team(actor, team).await?;
        self.view_of(team_id).await
    }

    /// `PUT /api/team/sso`: reads the issuer's discovery document, seals the secret, saves, and
    /// when SSO becomes required ends the password sessions of the members at the team's domains.
    pub async fn save(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        s: &SsoSettings<'_>,
    ) -> Result<SsoView, SsoError> {
        let team_id = self.owned_team(actor, team).await?;
        let issuer = parse_issuer(s.issuer, self.reach).map_err(|e| match e {
            IssuerError::NotPublic => SsoError::IssuerNotPublic,
            e => SsoError::InvalidIssuer(e),
        })?;
        let client_id = s.client_id.trim();
        if client_id.is_empty() {
            return Err(SsoError::ClientIdRequired);
        }
        if self.store.team_verified_domains(team_id).await?.is_empty() {
            return Err(SsoError::NoVerifiedDomain);
        }
        let before = self.store.team_sso(team_id).await?;
        let sealed = match s.client_secret.map(str::trim).filter(|x| !x.is_empty()) {
            Some(secret) => self.secrets.seal(team_id, secret.as_bytes()),
            None => match &before {
                Some(b) => b.client_secret_sealed.clone(),
                None => return Err(SsoError::ClientSecretRequired),
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
        let now = self.clock.now();
        let row = TeamSsoRow {
            team_id,
            issuer: issuer.clone(),
            client_id: client_id.to_string(),
            client_secret_sealed: sealed,
            authorization_endpoint: d.authorization_endpoint,
            token_endpoint: d.token_endpoint,
            jwks_uri: d.jwks_uri,
            required: s.required,
            created_at: before.as_ref().map_or(now, |b| b.created_at),
            updated_at: now,
        };
        let audit = actor.audit(
            "team.sso.save",
            None,
            None,
            json!({
                "team_id": team_id,
                "issuer": issuer,
                "client_id": client_id,
                "secret_changed": s.client_secret.is_some_and(|x| !x.trim().is_empty()),
                "required": s.required,
                "required_before": before.as_ref().is_some_and(|b| b.required),
            }),
            now,
        );
        self.store
            .save_team_sso(&row, actor.user_id(), &audit)
            .await?;
        if s.required && !before.as_ref().is_some_and(|b| b.required) {
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
}
