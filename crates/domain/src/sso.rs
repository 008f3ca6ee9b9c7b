//! Single sign-on with OpenID Connect: which issuers a team may name, how long a
//! sign-in may take at the provider, the redirect URI the owner registers, and whether an ID
//! token's address may sign in to a team (verified by the provider, at one of the team's verified
//! domains). The token's signature, issuer, audience, nonce and expiry are checked by the core
//! service that holds the keys; these are the rules that hold whatever the provider.

use time::{Duration, OffsetDateTime};
use url::Url;

/// How long a sign-in may stay at the provider before its callback is refused.
pub const LOGIN_TTL: Duration = Duration::minutes(10);

/// The clock skew an ID token's `exp` and `iat` are allowed.
pub const CLOCK_SKEW_SECONDS: u64 = 60;

/// The path the provider sends the browser back to.
pub const CALLBACK_PATH: &str = "/api/auth/sso/callback";

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
/// absent) and it is at one of them.
pub fn check_identity(
    email: &crate::email::Email,
    email_verified: Option<bool>,
    verified_domains: &[String],
) -> Result<(), IdentityRefusal> {
    if email_verified != Some(true) {
        return Err(IdentityRefusal::EmailNotVerified);
    }
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
        assert_eq!(check_identity(&ana, Some(true), &domains), Ok(()));
        assert_eq!(
            check_identity(&ana, None, &domains),
            Err(IdentityRefusal::EmailNotVerified)
        );
        assert_eq!(
            check_identity(&ana, Some(false), &domains),
            Err(IdentityRefusal::EmailNotVerified)
        );
        let sub = Email::parse("bo@eu.acme.example").unwrap();
        assert_eq!(
            check_identity(&sub, Some(true), &domains),
            Err(IdentityRefusal::DomainNotVerified)
        );
        assert_eq!(
            check_identity(&ana, Some(true), &[]),
            Err(IdentityRefusal::DomainNotVerified)
        );
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
