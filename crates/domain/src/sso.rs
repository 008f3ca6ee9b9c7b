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
}

/// The clock skew a SAML assertion's `NotBefore` and `NotOnOrAfter` are allowed.
pub const SAML_CLOCK_SKEW: Duration = Duration::seconds(60);

/// How many signing certificates a SAML connection may hold: the one in use and its successor.
pub const MAX_SAML_CERTIFICATES: usize = 2;

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
mod tests {
    use super::*;
    use crate::email::Email;

    use ProviderReach::{Local, PublicOnly};

    #[test]
    fn issuers_are_https_or_a_provider_on_this_machine() {
        for reach in [Local, PublicOnly] {
            assert_eq!(
                parse_issuer(" https://login.acme.example/ ", reach).unwrap(),
                "https://login.acme.example"
            );
            assert_eq!(
                parse_issuer("https://idp.example/realms/acme", reach).unwrap(),
                "https://idp.example/realms/acme"
            );
        }
        assert!(parse_issuer("http://127.0.0.1:4000", Local).is_ok());
        assert!(parse_issuer("http://localhost:4000/oidc", Local).is_ok());
        assert_eq!(
            parse_issuer("http://idp.example", Local),
            Err(IssuerError::NotHttps)
        );
        for bad in [
            "idp.example",
            "https://u:p@idp.example",
            "https://idp.example/?x=1",
            "https://idp.example/#x",
            "javascript:alert(1)",
        ] {
            assert!(parse_issuer(bad, Local).is_err(), "{bad}");
        }
        assert_eq!(
            parse_issuer("ftp://idp.example", Local),
            Err(IssuerError::NotHttps)
        );
    }

    #[test]
    fn production_reaches_only_public_https_providers() {
        for local in [
            "http://127.0.0.1:4000",
            "http://localhost:4000/oidc",
            "http://[::1]:4000",
        ] {
            assert!(parse_issuer(local, Local).is_ok(), "{local}");
            assert_eq!(
                parse_issuer(local, PublicOnly),
                Err(IssuerError::NotHttps),
                "{local}"
            );
        }
        for private in [
            "https://127.0.0.1",
            "https://[::1]",
            "https://10.1.2.3",
            "https://172.16.0.9",
            "https://192.168.1.1",
            "https://169.254.169.254",
            "https://0.0.0.0",
            "https://[fd00::1]",
            "https://[fe80::1]",
            "https://[::ffff:127.0.0.1]",
            "https://[::ffff:10.0.0.1]",
        ] {
            assert_eq!(
                parse_issuer(private, PublicOnly),
                Err(IssuerError::NotPublic),
                "{private}"
            );
            assert!(parse_issuer(private, Local).is_ok(), "{private}");
        }
        assert!(parse_issuer("https://93.184.215.14", PublicOnly).is_ok());
        assert!(PublicOnly.allows("8.8.8.8".parse().unwrap()));
        assert!(!PublicOnly.allows("10.0.0.1".parse().unwrap()));
        assert!(Local.allows("10.0.0.1".parse().unwrap()));
        assert!(provider_url("https://idp.example/token?x=1", PublicOnly).is_ok());
        assert_eq!(
            provider_url("http://idp.example/jwks", PublicOnly).map(|_| ()),
            Err(IssuerError::NotHttps)
        );
    }

    #[test]
    fn only_a_provider_verified_address_at_a_verified_domain_signs_in() {
        let domains = vec!["acme.example".to_string()];
        let ana = Email::parse("ana@acme.example").unwrap();
        assert_eq!(
            check_identity(&ana, Some(true), EmailClaim::Email, &domains),
            Ok(())
        );
        assert_eq!(
            check_identity(&ana, None, EmailClaim::Email, &domains),
            Err(IdentityRefusal::EmailNotVerified)
        );
        assert_eq!(
            check_identity(&ana, Some(false), EmailClaim::Email, &domains),
            Err(IdentityRefusal::EmailNotVerified)
        );
        let sub = Email::parse("bo@eu.acme.example").unwrap();
        assert_eq!(
            check_identity(&sub, Some(true), EmailClaim::Email, &domains),
            Err(IdentityRefusal::DomainNotVerified)
        );
        assert_eq!(
            check_identity(&ana, Some(true), EmailClaim::Email, &[]),
            Err(IdentityRefusal::DomainNotVerified)
        );
    }

    #[test]
    fn a_sign_in_name_claim_needs_no_verified_flag_but_a_verified_domain() {
        let domains = vec!["acme.example".to_string()];
        let ana = Email::parse("ana@acme.example").unwrap();
        for claim in [EmailClaim::Upn, EmailClaim::PreferredUsername] {
            assert_eq!(check_identity(&ana, None, claim, &domains), Ok(()));
            let other = Email::parse("ana@other.example").unwrap();
            assert_eq!(
                check_identity(&other, None, claim, &domains),
                Err(IdentityRefusal::DomainNotVerified)
            );
        }
        assert_eq!(EmailClaim::default(), EmailClaim::Email);
        for claim in EmailClaim::ALL {
            assert_eq!(EmailClaim::parse(claim.as_str()), Some(claim));
        }
        assert_eq!(EmailClaim::parse("mail"), None);
        assert_eq!(EmailClaim::parse("Email"), None);
    }

    #[test]
    fn an_assertion_holds_inside_its_window_with_a_minute_of_skew() {
        let now = OffsetDateTime::UNIX_EPOCH + Duration::days(1);
        let m = Duration::minutes;
        assert!(saml_window_holds(now, Some(now - m(1)), Some(now + m(5))));
        assert!(saml_window_holds(now, None, Some(now + m(5))));
        assert!(
            !saml_window_holds(now, Some(now - m(1)), None),
            "a bearer assertion must end"
        );
        assert!(saml_window_holds(
            now,
            Some(now + Duration::seconds(59)),
            Some(now + m(5))
        ));
        assert!(!saml_window_holds(
            now,
            Some(now + Duration::seconds(61)),
            Some(now + m(5))
        ));
        assert!(saml_window_holds(
            now,
            None,
            Some(now - Duration::seconds(59))
        ));
        assert!(!saml_window_holds(now, None, Some(now - m(1))));
        assert!(!saml_window_holds(now, None, Some(now - m(10))));
    }

    #[test]
    fn a_teams_service_provider_lives_under_its_id() {
        let team = uuid::Uuid::nil();
        assert_eq!(
            saml_sp_entity_id("http://localhost:8080/", team),
            format!("http://localhost:8080/api/auth/saml/{team}/metadata")
        );
        assert_eq!(
            saml_acs_url("https://app.closewise.example", team),
            format!("https://app.closewise.example/api/auth/saml/{team}/acs")
        );
        assert_eq!(Protocol::parse("saml"), Some(Protocol::Saml));
        assert_eq!(Protocol::parse("oidc"), Some(Protocol::Oidc));
        assert_eq!(Protocol::parse("SAML"), None);
        assert_eq!(Protocol::default().as_str(), "oidc");
    }

    #[test]
    fn a_sign_in_lasts_ten_minutes_and_lands_on_our_callback() {
        let now = OffsetDateTime::UNIX_EPOCH;
        assert_eq!(login_expires_at(now) - now, Duration::minutes(10));
        assert_eq!(
            redirect_uri("http://localhost:8080/"),
            "http://localhost:8080/api/auth/sso/callback"
        );
        assert_eq!(
            no_free_seat_message(3),
            "All 3 seats are taken. Ask your team's owner to add seats."
        );
    }
}
