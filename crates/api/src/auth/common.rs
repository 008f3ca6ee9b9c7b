//! What the account flows share: input parsing, rate limits, the timing floor of mail-sending
//! answers, e-mail tokens and their links.

use crate::error::{ApiError, ApiResult};
use crate::ratelimit::Bucket;
use crate::state::AppState;
use closewise_core::mail::Template;
use closewise_core::sessions::opaque_tokens::{hash_token, random_token};
use closewise_core::store::users::NewEmailToken;
use closewise_domain::email::Email;
use closewise_domain::password::Password;
use closewise_domain::tokens::{
    check_email_token, expires_at, EmailTokenKind, TokenCheck, RESEND_INTERVAL,
};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

#[derive(Serialize, ToSchema, Default)]
#[schema(as = Empty)]
pub struct EmptyResponse {}

pub(super) fn parse_email(raw: &str) -> ApiResult<Email> {
    Email::parse(raw).map_err(|e| ApiError::unprocessable("invalid_email", e.to_string()))
}

pub(super) fn parse_password(raw: &str) -> ApiResult<Password> {
    Password::parse(raw).map_err(|e| ApiError::unprocessable("weak_password", e.to_string()))
}

/// Spends one request of `bucket` for `key`, refusing with 429 when its budget is spent. Async:
/// on PostgreSQL the windows are shared by every replica in the database.
pub(crate) async fn limit(state: &AppState, bucket: Bucket, key: &str) -> ApiResult<()> {
    let l = &state.settings.limits;
    let now = state.clock.now();
    let (n, window) = match bucket {
        Bucket::MailPerIp => (l.mail_per_ip, l.mail_window),
        Bucket::MailPerEmail => (l.mail_per_email, l.mail_window),
        Bucket::TokenPerIp => (l.token_per_ip, l.token_window),
        Bucket::DevicePerIp => (l.device_per_ip, l.device_window),
        Bucket::UserCodePerUser => (l.user_codes_per_user, l.device_window),
        Bucket::UserCodePerIp => (l.user_codes_per_ip, l.device_window),
        Bucket::InvitePerInviter => (l.mail_per_ip, l.mail_window),
        Bucket::StripePerUser => (l.stripe_per_user, l.stripe_window),
        Bucket::CallStartPerUser => (
            closewise_domain::usage::CALL_STARTS_PER_HOUR,
            std::time::Duration::from_secs(3600),
        ),
        Bucket::InvitePerAddress => (l.mail_per_email, l.mail_window),
        Bucket::InviteResend => (
            1,
            RESEND_INTERVAL
                .try_into()
                .unwrap_or(std::time::Duration::from_secs(60)),
        ),
        Bucket::FailedSigninPerAccountIp => {
            (l.failed_signins_per_account_ip, l.failed_signin_window)
        }
        Bucket::FailedSigninPerAccount => {
            return state
                .limiter
                .delay(
                    bucket,
                    key,
                    l.failed_signins_per_account,
                    l.signin_delay_max,
                    l.failed_signin_window,
                    now,
                )
                .await?
                .map_err(ApiError::too_many_attempts);
        }
        Bucket::Resend | Bucket::Recover => {
            let window = RESEND_INTERVAL
                .try_into()
                .unwrap_or(std::time::Duration::from_secs(60));
            return state
                .limiter
                .hit(bucket, key, 1, window, now)
                .await?
                .map_err(ApiError::resend_wait);
        }
    };
    let key = match bucket {
        Bucket::MailPerIp | Bucket::TokenPerIp | Bucket::DevicePerIp | Bucket::UserCodePerIp => {
            address_key(key)
        }
        _ => key.to_string(),
    };
    state
        .limiter
        .hit(bucket, &key, n, window, now)
        .await?
        .map_err(ApiError::rate_limited)
}

/// Per-address budgets count an IPv6 client by its /64 (`net::rate_key`).
fn address_key(ip: &str) -> String {
    ip.parse()
        .map(crate::net::rate_key)
        .unwrap_or_else(|_| ip.to_string())
}

/// One password check of `account` (an e-mail, known or not) from the client address `ip`, spent
/// **before** the hash is checked so racing guesses cannot overrun the budgets: a hard limit per
/// (account, address), so one address cannot guess on, and per account a delay that grows with
/// each failure but never locks, so guesses from elsewhere cannot keep the owner out.
/// `refund` it when the password was right.
pub(super) struct PasswordAttempt {
    account: String,
    pair: String,
}

pub(super) async fn password_attempt(
    state: &AppState,
    account: &str,
    ip: &str,
) -> ApiResult<PasswordAttempt> {
    let pair = format!("{account}\n{}", address_key(ip));
    limit(state, Bucket::FailedSigninPerAccountIp, &pair).await?;
    if let Err(e) = limit(state, Bucket::FailedSigninPerAccount, account).await {
        // Waiting out the account's delay costs the address nothing.
        state
            .limiter
            .refund(Bucket::FailedSigninPerAccountIp, &pair)
            .await;
        return Err(e);
    }
    Ok(PasswordAttempt {
        account: account.to_string(),
        pair,
    })
}

impl PasswordAttempt {
    pub(super) async fn refund(self, state: &AppState) {
        state
            .limiter
            .refund(Bucket::FailedSigninPerAccountIp, &self.pair)
            .await;
        state
            .limiter
            .refund(Bucket::FailedSigninPerAccount, &self.account)
            .await;
    }
}

/// How long sign-up (after hashing), resend and recover take at least. Their database work differs
/// between known and unknown e-mails (a mail written or not, a failed or a full insert); padding
/// the answer to a floor well above that work makes the two indistinguishable by timing
/// (resilience suite: `enumeration::timing_does_not_tell_known_from_unknown_emails_*`).
pub const EMAIL_WORK_FLOOR: std::time::Duration = std::time::Duration::from_millis(100);

/// Runs `work`, then waits until `EMAIL_WORK_FLOOR` has passed since it started.
pub(super) async fn padded<T>(
    work: impl std::future::Future<Output = ApiResult<T>>,
) -> ApiResult<T> {
    let started = tokio::time::Instant::now();
    let outcome = work.await;
    tokio::time::sleep_until(started + EMAIL_WORK_FLOOR).await;
    outcome
}

pub(super) fn new_email_token(
    kind: EmailTokenKind,
    now: time::OffsetDateTime,
) -> (String, NewEmailToken) {
    let token = random_token();
    let row = NewEmailToken {
        id: Uuid::now_v7(),
        kind: kind.as_str(),
        token_hash: hash_token(&token),
        expires_at: expires_at(kind, now),
        password_hash: None,
    };
    (token, row)
}

/// Mails the user a fresh single-use link of `kind` (verification or reset), unless a mail of that
/// kind went to the address less than `min_interval` ago.
pub(super) async fn send_link(
    state: &AppState,
    user_id: Uuid,
    email: &str,
    kind: EmailTokenKind,
    min_interval: time::Duration,
    password_hash: Option<String>,
) -> ApiResult<()> {
    send_link_next(
        state,
        user_id,
        email,
        kind,
        min_interval,
        password_hash,
        None,
    )
    .await
}

/// `send_link` whose link carries `next`, a return path already checked with `return_path`.
pub(super) async fn send_link_next(
    state: &AppState,
    user_id: Uuid,
    email: &str,
    kind: EmailTokenKind,
    min_interval: time::Duration,
    password_hash: Option<String>,
    next: Option<&str>,
) -> ApiResult<()> {
    let now = state.clock.now();
    let (token, mut token_row) = new_email_token(kind, now);
    token_row.password_hash = password_hash;
    let template = match kind {
        EmailTokenKind::Verification => Template::Verification {
            link: state.mail.link_with_next("/verify", &token, next),
        },
        EmailTokenKind::Reset => Template::Reset {
            link: state.mail.link_with_next("/reset-password", &token, next),
        },
    };
    let mail = state.mail.compose(email, template, now);
    state
        .store
        .mail_user_throttled(user_id, Some(&token_row), &mail, min_interval)
        .await?;
    Ok(())
}

/// The errors of an e-mail link ("verification" or "reset"), worded for the page that shows them.
#[derive(Clone, Copy)]
pub(super) struct LinkErrors(pub(super) &'static str);

impl LinkErrors {
    pub(super) fn invalid(self) -> ApiError {
        ApiError::bad_request("token_invalid", format!("This {} link is invalid.", self.0))
    }
    pub(super) fn used(self) -> ApiError {
        ApiError::bad_request(
            "token_used",
            format!("This {} link has already been used.", self.0),
        )
    }
    fn expired(self) -> ApiError {
        ApiError::bad_request(
            "token_expired",
            format!("This {} link has expired. Request a new one.", self.0),
        )
    }
}

/// The stored row of an e-mail link's token, if it is known, unused and unexpired.
pub(super) async fn live_email_token(
    state: &AppState,
    kind: EmailTokenKind,
    token: &str,
    link: LinkErrors,
) -> ApiResult<closewise_core::store::EmailTokenRow> {
    let row = state
        .store
        .email_token_by_hash(kind.as_str(), &hash_token(token.trim()))
        .await?
        .ok_or_else(|| link.invalid())?;
    match check_email_token(row.expires_at, row.used_at, state.clock.now()) {
        TokenCheck::Used => Err(link.used()),
        TokenCheck::Expired => Err(link.expired()),
        TokenCheck::Valid => Ok(row),
    }
}
