//! Single sign-on with OpenID Connect or SAML 2.0 (docs/teams.md "Single sign-on"): the owner's
//! connection to the company's provider (`connection`: saved, one protocol at a time, and shown
//! here), and the sign-in through it (`login`): OpenID's authorization code flow with PKCE, the
//! provider's ID token checked (`id_token`, fetched by `provider`), or SAML's AuthnRequest and
//! response (`saml`, `saml_login`); the account and membership made on the first sign-in, a
//! session as every other sign-in's. The rules are `closewise_domain::sso`'s; the client secret is
//! sealed with the MFA key (`crate::mfa::SecretBox`, the team's id as associated data) and never
//! shown again.

mod admin;
mod connection;
mod draft;
pub mod id_token;
mod login;
pub mod provider;
pub mod saml;
mod saml_login;
mod upkeep;

use closewise_domain::sso::{
    redirect_uri, saml_acs_url, saml_sp_entity_id, EmailClaim, IdentityRefusal, IssuerError,
    Protocol, ProviderReach,
};
use closewise_domain::teams::{may, Action, SeatError};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::actor::Actor;
use crate::clock::Clock;
use crate::mail::Composer;
use crate::mfa::SecretBox;
use crate::password::Hasher;
use crate::sessions::{SessionError, Sessions};
use crate::store::{DbError, Store};
use crate::teams::acting::acting_on;
use crate::teams::TeamsError;

pub use admin::{SsoAdmin, SsoAdminView};
pub use closewise_domain::sso::{OidcSettings, SamlSettings, SsoConnection};
pub use draft::{Draft, DraftView, SetupSsoUrls};
pub use login::{Failure, Finished, Started};
pub use provider::{FetchError, Provider};
pub use saml::CertificateInfo;
pub use saml_login::AcsOutcome;
pub use upkeep::{SamlUpkeepReport, UPKEEP_ACTOR};

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
    /// The claim named for the address is none of `closewise_domain::sso::EmailClaim`'s.
    #[error("The e-mail claim must be email, preferred_username or upn.")]
    InvalidEmailClaim,
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
    /// `protocol` is neither `oidc` nor `saml`.
    #[error("The protocol must be oidc or saml.")]
    InvalidProtocol,
    /// A SAML connection needs the IdP's metadata: a URL or the XML, one of the two.
    #[error("Give your identity provider's SAML metadata: its URL or the XML, one of the two.")]
    SamlMetadataRequired,
    /// The metadata could not be read or used (a fixed reason).
    #[error("{0}")]
    InvalidSamlMetadata(&'static str),
    /// The response failed a check (the cause is logged).
    #[error("Your identity provider's answer could not be verified. Please try again or contact your team's owner.")]
    InvalidSamlResponse(String),
    /// The assertion's validity window is over (or not begun).
    #[error("Your identity provider's answer has expired. Please sign in again.")]
    SamlExpired,
    /// The assertion was presented before.
    #[error("This answer from your identity provider was already used. Please sign in again.")]
    SamlReplayed,
    /// An IdP-initiated response while the team accepts only sign-ins started here.
    #[error("Sign-ins started at your identity provider are turned off for this team. Start from the Closewise sign-in page.")]
    SamlUnsolicited,
    /// The response carried no address in the NameID or the configured attribute.
    #[error("Your identity provider sent no e-mail address (in the NameID or the attribute your team's single sign-on reads). Ask your team's owner to check the setting.")]
    SamlNoAddress,
    /// Neither the ID token nor UserInfo carried an address in the claim the team uses.
    #[error("Your identity provider sent no e-mail address in the `{}` claim. Ask your team's owner to check which claim single sign-on reads.", .0.as_str())]
    EmailClaimMissing(EmailClaim),
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
            SsoError::InvalidEmailClaim => "invalid_email_claim",
            SsoError::EmailClaimMissing(_) | SsoError::SamlNoAddress => "email_claim_missing",
            SsoError::InvalidProtocol => "invalid_protocol",
            SsoError::SamlMetadataRequired => "saml_metadata_required",
            SsoError::InvalidSamlMetadata(_) => "invalid_saml_metadata",
            SsoError::InvalidSamlResponse(_) => "invalid_saml_response",
            SsoError::SamlExpired => "saml_assertion_expired",
            SsoError::SamlReplayed => "saml_assertion_replayed",
            SsoError::SamlUnsolicited => "saml_idp_initiated_off",
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

/// A SAML connection as the owner sees it.
#[derive(Clone, Debug)]
pub struct SamlView {
    pub idp_entity_id: String,
    pub sso_url: String,
    pub certificates: Vec<CertificateInfo>,
    pub metadata_url: Option<String>,
    /// None: the address is the NameID.
    pub email_attribute: Option<String>,
    pub allow_idp_initiated: bool,
}

/// What `GET /api/team/sso` shows the owner (never the secret).
#[derive(Clone, Debug)]
pub struct SsoView {
    pub configured: bool,
    /// The connection's protocol (`Oidc` when there is none).
    pub protocol: Protocol,
    /// The SAML connection, when it is one.
    pub saml: Option<SamlView>,
    /// Our SP's entity ID and ACS, to give the IdP (whatever the connection).
    pub sp_entity_id: String,
    pub acs_url: String,
    pub issuer: Option<String>,
    pub client_id: Option<String>,
    /// The claim that carries the address (`email` when not configured).
    pub email_claim: EmailClaim,
    pub required: bool,
    /// The redirect URI to register at the provider.
    pub redirect_uri: String,
    /// The team's verified domains whose addresses sign in by SSO.
    pub domains: Vec<String>,
    pub updated_at: Option<OffsetDateTime>,
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
    /// The owner's mail about a certificate's coming expiry (`upkeep`).
    mail: Composer,
}

impl Sso {
    /// `reach`: which provider addresses the server may fetch from (production: public only);
    /// `mail`'s base URL is ours (the redirect URI, the SP's entity ID and ACS).
    pub fn new(
        store: Store,
        clock: Clock,
        secrets: SecretBox,
        hasher: Hasher,
        sessions: Sessions,
        mail: Composer,
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
            base_url: mail.base_url().to_string(),
            mail,
        }
    }

    pub fn redirect_uri(&self) -> String {
        redirect_uri(&self.base_url)
    }

    /// The team whose SSO `actor` configures: the owner's (a member: their own team; anyone
    /// else: `team`).
    async fn owned_team(&self, actor: &Actor, team: Option<Uuid>) -> Result<Uuid, SsoError> {
        match acting_on(&self.store, actor, team, Action::ConfigureSso).await? {
            Some((team, role)) if may(role, Action::ConfigureSso) => Ok(team),
            Some(_) => Err(TeamsError::ForbiddenRole.into()),
            None => Err(TeamsError::TeamNotFound.into()),
        }
    }

    async fn view_of(&self, team_id: Uuid) -> Result<SsoView, SsoError> {
        let row = self.store.team_sso(team_id).await?;
        let protocol = row
            .as_ref()
            .and_then(|r| Protocol::parse(&r.protocol))
            .unwrap_or_default();
        let saml = match &row {
            Some(r) if protocol == Protocol::Saml => Some(SamlView {
                idp_entity_id: r.issuer.clone(),
                sso_url: r.authorization_endpoint.clone(),
                certificates: saml_login::certificates_of(r)?
                    .iter()
                    .map(|der| saml::certificate_info(der))
                    .collect::<anyhow::Result<_>>()?,
                metadata_url: r.saml_metadata_url.clone(),
                email_attribute: r.saml_email_attribute.clone(),
                allow_idp_initiated: r.saml_idp_initiated,
            }),
            _ => None,
        };
        Ok(SsoView {
            configured: row.is_some(),
            protocol,
            saml,
            sp_entity_id: saml_sp_entity_id(&self.base_url, team_id),
            acs_url: saml_acs_url(&self.base_url, team_id),
            issuer: row.as_ref().map(|r| r.issuer.clone()),
            client_id: row.as_ref().map(|r| r.client_id.clone()),
            email_claim: row
                .as_ref()
                .and_then(|r| EmailClaim::parse(&r.email_claim))
                .unwrap_or_default(),
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
}
