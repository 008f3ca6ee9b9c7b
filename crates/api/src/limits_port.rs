//! The API's counters behind core's budget port (`closewise_core::limits`): a core command spends
//! its actor's budget through [`LimitsPort`], in the same windows the handlers spend theirs.

use std::time::Duration;

use closewise_core::clock::Clock;
use closewise_core::limits::{Limit, LimitError, RateLimits, SpendFuture};
use closewise_domain::tokens::RESEND_INTERVAL;

use crate::config::RateLimits as Settings;
use crate::ratelimit::{Bucket, RateLimiter};

/// The requests allowed per window of a fixed-window bucket; None for the two that are not one
/// (the sign-in delay, and resend/recover's one a minute with its own message).
pub(crate) fn fixed_window(l: &Settings, bucket: Bucket) -> Option<(u32, Duration)> {
    let minute = || {
        RESEND_INTERVAL
            .try_into()
            .unwrap_or(Duration::from_secs(60))
    };
    Some(match bucket {
        Bucket::MailPerIp => (l.mail_per_ip, l.mail_window),
        Bucket::MailPerEmail => (l.mail_per_email, l.mail_window),
        Bucket::TokenPerIp => (l.token_per_ip, l.token_window),
        Bucket::DevicePerIp => (l.device_per_ip, l.device_window),
        Bucket::UserCodePerUser => (l.user_codes_per_user, l.device_window),
        Bucket::UserCodePerIp => (l.user_codes_per_ip, l.device_window),
        Bucket::InvitePerInviter => (l.mail_per_ip, l.mail_window),
        Bucket::StripePerUser => (l.stripe_per_user, l.stripe_window),
        Bucket::DomainCheckPerUser => (l.domain_checks_per_user, l.domain_check_window),
        Bucket::CallStartPerUser => (
            closewise_domain::usage::CALL_STARTS_PER_HOUR,
            Duration::from_secs(3600),
        ),
        Bucket::InvitePerAddress => (l.mail_per_email, l.mail_window),
        Bucket::InviteResend => (1, minute()),
        Bucket::FailedSigninPerAccountIp => {
            (l.failed_signins_per_account_ip, l.failed_signin_window)
        }
        Bucket::FailedSigninPerAccount | Bucket::Resend | Bucket::Recover => return None,
    })
}

/// The bucket a core budget is counted in.
pub(crate) fn bucket_of(limit: Limit) -> Bucket {
    match limit {
        Limit::InvitePerInviter => Bucket::InvitePerInviter,
        Limit::InvitePerAddress => Bucket::InvitePerAddress,
        Limit::InviteResend => Bucket::InviteResend,
        Limit::StripePerUser => Bucket::StripePerUser,
        Limit::DomainCheckPerUser => Bucket::DomainCheckPerUser,
        Limit::CallStartPerUser => Bucket::CallStartPerUser,
    }
}

/// The limiter, its settings and the clock, as core's services hold them.
#[derive(Clone)]
pub struct LimitsPort {
    limiter: RateLimiter,
    settings: Settings,
    clock: Clock,
}

impl LimitsPort {
    pub fn new(limiter: RateLimiter, settings: Settings, clock: Clock) -> Self {
        LimitsPort {
            limiter,
            settings,
            clock,
        }
    }
}

impl RateLimits for LimitsPort {
    fn spend<'a>(&'a self, limit: Limit, key: &'a str) -> SpendFuture<'a> {
        Box::pin(async move {
            let bucket = bucket_of(limit);
            let (n, window) =
                fixed_window(&self.settings, bucket).expect("every core budget is a fixed window");
            self.limiter
                .hit(bucket, key, n, window, self.clock.now())
                .await?
                .map_err(|retry_after| LimitError::Limited { retry_after })
        })
    }
}
