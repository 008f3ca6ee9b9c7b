//! A JSON Web Key Set: the server publishes its key in one (`/.well-known/jwks.json`), and the
//! desktop app pins one (Ed25519 keys only are used).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use ed25519_dalek::VerifyingKey;
use serde::{Deserialize, Serialize};

use crate::jws::{KeySet, ALGORITHM};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Jwks {
    pub keys: Vec<Jwk>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Jwk {
    pub kty: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crv: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kid: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alg: Option<String>,
    #[serde(rename = "use", default, skip_serializing_if = "Option::is_none")]
    pub use_: Option<String>,
}

impl Jwk {
    /// An Ed25519 public key for signatures, named `kid`.
    pub fn ed25519(key: &VerifyingKey, kid: &str) -> Jwk {
        Jwk {
            kty: "OKP".into(),
            crv: Some("Ed25519".into()),
            x: Some(URL_SAFE_NO_PAD.encode(key.to_bytes())),
            kid: Some(kid.into()),
            alg: Some(ALGORITHM.into()),
            use_: Some("sig".into()),
        }
    }
}

impl KeySet for Jwks {
    fn key(&self, kid: &str) -> Option<VerifyingKey> {
        let jwk = self.keys.iter().find(|k| {
            k.kid.as_deref() == Some(kid) && k.kty == "OKP" && k.crv.as_deref() == Some("Ed25519")
        })?;
        let x = URL_SAFE_NO_PAD.decode(jwk.x.as_deref()?).ok()?;
        VerifyingKey::from_bytes(&x.try_into().ok()?).ok()
    }
}
