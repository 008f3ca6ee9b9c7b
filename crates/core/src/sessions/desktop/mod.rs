//! The desktop app's sign-in (docs/api.md, "The desktop app"): authorization codes for the browser
//! sign-in, device sign-in requests, and the device sessions both start. The rules are the
//! domain's (`closewise_domain::oauth`); this service stores codes hashed, spends them atomically
//! and starts sessions. Access tokens are the adapter's: it signs one for the session returned.

use std::future::Future;
use std::net::IpAddr;

use closewise_domain::oauth::{
    verify_pkce, AuthorizationRequest, LabelError, UserCode, AUTH_CODE_TTL, CLIENT_ID,
    DEFAULT_DEVICE_NAME, DEFAULT_PLATFORM,
};
use closewise_domain::sweep::DEFAULT_MAX_PENDING_DEVICE_REQUESTS;
use closewise_domain::tokens::refresh_token_expiry;
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

use super::opaque_tokens::{hash_token, random_token};
use crate::clock::Clock;
use crate::mail::{Composer, Template};
use crate::reauth::Reauth;
use crate::store::oauth::{CodeRedemption, NewDeviceSession, NewOauthCode};
use crate::store::NewMail;
use crate::store::Store;

mod approval;
mod device;
mod devices;

pub use device::DeviceRequest;

#[derive(Debug, thiserror::Error)]
pub enum DesktopAuthError {
    /// A device request not from the Closewise app.
    #[error("the client is not the Closewise app")]
    InvalidClient,
    /// A device request's name refused (`closewise_domain::oauth::device_label`).
    #[error("the device name is refused: {0:?}")]
    InvalidDeviceName(LabelError),
    /// A device request's platform refused.
    #[error("the platform is refused: {0:?}")]
    InvalidPlatform(LabelError),
    /// The caller's address is not confirmed (read now, not from the token, which may predate
    /// the confirmation), or their account is gone.
    #[error("the e-mail address is not confirmed")]
    VerificationRequired,
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
    /// The account's address must sign in by SSO (Require SSO), and the code or request was
    /// allowed by a session SSO did not start.
    #[error("the account signs in by single sign-on")]
    SsoRequired,
    /// Allowing a sign-in, the caller's session has not stepped up within the window.
    #[error("the password was not given on this session recently")]
    ReauthenticationRequired,
    /// Allowing a sign-in, the caller lacks the second factor a team of theirs requires.
    #[error("a team of the caller requires a second factor they have not set up")]
    MfaSetupRequired,
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

impl DesktopAuthError {
    pub fn code(&self) -> &'static str {
        match self {
            DesktopAuthError::InvalidClient => "invalid_client",
            DesktopAuthError::InvalidDeviceName(_) => "invalid_device_name",
            DesktopAuthError::InvalidPlatform(LabelError::Invisible) => "invalid_device_name",
            DesktopAuthError::InvalidPlatform(LabelError::Length) => "invalid_platform",
            DesktopAuthError::VerificationRequired => "email_not_confirmed",
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
            DesktopAuthError::SsoRequired => "sso_required",
            DesktopAuthError::ReauthenticationRequired => "reauthentication_required",
            DesktopAuthError::MfaSetupRequired => "mfa_setup_required",
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
    /// Whether it came from the network of the person looking (same IPv4 /24 or IPv6 /64);
    /// false when unknown.
    pub same_network: bool,
}

/// The budget of user-code attempts, kept by the adapter (its rate limiter, per user and per
/// client address): every use of a code, right or wrong, spends one before the code is read. A
/// refusal is the adapter's and passes through as is.
pub trait CodeBudget: Sync {
    type Refusal: Send;
    fn spend(&self) -> impl Future<Output = Result<(), Self::Refusal>> + Send;
}

/// The answer of a flow that spends a [`CodeBudget`]: the outer error is the flow's, the inner
/// one the budget's refusal.
pub type Spent<T, R> = Result<Result<T, R>, DesktopAuthError>;

/// A device of the Devices list.
#[derive(Debug)]
pub struct Device {
    pub id: Uuid,
    pub name: String,
    pub platform: String,
    pub created_at: OffsetDateTime,
    pub last_seen_at: Option<OffsetDateTime>,
}

#[derive(Clone)]
pub struct DesktopAuth {
    store: Store,
    clock: Clock,
    session_max_age: Duration,
    /// The most device requests waiting at once (`closewise_domain::sweep`; 0: no cap).
    max_pending_devices: u32,
    /// Mails the account at each new session when set (`with_signin_mail`).
    mail: Option<Composer>,
    reauth: Reauth,
}

/// How the new-sign-in mail writes its time: "25 Nov 2026, 17:35 UTC".
const MAIL_TIME: &[time::format_description::FormatItem<'static>] = time::macros::format_description!(
    "[day padding:none] [month repr:short] [year], [hour]:[minute] UTC"
);

impl DesktopAuth {
    pub fn new(store: Store, clock: Clock, session_max_age: Duration) -> Self {
        DesktopAuth {
            session_max_age,
            max_pending_devices: DEFAULT_MAX_PENDING_DEVICE_REQUESTS,
            mail: None,
            reauth: Reauth::new(store.clone(), clock.clone()),
            store,
            clock,
        }
    }

    /// The same service with another cap on waiting device requests.
    pub fn with_max_pending_devices(mut self, max: u32) -> Self {
        self.max_pending_devices = max;
        self
    }

    /// Every session this service starts mails its account (device, platform, the app's address,
    /// time and the Devices page; never a token), in the session's transaction.
    pub fn with_signin_mail(mut self, mail: Composer) -> Self {
        self.mail = Some(mail);
        self
    }

    fn notice(
        &self,
        device_name: &str,
        platform: &str,
        ip: Option<&str>,
        now: OffsetDateTime,
    ) -> Option<NewMail> {
        let mail = self.mail.as_ref()?;
        let template = Template::NewSignin {
            device_name: device_name.to_string(),
            platform: platform.to_string(),
            ip: ip.unwrap_or("unknown").to_owned(),
            at: now
                .to_offset(time::UtcOffset::UTC)
                .format(MAIL_TIME)
                .unwrap_or_else(|_| now.to_string()),
            link: mail.page("/settings#devices"),
        };
        // Addressed by the store to the account's stored address (`NewDeviceSession::notice`).
        Some(mail.compose("", template, now))
    }

    /// Whether `user_id`'s address must sign in by SSO (Require SSO of its domain's team).
    async fn sso_required(&self, user_id: Uuid) -> Result<bool, DesktopAuthError> {
        Ok(match self.store.user_by_id(user_id).await? {
            Some(user) => self.store.sso_required_for(&user.email).await?,
            None => false,
        })
    }

    /// Issues an authorization code for `user_id` (who allowed the request, on a session SSO
    /// started when `sso`); returns it in clear. The caller checked the approver (`authorize`).
    pub async fn issue_code(
        &self,
        user_id: Uuid,
        req: &AuthorizationRequest,
        sso: bool,
    ) -> Result<String, DesktopAuthError> {
        let now = self.clock.now();
        let code = random_token();
        self.store
            .insert_oauth_code(&NewOauthCode {
                id: Uuid::now_v7(),
                code_hash: &hash_token(&code),
                user_id,
                client_id: CLIENT_ID,
                redirect_uri: &req.redirect_uri,
                code_challenge: &req.code_challenge,
                device_name: req.device_name.as_deref(),
                platform: req.platform.as_deref(),
                now,
                expires_at: now + AUTH_CODE_TTL,
                sso,
            })
            .await?;
        Ok(code)
    }

    /// The `authorization_code` grant from the app at `ip` (recorded on the session). Any
    /// presentation spends the code; a replayed code revokes the session it produced (RFC 6749
    /// §4.1.2). A code allowed by a session SSO did not start, of an address that must now sign
    /// in by SSO, starts nothing that lasts: `SsoRequired`.
    pub async fn exchange_code(
        &self,
        code: &str,
        verifier: &str,
        redirect_uri: &str,
        client_id: &str,
        ip: Option<IpAddr>,
    ) -> Result<IssuedSession, DesktopAuthError> {
        let now = self.clock.now();
        let ip = ip.map(|ip| ip.to_string());
        let refresh = random_token();
        let refresh_hash = hash_token(&refresh);
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
                notice: self.notice(&device_name, &platform, ip.as_deref(), now),
                ip: ip.clone(),
                device_name,
                platform,
                now,
                sso: row.sso,
            }
        };
        match self
            .store
            .redeem_oauth_code(&hash_token(code), now, accept, session)
            .await?
        {
            CodeRedemption::Redeemed(row) => {
                if !row.sso && self.sso_required(row.user_id).await? {
                    self.store
                        .revoke_session(session_id, "sso_required", now)
                        .await?;
                    return Err(DesktopAuthError::SsoRequired);
                }
                Ok(IssuedSession {
                    session_id,
                    user_id: row.user_id,
                    refresh_token: refresh,
                })
            }
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
}
