//! What the account flows share: input parsing, rate limits and sign-in's budget of password
//! checks. The flows themselves, e-mail links included, are `closewise_core::accounts`.

use crate::error::{ApiError, ApiResult};
use crate::ratelimit::Bucket;
use crate::ratelimit::Refused;
use crate::state::AppState;
use closewise_domain::email::Email;
use closewise_domain::password::Password;
use closewise_domain::tokens::RESEND_INTERVAL;
use serde::Serialize;
use utoipa::ToSchema;

pub use closewise_core::accounts::EMAIL_WORK_FLOOR;

#[derive(Serialize, ToSchema, Default)]
#[schema(as = Empty)]
pub struct EmptyResponse {}

pub(super) fn parse_email(raw: &str) -> ApiResult<Email> {
    Email::parse(raw).map_err(ApiError::invalid_email)
}

pub(super) fn parse_password(raw: &str) -> ApiResult<Password> {
    Password::parse(raw).map_err(ApiError::weak_password)
}

/// Spends one request of `bucket` for `key`, refusing with 429 when its budget is spent. Async:
/// on PostgreSQL the windows are shared by every replica in the database.
pub(crate) async fn limit(state: &AppState, bucket: Bucket, key: &str) -> ApiResult<()> {
    let l = &state.settings.limits;
    let now = state.clock.now();
    let (n, window) = match crate::limits_port::fixed_window(l, bucket) {
        Some(w) => w,
        None if bucket == Bucket::FailedSigninPerAccount => {
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
        None => {
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
    let l = &state.settings.limits;
    // Waiting out the account's delay costs the address nothing: the limiter gives the pair's
    // request back when the delay refuses.
    let spent = state
        .limiter
        .hit_then_delay(
            (
                Bucket::FailedSigninPerAccountIp,
                &pair,
                l.failed_signins_per_account_ip,
                l.failed_signin_window,
            ),
            (
                Bucket::FailedSigninPerAccount,
                account,
                l.failed_signins_per_account,
                l.signin_delay_max,
                l.failed_signin_window,
            ),
            state.clock.now(),
        )
        .await?;
    match spent {
        Ok(()) => Ok(PasswordAttempt {
            account: account.to_string(),
            pair,
        }),
        Err(Refused::Window(wait)) => Err(ApiError::rate_limited(wait)),
        Err(Refused::Delay(wait)) => Err(ApiError::too_many_attempts(wait)),
    }
}

impl PasswordAttempt {
    pub(super) async fn refund(self, state: &AppState) {
        state
            .limiter
            .refund_each(&[
                (Bucket::FailedSigninPerAccountIp, &self.pair),
                (Bucket::FailedSigninPerAccount, &self.account),
            ])
            .await;
    }
}
