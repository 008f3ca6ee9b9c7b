//! The password grant: the password checked against the account (the same work for an unknown
//! e-mail), then a session started. The adapter spends and refunds the sign-in budgets around
//! `verify_password`.

use closewise_domain::tokens::refresh_token_expiry;
use uuid::Uuid;

use super::opaque_tokens::{hash_token, random_token};
use super::{Session, SessionError, Sessions};
use crate::password::Hasher;
use crate::store::sessions::NewSession;
use crate::store::{Store, UserRow};

/// A password stored with older hashing parameters (19 MiB rather than 9 MiB) is hashed
/// again with the current ones, now that it is known (at sign-in and at re-authentication): later
/// checks take the current time, the same as an unknown address's. Best effort: the caller goes on
/// whatever happens here.
pub(crate) async fn rehash_if_outdated(
    hasher: &Hasher,
    store: &Store,
    user: &UserRow,
    password: &str,
) {
    if !hasher.is_outdated(&user.password_hash) {
        return;
    }
    let rehashed = match hasher.hash(password).await {
        Ok(hash) => {
            store
                .rehash_password(user.id, &user.password_hash, &hash)
                .await
        }
        Err(e) => {
            tracing::warn!(user_id = %user.id, error = %e, "hashing a password again failed");
            return;
        }
    };
    if let Err(e) = rehashed {
        tracing::warn!(user_id = %user.id, error = %e, "storing a password hashed again failed");
    }
}

impl Sessions {
    /// The account `user` (read by its e-mail; `None` for an unknown or malformed address) when
    /// `password` is its password; `InvalidCredentials` otherwise, after the same hashing work.
    pub(super) async fn verify_password(
        &self,
        user: Option<UserRow>,
        password: &str,
    ) -> Result<UserRow, SessionError> {
        let ok = self
            .hasher
            .verify(password, user.as_ref().map(|u| u.password_hash.as_str()))
            .await?;
        match (ok, user) {
            (true, Some(user)) => {
                rehash_if_outdated(&self.hasher, &self.store, &user, password).await;
                Ok(user)
            }
            _ => Err(SessionError::InvalidCredentials),
        }
    }

    /// Signs `user` in with the password just checked: `EmailNotConfirmed` before the address is
    /// confirmed (unless allowed), else a new session.
    pub async fn password_sign_in(
        &self,
        user: UserRow,
        user_agent: Option<&str>,
        ip: Option<&str>,
    ) -> Result<Session, SessionError> {
        if user.email_confirmed_at.is_none() && !self.allow_unverified {
            return Err(SessionError::EmailNotConfirmed);
        }
        self.start(user, user_agent, ip).await
    }

    /// Starts a session for `user`, who just entered the password.
    pub async fn start(
        &self,
        user: UserRow,
        user_agent: Option<&str>,
        ip: Option<&str>,
    ) -> Result<Session, SessionError> {
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
                // Only the password starts sessions here: it was just entered.
                password_entered: true,
                now,
            })
            .await?;
        Ok(Session {
            user,
            session_id,
            refresh_token: refresh,
        })
    }
}
