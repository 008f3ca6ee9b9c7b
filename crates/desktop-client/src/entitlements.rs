//! What the user may do now: asked of the API before each call, and answered from the last
//! verified entitlement token while the API cannot be reached (see `entitlement` for the rules).

use reqwest::Method;
use serde::{Deserialize, Serialize};

use crate::client::{now, read_json, Client};
use crate::entitlement::{freshness, verify, EntitlementClaims, Freshness, Jwks, Rejection};
use crate::error::{Error, Result};
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
                offline_entitlements(&session, self.app_url(), now())
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
        let mut jwks = match session.jwks {
            Some(jwks) => jwks,
            None => self.fetch_jwks().await?,
        };
        let at = now();
        let mut checked = verify(&body.entitlement_token, &jwks, self.app_url(), at);
        if let Err(Rejection::UnknownKey(_)) = checked {
            // The server may have rotated its key since we cached the set.
            jwks = self.fetch_jwks().await?;
            checked = verify(&body.entitlement_token, &jwks, self.app_url(), at);
        }
        let claims = checked.map_err(|r| Error::InvalidEntitlement(r.to_string()))?;
        check_subject(&claims, &session.user_id)?;
        let token = body.entitlement_token;
        self.update_session(move |s| {
            s.entitlement_token = Some(token);
            s.jwks = Some(jwks);
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
        })
    }
}

fn check_subject(claims: &EntitlementClaims, user_id: &str) -> Result<()> {
    if claims.sub == user_id {
        Ok(())
    } else {
        Err(Error::InvalidEntitlement("issued to another user".into()))
    }
}

/// The answer from the stored token at `now` (Unix seconds), re-verified: the store is a file a
/// user can edit.
pub fn offline_entitlements(
    session: &StoredSession,
    issuer: &str,
    now: i64,
) -> Result<Entitlements> {
    let (Some(token), Some(jwks)) = (&session.entitlement_token, &session.jwks) else {
        return Err(Error::NoOfflineEntitlement);
    };
    let claims = verify_stored(token, jwks, issuer, now)?;
    check_subject(&claims, &session.user_id)?;
    let source = match freshness(&claims, now) {
        Freshness::Fresh => Source::Offline,
        Freshness::Grace => Source::Grace,
        Freshness::Expired => return Err(Error::OfflineTooLong),
    };
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
        max_call_seconds: claims.max_call_seconds,
        calls_this_month: None,
        warning: None,
        source,
        valid_until: claims.valid_until,
        grace_until: claims.grace_until,
    })
}

fn verify_stored(token: &str, jwks: &Jwks, issuer: &str, now: i64) -> Result<EntitlementClaims> {
    verify(token, jwks, issuer, now).map_err(|r| match r {
        Rejection::Expired => Error::OfflineTooLong,
        r => Error::InvalidEntitlement(r.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entitlement::test_keys::*;
    use crate::store::MemoryStore;
    use crate::store::TokenStore;

    const NOW: i64 = 1_795_000_000;
    const DAY: i64 = 24 * 3600;

    fn stored(key: &TestKey, token: String) -> StoredSession {
        StoredSession {
            refresh_token: "rt".into(),
            access_token: "at".into(),
            expires_at: NOW + 3600,
            user_id: "u1".into(),
            email: "ana@example.com".into(),
            entitlement_token: Some(token),
            jwks: Some(key.jwks()),
        }
    }

    #[test]
    fn offline_the_stored_token_answers_fresh_then_grace_then_refuses() {
        let k = TestKey::generate("k1");
        let s = stored(&k, k.sign(&claims("u1", NOW)));
        let fresh = offline_entitlements(&s, ISSUER, NOW + 3600).unwrap();
        assert_eq!(fresh.source, Source::Offline);
        assert_eq!(
            fresh.calls,
            Some(CallAllowance {
                limit: 5,
                used: 3,
                remaining: 2
            })
        );
        assert!(fresh.may_start_call());
        let grace = offline_entitlements(&s, ISSUER, NOW + 3 * DAY).unwrap();
        assert_eq!(grace.source, Source::Grace);
        let late = offline_entitlements(&s, ISSUER, NOW + 9 * DAY);
        assert!(matches!(late, Err(Error::OfflineTooLong)), "{late:?}");
        assert_eq!(
            late.unwrap_err().to_string(),
            "Offline too long, connect to continue."
        );
    }

    #[test]
    fn offline_a_tampered_or_foreign_stored_token_is_refused() {
        let k = TestKey::generate("k1");
        let mut s = stored(&k, k.sign(&claims("u1", NOW)));
        let token = s.entitlement_token.clone().unwrap();
        let (head, _) = token.split_once('.').unwrap();
        let (_, sig) = token.rsplit_once('.').unwrap();
        let mut forged = claims("u1", NOW);
        forged["unlimited"] = true.into();
        use base64::Engine;
        let body = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(forged.to_string());
        s.entitlement_token = Some(format!("{head}.{body}.{sig}"));
        assert!(matches!(
            offline_entitlements(&s, ISSUER, NOW),
            Err(Error::InvalidEntitlement(_))
        ));

        let other_user = stored(&k, k.sign(&claims("u2", NOW)));
        assert!(matches!(
            offline_entitlements(&other_user, ISSUER, NOW),
            Err(Error::InvalidEntitlement(_))
        ));
        let mut nothing = other_user;
        nothing.entitlement_token = None;
        assert!(matches!(
            offline_entitlements(&nothing, ISSUER, NOW),
            Err(Error::NoOfflineEntitlement)
        ));
    }

    #[tokio::test]
    async fn when_the_api_cannot_be_reached_the_client_answers_from_the_store() {
        // A port that was just free: nothing listens there.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let base = format!("http://127.0.0.1:{port}");
        let k = TestKey::generate("k1");
        let now = now();
        let mut c = claims("u1", now - 2 * DAY);
        c["iss"] = base.clone().into();
        let store = MemoryStore::new();
        let mut session = stored(&k, k.sign(&c));
        session.expires_at = now + 3600;
        store.save(&session).unwrap();
        let client = Client::new(&base, store).unwrap();
        let answer = client.entitlements().await.unwrap();
        assert_eq!(answer.source, Source::Grace);
        assert_eq!(answer.plan_type, "free");
    }
}
