//! The rate limits' settings (`RATE_LIMIT_*`).

use std::time::Duration;

use super::num;

/// Requests allowed per window. Defaults are documented in README and `.env.example`.
#[derive(Clone, Debug)]
pub struct RateLimits {
    /// Sign-up, resend, recover, verify: per IP.
    pub mail_per_ip: u32,
    pub mail_window: Duration,
    /// Sign-up, resend, recover: per e-mail address.
    pub mail_per_email: u32,
    /// The token endpoint: per IP.
    pub token_per_ip: u32,
    pub token_window: Duration,
    /// Failed sign-ins per (account, client address): a hard limit.
    pub failed_signins_per_account_ip: u32,
    /// Failed sign-ins per account, from anywhere, before each further attempt waits a delay that
    /// doubles from one second up to `signin_delay_max` (never a lock).
    pub failed_signins_per_account: u32,
    pub failed_signin_window: Duration,
    pub signin_delay_max: Duration,
    /// Device sign-in requests per IP, and user-code lookups and decisions per user and per IP,
    /// each per `device_window`.
    pub device_per_ip: u32,
    pub user_codes_per_user: u32,
    pub user_codes_per_ip: u32,
    pub device_window: Duration,
    /// Requests that call Stripe (checkout, its confirmation, billing portals; personal and team)
    /// per user, one budget for all of them, per `stripe_window`.
    pub stripe_per_user: u32,
    pub stripe_window: Duration,
    /// Domain verifications (each looks the TXT record up in DNS) per user, per
    /// `domain_check_window`.
    pub domain_checks_per_user: u32,
    pub domain_check_window: Duration,
    /// The most keys the limiter holds (its memory bound), and how often ended windows are swept.
    pub max_keys: usize,
    pub sweep_interval: Duration,
}

impl Default for RateLimits {
    fn default() -> Self {
        RateLimits {
            mail_per_ip: 30,
            mail_window: Duration::from_secs(300),
            mail_per_email: 10,
            token_per_ip: 150,
            token_window: Duration::from_secs(300),
            failed_signins_per_account_ip: 10,
            failed_signins_per_account: 5,
            failed_signin_window: Duration::from_secs(3600),
            signin_delay_max: Duration::from_secs(300),
            device_per_ip: 10,
            user_codes_per_user: 10,
            user_codes_per_ip: 30,
            device_window: Duration::from_secs(600),
            stripe_per_user: 20,
            stripe_window: Duration::from_secs(600),
            domain_checks_per_user: 10,
            domain_check_window: Duration::from_secs(600),
            max_keys: crate::ratelimit::DEFAULT_MAX_KEYS,
            sweep_interval: Duration::from_secs(60),
        }
    }
}

impl RateLimits {
    /// Reads the `RATE_LIMIT_*` variables; each has the default of [`RateLimits::default`].
    pub(super) fn from_lookup(get: &impl Fn(&str) -> Option<String>) -> anyhow::Result<Self> {
        Ok(RateLimits {
            mail_per_ip: num(&get, "RATE_LIMIT_MAIL_PER_IP", 30)?,
            mail_window: Duration::from_secs(num(&get, "RATE_LIMIT_MAIL_WINDOW_SECS", 300)?),
            mail_per_email: num(&get, "RATE_LIMIT_MAIL_PER_EMAIL", 10)?,
            token_per_ip: num(&get, "RATE_LIMIT_TOKEN_PER_IP", 150)?,
            token_window: Duration::from_secs(num(&get, "RATE_LIMIT_TOKEN_WINDOW_SECS", 300)?),
            failed_signins_per_account_ip: num(
                &get,
                "RATE_LIMIT_FAILED_SIGNINS_PER_ACCOUNT_IP",
                10,
            )?,
            failed_signins_per_account: num(&get, "RATE_LIMIT_FAILED_SIGNINS_PER_ACCOUNT", 5)?,
            failed_signin_window: Duration::from_secs(num(
                &get,
                "RATE_LIMIT_FAILED_SIGNIN_WINDOW_SECS",
                3600,
            )?),
            signin_delay_max: Duration::from_secs(num(
                &get,
                "RATE_LIMIT_SIGNIN_DELAY_MAX_SECS",
                300,
            )?),
            device_per_ip: num(&get, "RATE_LIMIT_DEVICE_PER_IP", 10)?,
            user_codes_per_user: num(&get, "RATE_LIMIT_USER_CODES_PER_USER", 10)?,
            user_codes_per_ip: num(&get, "RATE_LIMIT_USER_CODES_PER_IP", 30)?,
            device_window: Duration::from_secs(num(&get, "RATE_LIMIT_DEVICE_WINDOW_SECS", 600)?),
            stripe_per_user: num(&get, "RATE_LIMIT_STRIPE_PER_USER", 20)?,
            stripe_window: Duration::from_secs(num(&get, "RATE_LIMIT_STRIPE_WINDOW_SECS", 600)?),
            domain_checks_per_user: num(&get, "RATE_LIMIT_DOMAIN_CHECKS_PER_USER", 10)?,
            domain_check_window: Duration::from_secs(num(
                &get,
                "RATE_LIMIT_DOMAIN_CHECK_WINDOW_SECS",
                600,
            )?),
            max_keys: num(
                &get,
                "RATE_LIMIT_MAX_KEYS",
                crate::ratelimit::DEFAULT_MAX_KEYS,
            )?,
            sweep_interval: Duration::from_secs(num(&get, "RATE_LIMIT_SWEEP_SECS", 60)?),
        })
    }
}
