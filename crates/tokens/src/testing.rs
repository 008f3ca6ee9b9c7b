//! Test keys: a fresh Ed25519 key, its JWKS, and tokens signed the way the server signs them, or
//! with any header (what a forger would send).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use ed25519_dalek::{Signer as _, SigningKey};
use serde_json::{json, Value};

use crate::jwks::{Jwk, Jwks};
use crate::{access, entitlement};

pub const ISSUER: &str = "http://localhost:8080";

pub struct TestKey {
    pub key: SigningKey,
    pub kid: String,
}

impl TestKey {
    pub fn generate(kid: &str) -> TestKey {
        TestKey {
            key: SigningKey::from_bytes(&rand::random()),
            kid: kid.into(),
        }
    }

    pub fn jwks(&self) -> Jwks {
        Jwks {
            keys: vec![Jwk::ed25519(&self.key.verifying_key(), &self.kid)],
        }
    }

    pub fn sign_raw(&self, header: &Value, claims: &Value) -> String {
        let h = URL_SAFE_NO_PAD.encode(header.to_string());
        let p = URL_SAFE_NO_PAD.encode(claims.to_string());
        let sig = self.key.sign(format!("{h}.{p}").as_bytes());
        format!("{h}.{p}.{}", URL_SAFE_NO_PAD.encode(sig.to_bytes()))
    }

    /// An entitlement token of these claims.
    pub fn sign(&self, claims: &Value) -> String {
        let header = json!({"alg": "EdDSA", "typ": entitlement::TYP, "kid": self.kid});
        self.sign_raw(&header, claims)
    }

    /// An access token of session `sid` of user `sub` from [`ISSUER`] (expired: it only names
    /// the session).
    pub fn access_token(&self, sub: &str, sid: &str) -> String {
        self.access_token_of(sub, sid, ISSUER)
    }

    pub fn access_token_of(&self, sub: &str, sid: &str, issuer: &str) -> String {
        let header = json!({"alg": "EdDSA", "typ": access::TYP, "kid": self.kid});
        let claims = json!({"sub": sub, "sid": sid, "email": "ana@example.com",
            "email_verified": true, "iat": 1, "exp": 2, "iss": issuer, "aud": access::AUDIENCE});
        self.sign_raw(&header, &claims)
    }
}
