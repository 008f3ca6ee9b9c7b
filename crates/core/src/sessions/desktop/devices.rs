//! The Devices list: the user's signed-in desktop apps, and signing one of them out.

use closewise_domain::oauth::{DEFAULT_DEVICE_NAME, DEFAULT_PLATFORM};
use uuid::Uuid;

use super::{DesktopAuth, DesktopAuthError, Device};
use crate::store::oauth::DeviceSessionRow;

impl DesktopAuth {
    /// The user's signed-in devices, newest first.
    pub async fn devices(&self, user_id: Uuid) -> Result<Vec<Device>, DesktopAuthError> {
        let now = self.clock.now();
        let rows = self.store.device_sessions_of(user_id).await?;
        Ok(rows
            .into_iter()
            .filter(|r: &DeviceSessionRow| r.refresh_expires_at.is_some_and(|e| now < e))
            .map(|r| Device {
                id: r.id,
                name: r.device_name.unwrap_or(DEFAULT_DEVICE_NAME.into()),
                platform: r.platform.unwrap_or(DEFAULT_PLATFORM.into()),
                created_at: r.created_at,
                last_seen_at: r.last_seen_at,
            })
            .collect())
    }

    /// Signs one of the user's devices out: its session, refresh chain and access tokens end now.
    /// A malformed id names no device: the same `DeviceNotFound` as another user's.
    pub async fn sign_out_device(&self, user_id: Uuid, id: &str) -> Result<(), DesktopAuthError> {
        let session_id = Uuid::parse_str(id).map_err(|_| DesktopAuthError::DeviceNotFound)?;
        if self
            .store
            .revoke_device_session(user_id, session_id, self.clock.now())
            .await?
        {
            Ok(())
        } else {
            Err(DesktopAuthError::DeviceNotFound)
        }
    }
}
