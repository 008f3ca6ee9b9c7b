//! Signing out: this session (`local`) or every session of the account (`global`).

use uuid::Uuid;

use super::opaque_tokens::hash_token;
use super::{SessionError, Sessions};

/// What the caller signs out with.
#[derive(Debug)]
pub enum Credential<'a> {
    /// A valid access token's session and user (the session may have ended since).
    Access { session_id: Uuid, user_id: Uuid },
    /// The refresh cookie of one of our own pages, when there is no valid access token.
    RefreshCookie(&'a str),
    /// Neither.
    None,
}

impl Sessions {
    /// Signs out the credential's session, or with `scope` `global` every session of its account.
    /// A dead credential (an ended session, a spent or expired refresh token) signs nothing out:
    /// `NotSignedIn`, whatever the scope; then a scope other than `local` or `global` is
    /// `InvalidScope`.
    pub async fn sign_out(
        &self,
        credential: Credential<'_>,
        scope: Option<&str>,
    ) -> Result<(), SessionError> {
        let now = self.clock.now();
        let session = match credential {
            Credential::Access {
                session_id,
                user_id,
            } => self
                .store
                .session_is_active(session_id, user_id)
                .await?
                .then_some((session_id, user_id)),
            Credential::RefreshCookie(token) => self
                .store
                .refresh_token_by_hash(&hash_token(token))
                .await?
                .filter(|r| r.is_live(now))
                .map(|r| (r.session_id, r.user_id)),
            Credential::None => None,
        };
        let Some((session_id, user_id)) = session else {
            return Err(SessionError::NotSignedIn);
        };
        let global = match scope {
            None | Some("local") => false,
            Some("global") => true,
            Some(_) => return Err(SessionError::InvalidScope),
        };
        if global {
            self.store
                .revoke_all_sessions(user_id, "signed_out_everywhere", now)
                .await?;
        } else {
            self.store
                .revoke_session(session_id, "signed_out", now)
                .await?;
        }
        Ok(())
    }
}
