//! Configuration from environment variables, with working local defaults (twelve-factor).
//! Production refuses to start with development secrets or the mock Stripe URL.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Context};
use secrecy::{ExposeSecret, SecretString};

use closewise_domain::sweep::{
    DEFAULT_MAX_PENDING_DEVICE_REQUESTS as MAX_PENDING, DEFAULT_SWEEP_INTERVAL_SECS as SWEEP_SECS,
};

mod downloads;
mod limits;
pub use downloads::{DownloadSettings, LOCAL_DOWNLOADS_PATH};
pub use limits::RateLimits;

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
    /// Base64 of 32 bytes sealing the TOTP secrets at rest and keying the recovery codes' HMAC
    /// (`closewise_core::mfa::SecretBox`); `None` in development means "generate and keep one in
    /// data_dir".
    pub mfa_encryption_key: Option<SecretString>,
    pub allow_unverified_signin: bool,
    /// The proxies in front of us (`TRUSTED_PROXIES`, CIDRs): only their `X-Forwarded-For` counts.
    pub trusted_proxies: Vec<crate::net::Cidr>,
    pub stripe: StripeSettings,
    pub limits: RateLimits,
    pub mail_worker_interval: Duration,
    /// How often each replica's event stream worker looks for due deliveries
    /// (`STREAM_WORKER_INTERVAL_MS`, default 1000; 0: no worker on this replica).
    pub stream_worker_interval: Duration,
    pub db_acquire_timeout: Duration,
    /// The absolute lifetime of a session: however often it refreshes, the user signs in again
    /// after this (`SESSION_MAX_AGE_DAYS`, default 90).
    pub session_max_age: Duration,
    /// This replica's name in logs (every request's span) and on the audit rows it writes
    /// (`APP_INSTANCE`, default the host name).
    pub instance: String,
    /// How often expired rows are swept (`SWEEP_INTERVAL_SECS`, default 300; 0: never).
    pub sweep_interval: Duration,
    /// The most device sign-in requests waiting at once (`DEVICE_REQUESTS_MAX_PENDING`, default
    /// 10,000; 0: no cap).
    pub device_requests_max_pending: u32,
    /// The download chooser's release (`DOWNLOAD_BASE_URL`, `DESKTOP_VERSION`).
    pub downloads: DownloadSettings,
    /// The DNS server that verified domains' TXT records are looked up at (`DNS_RESOLVER`,
    /// `host:port`); None: the system's resolver.
    pub dns_resolver: Option<SocketAddr>,
}

#[derive(Clone, Debug)]
pub struct StripeSettings {
    pub api_base: String,
    pub secret_key: SecretString,
    pub webhook_secret: SecretString,
    /// The monthly price (`STRIPE_PRICE_ID`).
    pub price_id: String,
    /// The yearly price of the same product (`STRIPE_YEARLY_PRICE_ID`).
    pub yearly_price_id: String,
    pub timeout: Duration,
    /// Stripe's automatic tax on checkouts, subscription changes and previews
    /// (`STRIPE_AUTOMATIC_TAX`, default off; Stripe Tax must be set up in the account).
    pub automatic_tax: bool,
}

impl StripeSettings {
    /// The prices the catalogue sells.
    pub fn prices(&self) -> closewise_domain::catalogue::PriceIds<'_> {
        closewise_domain::catalogue::PriceIds {
            monthly: &self.price_id,
            yearly: &self.yearly_price_id,
        }
    }

    /// What the core's Stripe client needs of these.
    pub fn connection(&self) -> StripeConnection {
        StripeConnection {
            api_base: self.api_base.clone(),
            secret_key: self.secret_key.clone(),
            timeout: self.timeout,
        }
    }
}

impl Settings {
    /// Reads the settings from the environment (and `.env` is not read: use your shell or a
    /// process manager). Every variable has a local default.
    pub fn from_env() -> anyhow::Result<Self> {
        Self::from_lookup(|k| std::env::var(k).ok())
    }

    /// A variable set to an empty (or blank) value counts as unset: its default applies, as in
    /// compose files that pass `${VAR:-}` through.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> anyhow::Result<Self> {
        let get = |k: &str| lookup(k).filter(|v| !v.trim().is_empty());
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
        closewise_domain::passkeys::RelyingParty::from_base_url(&base_url).context(
            "APP_BASE_URL must be an http(s) URL with a host (the passkeys' relying party)",
        )?;
        let data_dir = PathBuf::from(get("DATA_DIR").unwrap_or_else(|| "data".into()));
        let database_url = get("DATABASE_URL")
            .unwrap_or_else(|| format!("sqlite://{}/closewise.db", data_dir.display()));
        let limits = RateLimits::from_lookup(&get)?;
        let downloads = DownloadSettings::from_lookup(&get)?;
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
            mfa_encryption_key: get("MFA_ENCRYPTION_KEY")
                .filter(|s| !s.is_empty())
                .map(SecretString::from),
            allow_unverified_signin: flag(&get, "ALLOW_UNVERIFIED_SIGNIN")?,
            trusted_proxies: trusted_proxies(&get)?,
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
                yearly_price_id: get("STRIPE_YEARLY_PRICE_ID")
                    .unwrap_or_else(|| closewise_domain::catalogue::DEFAULT_YEARLY_PRICE_ID.into()),
                timeout: Duration::from_secs(num(&get, "STRIPE_TIMEOUT_SECS", 10)?),
                automatic_tax: flag(&get, "STRIPE_AUTOMATIC_TAX")?,
            },
            limits,
            mail_worker_interval: Duration::from_millis(num(
                &get,
                "MAIL_WORKER_INTERVAL_MS",
                1000,
            )?),
            stream_worker_interval: Duration::from_millis(num(
                &get,
                "STREAM_WORKER_INTERVAL_MS",
                1000,
            )?),
            db_acquire_timeout: Duration::from_secs(num(&get, "DATABASE_ACQUIRE_TIMEOUT_SECS", 3)?),
            session_max_age: Duration::from_secs(
                num::<u64>(&get, "SESSION_MAX_AGE_DAYS", 90)?.clamp(1, 3650) * 24 * 3600,
            ),
            instance: get("APP_INSTANCE")
                .map(|s| s.trim().to_owned())
                .filter(|s| !s.is_empty())
                .unwrap_or_else(closewise_core::store::default_instance),
            sweep_interval: Duration::from_secs(num(&get, "SWEEP_INTERVAL_SECS", SWEEP_SECS)?),
            device_requests_max_pending: num(&get, "DEVICE_REQUESTS_MAX_PENDING", MAX_PENDING)?,
            downloads,
            dns_resolver: dns_resolver(&get)?,
        };
        settings.check()?;
        Ok(settings)
    }

    /// Refuses configurations that must never reach production.
    ///
    /// Development (the default) is for this machine only: it listens on loopback alone, since it
    /// uses public development secrets and shows every mail at `/dev/mail`. Production is an
    /// allowlist: each setting must be one production accepts.
    pub fn check(&self) -> anyhow::Result<()> {
        if self.env != AppEnv::Production {
            if !self.addr.ip().is_loopback() {
                bail!(
                    "APP_ADDR {} is not a loopback address, but APP_ENV is development (the default), \
                     which uses public development secrets and shows every mail at /dev/mail; \
                     listen on 127.0.0.1, or set APP_ENV=production with real secrets",
                    self.addr
                );
            }
            return Ok(());
        }
        if self.jwt_private_key.is_none() {
            bail!("JWT_PRIVATE_KEY must be set in production");
        }
        match &self.mfa_encryption_key {
            None => bail!("MFA_ENCRYPTION_KEY must be set in production (base64 of 32 random bytes: `openssl rand -base64 32`)"),
            Some(key) => {
                closewise_core::mfa::SecretBox::from_base64(key.expose_secret())?;
            }
        }
        let stripe = url::Url::parse(&self.stripe.api_base)
            .context("STRIPE_API_BASE must be an absolute URL")?;
        let local = match stripe.host() {
            Some(url::Host::Domain(d)) => d == "localhost",
            Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
            Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
            None => true,
        };
        if stripe.scheme() != "https" || local {
            bail!("STRIPE_API_BASE must be Stripe's https API in production, not the local mock or plain HTTP");
        }
        if self.allow_unverified_signin {
            bail!("ALLOW_UNVERIFIED_SIGNIN is for development; unset it in production");
        }
        if self.stripe.secret_key.expose_secret().trim().is_empty() {
            bail!("STRIPE_SECRET_KEY must be set in production");
        }
        if self.stripe.webhook_secret.expose_secret().trim().is_empty() {
            bail!("STRIPE_WEBHOOK_SECRET must be set in production: without it anyone could sign webhooks");
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
        self.downloads.check_production()?;
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

fn trusted_proxies(get: &impl Fn(&str) -> Option<String>) -> anyhow::Result<Vec<crate::net::Cidr>> {
    // The old switch trusted the leftmost X-Forwarded-For entry, which the client writes.
    if flag(get, "TRUST_X_FORWARDED_FOR")? {
        bail!("TRUST_X_FORWARDED_FOR is gone: set TRUSTED_PROXIES to your proxies' CIDRs instead");
    }
    crate::net::parse_cidr_list(&get("TRUSTED_PROXIES").unwrap_or_default()).map_err(|e| {
        anyhow::anyhow!(
            "TRUSTED_PROXIES must list CIDRs separated by commas, e.g. 10.0.0.0/8,fd00::/8: {e}"
        )
    })
}

/// `DNS_RESOLVER`: `ip:port`, or `host:port` resolved once at start.
fn dns_resolver(get: &impl Fn(&str) -> Option<String>) -> anyhow::Result<Option<SocketAddr>> {
    let Some(raw) = get("DNS_RESOLVER") else {
        return Ok(None);
    };
    let raw = raw.trim();
    if let Ok(addr) = raw.parse::<SocketAddr>() {
        return Ok(Some(addr));
    }
    let found = std::net::ToSocketAddrs::to_socket_addrs(raw)
        .ok()
        .and_then(|mut a| a.next());
    found.map(Some).ok_or_else(|| {
        anyhow::anyhow!(
            "DNS_RESOLVER must be host:port of a DNS server, e.g. 10.0.0.2:53, not {raw:?}"
        )
    })
}

fn flag(get: &impl Fn(&str) -> Option<String>, key: &str) -> anyhow::Result<bool> {
    match get(key).as_deref() {
        None | Some("") | Some("false") | Some("0") => Ok(false),
        Some("true") | Some("1") => Ok(true),
        Some(other) => bail!("{key} must be true or false, not {other:?}"),
    }
}

#[cfg(test)]
mod tests;
