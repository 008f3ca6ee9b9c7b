//! An entitlement token's claims from what the caller may do: the plan's limits, the team's policy
//! and the domain's lifetimes (fresh 24 h, then 7 days' grace), for the caller's session.

use closewise_domain::policy::Policy;
use closewise_domain::usage::{entitlement_times, Entitlements};
use time::OffsetDateTime;
use uuid::Uuid;

use super::Keys;

/// The server's claims: the policy typed as the domain knows it.
pub type EntitlementClaims = closewise_tokens::entitlement::EntitlementClaims<Policy>;

impl Keys {
    /// The claims of `user_id`'s entitlement token in `session_id`, made `now`; no `source`.
    pub fn entitlement_claims(
        &self,
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
            iss: self.issuer().to_owned(),
            aud: closewise_tokens::entitlement::AUDIENCE.to_owned(),
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
