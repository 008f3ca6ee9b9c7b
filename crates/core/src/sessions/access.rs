//! The caller of a bearer access token: valid, unexpired and of a session still active. A token
//! checked before is answered from this process's cache (`auth_cache`) until its `exp` or the
//! revocation of its session, whichever comes first.

use std::sync::Arc;

use super::auth_cache::{AuthCache, AuthUser};
use super::tokens::Keys;
use super::Sessions;

impl Sessions {
    /// The same service answering checked tokens from `cache` (the one the store's revocations
    /// empty: `AuthCache::for_store`). Without it every token is checked against the database.
    pub fn with_auth_cache(mut self, cache: Arc<AuthCache>) -> Self {
        self.auth_cache = cache;
        self
    }

    /// The caller of `token` signed with `keys`; `None` when the token is not valid, has
    /// expired or its session has ended.
    pub async fn authenticate(
        &self,
        keys: &Keys,
        token: &str,
    ) -> Result<Option<AuthUser>, sqlx::Error> {
        let now = self.clock.now();
        let key = AuthCache::key(token);
        if let Some(user) = self.auth_cache.get(&key, now.unix_timestamp()) {
            return Ok(Some(user));
        }
        // Read before the session query: a revocation after it keeps this answer out of the cache.
        let generation = self.auth_cache.generation();
        let Some(claims) = keys.verify(token, now) else {
            return Ok(None);
        };
        // Signed-out sessions end at once, not when their access token expires.
        if !self.is_active(claims.sid, claims.sub).await? {
            return Ok(None);
        }
        let user = AuthUser {
            user_id: claims.sub,
            session_id: claims.sid,
            email: claims.email,
            email_verified: claims.email_verified,
        };
        (self.auth_cache).insert(key, user.clone(), claims.exp, generation);
        Ok(Some(user))
    }
}
