//! Access tokens: EdDSA (Ed25519) JWTs. The key comes from configuration; development generates
//! one and keeps it under `data/`. The public key is published as a JWKS for the desktop app.

use closewise_core::files::write_private;
use std::path::Path;

use anyhow::Context;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use ed25519_dalek::pkcs8::{DecodePrivateKey, EncodePrivateKey};
use ed25519_dalek::SigningKey;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use time::OffsetDateTime;
use uuid::Uuid;

pub const AUDIENCE: &str = "closewise";

#[derive(Debug, Serialize, Deserialize, Clone)]
pub struct Claims {
    pub sub: Uuid,
    pub sid: Uuid,
    pub email: String,
    pub email_verified: bool,
    pub iat: i64,
    pub exp: i64,
    pub iss: String,
    pub aud: String,
}

#[derive(Clone)]
pub struct Keys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    kid: String,
    public_x: String,
    issuer: String,
    /// Key for deriving refresh-token successors (see `tokens`).
    refresh_key: Vec<u8>,
}

impl Keys {
    pub fn from_signing_key(key: &SigningKey, issuer: &str) -> anyhow::Result<Keys> {
        let pem = key
            .to_pkcs8_pem(Default::default())
            .context("cannot encode the signing key")?;
        let encoding = EncodingKey::from_ed_pem(pem.as_bytes()).context("bad Ed25519 key")?;
        let public = key.verifying_key().to_bytes();
        let public_x = URL_SAFE_NO_PAD.encode(public);
        let decoding =
            DecodingKey::from_ed_components(&public_x).context("bad Ed25519 public key")?;
        let kid = hex::encode(&Sha256::digest(public)[..8]);
        let mut refresh = Sha256::new();
        refresh.update(b"closewise-refresh-key:");
        refresh.update(key.to_bytes());
        Ok(Keys {
            encoding,
            decoding,
            kid,
            public_x,
            issuer: issuer.to_string(),
            refresh_key: refresh.finalize().to_vec(),
        })
    }

    pub fn from_pem(pem: &str, issuer: &str) -> anyhow::Result<Keys> {
        let key = SigningKey::from_pkcs8_pem(pem.trim())
            .context("JWT_PRIVATE_KEY must be an Ed25519 private key in PKCS#8 PEM")?;
        Self::from_signing_key(&key, issuer)
    }

    pub fn generate(issuer: &str) -> anyhow::Result<Keys> {
        let key = SigningKey::generate(&mut rand::rngs::OsRng);
        Self::from_signing_key(&key, issuer)
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
        Self::from_signing_key(&key, issuer)
    }

    pub fn issue(&self, claims: &Claims) -> anyhow::Result<String> {
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = Some(self.kid.clone());
        jsonwebtoken::encode(&header, claims, &self.encoding).context("cannot sign token")
    }

    /// Checks signature, algorithm, issuer, audience and expiry (against `now`, our clock).
    pub fn verify(&self, token: &str, now: OffsetDateTime) -> Option<Claims> {
        let mut validation = Validation::new(Algorithm::EdDSA);
        validation.set_audience(&[AUDIENCE]);
        validation.set_issuer(&[&self.issuer]);
        validation.set_required_spec_claims(&["exp", "iat", "sub", "iss", "aud"]);
        // Expiry is checked below against the injected clock, so tests can move time.
        validation.validate_exp = false;
        let data = jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation).ok()?;
        (data.claims.exp > now.unix_timestamp()).then_some(data.claims)
    }

    pub fn jwks(&self) -> serde_json::Value {
        serde_json::json!({
            "keys": [{
                "kty": "OKP",
                "crv": "Ed25519",
                "x": self.public_x,
                "kid": self.kid,
                "alg": "EdDSA",
                "use": "sig",
            }]
        })
    }

    pub fn refresh_key(&self) -> &[u8] {
        &self.refresh_key
    }

    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The key id published in the JWKS.
    pub fn kid(&self) -> &str {
        &self.kid
    }

    pub(crate) fn encoding_key(&self) -> &EncodingKey {
        &self.encoding
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claims(now: OffsetDateTime, iss: &str) -> Claims {
        Claims {
            sub: Uuid::now_v7(),
            sid: Uuid::now_v7(),
            email: "ana@example.com".into(),
            email_verified: true,
            iat: now.unix_timestamp(),
            exp: now.unix_timestamp() + 3600,
            iss: iss.into(),
            aud: AUDIENCE.into(),
        }
    }

    #[test]
    fn a_token_verifies_until_it_expires() {
        let keys = Keys::generate("http://localhost:8080").unwrap();
        let now = OffsetDateTime::now_utc();
        let token = keys.issue(&claims(now, "http://localhost:8080")).unwrap();
        assert!(keys.verify(&token, now).is_some());
        assert!(keys
            .verify(&token, now + time::Duration::hours(2))
            .is_none());
    }

    #[test]
    fn another_keys_token_is_refused() {
        let ours = Keys::generate("http://localhost:8080").unwrap();
        let theirs = Keys::generate("http://localhost:8080").unwrap();
        let now = OffsetDateTime::now_utc();
        let token = theirs.issue(&claims(now, "http://localhost:8080")).unwrap();
        assert!(ours.verify(&token, now).is_none());
    }

    #[test]
    fn a_token_for_another_issuer_is_refused() {
        let keys = Keys::generate("http://localhost:8080").unwrap();
        let now = OffsetDateTime::now_utc();
        let token = keys.issue(&claims(now, "https://evil.example")).unwrap();
        assert!(keys.verify(&token, now).is_none());
    }

    #[test]
    fn an_unsigned_alg_none_token_is_refused() {
        let keys = Keys::generate("http://localhost:8080").unwrap();
        let now = OffsetDateTime::now_utc();
        let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"none","typ":"JWT"}"#);
        let body = URL_SAFE_NO_PAD
            .encode(serde_json::to_vec(&claims(now, "http://localhost:8080")).unwrap());
        assert!(keys.verify(&format!("{header}.{body}."), now).is_none());
    }

    #[test]
    fn the_development_key_is_plain_pkcs8_that_openssl_reads() {
        let dir = std::env::temp_dir().join(format!("cw-key-{}", Uuid::now_v7()));
        let path = dir.join("jwt.pem");
        Keys::load_or_create(&path, "i").unwrap();
        let pem = std::fs::read_to_string(&path).unwrap();
        let der = pem
            .lines()
            .filter(|l| !l.starts_with("-----"))
            .collect::<String>();
        let der = base64::engine::general_purpose::STANDARD
            .decode(der)
            .unwrap();
        // PKCS#8 v1 (RFC 5208): version 0, and 48 bytes for an Ed25519 key without its public half.
        assert_eq!(der.len(), 48, "a v1 key, which OpenSSL 3 reads");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn the_development_key_survives_a_restart() {
        let dir = std::env::temp_dir().join(format!("cw-key-{}", Uuid::now_v7()));
        let path = dir.join("jwt.pem");
        let first = Keys::load_or_create(&path, "i").unwrap();
        let second = Keys::load_or_create(&path, "i").unwrap();
        assert_eq!(first.kid, second.kid);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
