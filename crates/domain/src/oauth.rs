//! The desktop app's sign-in rules (RFC 8252 loopback redirect + PKCE, RFC 8628 device codes):
//! the one client, which redirect URIs it may use, the PKCE check, user codes, how a device poll
//! is answered, and the lifetimes. Pure: `now` is always an argument.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use sha2::{Digest, Sha256};
use time::{Duration, OffsetDateTime};

/// The desktop app's one client id.
pub const CLIENT_ID: &str = "closewise-desktop";
/// What the consent page calls the client.
pub const CLIENT_NAME: &str = "Closewise for desktop";
/// How long an authorization code of the browser sign-in works.
pub const AUTH_CODE_TTL: Duration = Duration::seconds(60);
/// How long a device sign-in request works.
pub const DEVICE_CODE_TTL: Duration = Duration::seconds(600);
/// The first polling interval of a device sign-in request.
pub const POLL_INTERVAL: Duration = Duration::seconds(5);
/// How much the interval grows on each `slow_down`.
pub const SLOW_DOWN_STEP: Duration = Duration::seconds(5);
/// A device session's name and platform when the sign-in did not say.
pub const DEFAULT_DEVICE_NAME: &str = "Desktop app";
pub const DEFAULT_PLATFORM: &str = "unknown";
/// Longest device name and platform, in characters.
pub const DEVICE_NAME_MAX: usize = 100;
pub const PLATFORM_MAX: usize = 40;
/// Longest `state`, in characters.
pub const STATE_MAX: usize = 512;

/// True when `uri` is exactly `http://127.0.0.1:{port}/callback` or `http://[::1]:{port}/callback`
/// with a port 1–65535 written without leading zeros: nothing else (no `localhost`, no other path,
/// query, fragment or user info, no https, no other address). Compared as text, never parsed
/// leniently, so no spelling of another host can pass.
pub fn is_loopback_redirect(uri: &str) -> bool {
    let Some(rest) = uri
        .strip_prefix("http://127.0.0.1:")
        .or_else(|| uri.strip_prefix("http://[::1]:"))
    else {
        return false;
    };
    let Some(port) = rest.strip_suffix("/callback") else {
        return false;
    };
    let digits = !port.is_empty() && port.len() <= 5 && port.bytes().all(|b| b.is_ascii_digit());
    digits && !port.starts_with('0') && port.parse::<u32>().is_ok_and(|p| (1..=65535).contains(&p))
}

fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

fn is_base64url(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_')
}

/// A PKCE verifier: 43–128 characters of `[A-Za-z0-9-._~]` (RFC 7636 §4.1).
pub fn is_valid_verifier(verifier: &str) -> bool {
    (43..=128).contains(&verifier.len()) && verifier.bytes().all(is_unreserved)
}

/// An S256 challenge: 43 base64url characters (a SHA-256, unpadded).
pub fn is_valid_challenge(challenge: &str) -> bool {
    challenge.len() == 43 && challenge.bytes().all(is_base64url)
}

/// The S256 challenge of `verifier`: base64url(SHA-256(verifier)), unpadded.
pub fn s256_challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// True when `verifier` is well formed and its S256 is `challenge` (compared in constant time).
pub fn verify_pkce(verifier: &str, challenge: &str) -> bool {
    if !is_valid_verifier(verifier) || !is_valid_challenge(challenge) {
        return false;
    }
    constant_time_eq(s256_challenge(verifier).as_bytes(), challenge.as_bytes())
}

/// Equal bytes, in a time that depends only on the lengths.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Why an authorization request is refused; `code()` and `message()` are what the API answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AuthorizeError {
    InvalidClient,
    InvalidRedirectUri,
    /// A missing or malformed parameter, named.
    InvalidRequest(&'static str),
    /// A device name or platform with invisible or direction-changing characters.
    InvalidDeviceName,
}

impl AuthorizeError {
    pub fn code(&self) -> &'static str {
        match self {
            AuthorizeError::InvalidClient => "invalid_client",
            AuthorizeError::InvalidRedirectUri => "invalid_redirect_uri",
            AuthorizeError::InvalidRequest(_) => "invalid_request",
            AuthorizeError::InvalidDeviceName => "invalid_device_name",
        }
    }

    pub fn message(&self) -> String {
        match self {
            AuthorizeError::InvalidClient => {
                "This sign-in link is not from the Closewise app.".into()
            }
            AuthorizeError::InvalidRedirectUri => "This sign-in link cannot send you back to the app. Start the sign-in again from the app.".into(),
            AuthorizeError::InvalidRequest(p) => {
                format!("This sign-in link has a missing or invalid {p}. Start the sign-in again from the app.")
            }
            AuthorizeError::InvalidDeviceName => INVISIBLE_LABEL_MESSAGE.into(),
        }
    }
}

/// The parameters of `/authorize`, as received.
#[derive(Clone, Debug, Default)]
pub struct AuthorizeParams<'a> {
    pub response_type: Option<&'a str>,
    pub client_id: Option<&'a str>,
    pub redirect_uri: Option<&'a str>,
    pub code_challenge: Option<&'a str>,
    pub code_challenge_method: Option<&'a str>,
    pub state: Option<&'a str>,
    pub device_name: Option<&'a str>,
    pub platform: Option<&'a str>,
}

/// A checked authorization request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuthorizationRequest {
    pub redirect_uri: String,
    pub code_challenge: String,
    pub state: String,
    pub device_name: Option<String>,
    pub platform: Option<String>,
}

mod label;
pub use label::{device_label, is_refused_in_label, LabelError};

/// What the API answers with `invalid_device_name` when a name or platform hides characters.
pub const INVISIBLE_LABEL_MESSAGE: &str =
    "The device name and platform cannot contain invisible or text-direction characters.";

impl AuthorizationRequest {
    /// Checks the client first, then the redirect URI (so an invalid one is never redirected to),
    /// then the rest, each named.
    pub fn parse(p: &AuthorizeParams<'_>) -> Result<Self, AuthorizeError> {
        use AuthorizeError::*;
        if p.client_id != Some(CLIENT_ID) {
            return Err(InvalidClient);
        }
        let redirect_uri = p
            .redirect_uri
            .filter(|u| is_loopback_redirect(u))
            .ok_or(InvalidRedirectUri)?;
        if p.response_type != Some("code") {
            return Err(InvalidRequest("response_type"));
        }
        let code_challenge = p
            .code_challenge
            .filter(|c| is_valid_challenge(c))
            .ok_or(InvalidRequest("code_challenge"))?;
        if p.code_challenge_method != Some("S256") {
            return Err(InvalidRequest("code_challenge_method"));
        }
        let state = p
            .state
            .filter(|s| (1..=STATE_MAX).contains(&s.chars().count()))
            .ok_or(InvalidRequest("state"))?;
        let optional = |raw: Option<&str>, max, name| match raw.filter(|s| !s.is_empty()) {
            None => Ok(None),
            Some(s) => device_label(s, max).map(Some).map_err(|e| match e {
                LabelError::Invisible => InvalidDeviceName,
                LabelError::Length => InvalidRequest(name),
            }),
        };
        Ok(AuthorizationRequest {
            redirect_uri: redirect_uri.to_string(),
            code_challenge: code_challenge.to_string(),
            state: state.to_string(),
            device_name: optional(p.device_name, DEVICE_NAME_MAX, "device_name")?,
            platform: optional(p.platform, PLATFORM_MAX, "platform")?,
        })
    }
}

/// The user code's alphabet: consonants without look-alikes (no vowels, so no words).
pub const USER_CODE_ALPHABET: &[u8; 20] = b"BCDFGHJKLMNPQRSTVWXZ";
pub const USER_CODE_LEN: usize = 8;

/// A user code, normalised: 8 characters of the alphabet, upper case, no dash.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UserCode(String);

impl UserCode {
    /// The code whose characters are `USER_CODE_ALPHABET[i % 20]` for each index.
    pub fn from_indices(indices: [u8; USER_CODE_LEN]) -> Self {
        UserCode(
            indices
                .iter()
                .map(|&i| USER_CODE_ALPHABET[usize::from(i) % USER_CODE_ALPHABET.len()] as char)
                .collect(),
        )
    }

    /// Reads what a person typed: case, dashes and spaces do not matter.
    pub fn parse(input: &str) -> Option<Self> {
        let s: String = input
            .chars()
            .filter(|c| *c != '-' && !c.is_whitespace())
            .map(|c| c.to_ascii_uppercase())
            .collect();
        (s.len() == USER_CODE_LEN && s.bytes().all(|b| USER_CODE_ALPHABET.contains(&b)))
            .then_some(UserCode(s))
    }

    /// As stored: `WDJBMJHT`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// As shown: `WDJB-MJHT`.
    pub fn display(&self) -> String {
        format!("{}-{}", &self.0[..4], &self.0[4..])
    }
}

/// Where a device sign-in request stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceStatus {
    Pending,
    Approved,
    Denied,
    /// Approved, and its session handed out.
    Consumed,
}

impl DeviceStatus {
    pub fn as_str(&self) -> &'static str {
        match self {
            DeviceStatus::Pending => "pending",
            DeviceStatus::Approved => "approved",
            DeviceStatus::Denied => "denied",
            DeviceStatus::Consumed => "consumed",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "pending" => DeviceStatus::Pending,
            "approved" => DeviceStatus::Approved,
            "denied" => DeviceStatus::Denied,
            "consumed" => DeviceStatus::Consumed,
            _ => return None,
        })
    }
}

/// What a poll needs of the stored request.
#[derive(Clone, Copy, Debug)]
pub struct DevicePollState {
    pub status: DeviceStatus,
    pub expires_at: OffsetDateTime,
    pub interval: Duration,
    pub last_polled_at: Option<OffsetDateTime>,
}

/// The answer to a poll (RFC 8628 §3.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PollDecision {
    /// Hand out the session (once: the store spends the approval).
    Approved,
    AuthorizationPending,
    /// Polled sooner than the interval: the new, longer interval.
    SlowDown {
        interval: Duration,
    },
    AccessDenied,
    ExpiredToken,
    /// The session was already handed out.
    InvalidGrant,
}

/// How a poll at `now` is answered. A spent request is `invalid_grant` for ever; past its expiry
/// a request is `expired_token` whatever was decided; a decision (denied, approved) is answered
/// at once; a pending request polled sooner than `interval` after the previous poll is
/// `slow_down` with the interval grown by [`SLOW_DOWN_STEP`].
pub fn decide_poll(s: &DevicePollState, now: OffsetDateTime) -> PollDecision {
    match s.status {
        DeviceStatus::Consumed => PollDecision::InvalidGrant,
        _ if now >= s.expires_at => PollDecision::ExpiredToken,
        DeviceStatus::Denied => PollDecision::AccessDenied,
        DeviceStatus::Approved => PollDecision::Approved,
        DeviceStatus::Pending => match s.last_polled_at {
            Some(last) if now - last < s.interval => PollDecision::SlowDown {
                interval: s.interval + SLOW_DOWN_STEP,
            },
            _ => PollDecision::AuthorizationPending,
        },
    }
}

#[cfg(test)]
mod tests;
