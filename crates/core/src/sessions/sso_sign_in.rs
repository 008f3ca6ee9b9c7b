//! Signing in through single sign-on (the caller checked the provider's ID token and made the
//! membership): the same session as every other sign-in, stamped as started by SSO so that
//! "Require SSO" keeps it while it ends the password sessions. No password was entered, so
//! sensitive actions still ask for a re-authentication.
//!
//! A browser that already holds another account's session is asked before SSO replaces it
//! (login CSRF through a provider that approves at once): the adapter keeps the new session aside
//! and reads, with `holder`, whose each of the two sessions is.

use closewise_domain::tokens::refresh_token_expiry;
use uuid::Uuid;

use super::opaque_tokens::{hash_token, random_token};
use super::{Session, SessionError, Sessions};
use crate::store::sessions::NewSession;
use crate::store::UserRow;

impl Sessions {
    pub async fn sso_sign_in(
        &self,
        user_id: Uuid,
        user_agent: Option<&str>,
        ip: Option<&str>,
    ) -> Result<Session, SessionError> {
        let user = self
            .store
            .user_by_id(user_id)
            .await?
            .ok_or(SessionError::InvalidCredentials)?;
        let now = self.clock.now();
        let refresh = random_token();
        let session_id = Uuid::now_v7();
        self.store
            .create_session(&NewSession {
                id: session_id,
                user_id: user.id,
                refresh_id: Uuid::now_v7(),
                refresh_hash: &hash_token(&refresh),
                refresh_expires_at: refresh_token_expiry(now, now, self.max_age),
                user_agent,
                ip,
                password_entered: false,
                now,
            })
            .await?;
        self.store.stamp_sso(session_id, now).await?;
        Ok(Session {
            user,
            session_id,
            refresh_token: refresh,
        })
    }

    /// The account of the live session (not ended, the token neither spent nor expired) whose
    /// refresh token is `refresh_token`, without spending it; `None` otherwise.
    pub async fn holder(&self, refresh_token: &str) -> Result<Option<UserRow>, SessionError> {
        let now = self.clock.now();
        let row = self
            .store
            .refresh_token_by_hash(&hash_token(refresh_token))
            .await?
            .filter(|r| r.is_live(now));
        Ok(match row {
            Some(r) => self.store.user_by_id(r.user_id).await?,
            None => None,
        })
    }
}
