//! What the user may do now: asked of the API before each call, and answered from the last
//! verified entitlement token while the API cannot be reached (see `entitlement` for the rules).

use reqwest::Method;
use serde::{Deserialize, Serialize};

use crate::client::{now, read_json, Client};
use crate::entitlement::{
    access_session, freshness, verify, EntitlementClaims, Freshness, Jwks, Rejection,
};
use crate::error::{Error, Result};
use crate::policy::{verified_policy, Policy};
use crate::store::StoredSession;

/// The free trial's meter; `None` on an unlimited plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallAllowance {
    pub limit: u32,
    pub used: u32,
    pub remaining: u32,
}

/// Where an answer came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The API answered just now.
    Online,
    /// Offline, from a stored token still within `valid_until`.
    Offline,
    /// Offline, past `valid_until` but within `grace_until`: the app should warn that it must
    /// connect before `grace_until`.
    Grace,
}

/// `GET /api/entitlements`, or its offline stand-in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entitlements {
    /// `free` or `monthly`.
    pub plan_type: String,
    pub unlimited: bool,
    pub calls: Option<CallAllowance>,
    pub max_call_seconds: Option<u64>,
    /// Unknown offline.
    pub calls_this_month: Option<u64>,
    /// `payment_failed` while the subscription is past due: warn, do not lock.
    pub warning: Option<String>,
    pub source: Source,
    /// Unix seconds: until then the token answers offline as fresh...
    pub valid_until: i64,
    /// ...and until then within the grace period.
    pub grace_until: i64,
    /// The team's policy the app obeys (verified with the token), and its version.
    pub policy: Policy,
    pub policy_version: String,
}

impl Entitlements {
    /// Whether the user may start a call now, by this answer (the server decides for good).
    pub fn may_start_call(&self) -> bool {
        self.unlimited || self.calls.as_ref().is_some_and(|c| c.remaining > 0)
    }
}

#[derive(Deserialize)]
struct EntitlementsBody {
    plan_type: String,
    unlimited: bool,
    calls: Option<CallAllowance>,
    max_call_seconds: Option<u64>,
    calls_this_month: Option<u64>,
    warning: Option<String>,
    entitlement_token: String,
}

impl Client {
    /// Asks the API, verifies and stores the entitlement token; when the API cannot be reached,
    /// answers from the stored token ([`Source::Offline`] or [`Source::Grace`]) or fails with
    /// [`Error::OfflineTooLong`].
    pub async fn entitlements(&self) -> Result<Entitlements> {
        match self.fetch_entitlements().await {
            Err(Error::Unreachable(_)) => {
                let session = self.load().await?.ok_or(Error::SignedOut)?;
                let at = now().max(session.highest_seen);
                let answer =
                    offline_entitlements(&session, &self.entitlement_keys, self.app_url(), at);
                // Remember how late it has been, even when the answer is a refusal: a clock set
                // back afterwards must not bring the grace period back.
                self.update_session(|s| s.highest_seen = s.highest_seen.max(at))
                    .await?;
                answer
            }
            other => other,
        }
    }

    async fn fetch_entitlements(&self) -> Result<Entitlements> {
        let resp = self
            .authorized(Method::GET, "/api/entitlements", None)
            .await?;
        let body: EntitlementsBody = read_json(resp).await?;
        let session = self.load().await?.ok_or(Error::SignedOut)?;
        let keys = &self.entitlement_keys;
        let at = now();
        let claims = verify(&body.entitlement_token, keys, self.app_url(), at)
            .map_err(|r| Error::InvalidEntitlement(r.to_string()))?;
        check_session(&claims, &session, keys, self.app_url())?;
        let (policy, policy_version) =
            verified_policy(Some(&claims.policy), Some(&claims.policy_version))?;
        let token = body.entitlement_token;
        // The server has just vouched for the time (`iat`): start again from there, so a clock
        // that was once far ahead does not keep refusing fresh tokens.
        let seen = at.max(claims.iat);
        self.update_session(move |s| {
            s.entitlement_token = Some(token);
            s.highest_seen = seen;
        })
        .await?;
        Ok(Entitlements {
            plan_type: body.plan_type,
            unlimited: body.unlimited,
            calls: body.calls,
            max_call_seconds: body.max_call_seconds,
            calls_this_month: body.calls_this_month,
            warning: body.warning,
            source: Source::Online,
            valid_until: claims.valid_until,
            grace_until: claims.grace_until,
            policy,
            policy_version,
        })
    }
}

/// The token must be of this session: its user and session are the ones the stored access token
/// names, and that token must itself verify against the trusted keys. An entitlement token copied
/// from another account's (or another device's) session is refused.
fn check_session(
    claims: &EntitlementClaims,
    session: &StoredSession,
    keys: &Jwks,
    issuer: &str,
) -> Result<()> {
    let ours = access_session(&session.access_token, keys, issuer).map_err(|r| {
        Error::InvalidEntitlement(format!("the stored session cannot be checked: {r}"))
    })?;
    if claims.sub != ours.sub || session.user_id.parse().ok() != Some(ours.sub) {
        return Err(Error::InvalidEntitlement("issued to another user".into()));
    }
    if claims.sid != ours.sid {
        return Err(Error::InvalidEntitlement(
            "issued to another session".into(),
        ));
    }
    Ok(())
}

/// The answer from the stored token at `now` (Unix seconds), re-verified against the trusted
/// `keys`: the store is a file a user can edit. The caller passes the later of the clock and
/// [`StoredSession::highest_seen`]; the token's own `iat` is a floor too.
pub fn offline_entitlements(
    session: &StoredSession,
    keys: &Jwks,
    issuer: &str,
    now: i64,
) -> Result<Entitlements> {
    let Some(token) = &session.entitlement_token else {
        return Err(Error::NoOfflineEntitlement);
    };
    let claims = verify_stored(token, keys, issuer, now)?;
    check_session(&claims, session, keys, issuer)?;
    let now = now.max(claims.iat);
    let source = match freshness(&claims, now) {
        Freshness::Fresh => Source::Offline,
        Freshness::Grace => Source::Grace,
        Freshness::Expired => return Err(Error::OfflineTooLong),
    };
    let (policy, policy_version) =
        verified_policy(Some(&claims.policy), Some(&claims.policy_version))?;
    let calls = match (claims.calls_limit, claims.calls_remaining) {
        (Some(limit), Some(remaining)) if !claims.unlimited => Some(CallAllowance {
            limit,
            used: limit.saturating_sub(remaining),
            remaining,
        }),
        _ => None,
    };
    Ok(Entitlements {
        plan_type: claims.plan_type,
        unlimited: claims.unlimited,
        calls,
        max_call_seconds: claims.max_call_seconds.map(u64::from),
        calls_this_month: None,
        warning: None,
        source,
        valid_until: claims.valid_until,
        grace_until: claims.grace_until,
        policy,
        policy_version,
    })
}

fn verify_stored(token: &str, jwks: &Jwks, issuer: &str, now: i64) -> Result<EntitlementClaims> {
    verify(token, jwks, issuer, now).map_err(|r| match r {
        Rejection::Expired => Error::OfflineTooLong,
        r => Error::InvalidEntitlement(r.to_string()),
    })
}

#[cfg(test)]
#[path = "entitlements_tests.rs"]
mod tests;

impl Client {
    /// The `policy_version` of the stored entitlement token (verified; expired or not), which
    /// heartbeats report; None before any entitlement check.
    pub async fn stored_policy_version(&self) -> Result<Option<String>> {
        let Some(session) = self.load().await? else {
            return Ok(None);
        };
        let Some(token) = &session.entitlement_token else {
            return Ok(None);
        };
        let at = now().max(session.highest_seen);
        let claims = match verify(token, &self.entitlement_keys, self.app_url(), at) {
            Ok(c) => c,
            Err(_) => return Ok(None),
        };
        Ok(
            verified_policy(Some(&claims.policy), Some(&claims.policy_version))
                .ok()
                .map(|(_, v)| v),
        )
    }
}
