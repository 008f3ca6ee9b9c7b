//! Compact JWS signed with Ed25519 (`alg: EdDSA`): the header, signing, and the checks every token
//! passes before its claims are read (algorithm, type, a known `kid`, a strict signature check).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use ed25519_dalek::{Signature, Signer as _, SigningKey, VerifyingKey};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

pub(crate) const ALGORITHM: &str = "EdDSA";

/// Where a token's `kid` finds its public key: a published or pinned JWKS, or the signer's own.
pub trait KeySet {
    fn key(&self, kid: &str) -> Option<VerifyingKey>;
}

/// Why a token was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    #[error("malformed token ({0})")]
    Malformed(&'static str),
    #[error("signed with algorithm {0}, not EdDSA")]
    WrongAlgorithm(String),
    #[error("not an entitlement token (typ {0:?})")]
    WrongType(Option<String>),
    #[error("signed by an unknown key (kid {0:?})")]
    UnknownKey(String),
    #[error("the signature does not match")]
    BadSignature,
    #[error("for another audience ({0})")]
    WrongAudience(String),
    #[error("from another issuer ({0})")]
    WrongIssuer(String),
    #[error("issued in the future")]
    NotYetValid,
    #[error("expired")]
    Expired,
}

/// The header as signed: `typ`, `alg`, `kid`, in jsonwebtoken's order, so the bytes are the same.
#[derive(Serialize)]
struct SignedHeader<'a> {
    typ: &'a str,
    alg: &'a str,
    kid: &'a str,
}

#[derive(Deserialize)]
struct Header {
    alg: String,
    typ: Option<String>,
    kid: Option<String>,
}

/// `header.claims.signature`, each part base64url without padding.
pub(crate) fn sign<C: Serialize>(
    key: &SigningKey,
    typ: &str,
    kid: &str,
    claims: &C,
) -> serde_json::Result<String> {
    let header = serde_json::to_vec(&SignedHeader {
        typ,
        alg: ALGORITHM,
        kid,
    })?;
    let claims = serde_json::to_vec(claims)?;
    let message = format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(header),
        URL_SAFE_NO_PAD.encode(claims)
    );
    let signature = key.sign(message.as_bytes());
    Ok(format!(
        "{message}.{}",
        URL_SAFE_NO_PAD.encode(signature.to_bytes())
    ))
}

/// Checks the header (EdDSA, a `typ` that `typ_ok` accepts, a `kid` of `keys`) and the signature;
/// answers the claims, decoded but not yet checked.
pub(crate) fn verified_claims<C: DeserializeOwned>(
    token: &str,
    keys: &impl KeySet,
    typ_ok: impl Fn(Option<&str>) -> bool,
) -> Result<C, Rejection> {
    let mut parts = token.split('.');
    let (Some(h), Some(p), Some(s), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(Rejection::Malformed("not three parts"));
    };
    let header: Header = decode_json(h).ok_or(Rejection::Malformed("header"))?;
    if header.alg != ALGORITHM {
        return Err(Rejection::WrongAlgorithm(header.alg));
    }
    if !typ_ok(header.typ.as_deref()) {
        return Err(Rejection::WrongType(header.typ));
    }
    let kid = header.kid.ok_or(Rejection::UnknownKey(String::new()))?;
    let key = keys.key(&kid).ok_or(Rejection::UnknownKey(kid))?;
    let signature = URL_SAFE_NO_PAD
        .decode(s)
        .ok()
        .and_then(|b| Signature::from_slice(&b).ok())
        .ok_or(Rejection::Malformed("signature"))?;
    key.verify_strict(format!("{h}.{p}").as_bytes(), &signature)
        .map_err(|_| Rejection::BadSignature)?;
    decode_json(p).ok_or(Rejection::Malformed("claims"))
}

fn decode_json<T: DeserializeOwned>(part: &str) -> Option<T> {
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(part).ok()?).ok()
}

/// Whether a token's `iss` is `issuer`, a trailing slash aside.
pub(crate) fn same_issuer(iss: &str, issuer: &str) -> bool {
    iss.trim_end_matches('/') == issuer.trim_end_matches('/')
}
