//! Offline check of the entitlement token: an EdDSA JWT (`typ: entitlement+jwt`) signed by the
//! server's key, published at `/.well-known/jwks.json`. The client answers from a verified token
//! while the API cannot be reached: fresh until `valid_until`, in grace until `grace_until`, each
//! with [`CLOCK_SKEW_SECONDS`] in the user's favour. The claims, the keys and the checks are
//! `closewise_tokens`', the ones the server signs with.

pub use closewise_tokens::access::{AccessClaims as AccessSession, AUDIENCE as ACCESS_AUDIENCE};
pub use closewise_tokens::entitlement::{
    freshness, EntitlementClaims, Freshness, AUDIENCE, CLOCK_SKEW_SECONDS, TYP as TOKEN_TYPE,
};
pub use closewise_tokens::{Jwk, Jwks, Rejection};

/// Verifies an access token's signature, audience and issuer, not its expiry: offline it has
/// usually expired, and it only says which session this is (read from the stored access token,
/// so the session an entitlement token must belong to is not a plain field of the editable store).
pub fn access_session(token: &str, jwks: &Jwks, issuer: &str) -> Result<AccessSession, Rejection> {
    closewise_tokens::access::verify(token, jwks, issuer)
}

/// Verifies signature, header, audience, issuer and lifetime (at `now`, Unix seconds).
pub fn verify(
    token: &str,
    jwks: &Jwks,
    issuer: &str,
    now: i64,
) -> Result<EntitlementClaims, Rejection> {
    closewise_tokens::entitlement::verify(token, jwks, issuer, now)
}

/// Test keys (`closewise_tokens::testing`) and claims as the server makes them.
#[cfg(test)]
pub(crate) mod test_keys {
    pub use closewise_tokens::testing::{TestKey, ISSUER};

    use super::AUDIENCE;

    /// The user of [`claims`] and, in the tests, of the stored session.
    pub const U1: &str = "0190c3a4-1111-7000-8000-000000000001";
    pub const U2: &str = "0190c3a4-1111-7000-8000-000000000002";
    /// The session of [`claims`] and, by default, of [`TestKey::access_token`].
    pub const SID: &str = "0190c3a4-2222-7000-8000-000000000001";
    pub const OTHER_SID: &str = "0190c3a4-2222-7000-8000-000000000002";

    /// Free plan claims issued at `iat`, with the server's lifetimes (24 h, then 7 days' grace).
    pub fn claims(sub: &str, iat: i64) -> serde_json::Value {
        let valid_until = iat + 24 * 3600;
        let grace_until = valid_until + 7 * 24 * 3600;
        let policy = serde_json::json!({
            "consent_notice": {"mode": "off", "text": "", "regions": {}},
            "allowed_apps": ["zoom", "meet", "teams", "phone"],
            "hint_categories": {"objections": true, "replies": true, "follow_ups": true},
            "retention_days": 30, "require_mfa": false, "require_sso": false});
        let version: String = {
            use sha2::Digest;
            sha2::Sha256::digest(crate::policy::canonical_json(&policy).as_bytes())
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect()
        };
        serde_json::json!({
            "iss": ISSUER, "aud": AUDIENCE, "sub": sub, "plan_type": "free", "unlimited": false,
            "calls_limit": 5, "calls_remaining": 2, "max_call_seconds": 300, "sid": SID, "iat": iat,
            "valid_until": valid_until, "grace_until": grace_until, "exp": grace_until,
            "policy": policy, "policy_version": version,
        })
    }
}
