//! The entitlement token: what the caller may do, signed by the server's key so the desktop app
//! answers from it offline: fresh until `valid_until`, in grace until `grace_until`.
//!
//! Clocks drift: every time comparison allows [`CLOCK_SKEW_SECONDS`] (5 minutes) in the user's
//! favour — a token issued up to 5 minutes "in the future" is accepted, and one stays fresh, in
//! grace or unexpired for 5 minutes past the instant it names.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::jws::{same_issuer, verified_claims, KeySet, Rejection};

pub const AUDIENCE: &str = "closewise-desktop";
/// The entitlement tokens' `typ`: an access token is not one, nor the reverse.
pub const TYP: &str = "entitlement+jwt";
pub const CLOCK_SKEW_SECONDS: i64 = 300;

/// The claims (docs/api.md, "Entitlements and calls"). `P` is the team's policy: the server's typed
/// one, or (by default) the JSON the app hashes as it came, unknown fields included, to check
/// `policy_version`.
#[derive(Debug, Serialize, Deserialize, Clone, PartialEq, Eq)]
pub struct EntitlementClaims<P = serde_json::Value> {
    pub iss: String,
    pub aud: String,
    pub sub: Uuid,
    pub plan_type: String,
    pub unlimited: bool,
    pub calls_limit: Option<u32>,
    pub calls_remaining: Option<u32>,
    pub max_call_seconds: Option<u32>,
    /// The session the token was issued to (a device's id is its session's): the desktop app
    /// refuses a token of another session.
    pub sid: Uuid,
    /// `personal` or `team` while paid; absent on the Free Trial.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The team's policy the app obeys (the default, notice off, in no team), and its version:
    /// the SHA-256 of its canonical JSON, which the app recomputes.
    pub policy: P,
    pub policy_version: String,
    pub iat: i64,
    pub valid_until: i64,
    pub grace_until: i64,
    pub exp: i64,
}

impl<P: PartialEq> EntitlementClaims<P> {
    /// Whether `other` says the same but for when it was made (`iat`, `valid_until`,
    /// `grace_until`, `exp`): then the same token may answer both. Every other field is compared,
    /// so a field added to the claims must be added here (the destructuring does not compile
    /// otherwise).
    pub fn same_but_times(&self, other: &EntitlementClaims<P>) -> bool {
        let EntitlementClaims {
            iss,
            aud,
            sub,
            plan_type,
            unlimited,
            calls_limit,
            calls_remaining,
            max_call_seconds,
            sid,
            source,
            policy,
            policy_version,
            iat: _,
            valid_until: _,
            grace_until: _,
            exp: _,
        } = self;
        *iss == other.iss
            && *aud == other.aud
            && *sub == other.sub
            && *plan_type == other.plan_type
            && *unlimited == other.unlimited
            && *calls_limit == other.calls_limit
            && *calls_remaining == other.calls_remaining
            && *max_call_seconds == other.max_call_seconds
            && *sid == other.sid
            && *source == other.source
            && *policy_version == other.policy_version
            && *policy == other.policy
    }
}

/// Verifies signature, header, audience, issuer and lifetime (at `now`, Unix seconds).
pub fn verify<P: DeserializeOwned>(
    token: &str,
    keys: &impl KeySet,
    issuer: &str,
    now: i64,
) -> Result<EntitlementClaims<P>, Rejection> {
    let claims: EntitlementClaims<P> = verified_claims(token, keys, |typ| typ == Some(TYP))?;
    if claims.aud != AUDIENCE {
        return Err(Rejection::WrongAudience(claims.aud));
    }
    if !same_issuer(&claims.iss, issuer) {
        return Err(Rejection::WrongIssuer(claims.iss));
    }
    if claims.iat > now + CLOCK_SKEW_SECONDS {
        return Err(Rejection::NotYetValid);
    }
    if now >= claims.exp + CLOCK_SKEW_SECONDS {
        return Err(Rejection::Expired);
    }
    Ok(claims)
}

/// How much a verified token may still be trusted offline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Freshness {
    /// Before `valid_until`: answer as if online.
    Fresh,
    /// Between `valid_until` and `grace_until`: answer, and warn that the app must connect soon.
    Grace,
    /// After `grace_until`: refuse ("offline too long, connect to continue").
    Expired,
}

pub fn freshness<P>(claims: &EntitlementClaims<P>, now: i64) -> Freshness {
    if now < claims.valid_until + CLOCK_SKEW_SECONDS {
        Freshness::Fresh
    } else if now < claims.grace_until + CLOCK_SKEW_SECONDS {
        Freshness::Grace
    } else {
        Freshness::Expired
    }
}

#[cfg(test)]
#[path = "entitlement_tests.rs"]
mod tests;
