//! The refresh grant: a live refresh token is spent for its successor; the same token again within
//! the grace period gets the same successor (two tabs refreshing at once); a spent token after that
//! is reuse, and revokes the session (`closewise_domain::tokens::decide_refresh`). A session SSO
//! did not start, of an address that must now sign in by SSO (Require SSO, or its domain verified
//! by a team that requires it since), ends at its next refresh: `SsoRequired`.

use closewise_domain::tokens::{
    decide_refresh, refresh_token_expiry, RefreshDecision, RefreshTokenState,
};
use uuid::Uuid;

use super::opaque_tokens::{hash_token, successor_token};
use super::{Session, SessionError, Sessions};
use crate::store::sessions::Rotation;

impl Sessions {
    /// The session of `presented` with its next refresh token; `InvalidRefreshToken` for a token
    /// unknown, expired or of an ended session, `RefreshTokenReused` (the session revoked) for a
    /// spent one presented again after the grace period.
    pub async fn refresh(&self, presented: &str) -> Result<Session, SessionError> {
        let Some(row) = self
            .store
            .refresh_token_by_hash(&hash_token(presented))
            .await?
        else {
            return Err(SessionError::InvalidRefreshToken);
        };
        let now = self.clock.now();
        let decision = decide_refresh(
            &RefreshTokenState {
                expires_at: row.expires_at,
                revoked: row.session_revoked_at.is_some(),
                rotated_at: row.rotated_at,
            },
            now,
        );
        let successor = successor_token(&self.refresh_key, presented);
        let live = matches!(
            decision,
            RefreshDecision::Rotate | RefreshDecision::GraceReplay
        );
        let user = if live {
            self.store.user_by_id(row.user_id).await?
        } else {
            None
        };
        if let Some(user) = user.as_ref().filter(|_| row.session_sso_at.is_none()) {
            if self.store.sso_required_for(&user.email).await? {
                self.store
                    .revoke_session(row.session_id, "sso_required", now)
                    .await?;
                return Err(SessionError::SsoRequired);
            }
        }
        match decision {
            RefreshDecision::Rotate => {
                let rotation = self
                    .store
                    .rotate_refresh_token(
                        row.id,
                        row.session_id,
                        Uuid::now_v7(),
                        &hash_token(&successor),
                        refresh_token_expiry(now, row.session_created_at, self.max_age),
                        now,
                    )
                    .await?;
                // Losing the race means another request rotated it a moment ago: the grace case.
                debug_assert!(matches!(
                    rotation,
                    Rotation::Rotated | Rotation::AlreadySpent
                ));
            }
            RefreshDecision::GraceReplay => {}
            RefreshDecision::ReuseDetected => {
                tracing::warn!(session_id = %row.session_id, "refresh token reused: revoking the session");
                self.store
                    .revoke_session(row.session_id, "refresh_token_reused", now)
                    .await?;
                return Err(SessionError::RefreshTokenReused);
            }
            RefreshDecision::Expired | RefreshDecision::Revoked => {
                return Err(SessionError::InvalidRefreshToken)
            }
        }
        let Some(user) = user else {
            return Err(SessionError::InvalidRefreshToken);
        };
        // The Devices list's "last seen" (at most one write a minute per session).
        self.store.touch_session(row.session_id, now).await?;
        Ok(Session {
            user,
            session_id: row.session_id,
            refresh_token: successor,
        })
    }
}
