//! Passkeys (WebAuthn): the relying party our pages are, how long a challenge lives, the sign
//! counter's rule and what a passkey may be named. The signatures are checked in core
//! (`closewise_core::passkeys::webauthn`); the rules they apply are these.

use time::{Duration, OffsetDateTime};
use url::Url;

/// How long a registration or sign-in challenge may be answered.
pub const CHALLENGE_TTL: Duration = Duration::minutes(5);

/// The longest passkey name, in characters.
pub const NAME_MAX_CHARS: usize = 64;

/// The relying party: its id (the host of `APP_BASE_URL`) and the origin a browser reports for
/// our pages (the scheme, host and port of `APP_BASE_URL`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelyingParty {
    pub id: String,
    pub origin: String,
}

impl RelyingParty {
    /// `None` unless `base_url` is an absolute http(s) URL with a host.
    pub fn from_base_url(base_url: &str) -> Option<RelyingParty> {
        let url = Url::parse(base_url).ok()?;
        if !matches!(url.scheme(), "http" | "https") {
            return None;
        }
        let id = url.host_str()?.trim_matches(['[', ']']).to_string();
        Some(RelyingParty {
            id,
            origin: url.origin().ascii_serialization(),
        })
    }
}

/// When a challenge made at `created_at` stops being answerable.
pub fn challenge_expiry(created_at: OffsetDateTime) -> OffsetDateTime {
    created_at + CHALLENGE_TTL
}

/// WebAuthn §6.1.1: an authenticator that counts must count up. A count of zero on both sides
/// means the authenticator does not count (passkeys synced between devices): accepted. Any other
/// count that does not go up is refused as a possible clone.
pub fn sign_count_acceptable(stored: u32, presented: u32) -> bool {
    (stored == 0 && presented == 0) || presented > stored
}

/// What a passkey's answer is used for, which decides whether it must show user verification
/// (the UV flag: the authenticator checked a PIN or a fingerprint, not only that someone touched it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PasskeyUse {
    /// Registering it: every passkey is discoverable, so it may later stand alone.
    Register,
    /// A sign-in with no password: the passkey is the whole proof.
    StandAlone,
    /// The second factor after the password (a sign-in's `mfa_token`, or step-up, which asks the
    /// password too): possession is the factor.
    SecondFactor,
}

/// A passkey stands alone only with user verification; as the second factor after the password,
/// presence is enough.
pub fn user_verification_required(r#use: PasskeyUse) -> bool {
    matches!(r#use, PasskeyUse::Register | PasskeyUse::StandAlone)
}

/// The name as stored (trimmed), or why it is refused.
pub fn passkey_name(raw: &str) -> Result<String, &'static str> {
    let name = raw.trim();
    if name.is_empty() {
        return Err("Give the passkey a name.");
    }
    if name.chars().count() > NAME_MAX_CHARS || name.chars().any(char::is_control) {
        return Err("A passkey name is at most 64 characters, without control characters.");
    }
    Ok(name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_passkey_that_stands_alone_needs_user_verification() {
        assert!(user_verification_required(PasskeyUse::Register));
        assert!(user_verification_required(PasskeyUse::StandAlone));
        assert!(!user_verification_required(PasskeyUse::SecondFactor));
    }
    use time::macros::datetime;

    #[test]
    fn the_relying_party_is_the_base_urls_host_and_origin() {
        let rp = RelyingParty::from_base_url("https://app.closewise.com/some/path").unwrap();
        assert_eq!(rp.id, "app.closewise.com");
        assert_eq!(rp.origin, "https://app.closewise.com");
        let rp = RelyingParty::from_base_url("http://localhost:8080/").unwrap();
        assert_eq!(
            (rp.id.as_str(), rp.origin.as_str()),
            ("localhost", "http://localhost:8080")
        );
        assert_eq!(RelyingParty::from_base_url("ftp://x.com"), None);
        assert_eq!(RelyingParty::from_base_url("not a url"), None);
    }

    #[test]
    fn a_challenge_lives_five_minutes() {
        let at = datetime!(2026-01-01 12:00 UTC);
        assert_eq!(challenge_expiry(at), datetime!(2026-01-01 12:05 UTC));
    }

    #[test]
    fn the_counter_must_go_up_unless_the_authenticator_does_not_count() {
        assert!(sign_count_acceptable(0, 0));
        assert!(sign_count_acceptable(0, 1));
        assert!(sign_count_acceptable(4, 5));
        assert!(!sign_count_acceptable(5, 5));
        assert!(!sign_count_acceptable(5, 4));
        assert!(!sign_count_acceptable(5, 0));
    }

    #[test]
    fn a_name_is_trimmed_non_empty_and_short() {
        assert_eq!(passkey_name("  MacBook  ").unwrap(), "MacBook");
        assert!(passkey_name("   ").is_err());
        assert!(passkey_name(&"x".repeat(65)).is_err());
        assert!(passkey_name(&"é".repeat(64)).is_ok());
        assert!(passkey_name("a\u{0}b").is_err());
    }
}
