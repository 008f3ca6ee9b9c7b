//! The desktop app's sign-in (docs/api.md, "The desktop app"): authorization codes for the browser
//! sign-in, device sign-in requests, and the device sessions both start. The rules are the
//! domain's (`closewise_domain::oauth`); this service stores codes hashed, spends them atomically
//! and starts sessions. Access tokens are the adapter's: it signs one for the session returned.

use closewise_domain::oauth::{
    decide_poll, verify_pkce, AuthorizationRequest, DevicePollState, DeviceStatus, PollDecision,
    UserCode, AUTH_CODE_TTL, CLIENT_ID, DEFAULT_DEVICE_NAME, DEFAULT_PLATFORM, DEVICE_CODE_TTL,
    POLL_INTERVAL,
};
use closewise_domain::sweep::{device_request_allowed, DEFAULT_MAX_PENDING_DEVICE_REQUESTS};
use closewise_domain::tokens::refresh_token_expiry;
use rand::Rng;
use std::net::IpAddr;

use time::{Duration, OffsetDateTime};
use uuid::Uuid;

use crate::clock::Clock;
use crate::mail::{Composer, Template};
use crate::store::oauth::{
    CodeRedemption, DeviceCodeRow, DeviceSessionRow, NewDeviceCode, NewDeviceSession, NewOauthCode,
};
use crate::store::NewMail;
use crate::store::{is_unique_violation, Store};

#[derive(Debug, thiserror::Error)]
pub enum DesktopAuthError {
    #[error("the code is unknown, expired, spent or does not match")]
    InvalidGrant,
    #[error("the user has not decided yet")]
    AuthorizationPending,
    #[error("polled too soon; wait {interval} seconds")]
    SlowDown { interval: i64 },
    #[error("the user denied the sign-in")]
    AccessDenied,
    #[error("the device code has expired")]
    ExpiredToken,
    #[error("no such user code")]
    InvalidUserCode,
    #[error("the user code has expired")]
    ExpiredUserCode,
    #[error("the user code has been used")]
    UserCodeUsed,
    #[error("no such device")]
    DeviceNotFound,
    /// Too many device requests are waiting for a decision, all clients together.
    #[error("too many sign-in requests are waiting")]
    TooManyDeviceRequests,
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

impl DesktopAuthError {
    pub fn code(&self) -> &'static str {
        match self {
            DesktopAuthError::InvalidGrant => "invalid_grant",
            DesktopAuthError::AuthorizationPending => "authorization_pending",
            DesktopAuthError::SlowDown { .. } => "slow_down",
            DesktopAuthError::AccessDenied => "access_denied",
            DesktopAuthError::ExpiredToken => "expired_token",
            DesktopAuthError::InvalidUserCode => "invalid_user_code",
            DesktopAuthError::ExpiredUserCode => "expired_user_code",
            DesktopAuthError::UserCodeUsed => "user_code_used",
            DesktopAuthError::DeviceNotFound => "device_not_found",
            DesktopAuthError::TooManyDeviceRequests => "too_many_device_requests",
            DesktopAuthError::Database(_) => "internal",
        }
    }
}

/// A session just started: the adapter signs its access token.
#[derive(Debug)]
pub struct IssuedSession {
    pub session_id: Uuid,
    pub user_id: Uuid,
    pub refresh_token: String,
}

/// A new device sign-in request, with its codes in clear (shown once).
#[derive(Debug)]
pub struct DeviceGrant {
    pub device_code: String,
    pub user_code: UserCode,
    pub expires_in: i64,
    pub interval: i64,
}

/// What the `/activate` page shows of a pending request.
#[derive(Debug)]
pub struct PendingDevice {
    pub user_code: UserCode,
    pub device_name: String,
    pub platform: String,
    pub requested_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
    /// Where the request came from; `None` for requests stored before addresses were.
    pub requested_ip: Option<IpAddr>,
}

/// A device of the Devices list.
#[derive(Debug)]
pub struct Device {
    pub id: Uuid,
    pub name: String,
    pub platform: String,
    pub created_at: OffsetDateTime,
    pub last_seen_at: Option<OffsetDateTime>,
}

/// Codes are opaque tokens too: 256 random bits, base64url, given out once and stored hashed.
pub use super::opaque_tokens::{hash_token as hash_code, random_token as random_code};

#[derive(Clone)]
pub struct DesktopAuth {
    store: Store,
    clock: Clock,
    session_max_age: Duration,
    /// The most device requests waiting at once (`closewise_domain::sweep`; 0: no cap).
    max_pending_devices: u32,
    /// Mails the account at each new session when set (`with_signin_mail`).
    mail: Option<Composer>,
    /// The address of the client starting sessions through this service (the app's request).
    ip: Option<String>,
}

/// How the new-sign-in mail writes its time: "25 Nov 2026, 17:35 UTC".
const MAIL_TIME: &[time::format_description::FormatItem<'static>] = time::macros::format_description!(
    "[day padding:none] [month repr:short] [year], [hour]:[minute] UTC"
);

impl DesktopAuth {
    pub fn new(store: Store, clock: Clock, session_max_age: Duration) -> Self {
        DesktopAuth {
            store,
            clock,
            session_max_age,
            max_pending_devices: DEFAULT_MAX_PENDING_DEVICE_REQUESTS,
            mail: None,
            ip: None,
        }
    }

    /// The same service with another cap on waiting device requests.
    pub fn with_max_pending_devices(mut self, max: u32) -> Self {
        self.max_pending_devices = max;
        self
    }

    /// Every session this service starts mails its account (device, platform, `ip`, time and the
    /// Devices page; never a token), in the session's transaction, and records `ip` on it.
    pub fn with_signin_mail(mut self, mail: Composer, ip: Option<String>) -> Self {
        self.mail = Some(mail);
        self.ip = ip;
        self
    }

    fn notice(&self, device_name: &str, platform: &str, now: OffsetDateTime) -> Option<NewMail> {
        let mail = self.mail.as_ref()?;
        let template = Template::NewSignin {
            device_name: device_name.to_string(),
            platform: platform.to_string(),
            ip: self.ip.clone().unwrap_or_else(|| "unknown".into()),
            at: now
                .to_offset(time::UtcOffset::UTC)
                .format(MAIL_TIME)
                .unwrap_or_else(|_| now.to_string()),
            link: mail.page("/settings#devices"),
        };
        // Addressed by the store to the account's stored address (`NewDeviceSession::notice`).
        Some(mail.compose("", template, now))
    }

    /// Issues an authorization code for `user_id` (who allowed the request); returns it in clear.
    pub async fn issue_code(
        &self,
        user_id: Uuid,
        req: &AuthorizationRequest,
    ) -> Result<String, DesktopAuthError> {
        let now = self.clock.now();
        let code = random_code();
        self.store
            .insert_oauth_code(&NewOauthCode {
                id: Uuid::now_v7(),
                code_hash: &hash_code(&code),
                user_id,
                client_id: CLIENT_ID,
                redirect_uri: &req.redirect_uri,
                code_challenge: &req.code_challenge,
                device_name: req.device_name.as_deref(),
                platform: req.platform.as_deref(),
                now,
                expires_at: now + AUTH_CODE_TTL,
            })
            .await?;
        Ok(code)
    }

    /// The `authorization_code` grant. Any presentation spends the code; a replayed code revokes
    /// the session it produced (RFC 6749 §4.1.2).
    pub async fn exchange_code(
        &self,
        code: &str,
        verifier: &str,
        redirect_uri: &str,
        client_id: &str,
    ) -> Result<IssuedSession, DesktopAuthError> {
        let now = self.clock.now();
        let refresh = random_code();
        let refresh_hash = hash_code(&refresh);
        let session_id = Uuid::now_v7();
        let refresh_expires_at = refresh_token_expiry(now, now, self.session_max_age);
        let accept = |row: &crate::store::oauth::OauthCodeRow| {
            now < row.expires_at
                && row.client_id == client_id
                && row.redirect_uri == redirect_uri
                && verify_pkce(verifier, &row.code_challenge)
        };
        let session = |row: &crate::store::oauth::OauthCodeRow| {
            let device_name = row
                .device_name
                .clone()
                .unwrap_or(DEFAULT_DEVICE_NAME.into());
            let platform = row.platform.clone().unwrap_or(DEFAULT_PLATFORM.into());
            NewDeviceSession {
                id: session_id,
                user_id: row.user_id,
                refresh_id: Uuid::now_v7(),
                refresh_hash: &refresh_hash,
                refresh_expires_at,
                client_id: CLIENT_ID,
                notice: self.notice(&device_name, &platform, now),
                ip: self.ip.clone(),
                device_name,
                platform,
                now,
            }
        };
        match self
            .store
            .redeem_oauth_code(&hash_code(code), now, accept, session)
            .await?
        {
            CodeRedemption::Redeemed(row) => Ok(IssuedSession {
                session_id,
                user_id: row.user_id,
                refresh_token: refresh,
            }),
            CodeRedemption::Replayed(Some(earlier)) => {
                tracing::warn!(session_id = %earlier, "authorization code replayed: revoking its session");
                self.store
                    .revoke_session(earlier, "authorization_code_replayed", now)
                    .await?;
                Err(DesktopAuthError::InvalidGrant)
            }
            CodeRedemption::Replayed(None) | CodeRedemption::Refused | CodeRedemption::Unknown => {
                Err(DesktopAuthError::InvalidGrant)
            }
        }
    }

    /// Starts a device sign-in request from `ip` (the client id and the labels are checked by the
    /// caller).
    pub async fn request_device(
        &self,
        device_name: &str,
        platform: &str,
        ip: IpAddr,
    ) -> Result<DeviceGrant, DesktopAuthError> {
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
        let device_code = random_code();
        let device_code_hash = hash_code(&device_code);
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

    pub async fn lookup(&self, typed: &str) -> Result<PendingDevice, DesktopAuthError> {
        let (row, user_code) = self.pending(typed).await?;
        Ok(PendingDevice {
            user_code,
            device_name: row.device_name,
            platform: row.platform,
            requested_at: row.created_at,
            expires_at: row.expires_at,
            requested_ip: row.requested_ip.and_then(|ip| ip.parse().ok()),
        })
    }

    /// Approves (binding the request to `user_id`) or denies a pending request.
    pub async fn decide(
        &self,
        typed: &str,
        user_id: Uuid,
        approve: bool,
    ) -> Result<(), DesktopAuthError> {
        let (row, _) = self.pending(typed).await?;
        if self
            .store
            .decide_device_code(row.id, approve, user_id, self.clock.now())
            .await?
        {
            Ok(())
        } else {
            Err(DesktopAuthError::UserCodeUsed)
        }
    }

    /// The device-code grant: one poll of the device.
    pub async fn poll(
        &self,
        device_code: &str,
        client_id: &str,
    ) -> Result<IssuedSession, DesktopAuthError> {
        let now = self.clock.now();
        let row = self
            .store
            .device_code_by_hash(&hash_code(device_code))
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
        let now_ms = (now.unix_timestamp_nanos() / 1_000_000) as i64;
        self.store
            .record_device_poll(row.id, now_ms, interval.whole_seconds() as i32)
            .await?;
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
        let refresh = random_code();
        let session_id = Uuid::now_v7();
        let redeemed = self
            .store
            .redeem_device_code(
                row.id,
                &NewDeviceSession {
                    id: session_id,
                    user_id,
                    refresh_id: Uuid::now_v7(),
                    refresh_hash: &hash_code(&refresh),
                    refresh_expires_at: refresh_token_expiry(now, now, self.session_max_age),
                    client_id: CLIENT_ID,
                    notice: self.notice(&row.device_name, &row.platform, now),
                    ip: self.ip.clone(),
                    device_name: row.device_name,
                    platform: row.platform,
                    now,
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
    pub async fn sign_out_device(
        &self,
        user_id: Uuid,
        session_id: Uuid,
    ) -> Result<(), DesktopAuthError> {
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
