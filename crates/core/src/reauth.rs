//! Re-authentication ("sudo mode"): the one place that tells whether a session may take a
//! sensitive action now. The window is the domain's rule (`closewise_domain::reauth`); the time
//! of the last password entry is the session's (`sessions.password_at`). Every sensitive action
//! of the API asks here rather than reading the stamp itself. An account with a second factor
//! needs the factor given on the session within the window too (`sessions.mfa_at`:
//! `closewise_domain::mfa::step_up_satisfied`).

use closewise_domain::mfa::step_up_satisfied;
use closewise_domain::reauth::reauth_until;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::clock::Clock;
use crate::store::Store;

#[derive(Clone)]
pub struct Reauth {
    store: Store,
    clock: Clock,
}

impl Reauth {
    pub fn new(store: Store, clock: Clock) -> Self {
        Reauth { store, clock }
    }

    /// True when the password was entered on `session_id` within the window, and the second
    /// factor too when the account has one.
    pub async fn is_recent(&self, session_id: Uuid) -> Result<bool, sqlx::Error> {
        let Some(stamps) = self.store.session_stamps(session_id).await? else {
            return Ok(false);
        };
        let factors = self.store.mfa_factors(stamps.user_id).await?;
        Ok(step_up_satisfied(
            stamps.password_at,
            stamps.mfa_at,
            factors.step_up_needs_factor(),
            self.clock.now(),
        ))
    }

    /// Records that the second factor was given on the user's session (after the caller checked
    /// it); false when the session has ended.
    pub async fn stamp_factor(&self, session_id: Uuid, user_id: Uuid) -> Result<bool, sqlx::Error> {
        self.store
            .stamp_mfa(session_id, user_id, self.clock.now())
            .await
    }

    /// Records a password entry on the user's session (after the caller checked the password);
    /// returns when the window it opens closes, or `None` when the session has ended.
    pub async fn stamp(
        &self,
        session_id: Uuid,
        user_id: Uuid,
    ) -> Result<Option<OffsetDateTime>, sqlx::Error> {
        let now = self.clock.now();
        let stamped = self.store.stamp_password(session_id, user_id, now).await?;
        Ok(stamped.then(|| reauth_until(now)))
    }
}
