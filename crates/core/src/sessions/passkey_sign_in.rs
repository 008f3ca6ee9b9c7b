//! Signing in with a passkey (`closewise_core::passkeys` verified it): the same session a
//! password sign-in starts, under the same rules for unconfirmed addresses and Require SSO.

use uuid::Uuid;

use super::{Session, SessionError, Sessions};

impl Sessions {
    /// Starts a session for the account a passkey just proved: a discoverable passkey whose
    /// authenticator verified the user (no password; `closewise_core::passkeys` refuses one that
    /// did not), or the second factor after the password. The credential was just presented, so
    /// the session may take sensitive actions for the usual window, as after a password; and a
    /// passkey is a factor, so the window's factor is given too (`sessions.mfa_at`).
    pub async fn passkey_sign_in(
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
        if self.store.sso_required_for(&user.email).await? {
            return Err(SessionError::SsoRequired);
        }
        let session = self.password_sign_in(user, user_agent, ip).await?;
        self.store
            .stamp_mfa(session.session_id, session.user.id, self.clock.now())
            .await?;
        Ok(session)
    }
}
