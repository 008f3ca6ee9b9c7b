//! Single sign-on with OpenID Connect or SAML 2.0: which issuers a team may name, how long a
//! sign-in may take at the provider, the redirect URI the owner registers (OpenID) and our service
//! provider's entity ID and ACS URL (SAML), when an assertion's validity window holds, and whether
//! an address may sign in to a team (vouched for by the provider, at one of the team's verified
//! domains). Signatures, issuers, audiences and nonces are checked by the core service that holds
//! the keys; these are the rules that hold whatever the provider.

use time::{Duration, OffsetDateTime};
use url::Url;

/// How long a sign-in may stay at the provider before its callback is refused.
pub const LOGIN_TTL: Duration = Duration::minutes(10);

/// The clock skew an ID token's `exp` and `iat` are allowed.
pub const CLOCK_SKEW_SECONDS: u64 = 60;

/// The path the provider sends the browser back to.
pub const CALLBACK_PATH: &str = "/api/auth/sso/callback";

/// A team's connection: OpenID Connect or SAML 2.0, one at a time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Protocol {
    #[default]
    Oidc,
    Saml,
}

impl Protocol {
    pub fn as_str(self) -> &'static str {
        match self {
            Protocol::Oidc => "oidc",
            Protocol::Saml => "saml",
        }
    }

    pub fn parse(raw: &str) -> Option<Protocol> {
        match raw {
            "oidc" => Some(Protocol::Oidc),
            "saml" => Some(Protocol::Saml),
            _ => None,
        }
    }

    /// The protocol a request names: left out, OpenID Connect (the clients that predate SAML).
    pub fn requested(raw: Option<&str>) -> Option<Protocol> {
        raw.map_or(Some(Protocol::Oidc), Protocol::parse)
    }
}

/// The owner's OpenID Connect connection as asked: `client_secret` None keeps the stored one.
pub struct OidcSettings<'a> {
    pub issuer: &'a str,
    pub client_id: &'a str,
    pub client_secret: Option<&'a str>,
    /// [`EmailClaim`]'s name; None: `email`.
    pub email_claim: Option<&'a str>,
    pub required: bool,
}

/// The owner's SAML connection as asked: the IdP's metadata from `metadata_url` or
/// `metadata_xml` (one of the two).
pub struct SamlSettings<'a> {
    pub metadata_url: Option<&'a str>,
    pub metadata_xml: Option<&'a str>,
    /// None or empty: the NameID carries the address.
    pub email_attribute: Option<&'a str>,
    pub allow_idp_initiated: bool,
    pub required: bool,
}

/// A team's connection as the owner saves it: one protocol at a time.
pub enum SsoConnection<'a> {
    Oidc(OidcSettings<'a>),
    Saml(SamlSettings<'a>),
}

/// The clock skew a SAML assertion's `NotBefore` and `NotOnOrAfter` are allowed.
pub const SAML_CLOCK_SKEW: Duration = Duration::seconds(60);

/// How many signing certificates a SAML connection may hold: the one in use and its successor.
pub const MAX_SAML_CERTIFICATES: usize = 2;

/// How long before the IdP's certificate in use expires the team's owner is mailed (once).
pub const CERTIFICATE_WARNING: Duration = Duration::days(30);

/// How often SAML metadata given as a URL is read again.
pub const METADATA_REFRESH: Duration = Duration::days(1);

/// Whether the mail about a certificate valid until `not_after` is due: from
/// [`CERTIFICATE_WARNING`] before it ends (and after, when it ended unnoticed).
pub fn certificate_expiry_due(not_after: OffsetDateTime, now: OffsetDateTime) -> bool {
    now >= not_after - CERTIFICATE_WARNING
}

/// Whether metadata last read by the daily job at `checked_at` (None: never) is due another read.
pub fn metadata_refresh_due(checked_at: Option<OffsetDateTime>, now: OffsetDateTime) -> bool {
    checked_at.is_none_or(|at| now >= at + METADATA_REFRESH)
}

/// The certificates in use of those `configured` (fingerprints): the one that verified the last
/// accepted response (`last_used`) while it is configured; before that (or after a change of
/// certificates) every configured one, since any of them may be signing.
pub fn certificates_in_use<'a>(configured: &'a [String], last_used: Option<&str>) -> Vec<&'a str> {
    match configured.iter().find(|c| Some(c.as_str()) == last_used) {
        Some(used) => vec![used.as_str()],
        None => configured.iter().map(String::as_str).collect(),
    }
}

/// Our service provider's entity ID for a team: the URL of its metadata.
pub fn saml_sp_entity_id(base_url: &str, team_id: uuid::Uuid) -> String {
    format!(
        "{}/api/auth/saml/{team_id}/metadata",
        base_url.trim_end_matches('/')
    )
}

/// The team's assertion consumer service, where the IdP posts its responses.
pub fn saml_acs_url(base_url: &str, team_id: uuid::Uuid) -> String {
    format!(
        "{}/api/auth/saml/{team_id}/acs",
        base_url.trim_end_matches('/')
    )
}

/// Whether `now` is inside an assertion's validity window, each end widened by
/// [`SAML_CLOCK_SKEW`]: from `not_before` (when given) and before `not_on_or_after`, which a
/// bearer assertion must give.
pub fn saml_window_holds(
    now: OffsetDateTime,
    not_before: Option<OffsetDateTime>,
    not_on_or_after: Option<OffsetDateTime>,
) -> bool {
    let started = not_before.is_none_or(|nb| now >= nb - SAML_CLOCK_SKEW);
    let unexpired = not_on_or_after.is_some_and(|end| now < end + SAML_CLOCK_SKEW);
    started && unexpired
}

/// What password sign-in, reset and sign-up answer (`403 sso_required`) for an address whose
/// company requires SSO.
pub const SSO_REQUIRED_MESSAGE: &str =
    "Your company signs in with single sign-on. Continue with SSO to sign in.";

/// When a sign-in started at `now` can no longer finish.
pub fn login_expires_at(now: OffsetDateTime) -> OffsetDateTime {
    now + LOGIN_TTL
}

/// The redirect URI to register at the provider, from `APP_BASE_URL`.
pub fn redirect_uri(base_url: &str) -> String {
    format!("{}{CALLBACK_PATH}", base_url.trim_end_matches('/'))
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IssuerError {
    #[error("The issuer must be an https URL (http only for a provider on this machine).")]
    NotHttps,
    #[error("The issuer is not a URL.")]
    Invalid,
    /// A loopback, link-local, private or otherwise non-public address (a name resolving to one
    /// included), refused in production.
    #[error("The identity provider must be at a public https address: loopback, link-local and private addresses are refused.")]
    NotPublic,
}

/// Which addresses the server may fetch a provider's documents from. In production only public
/// ones (`crate::network::is_public_address`), over https, checked again after every DNS
/// resolution; in development also a provider on this machine or the local network (plain http
/// only on a loopback host).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProviderReach {
    PublicOnly,
    Local,
}

impl ProviderReach {
    /// Whether a resolved address of a provider may be connected to.
    pub fn allows(self, ip: std::net::IpAddr) -> bool {
        self == ProviderReach::Local || crate::network::is_public_address(ip)
    }
}

/// A provider URL (the issuer or an endpoint its discovery document names) the server may fetch
/// under `reach`: an http(s) URL with a host and no credentials; https, or http on a loopback
/// host in development; in production an IP literal must be public (a name is checked by the
/// caller once resolved, every time: `ProviderReach::allows`).
pub fn provider_url(raw: &str, reach: ProviderReach) -> Result<Url, IssuerError> {
    let url = Url::parse(raw.trim()).map_err(|_| IssuerError::Invalid)?;
    if url.host().is_none() || !url.username().is_empty() || url.password().is_some() {
        return Err(IssuerError::Invalid);
    }
    let literal = match url.host() {
        Some(url::Host::Ipv4(ip)) => Some(std::net::IpAddr::V4(ip)),
        Some(url::Host::Ipv6(ip)) => Some(std::net::IpAddr::V6(ip)),
        _ => None,
    };
    let localhost = matches!(url.host(), Some(url::Host::Domain(d))
        if d.eq_ignore_ascii_case("localhost") || d.to_ascii_lowercase().ends_with(".localhost"));
    let loopback =
        localhost || literal.is_some_and(|ip| crate::network::canonical(ip).is_loopback());
    match (url.scheme(), reach) {
        ("https", _) => {}
        ("http", ProviderReach::Local) if loopback => {}
        _ => return Err(IssuerError::NotHttps),
    }
    if literal.is_some_and(|ip| !reach.allows(ip)) {
        return Err(IssuerError::NotPublic);
    }
    Ok(url)
}

/// The issuer as the provider must name itself: a [`provider_url`] under `reach` without query
/// or fragment, no trailing slash.
pub fn parse_issuer(raw: &str, reach: ProviderReach) -> Result<String, IssuerError> {
    let raw = raw.trim();
    let url = provider_url(raw, reach)?;
    if url.query().is_some() || url.fragment().is_some() {
        return Err(IssuerError::Invalid);
    }
    Ok(raw.trim_end_matches('/').to_string())
}

/// The claim that carries a person's address, as the owner chooses it: `email` (the default,
/// which the provider must vouch for with `email_verified`), or, as Microsoft Entra ID sends it
/// when not configured to send `email`, `preferred_username` or `upn` (the sign-in name, an
/// address at the tenant's domains, whose verification is the provider's own: `email_verified`
/// is not asked for).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EmailClaim {
    #[default]
    Email,
    PreferredUsername,
    Upn,
}

impl EmailClaim {
    pub const ALL: [EmailClaim; 3] = [
        EmailClaim::Email,
        EmailClaim::PreferredUsername,
        EmailClaim::Upn,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            EmailClaim::Email => "email",
            EmailClaim::PreferredUsername => "preferred_username",
            EmailClaim::Upn => "upn",
        }
    }

    /// One of the names above, exactly.
    pub fn parse(raw: &str) -> Option<EmailClaim> {
        EmailClaim::ALL.into_iter().find(|c| c.as_str() == raw)
    }

    /// Whether the provider must say `email_verified: true` of the address.
    pub fn needs_verified_flag(self) -> bool {
        self == EmailClaim::Email
    }
}

/// Why an ID token's person may not sign in to the team.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IdentityRefusal {
    #[error("Your identity provider did not confirm your e-mail address.")]
    EmailNotVerified,
    #[error("Your e-mail address is not at one of your team's verified domains.")]
    DomainNotVerified,
}

/// Whether the person an ID token names may sign in to a team whose verified domains are
/// `verified_domains`: the provider vouched for the address (`email_verified` true, not merely
/// absent, when it came in `email`) and it is at one of them.
pub fn check_identity(
    email: &crate::email::Email,
    email_verified: Option<bool>,
    claim: EmailClaim,
    verified_domains: &[String],
) -> Result<(), IdentityRefusal> {
    if claim.needs_verified_flag() && email_verified != Some(true) {
        return Err(IdentityRefusal::EmailNotVerified);
    }
    check_domain(email, verified_domains)
}

/// Whether an address a provider vouched for (a SAML assertion's) is at one of the team's verified
/// domains.
pub fn check_domain(
    email: &crate::email::Email,
    verified_domains: &[String],
) -> Result<(), IdentityRefusal> {
    if !verified_domains.iter().any(|d| d == email.domain()) {
        return Err(IdentityRefusal::DomainNotVerified);
    }
    Ok(())
}

/// What a person sees when SSO would make them a member but no seat is free.
pub fn no_free_seat_message(total: u32) -> String {
    format!("All {total} seats are taken. Ask your team's owner to add seats.")
}

#[cfg(test)]
#[path = "sso_tests.rs"]
mod tests;
