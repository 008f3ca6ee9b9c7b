//! Device sign-in (RFC 8628): the app's request, the `/activate` page's look-up and decision by
//! the signed-in person, and the app's polls until a session starts.

use std::net::IpAddr;

use closewise_domain::network::same_network;
use closewise_domain::oauth::{
    decide_poll, device_label, DevicePollState, DeviceStatus, PollDecision, UserCode, CLIENT_ID,
    DEVICE_CODE_TTL, DEVICE_NAME_MAX, PLATFORM_MAX, POLL_INTERVAL,
};
use closewise_domain::sweep::device_request_allowed;
use closewise_domain::tokens::refresh_token_expiry;
use rand::Rng;
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

use super::{
    CodeBudget, DesktopAuth, DesktopAuthError, DeviceGrant, IssuedSession, PendingDevice, Spent,
};
use crate::sessions::opaque_tokens::{hash_token, random_token};
use crate::store::is_unique_violation;
use crate::store::oauth::{DeviceCodeRow, NewDeviceCode, NewDeviceSession};

/// A device sign-in request as the app sent it.
#[derive(Clone, Copy, Debug)]
pub struct DeviceRequest<'a> {
    /// `closewise-desktop`.
    pub client_id: &'a str,
    /// 1–100 characters as the domain counts them (`device_label`).
    pub device_name: &'a str,
    /// 1–40 characters.
    pub platform: &'a str,
}

impl DesktopAuth {
    /// Starts a device sign-in request from `ip`: the app's own client id, and a name and
    /// platform the domain accepts (`device_label`), checked in that order.
    pub async fn request_device(
        &self,
        request: &DeviceRequest<'_>,
        ip: IpAddr,
    ) -> Result<DeviceGrant, DesktopAuthError> {
        if request.client_id != CLIENT_ID {
            return Err(DesktopAuthError::InvalidClient);
        }
        let device_name = &device_label(request.device_name, DEVICE_NAME_MAX)
            .map_err(DesktopAuthError::InvalidDeviceName)?;
        let platform = &device_label(request.platform, PLATFORM_MAX)
            .map_err(DesktopAuthError::InvalidPlatform)?;
        let now = self.clock.now();
        // A global bound on top of the per-IP limit: many addresses together cannot fill the
        // table faster than requests expire and the sweeper deletes them.
        if self.max_pending_devices > 0 {
            let pending = self
                .store
                .pending_device_codes(now, self.max_pending_devices)
                .await?;
            if !device_request_allowed(pending, self.max_pending_devices) {
                tracing::warn!(pending, "device requests at their cap: refusing new ones");
                return Err(DesktopAuthError::TooManyDeviceRequests);
            }
        }
        let requested_ip = ip.to_string();
        let device_code = random_token();
        let device_code_hash = hash_token(&device_code);
        // 20^8 codes: a collision with any stored request is rare; a few tries settle it.
        let mut attempts = 0;
        loop {
            let user_code = UserCode::from_indices(std::array::from_fn(|_| {
                rand::thread_rng().gen_range(0..20u8)
            }));
            let inserted = self
                .store
                .insert_device_code(&NewDeviceCode {
                    id: Uuid::now_v7(),
                    device_code_hash: &device_code_hash,
                    user_code: user_code.as_str(),
                    client_id: CLIENT_ID,
                    device_name,
                    platform,
                    interval_secs: POLL_INTERVAL.whole_seconds() as i32,
                    now,
                    expires_at: now + DEVICE_CODE_TTL,
                    requested_ip: Some(&requested_ip),
                })
                .await;
            match inserted {
                Ok(()) => {
                    return Ok(DeviceGrant {
                        device_code,
                        user_code,
                        expires_in: DEVICE_CODE_TTL.whole_seconds(),
                        interval: POLL_INTERVAL.whole_seconds(),
                    })
                }
                Err(e) if is_unique_violation(&e) && attempts < 5 => attempts += 1,
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// The pending request a person typed the code of.
    async fn pending(&self, typed: &str) -> Result<(DeviceCodeRow, UserCode), DesktopAuthError> {
        let code = UserCode::parse(typed).ok_or(DesktopAuthError::InvalidUserCode)?;
        let row = self
            .store
            .device_code_by_user_code(code.as_str())
            .await?
            .ok_or(DesktopAuthError::InvalidUserCode)?;
        if DeviceStatus::parse(&row.status) != Some(DeviceStatus::Pending) {
            return Err(DesktopAuthError::UserCodeUsed);
        }
        if self.clock.now() >= row.expires_at {
            return Err(DesktopAuthError::ExpiredUserCode);
        }
        Ok((row, code))
    }

    /// A use of a user code by `user_id`: their address must be confirmed, then it spends one of
    /// the budget's attempts, right or wrong.
    async fn code_attempt<B: CodeBudget>(
        &self,
        user_id: Uuid,
        budget: &B,
    ) -> Spent<(), B::Refusal> {
        let verified = self
            .store
            .user_by_id(user_id)
            .await?
            .is_some_and(|u| u.email_confirmed_at.is_some());
        if !verified {
            return Err(DesktopAuthError::VerificationRequired);
        }
        Ok(budget.spend().await)
    }

    /// What the `/activate` page shows `user_id`, looking from `ip`, of the request they typed
    /// the code of.
    pub async fn lookup<B: CodeBudget>(
        &self,
        user_id: Uuid,
        typed: &str,
        ip: IpAddr,
        budget: &B,
    ) -> Spent<PendingDevice, B::Refusal> {
        if let Err(refused) = self.code_attempt(user_id, budget).await? {
            return Ok(Err(refused));
        }
        let (row, user_code) = self.pending(typed).await?;
        let requested_ip: Option<IpAddr> = row.requested_ip.and_then(|ip| ip.parse().ok());
        Ok(Ok(PendingDevice {
            user_code,
            device_name: row.device_name,
            platform: row.platform,
            requested_at: row.created_at,
            expires_at: row.expires_at,
            same_network: requested_ip.is_some_and(|r| same_network(r, ip)),
            requested_ip,
        }))
    }

    /// Approves (binding the request to `user_id`, deciding on a session SSO started when `sso`:
    /// `decide_by` checked the approver) or denies a pending request.
    pub(super) async fn decide<B: CodeBudget>(
        &self,
        user_id: Uuid,
        typed: &str,
        approve: bool,
        sso: bool,
        budget: &B,
    ) -> Spent<(), B::Refusal> {
        if let Err(refused) = self.code_attempt(user_id, budget).await? {
            return Ok(Err(refused));
        }
        let (row, _) = self.pending(typed).await?;
        if self
            .store
            .decide_device_code(row.id, approve, user_id, sso, self.clock.now())
            .await?
        {
            Ok(Ok(()))
        } else {
            Err(DesktopAuthError::UserCodeUsed)
        }
    }

    /// The device-code grant: one poll of the device at `ip` (recorded on the session it starts).
    /// A request approved by a session SSO did not start, of an address that must now sign in by
    /// SSO, starts nothing: `SsoRequired`.
    pub async fn poll(
        &self,
        device_code: &str,
        client_id: &str,
        ip: Option<IpAddr>,
    ) -> Result<IssuedSession, DesktopAuthError> {
        let now = self.clock.now();
        let ip = ip.map(|ip| ip.to_string());
        let now_ms = (now.unix_timestamp_nanos() / 1_000_000) as i64;
        // The last poll's time is taken in one conditional write: a poll that lost the race to
        // another reads the request again and is answered against the winner's time.
        let (row, decision) = loop {
            let row = self
                .store
                .device_code_by_hash(&hash_token(device_code))
                .await?
                .filter(|r| r.client_id == client_id)
                .ok_or(DesktopAuthError::InvalidGrant)?;
            let status = DeviceStatus::parse(&row.status).ok_or(DesktopAuthError::InvalidGrant)?;
            let state = DevicePollState {
                status,
                expires_at: row.expires_at,
                interval: Duration::seconds(row.interval_secs.into()),
                last_polled_at: row.last_polled_at_ms.and_then(|ms| {
                    OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000).ok()
                }),
            };
            let decision = decide_poll(&state, now);
            let interval = match decision {
                PollDecision::SlowDown { interval } => interval,
                _ => state.interval,
            };
            if self
                .store
                .record_device_poll(
                    row.id,
                    (row.last_polled_at_ms, row.interval_secs),
                    now_ms,
                    interval.whole_seconds() as i32,
                )
                .await?
            {
                break (row, decision);
            }
        };
        match decision {
            PollDecision::Approved => {}
            PollDecision::AuthorizationPending => {
                return Err(DesktopAuthError::AuthorizationPending)
            }
            PollDecision::SlowDown { interval } => {
                return Err(DesktopAuthError::SlowDown {
                    interval: interval.whole_seconds(),
                })
            }
            PollDecision::AccessDenied => return Err(DesktopAuthError::AccessDenied),
            PollDecision::ExpiredToken => return Err(DesktopAuthError::ExpiredToken),
            PollDecision::InvalidGrant => return Err(DesktopAuthError::InvalidGrant),
        }
        let user_id = row.user_id.ok_or(DesktopAuthError::InvalidGrant)?;
        // Approved by a session SSO did not start, for an address that must now sign in by SSO.
        if !row.sso && self.sso_required(user_id).await? {
            return Err(DesktopAuthError::SsoRequired);
        }
        let refresh = random_token();
        let session_id = Uuid::now_v7();
        let redeemed = self
            .store
            .redeem_device_code(
                row.id,
                &NewDeviceSession {
                    id: session_id,
                    user_id,
                    refresh_id: Uuid::now_v7(),
                    refresh_hash: &hash_token(&refresh),
                    refresh_expires_at: refresh_token_expiry(now, now, self.session_max_age),
                    client_id: CLIENT_ID,
                    notice: self.notice(&row.device_name, &row.platform, ip.as_deref(), now),
                    ip,
                    device_name: row.device_name,
                    platform: row.platform,
                    now,
                    sso: row.sso,
                },
            )
            .await?;
        if !redeemed {
            return Err(DesktopAuthError::InvalidGrant);
        }
        Ok(IssuedSession {
            session_id,
            user_id,
            refresh_token: refresh,
        })
    }
}
