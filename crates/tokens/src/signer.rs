//! The server's side: one Ed25519 key signs both tokens under one `kid`, the first 8 bytes of the
//! SHA-256 of its public key (hex), which the JWKS publishes.

use ed25519_dalek::{SigningKey, VerifyingKey};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::access::{self, AccessClaims};
use crate::entitlement::{self, EntitlementClaims};
use crate::jwks::{Jwk, Jwks};
use crate::jws::{self, KeySet};

#[derive(Clone)]
pub struct Signer {
    key: SigningKey,
    public: VerifyingKey,
    kid: String,
}

impl Signer {
    pub fn new(key: SigningKey) -> Signer {
        let public = key.verifying_key();
        let kid = Sha256::digest(public.to_bytes())[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        Signer { key, public, kid }
    }

    /// The key id the JWKS publishes and every token's header names.
    pub fn kid(&self) -> &str {
        &self.kid
    }

    pub fn signing_key(&self) -> &SigningKey {
        &self.key
    }

    pub fn jwks(&self) -> Jwks {
        Jwks {
            keys: vec![Jwk::ed25519(&self.public, &self.kid)],
        }
    }

    /// An access token: header `typ: JWT`.
    pub fn sign_access(&self, claims: &AccessClaims) -> serde_json::Result<String> {
        jws::sign(&self.key, access::TYP, &self.kid, claims)
    }

    /// An entitlement token: header `typ: entitlement+jwt`.
    pub fn sign_entitlement<P: Serialize>(
        &self,
        claims: &EntitlementClaims<P>,
    ) -> serde_json::Result<String> {
        jws::sign(&self.key, entitlement::TYP, &self.kid, claims)
    }
}

/// The signer verifies its own tokens without a JWKS.
impl KeySet for Signer {
    fn key(&self, kid: &str) -> Option<VerifyingKey> {
        (kid == self.kid).then_some(self.public)
    }
}
