//! Configuration from environment variables, with working local defaults (twelve-factor).
//! Production refuses to start with development secrets or the mock Stripe URL.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context};
use secrecy::{ExposeSecret, SecretString};

pub use closewise_core::billing::{
    StripeConnection, DEV_STRIPE_API_BASE, DEV_STRIPE_SECRET_KEY, DEV_STRIPE_WEBHOOK_SECRET,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AppEnv {
    Development,
    Production,
}

#[derive(Clone, Debug)]
pub struct Settings {
    pub env: AppEnv,
    pub addr: SocketAddr,
    /// Public URL of the site, e.g. `http://localhost:8080`; used in mail links and checkout URLs.
    pub base_url: String,
    pub database_url: String,
    pub web_dist: PathBuf,
    pub data_dir: PathBuf,
    pub smtp_url: Option<SecretString>,
    pub mail_from: String,
    /// PEM (PKCS#8) Ed25519 key; `None` in development means "generate and keep one in data_dir".
    pub jwt_private_key: Option<SecretString>,
    pub allow_unverified_signin: bool,
    pub trust_forwarded_for: bool,
    pub stripe: StripeSettings,
    pub limits: RateLimits,
    pub mail_worker_interval: Duration,
    pub db_acquire_timeout: Duration,
}

#[derive(Clone, Debug)]
pub struct StripeSettings {
    pub api_base: String,
    pub secret_key: SecretString,
    pub webhook_secret: SecretString,
    pub price_id: String,
    pub timeout: Duration,
}

impl StripeSettings {
    /// What the core's Stripe client needs of these.
    pub fn connection(&self) -> StripeConnection {
        StripeConnection {
            api_base: self.api_base.clone(),
            secret_key: self.secret_key.clone(),
            timeout: self.timeout,
        }
    }
}

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
    /// Failed sign-ins per account.
    pub failed_signins_per_account: u32,
    pub failed_signin_window: Duration,
}

impl Default for RateLimits {
    fn default() -> Self {
        RateLimits {
            mail_per_ip: 30,
            mail_window: Duration::from_secs(300),
            mail_per_email: 10,
            token_per_ip: 150,
            token_window: Duration::from_secs(300),
            failed_signins_per_account: 100,
            failed_signin_window: Duration::from_secs(3600),
        }
    }
}

impl Settings {
    /// Reads the settings from the environment (and `.env` is not read: use your shell or a
    /// process manager). Every variable has a local default.
    pub fn from_env() -> anyhow::Result<Self> {
        Self::from_lookup(|k| std::env::var(k).ok())
    }

    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> anyhow::Result<Self> {
        let env = match get("APP_ENV").as_deref() {
            None | Some("") | Some("development") => AppEnv::Development,
            Some("production") => AppEnv::Production,
            Some(other) => bail!("APP_ENV must be development or production, not {other:?}"),
        };
        let addr: SocketAddr = get("APP_ADDR")
            .unwrap_or_else(|| "127.0.0.1:8080".into())
            .parse()
            .context("APP_ADDR must be host:port, e.g. 127.0.0.1:8080")?;
        let base_url = get("APP_BASE_URL")
            .unwrap_or_else(|| "http://localhost:8080".into())
            .trim_end_matches('/')
            .to_string();
        url::Url::parse(&base_url).context("APP_BASE_URL must be an absolute URL")?;
        let data_dir = PathBuf::from(get("DATA_DIR").unwrap_or_else(|| "data".into()));
        let database_url = get("DATABASE_URL")
            .unwrap_or_else(|| format!("sqlite://{}/closewise.db", data_dir.display()));
        let limits = RateLimits {
            mail_per_ip: num(&get, "RATE_LIMIT_MAIL_PER_IP", 30)?,
            mail_window: Duration::from_secs(num(&get, "RATE_LIMIT_MAIL_WINDOW_SECS", 300)?),
            mail_per_email: num(&get, "RATE_LIMIT_MAIL_PER_EMAIL", 10)?,
            token_per_ip: num(&get, "RATE_LIMIT_TOKEN_PER_IP", 150)?,
            token_window: Duration::from_secs(num(&get, "RATE_LIMIT_TOKEN_WINDOW_SECS", 300)?),
            failed_signins_per_account: num(&get, "RATE_LIMIT_FAILED_SIGNINS_PER_ACCOUNT", 100)?,
            failed_signin_window: Duration::from_secs(num(
                &get,
                "RATE_LIMIT_FAILED_SIGNIN_WINDOW_SECS",
                3600,
            )?),
        };
        let settings = Settings {
            env,
            addr,
            base_url,
            database_url,
            web_dist: PathBuf::from(get("WEB_DIST").unwrap_or_else(|| "web/dist".into())),
            data_dir,
            smtp_url: get("SMTP_URL")
                .filter(|s| !s.is_empty())
                .map(SecretString::from),
            mail_from: get("MAIL_FROM").unwrap_or_else(|| "Closewise <hello@closewise.app>".into()),
            jwt_private_key: get("JWT_PRIVATE_KEY")
                .filter(|s| !s.is_empty())
                .map(SecretString::from),
            allow_unverified_signin: flag(&get, "ALLOW_UNVERIFIED_SIGNIN")?,
            trust_forwarded_for: flag(&get, "TRUST_X_FORWARDED_FOR")?,
            stripe: StripeSettings {
                api_base: get("STRIPE_API_BASE")
                    .unwrap_or_else(|| DEV_STRIPE_API_BASE.into())
                    .trim_end_matches('/')
                    .to_string(),
                secret_key: get("STRIPE_SECRET_KEY")
                    .unwrap_or_else(|| DEV_STRIPE_SECRET_KEY.into())
                    .into(),
                webhook_secret: get("STRIPE_WEBHOOK_SECRET")
                    .unwrap_or_else(|| DEV_STRIPE_WEBHOOK_SECRET.into())
                    .into(),
                price_id: get("STRIPE_PRICE_ID")
                    .unwrap_or_else(|| closewise_domain::catalogue::DEFAULT_PRICE_ID.into()),
                timeout: Duration::from_secs(num(&get, "STRIPE_TIMEOUT_SECS", 10)?),
            },
            limits,
            mail_worker_interval: Duration::from_millis(num(
                &get,
                "MAIL_WORKER_INTERVAL_MS",
                1000,
            )?),
            db_acquire_timeout: Duration::from_secs(num(&get, "DATABASE_ACQUIRE_TIMEOUT_SECS", 3)?),
        };
        settings.check()?;
        Ok(settings)
    }

    /// Refuses configurations that must never reach production.
    pub fn check(&self) -> anyhow::Result<()> {
        if self.env != AppEnv::Production {
            return Ok(());
        }
        if self.jwt_private_key.is_none() {
            bail!("JWT_PRIVATE_KEY must be set in production");
        }
        if self.stripe.api_base == DEV_STRIPE_API_BASE
            || self.stripe.api_base.contains("127.0.0.1")
            || self.stripe.api_base.contains("localhost")
        {
            bail!("STRIPE_API_BASE points at the local mock; set Stripe's real API in production");
        }
        if self.stripe.secret_key.expose_secret() == DEV_STRIPE_SECRET_KEY {
            bail!("STRIPE_SECRET_KEY is the development default; set the real key in production");
        }
        if self.stripe.webhook_secret.expose_secret() == DEV_STRIPE_WEBHOOK_SECRET {
            bail!("STRIPE_WEBHOOK_SECRET is the development default; set the real secret in production");
        }
        if !self.base_url.starts_with("https://") {
            bail!("APP_BASE_URL must be https in production");
        }
        Ok(())
    }

    pub fn is_development(&self) -> bool {
        self.env == AppEnv::Development
    }

    /// Whether cookies may omit `Secure`: only on plain-HTTP localhost.
    pub fn insecure_cookies(&self) -> bool {
        self.base_url.starts_with("http://localhost")
            || self.base_url.starts_with("http://127.0.0.1")
    }
}

fn num<T: std::str::FromStr>(
    get: &impl Fn(&str) -> Option<String>,
    key: &str,
    default: T,
) -> anyhow::Result<T> {
    match get(key) {
        None => Ok(default),
        Some(s) if s.is_empty() => Ok(default),
        Some(s) => s
            .parse()
            .map_err(|_| anyhow::anyhow!("{key} must be a whole number, not {s:?}")),
    }
}

fn flag(get: &impl Fn(&str) -> Option<String>, key: &str) -> anyhow::Result<bool> {
    match get(key).as_deref() {
        None | Some("") | Some("false") | Some("0") => Ok(false),
        Some("true") | Some("1") => Ok(true),
        Some(other) => bail!("{key} must be true or false, not {other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn settings(vars: &[(&str, &str)]) -> anyhow::Result<Settings> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Settings::from_lookup(|k| map.get(k).cloned())
    }

    #[test]
    fn no_variables_give_the_local_defaults() {
        let s = settings(&[]).unwrap();
        assert_eq!(s.base_url, "http://localhost:8080");
        assert_eq!(s.database_url, "sqlite://data/closewise.db");
        assert_eq!(s.stripe.api_base, DEV_STRIPE_API_BASE);
        assert!(s.smtp_url.is_none());
        assert!(s.insecure_cookies());
    }

    #[test]
    fn production_refuses_the_development_defaults() {
        let err = settings(&[("APP_ENV", "production")]).unwrap_err();
        assert!(err.to_string().contains("JWT_PRIVATE_KEY"), "{err}");
        let err = settings(&[
            ("APP_ENV", "production"),
            ("JWT_PRIVATE_KEY", "pem"),
            ("APP_BASE_URL", "https://closewise.app"),
        ])
        .unwrap_err();
        assert!(err.to_string().contains("local mock"), "{err}");
        let err = settings(&[
            ("APP_ENV", "production"),
            ("JWT_PRIVATE_KEY", "pem"),
            ("APP_BASE_URL", "https://closewise.app"),
            ("STRIPE_API_BASE", "https://api.stripe.com"),
        ])
        .unwrap_err();
        assert!(err.to_string().contains("STRIPE_SECRET_KEY"), "{err}");
    }

    #[test]
    fn a_bad_number_names_its_variable() {
        let err = settings(&[("RATE_LIMIT_MAIL_PER_IP", "lots")]).unwrap_err();
        assert!(err.to_string().contains("RATE_LIMIT_MAIL_PER_IP"), "{err}");
    }
}
