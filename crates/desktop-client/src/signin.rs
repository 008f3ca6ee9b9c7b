//! Signing in: in the browser (RFC 8252 loopback redirect with PKCE) or with a device code
//! (RFC 8628) when no browser can reach this machine's loopback.

use std::time::{Duration, Instant};

use reqwest::{Response, StatusCode};
use serde::Deserialize;

use crate::client::{Client, User, CLIENT_ID};
use crate::error::{Error, Result};
use crate::loopback::Loopback;
use crate::pkce::{random_state, Pkce};

const DEVICE_GRANT: &str = "urn:ietf:params:oauth:grant-type:device_code";

/// How this device presents itself on the consent page and in the account's device list.
#[derive(Debug, Clone)]
pub struct SignInOptions {
    pub device_name: String,
    pub platform: String,
    /// How long a browser sign-in waits for the user.
    pub timeout: Duration,
}

impl Default for SignInOptions {
    fn default() -> Self {
        let host = ["HOSTNAME", "COMPUTERNAME"]
            .iter()
            .find_map(|k| std::env::var(k).ok())
            .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
            .map(|h| h.trim().chars().take(100).collect::<String>())
            .filter(|h| !h.is_empty());
        SignInOptions {
            device_name: host.unwrap_or_else(|| "Desktop app".into()),
            platform: std::env::consts::OS.into(),
            timeout: Duration::from_secs(300),
        }
    }
}

/// `POST /api/auth/device`'s answer: what to show the user.
#[derive(Clone, Deserialize)]
pub struct DeviceAuthorization {
    device_code: String,
    /// Shown as `WDJB-MJHT`.
    pub user_code: String,
    pub verification_uri: String,
    pub verification_uri_complete: String,
    pub expires_in: u64,
    #[serde(default = "default_interval")]
    pub interval: u64,
}

fn default_interval() -> u64 {
    5
}

impl std::fmt::Debug for DeviceAuthorization {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceAuthorization")
            .field("user_code", &self.user_code)
            .field("verification_uri", &self.verification_uri)
            .field("expires_in", &self.expires_in)
            .field("interval", &self.interval)
            .finish_non_exhaustive()
    }
}

/// An OAuth grant error (RFC 6749 §5.2, RFC 8628 §3.5).
#[derive(Deserialize)]
struct GrantError {
    error: String,
    error_description: Option<String>,
    interval: Option<u64>,
}

impl Client {
    /// The consent page's address for one attempt.
    pub fn authorize_url(
        &self,
        redirect_uri: &str,
        pkce: &Pkce,
        state: &str,
        options: &SignInOptions,
    ) -> String {
        let query = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("response_type", "code")
            .append_pair("client_id", CLIENT_ID)
            .append_pair("redirect_uri", redirect_uri)
            .append_pair("code_challenge", pkce.challenge())
            .append_pair("code_challenge_method", "S256")
            .append_pair("state", state)
            .append_pair("device_name", &options.device_name)
            .append_pair("platform", &options.platform)
            .finish();
        format!("{}/authorize?{query}", self.app_url())
    }

    /// Browser sign-in: listens on `127.0.0.1:{random port}`, hands the consent page's URL to
    /// `open` (open the system browser, or print it), waits for the redirect, checks its `state`
    /// and trades the code (with the PKCE verifier) for a session, which is stored.
    pub async fn sign_in_with_browser(
        &self,
        options: &SignInOptions,
        open: impl FnOnce(&str) -> std::io::Result<()>,
    ) -> Result<User> {
        let pkce = Pkce::generate();
        let state = random_state();
        let loopback = Loopback::bind().await?;
        let redirect_uri = loopback.redirect_uri();
        open(&self.authorize_url(&redirect_uri, &pkce, &state, options))
            .map_err(|e| Error::Browser(e.to_string()))?;
        let code = loopback.wait(&state, options.timeout).await?;
        let req = self
            .http
            .post(self.url("/api/auth/token?grant_type=authorization_code"))
            .json(&serde_json::json!({
                "code": code,
                "code_verifier": pkce.verifier(),
                "redirect_uri": redirect_uri,
                "client_id": CLIENT_ID,
            }));
        let resp = self.send(req).await?;
        if !resp.status().is_success() {
            return Err(grant_error(resp).await.0);
        }
        self.start_session(resp).await
    }

    /// Device sign-in: asks for a code, hands it to `show` (print `user_code` and
    /// `verification_uri_complete`), then polls until the user approves on another device.
    pub async fn sign_in_with_device(
        &self,
        options: &SignInOptions,
        show: impl FnOnce(&DeviceAuthorization),
    ) -> Result<User> {
        let req = self
            .http
            .post(self.url("/api/auth/device"))
            .json(&serde_json::json!({
                "client_id": CLIENT_ID,
                "device_name": options.device_name,
                "platform": options.platform,
            }));
        let resp = self.send(req).await?;
        let auth: DeviceAuthorization = crate::client::read_json(resp).await?;
        show(&auth);
        let resp = self.poll_device(&auth).await?;
        self.start_session(resp).await
    }

    /// Polls the device grant: waits `interval` between polls, 5 s more after each `slow_down` or
    /// `429` (at least its `Retry-After`), and twice as long after a network failure; stops at
    /// approval, denial or expiry.
    async fn poll_device(&self, auth: &DeviceAuthorization) -> Result<Response> {
        let deadline = Instant::now() + self.poll_unit * auth.expires_in as u32;
        let mut interval = auth.interval.max(1);
        loop {
            tokio::time::sleep(self.poll_unit * interval as u32).await;
            if Instant::now() >= deadline {
                return Err(Error::DeviceCodeExpired);
            }
            let req = self
                .http
                .post(self.url(&format!("/api/auth/token?grant_type={DEVICE_GRANT}")))
                .json(&serde_json::json!({
                    "device_code": auth.device_code,
                    "client_id": CLIENT_ID,
                }));
            let resp = match self.send(req).await {
                Ok(resp) => resp,
                Err(Error::Unreachable(_)) => {
                    interval = (interval * 2).min(60);
                    continue;
                }
                Err(e) => return Err(e),
            };
            if resp.status().is_success() {
                return Ok(resp);
            }
            if resp.status() == StatusCode::TOO_MANY_REQUESTS {
                let retry_after = resp
                    .headers()
                    .get(reqwest::header::RETRY_AFTER)
                    .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
                interval = (interval + 5).max(retry_after.unwrap_or(0));
                continue;
            }
            let (err, raw) = grant_error(resp).await;
            match raw.as_ref().map(|g| g.error.as_str()) {
                Some("authorization_pending") => {}
                Some("slow_down") => {
                    let asked = raw.and_then(|g| g.interval).unwrap_or(0);
                    interval = (interval + 5).max(asked);
                }
                _ => return Err(err),
            }
        }
    }
}

/// The typed error of a failed grant, and the raw body when it had the OAuth shape.
async fn grant_error(resp: Response) -> (Error, Option<GrantError>) {
    let status = resp.status().as_u16();
    let bytes = match resp.bytes().await {
        Ok(bytes) => bytes,
        Err(e) => return (Error::Unreachable(crate::client::describe(e)), None),
    };
    let Ok(body) = serde_json::from_slice::<GrantError>(&bytes) else {
        // Not the OAuth shape: one of the API's usual errors (rate limit, bad JSON...).
        return (crate::client::error_from_body(status, &bytes), None);
    };
    let err = match body.error.as_str() {
        "access_denied" => Error::AccessDenied,
        "expired_token" => Error::DeviceCodeExpired,
        code => Error::OAuth {
            code: code.into(),
            message: body
                .error_description
                .clone()
                .unwrap_or_else(|| format!("HTTP {status}")),
        },
    };
    (err, Some(body))
}

#[cfg(test)]
#[path = "signin_tests.rs"]
mod tests;
