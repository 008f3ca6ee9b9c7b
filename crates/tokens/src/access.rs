//! The access token: who is calling, in which session. The API checks it on every request (and
//! its `exp` against its own clock); the desktop app reads it offline, expired or not, only to
//! know which session an entitlement token must belong to.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::jws::{same_issuer, verified_claims, KeySet, Rejection};

/// The access tokens' audience (the entitlement tokens' is [`crate::entitlement::AUDIENCE`]).
pub const AUDIENCE: &str = "closewise";
/// The access tokens' `typ`.
pub const TYP: &str = "JWT";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccessClaims {
    pub sub: Uuid,
    pub sid: Uuid,
    pub email: String,
    pub email_verified: bool,
    pub iat: i64,
    pub exp: i64,
    pub iss: String,
    pub aud: String,
}

/// Checks the header, the signature, the audience and the issuer, not the expiry (the caller's
/// clock decides it).
pub fn verify(token: &str, keys: &impl KeySet, issuer: &str) -> Result<AccessClaims, Rejection> {
    let claims: AccessClaims = verified_claims(token, keys, |typ| typ.is_none_or(|t| t == TYP))?;
    if claims.aud != AUDIENCE {
        return Err(Rejection::WrongAudience(claims.aud));
    }
    if !same_issuer(&claims.iss, issuer) {
        return Err(Rejection::WrongIssuer(claims.iss));
    }
    Ok(claims)
}
