//! The entitlement token: what the caller may do, signed with the access tokens' EdDSA key (the
//! `kid` of `/.well-known/jwks.json`) so the desktop app can check it offline and answer from it
//! until `valid_until`, and within the grace period while the API cannot be reached.

use anyhow::Context;
use closewise_domain::policy::Policy;
use closewise_domain::usage::{entitlement_times, Entitlements};
use jsonwebtoken::{Algorithm, Header};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::jwt::Keys;

pub const ENTITLEMENT_AUDIENCE: &str = "closewise-desktop";
pub const ENTITLEMENT_TYP: &str = "entitlement+jwt";

#[derive(Debug, Serialize, Deserialize, Clone, PartialEq, Eq)]
pub struct EntitlementClaims {
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
    /// `personal` or `team` while paid; absent on the Free Trial (and in older tokens).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The team's policy the app obeys (the default, notice off, in no team), and its version:
    /// the SHA-256 of its canonical JSON, which the app recomputes.
    pub policy: Policy,
    pub policy_version: String,
    pub iat: i64,
    pub valid_until: i64,
    pub grace_until: i64,
    pub exp: i64,
}

impl EntitlementClaims {
    pub fn new(
        issuer: &str,
        user_id: Uuid,
        session_id: Uuid,
        e: &Entitlements,
        now: OffsetDateTime,
        policy: Policy,
    ) -> EntitlementClaims {
        let times = entitlement_times(now);
        EntitlementClaims {
            policy_version: policy.version(),
            policy,
            iss: issuer.to_owned(),
            aud: ENTITLEMENT_AUDIENCE.to_owned(),
            sub: user_id,
            plan_type: e.plan_type.as_str().to_owned(),
            unlimited: e.unlimited,
            calls_limit: e.calls.map(|c| c.limit),
            calls_remaining: e.calls.map(|c| c.remaining),
            max_call_seconds: e.max_call_seconds,
            sid: session_id,
            source: None,
            iat: times.iat,
            valid_until: times.valid_until,
            grace_until: times.grace_until,
            exp: times.exp,
        }
    }
}

impl Keys {
    /// Signs an entitlement token: header `typ: entitlement+jwt` and the JWKS's `kid`.
    pub fn issue_entitlement(&self, claims: &EntitlementClaims) -> anyhow::Result<String> {
        let mut header = Header::new(Algorithm::EdDSA);
        header.typ = Some(ENTITLEMENT_TYP.to_owned());
        header.kid = Some(self.kid().to_owned());
        jsonwebtoken::encode(&header, claims, self.encoding_key())
            .context("cannot sign the entitlement token")
    }
}

impl EntitlementClaims {
    /// What the claims say but for when they were made: equal for two requests whose token may be
    /// the same (`crate::minted`). None if they cannot be written out (then nothing is reused).
    pub fn without_times(&self) -> Option<String> {
        let timeless = EntitlementClaims {
            iat: 0,
            valid_until: 0,
            grace_until: 0,
            exp: 0,
            ..self.clone()
        };
        serde_json::to_string(&timeless).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use closewise_domain::usage::{entitlements, Access};
    use jsonwebtoken::{DecodingKey, Validation};

    fn decode(keys: &Keys, token: &str) -> Option<EntitlementClaims> {
        let jwks = keys.jwks();
        let x = jwks["keys"][0]["x"].as_str().unwrap();
        let key = DecodingKey::from_ed_components(x).unwrap();
        let mut v = Validation::new(Algorithm::EdDSA);
        v.set_audience(&[ENTITLEMENT_AUDIENCE]);
        v.validate_exp = false;
        jsonwebtoken::decode::<EntitlementClaims>(token, &key, &v)
            .ok()
            .map(|d| d.claims)
    }

    #[test]
    fn an_entitlement_token_carries_the_jwks_kid_its_type_and_the_claims() {
        let keys = Keys::generate("http://localhost:8080").unwrap();
        let now = OffsetDateTime::now_utc();
        let e = entitlements(Access::Free, 3, 0);
        let claims = EntitlementClaims::new(
            keys.issuer(),
            Uuid::now_v7(),
            Uuid::now_v7(),
            &e,
            now,
            Policy::default(),
        );
        let token = keys.issue_entitlement(&claims).unwrap();
        let header = jsonwebtoken::decode_header(&token).unwrap();
        assert_eq!(header.typ.as_deref(), Some("entitlement+jwt"));
        assert_eq!(
            header.kid.as_deref(),
            keys.jwks()["keys"][0]["kid"].as_str()
        );
        assert_eq!(decode(&keys, &token), Some(claims.clone()));
        assert_eq!(
            (
                claims.calls_limit,
                claims.calls_remaining,
                claims.max_call_seconds
            ),
            (Some(5), Some(2), Some(300))
        );
        assert_eq!(claims.exp - claims.iat, 8 * 24 * 3600);
    }

    #[test]
    fn another_keys_entitlement_token_does_not_verify() {
        let ours = Keys::generate("i").unwrap();
        let theirs = Keys::generate("i").unwrap();
        let e = entitlements(Access::Paid { warning: None }, 0, 0);
        let claims = EntitlementClaims::new(
            "i",
            Uuid::now_v7(),
            Uuid::now_v7(),
            &e,
            OffsetDateTime::now_utc(),
            Policy::default(),
        );
        let token = theirs.issue_entitlement(&claims).unwrap();
        assert_eq!(decode(&ours, &token), None);
        assert!(claims.unlimited && claims.calls_limit.is_none());
    }
}
