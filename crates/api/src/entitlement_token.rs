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
        policy_version: String,
    ) -> EntitlementClaims {
        let times = entitlement_times(now);
        EntitlementClaims {
            policy_version,
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
    /// Whether `other` says the same but for when it was made (`iat`, `valid_until`,
    /// `grace_until`, `exp`): then the same token may answer both (the minted tokens kept a minute). Every other
    /// field is compared, so a field added to the claims must be added here (the destructuring
    /// does not compile otherwise).
    pub fn same_but_times(&self, other: &EntitlementClaims) -> bool {
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
            Policy::default().version(),
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
            Policy::default().version(),
        );
        let token = theirs.issue_entitlement(&claims).unwrap();
        assert_eq!(decode(&ours, &token), None);
        assert!(claims.unlimited && claims.calls_limit.is_none());
    }

    #[test]
    fn claims_are_the_same_but_for_their_times_only_when_every_other_field_is() {
        let e = entitlements(Access::Free, 3, 1);
        let now = OffsetDateTime::now_utc();
        let (user, session) = (Uuid::now_v7(), Uuid::now_v7());
        let make = |at: OffsetDateTime| {
            EntitlementClaims::new(
                "i",
                user,
                session,
                &e,
                at,
                Policy::default(),
                Policy::default().version(),
            )
        };
        let first = make(now);
        let later = make(now + time::Duration::seconds(30));
        assert_ne!(first.iat, later.iat);
        assert!(first.same_but_times(&later));

        type Change = Box<dyn Fn(&mut EntitlementClaims)>;
        let changed: Vec<(&str, Change)> = vec![
            ("iss", Box::new(|c| c.iss.push('x'))),
            ("aud", Box::new(|c| c.aud.push('x'))),
            ("sub", Box::new(|c| c.sub = Uuid::now_v7())),
            ("plan_type", Box::new(|c| c.plan_type = "paid".into())),
            ("unlimited", Box::new(|c| c.unlimited = !c.unlimited)),
            ("calls_limit", Box::new(|c| c.calls_limit = Some(9))),
            ("calls_remaining", Box::new(|c| c.calls_remaining = Some(0))),
            ("max_call_seconds", Box::new(|c| c.max_call_seconds = None)),
            ("sid", Box::new(|c| c.sid = Uuid::now_v7())),
            ("source", Box::new(|c| c.source = Some("team".into()))),
            (
                "policy",
                Box::new(|c| c.policy.consent_notice.mode = "banner".into()),
            ),
            (
                "policy_version",
                Box::new(|c| c.policy_version = "0".repeat(64)),
            ),
        ];
        for (field, change) in changed {
            let mut other = later.clone();
            change(&mut other);
            assert!(!first.same_but_times(&other), "{field} differs");
            assert!(!other.same_but_times(&first), "{field} differs");
        }
    }
}
