//! Opaque tokens (e-mail links, refresh tokens): 32 random bytes, base64url; only their SHA-256
//! is stored. A refresh token's successor is derived, not random: HMAC(key, parent). So when two
//! requests present the same token at once, the loser can hand back the very pair the winner
//! wrote, without the database ever holding a usable token.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::{Digest, Sha256};

pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

pub fn successor_token(key: &[u8], parent: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key length");
    mac.update(b"closewise-refresh-successor:");
    mac.update(parent.as_bytes());
    URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_tokens_differ_and_hash_to_hex() {
        let (a, b) = (random_token(), random_token());
        assert_ne!(a, b);
        assert_eq!(a.len(), 43);
        assert_eq!(hash_token(&a).len(), 64);
        assert_ne!(hash_token(&a), hash_token(&b));
    }

    #[test]
    fn a_successor_is_stable_for_its_parent_and_key() {
        let parent = random_token();
        assert_eq!(
            successor_token(b"k", &parent),
            successor_token(b"k", &parent)
        );
        assert_ne!(
            successor_token(b"k", &parent),
            successor_token(b"other", &parent)
        );
        assert_ne!(successor_token(b"k", &parent), parent);
    }
}
