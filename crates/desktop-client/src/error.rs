//! The one error type of the client. Messages are written to be shown to the user as they are;
//! the server's own message is kept where the contract says to show it.

/// Everything the client can fail with.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// No session is stored, or the server ended it (a refresh answered 400 or 401).
    #[error("You are signed out. Sign in to continue.")]
    SignedOut,
    /// The API could not be reached (connection refused, DNS, timeout, 502/503/504).
    #[error("Cannot reach Closewise: {0}")]
    Unreachable(String),
    /// The user declined the sign-in (browser "Deny" or device "Deny").
    #[error("Sign-in was cancelled in the browser.")]
    AccessDenied,
    /// The device code expired before anyone approved it.
    #[error("The sign-in code has expired. Start the sign-in again.")]
    DeviceCodeExpired,
    /// Nobody completed the browser sign-in in time.
    #[error("Sign-in timed out. Start the sign-in again.")]
    SignInTimedOut,
    /// The loopback callback carried another `state` than the one we sent: not our sign-in.
    #[error("The sign-in answer did not match this sign-in attempt. Start the sign-in again.")]
    StateMismatch,
    /// The system browser could not be opened.
    #[error("Cannot open the browser: {0}")]
    Browser(String),
    /// An OAuth grant failed (RFC 6749 §5.2 shape), e.g. `invalid_grant`.
    #[error("Sign-in failed ({code}): {message}")]
    OAuth { code: String, message: String },
    /// `403 free_calls_used_up`: the message names the limit.
    #[error("{0}")]
    FreeCallsUsedUp(String),
    /// `409 call_time_limit_reached`: the call hit its length limit (5 minutes free, 4 hours
    /// paid) and was ended.
    #[error("{0}")]
    CallTimeLimitReached(String),
    /// `409 plan_lapsed`: a paid call whose plan ended (subscription over, team seat removed) was
    /// ended at this heartbeat.
    #[error("{0}")]
    PlanLapsed(String),
    /// `409 call_ended`.
    #[error("{0}")]
    CallEnded(String),
    /// `404 call_not_found`.
    #[error("{0}")]
    CallNotFound(String),
    /// Offline, and the stored entitlement is past its grace period.
    #[error("Offline too long, connect to continue.")]
    OfflineTooLong,
    /// Offline, and nothing verified is stored to answer from.
    #[error("Cannot reach Closewise and no entitlement is stored: connect to continue.")]
    NoOfflineEntitlement,
    /// An entitlement token that does not verify (tampered, wrong key, expired, wrong audience).
    #[error("The entitlement token is not valid: {0}")]
    InvalidEntitlement(String),
    /// Any other API error, with the server's code and message (`{"error": {code, message}}`).
    #[error("{message}")]
    Api {
        status: u16,
        code: String,
        message: String,
    },
    /// The server answered something the contract does not describe.
    #[error("Unexpected answer from Closewise: {0}")]
    Protocol(String),
    /// The token store could not be read or written.
    #[error("Cannot use the token store: {0}")]
    Store(String),
}

impl Error {
    /// The server's machine code, when the error came from the API.
    pub fn code(&self) -> Option<&str> {
        match self {
            Error::Api { code, .. } | Error::OAuth { code, .. } => Some(code),
            Error::FreeCallsUsedUp(_) => Some("free_calls_used_up"),
            Error::CallTimeLimitReached(_) => Some("call_time_limit_reached"),
            Error::PlanLapsed(_) => Some("plan_lapsed"),
            Error::CallEnded(_) => Some("call_ended"),
            Error::CallNotFound(_) => Some("call_not_found"),
            _ => None,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
