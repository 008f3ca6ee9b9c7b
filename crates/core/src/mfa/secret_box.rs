//! The TOTP secret at rest: ChaCha20-Poly1305 under `MFA_ENCRYPTION_KEY` (32 bytes), a random
//! 96-bit nonce per secret, the account's id as associated data (a ciphertext moved to another
//! account does not open). Stored as base64(nonce || ciphertext).
//!
//! The same key, through a one-way derivation, keys the HMAC-SHA256 that recovery codes are stored
//! under ([`SecretBox::mac_hex`]): the database alone never holds what a code can be tried against.

use crate::files::write_private;
use std::path::Path;
use std::sync::Arc;

use anyhow::{bail, Context};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use hmac::{Hmac, Mac};
use rand::RngCore;
use uuid::Uuid;

const NONCE_LEN: usize = 12;

/// What the MAC key is derived for: another purpose of the same key would use another label.
const MAC_LABEL: &[u8] = b"closewise recovery-code hmac-sha256 v1";

#[derive(Clone)]
pub struct SecretBox {
    cipher: Arc<ChaCha20Poly1305>,
    /// HMAC-SHA256(key, `MAC_LABEL`): the MAC key, never the encryption key itself.
    mac: Arc<Hmac<sha2::Sha256>>,
}

impl std::fmt::Debug for SecretBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretBox(..)")
    }
}

impl SecretBox {
    pub fn new(key: &[u8; 32]) -> Self {
        let mut derive =
            <Hmac<sha2::Sha256> as Mac>::new_from_slice(key).expect("HMAC takes a key of any size");
        derive.update(MAC_LABEL);
        let mac_key = derive.finalize().into_bytes();
        SecretBox {
            cipher: Arc::new(ChaCha20Poly1305::new(&Key::from(*key))),
            mac: Arc::new(
                <Hmac<sha2::Sha256> as Mac>::new_from_slice(&mac_key)
                    .expect("HMAC takes a key of any size"),
            ),
        }
    }

    /// HMAC-SHA256 of `data` under the key derived from this box's key, hex: another key (another
    /// deployment) gives another value, and nobody without the key can test guesses against it.
    pub fn mac_hex(&self, data: &[u8]) -> String {
        let mut mac = (*self.mac).clone();
        mac.update(data);
        hex::encode(mac.finalize().into_bytes())
    }

    /// From `MFA_ENCRYPTION_KEY`: base64 (standard or URL-safe) of exactly 32 bytes.
    pub fn from_base64(text: &str) -> anyhow::Result<Self> {
        let text = text.trim();
        let bytes = STANDARD
            .decode(text)
            .or_else(|_| base64::engine::general_purpose::URL_SAFE.decode(text))
            .or_else(|_| base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(text))
            .context("MFA_ENCRYPTION_KEY must be base64 (e.g. `openssl rand -base64 32`)")?;
        let key: [u8; 32] = bytes.try_into().map_err(|b: Vec<u8>| {
            anyhow::anyhow!("MFA_ENCRYPTION_KEY must be 32 bytes, not {}", b.len())
        })?;
        Ok(SecretBox::new(&key))
    }

    /// Development: the key kept in `path` (base64), created on first use (mode 0600).
    pub fn load_or_create(path: &Path) -> anyhow::Result<Self> {
        if let Ok(text) = std::fs::read_to_string(path) {
            return Self::from_base64(&text)
                .with_context(|| format!("the MFA key in {}", path.display()));
        }
        let mut key = [0u8; 32];
        rand::thread_rng().fill_bytes(&mut key);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        write_private(path, STANDARD.encode(key).as_bytes())?;
        Ok(SecretBox::new(&key))
    }

    pub fn seal(&self, user_id: Uuid, secret: &[u8]) -> String {
        let mut nonce = [0u8; NONCE_LEN];
        rand::thread_rng().fill_bytes(&mut nonce);
        let sealed = self
            .cipher
            .encrypt(
                &Nonce::from(nonce),
                Payload {
                    msg: secret,
                    aad: user_id.as_bytes(),
                },
            )
            .expect("ChaCha20-Poly1305 encrypts any length we use");
        let mut out = nonce.to_vec();
        out.extend(sealed);
        STANDARD.encode(out)
    }

    pub fn open(&self, user_id: Uuid, sealed: &str) -> anyhow::Result<Vec<u8>> {
        let bytes = STANDARD
            .decode(sealed)
            .context("a stored TOTP secret is not base64")?;
        if bytes.len() <= NONCE_LEN {
            bail!("a stored TOTP secret is too short");
        }
        let (nonce, ciphertext) = bytes.split_at(NONCE_LEN);
        let nonce: [u8; NONCE_LEN] = nonce.try_into().expect("split at NONCE_LEN");
        self.cipher
            .decrypt(
                &Nonce::from(nonce),
                Payload {
                    msg: ciphertext,
                    aad: user_id.as_bytes(),
                },
            )
            .map_err(|_| {
                anyhow::anyhow!("a stored TOTP secret does not open with MFA_ENCRYPTION_KEY")
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_secret_opens_for_its_account_only_and_under_its_key_only() {
        let b = SecretBox::new(&[7; 32]);
        let (ana, bo) = (Uuid::now_v7(), Uuid::now_v7());
        let sealed = b.seal(ana, b"twenty bytes secret!");
        assert_ne!(
            sealed,
            b.seal(ana, b"twenty bytes secret!"),
            "a fresh nonce each time"
        );
        assert!(!sealed.contains("twenty"));
        assert_eq!(b.open(ana, &sealed).unwrap(), b"twenty bytes secret!");
        assert!(b.open(bo, &sealed).is_err());
        assert!(SecretBox::new(&[8; 32]).open(ana, &sealed).is_err());
        assert!(b.open(ana, "AAAA").is_err());
    }

    #[test]
    fn the_mac_depends_on_the_key_and_is_neither_the_key_nor_a_plain_hash() {
        use sha2::Digest;
        let b = SecretBox::new(&[7; 32]);
        let mac = b.mac_hex(b"abcdefghjk");
        assert_eq!(mac.len(), 64);
        assert_eq!(mac, SecretBox::new(&[7; 32]).mac_hex(b"abcdefghjk"));
        assert_ne!(mac, SecretBox::new(&[8; 32]).mac_hex(b"abcdefghjk"));
        assert_ne!(mac, b.mac_hex(b"abcdefghjm"));
        assert_ne!(mac, hex::encode(sha2::Sha256::digest(b"abcdefghjk")));
        let mut direct = <Hmac<sha2::Sha256> as Mac>::new_from_slice(&[7; 32]).unwrap();
        direct.update(b"abcdefghjk");
        assert_ne!(
            mac,
            hex::encode(direct.finalize().into_bytes()),
            "a derived key"
        );
    }

    #[test]
    fn keys_are_32_bytes_of_base64_and_development_keeps_one_in_a_file() {
        assert!(SecretBox::from_base64(&STANDARD.encode([1u8; 32])).is_ok());
        assert!(SecretBox::from_base64(&STANDARD.encode([1u8; 16])).is_err());
        assert!(SecretBox::from_base64("not base64!").is_err());
        let dir = std::env::temp_dir().join(format!("closewise-mfa-key-{}", Uuid::now_v7()));
        let path = dir.join("mfa-encryption.key");
        let first = SecretBox::load_or_create(&path).unwrap();
        let sealed = first.seal(Uuid::nil(), b"x");
        let again = SecretBox::load_or_create(&path).unwrap();
        assert_eq!(again.open(Uuid::nil(), &sealed).unwrap(), b"x");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
