//! Re-authentication ("sudo mode"): the one place that tells whether a session may take a
//! sensitive action now. The window is the domain's rule (`closewise_domain::reauth`); the time
//! of the last password entry is the session's (`sessions.password_at`). Every sensitive action
//! of the API asks here rather than reading the stamp itself.

use closewise_domain::reauth::{password_is_recent, reauth_until};
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

    /// True when the password was entered on `session_id` within the window.
    pub async fn is_recent(&self, session_id: Uuid) -> Result<bool, sqlx::Error> {
        let stamp = self.store.session_password_at(session_id).await?;
        Ok(password_is_recent(stamp, self.clock.now()))
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
