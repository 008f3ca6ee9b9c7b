//! PKCE (RFC 7636, S256 only) and the random `state` of a browser sign-in.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// A code verifier and its S256 challenge.
#[derive(Clone)]
pub struct Pkce {
    verifier: String,
    challenge: String,
}

impl Pkce {
    /// A fresh verifier: 32 random bytes, base64url, so 43 characters (the minimum RFC 7636 allows
    /// and what the server's `code_challenge` check expects the challenge to be).
    pub fn generate() -> Pkce {
        Pkce::from_verifier(random_urlsafe(32))
    }

    pub fn from_verifier(verifier: String) -> Pkce {
        let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
        Pkce {
            verifier,
            challenge,
        }
    }

    pub fn verifier(&self) -> &str {
        &self.verifier
    }

    pub fn challenge(&self) -> &str {
        &self.challenge
    }
}

impl std::fmt::Debug for Pkce {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pkce")
            .field("challenge", &self.challenge)
            .finish_non_exhaustive()
    }
}

/// A random `state` for one sign-in attempt (128 bits, base64url).
pub fn random_state() -> String {
    random_urlsafe(16)
}

fn random_urlsafe(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rngs::OsRng.fill_bytes(&mut buf);
    URL_SAFE_NO_PAD.encode(buf)
}

/// Compares two strings in time that does not depend on where they first differ.
pub(crate) fn constant_time_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_challenge_of_the_rfc_7636_appendix_b_verifier_is_the_rfc_s() {
        let pkce = Pkce::from_verifier("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk".into());
        assert_eq!(
            pkce.challenge(),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }

    #[test]
    fn a_generated_verifier_is_43_unreserved_characters_and_new_each_time() {
        let a = Pkce::generate();
        let b = Pkce::generate();
        assert_eq!(a.verifier().len(), 43);
        assert_eq!(a.challenge().len(), 43);
        assert!(a
            .verifier()
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        assert_ne!(a.verifier(), b.verifier());
        assert_ne!(random_state(), random_state());
    }

    #[test]
    fn the_verifier_never_shows_in_debug_output() {
        let pkce = Pkce::from_verifier("secret-verifier-value-0123456789abcdefghijk".into());
        assert!(!format!("{pkce:?}").contains("secret-verifier"));
    }

    #[test]
    fn states_compare_equal_only_when_identical() {
        assert!(constant_time_eq("abc", "abc"));
        assert!(!constant_time_eq("abc", "abd"));
        assert!(!constant_time_eq("abc", "abcd"));
    }
}
