//! The tokens a session is given: access tokens and entitlement tokens, both EdDSA (Ed25519) JWTs
//! signed by one key (`closewise_tokens` defines them, for the desktop app too). The key comes from
//! configuration; development generates one and keeps it under `data/`. Its public half is
//! published as a JWKS for the desktop app; the key also derives refresh tokens' successors.
//!
//! | file | what |
//! |---|---|
//! | `mod` | the key: loaded or made, signs and checks access tokens, signs entitlement tokens |
//! | `entitlement` | an entitlement token's claims from what the caller may do |
//! | `minted` | the last entitlement token of each session, answered again for a minute |

mod entitlement;
mod minted;

use std::path::Path;

use anyhow::Context;
use closewise_tokens::{access, Signer};
use ed25519_dalek::pkcs8::{DecodePrivateKey, EncodePrivateKey};
use ed25519_dalek::SigningKey;
use sha2::{Digest, Sha256};
use time::OffsetDateTime;

use crate::files::write_private;

pub use closewise_tokens::access::{AccessClaims, AUDIENCE as ACCESS_AUDIENCE};
pub use entitlement::EntitlementClaims;
pub use minted::MintedTokens;

#[derive(Clone)]
pub struct Keys {
    signer: Signer,
    issuer: String,
    /// Key for deriving refresh-token successors (`super::opaque_tokens`).
    refresh_key: Vec<u8>,
}

impl Keys {
    pub fn from_signing_key(key: SigningKey, issuer: &str) -> Keys {
        let mut refresh = Sha256::new();
        refresh.update(b"closewise-refresh-key:");
        refresh.update(key.to_bytes());
        Keys {
            signer: Signer::new(key),
            issuer: issuer.to_string(),
            refresh_key: refresh.finalize().to_vec(),
        }
    }

    pub fn from_pem(pem: &str, issuer: &str) -> anyhow::Result<Keys> {
        let key = SigningKey::from_pkcs8_pem(pem.trim())
            .context("JWT_PRIVATE_KEY must be an Ed25519 private key in PKCS#8 PEM")?;
        Ok(Self::from_signing_key(key, issuer))
    }

    pub fn generate(issuer: &str) -> anyhow::Result<Keys> {
        let key = SigningKey::generate(&mut rand::rngs::OsRng);
        Ok(Self::from_signing_key(key, issuer))
    }

    /// Loads the development key from `path`, creating it (mode 0600) on first start.
    pub fn load_or_create(path: &Path, issuer: &str) -> anyhow::Result<Keys> {
        if path.exists() {
            let pem = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            return Self::from_pem(&pem, issuer);
        }
        let key = SigningKey::generate(&mut rand::rngs::OsRng);
        // PKCS#8 v1 (private key only): the form OpenSSL and other tools read.
        let pem = ed25519_dalek::pkcs8::KeypairBytes {
            secret_key: key.to_bytes(),
            public_key: None,
        }
        .to_pkcs8_pem(Default::default())
        .context("cannot encode key")?;
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        write_private(path, pem.as_bytes())?;
        Ok(Self::from_signing_key(key, issuer))
    }

    pub fn issue(&self, claims: &AccessClaims) -> anyhow::Result<String> {
        self.signer.sign_access(claims).context("cannot sign token")
    }

    /// Checks signature, algorithm, issuer, audience and expiry (against `now`, our clock, so
    /// tests can move time).
    pub fn verify(&self, token: &str, now: OffsetDateTime) -> Option<AccessClaims> {
        let claims = access::verify(token, &self.signer, &self.issuer).ok()?;
        (claims.exp > now.unix_timestamp()).then_some(claims)
    }

    /// Signs an entitlement token: header `typ: entitlement+jwt` and the JWKS's `kid`.
    pub fn issue_entitlement(&self, claims: &EntitlementClaims) -> anyhow::Result<String> {
        self.signer
            .sign_entitlement(claims)
            .context("cannot sign the entitlement token")
    }

    pub fn jwks(&self) -> serde_json::Value {
        serde_json::to_value(self.signer.jwks()).expect("a JWKS is JSON")
    }

    pub fn refresh_key(&self) -> &[u8] {
        &self.refresh_key
    }

    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The key id published in the JWKS.
    pub fn kid(&self) -> &str {
        self.signer.kid()
    }
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
