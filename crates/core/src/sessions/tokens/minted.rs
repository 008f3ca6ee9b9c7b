//! The last entitlement token minted for each session, kept a minute: a request whose claims say the
//! same (their times aside) answers that token instead of a new Ed25519 signature, the largest cost
//! left in `GET /api/entitlements` once its facts are cached (docs/performance.md). Its `iat` and
//! `valid_until` are then at most a minute older than the request, well inside the app's 24 h; any
//! change of what the token says (a call counted, a plan, a policy) mints a new one at once.

use std::collections::HashMap;
use std::sync::Mutex;

use uuid::Uuid;

use super::EntitlementClaims;

/// How long a minted token answers the same claims again, in seconds.
const REUSE_SECONDS: i64 = 60;
/// Sessions whose last token is kept; all are forgotten at once past it (one signature each).
const MAX_MINTED: usize = 10_000;

struct Minted {
    /// What the token says (compared but for its times).
    claims: EntitlementClaims,
    token: String,
}

#[derive(Default)]
pub struct MintedTokens {
    by_session: Mutex<HashMap<Uuid, Minted>>,
}

impl MintedTokens {
    /// The token minted for `claims.sid` less than a minute before `claims.iat` with the same
    /// claims (their times aside), or the one `mint` signs now (then kept).
    pub fn issue(
        &self,
        claims: &EntitlementClaims,
        mint: impl FnOnce() -> anyhow::Result<String>,
    ) -> anyhow::Result<String> {
        {
            let minted = self.by_session.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(m) = minted.get(&claims.sid) {
                if (0..REUSE_SECONDS).contains(&(claims.iat - m.claims.iat))
                    && m.claims.same_but_times(claims)
                {
                    return Ok(m.token.clone());
                }
            }
        }
        let token = mint()?;
        let mut minted = self.by_session.lock().unwrap_or_else(|e| e.into_inner());
        if minted.len() >= MAX_MINTED {
            minted.clear();
        }
        let kept = Minted {
            claims: claims.clone(),
            token: token.clone(),
        };
        minted.insert(claims.sid, kept);
        Ok(token)
    }
}
