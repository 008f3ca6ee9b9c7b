//! One error type for the whole API, with the HTTP mapping in one place. Client errors carry a
//! machine code and the message the web shows verbatim; internal errors are logged with their cause
//! chain and never shown. Handlers return the core's errors (`?`) or the named refusals below;
//! only this module (billing's in `error/billing.rs`) builds a status, code and message.

use axum::extract::rejection::{BytesRejection, JsonRejection, QueryRejection};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use closewise_core::accounts::AccountError;
use closewise_core::sessions::desktop::DesktopAuthError;
use closewise_core::sessions::SessionError;
use closewise_core::store::{is_unavailable, DbError};
use closewise_core::usage::UsageError;
use closewise_domain::oauth::{AuthorizeError, LabelError, INVISIBLE_LABEL_MESSAGE};
use serde::Serialize;

mod billing;
mod domains;
mod invoices;
mod mfa;

pub use mfa::MfaMethod;
pub use setup_links::{GoneBody, SetupError};
mod adoption;
mod passkeys;
pub mod scim;
mod sessions;
mod setup_links;
mod sso;
mod streams;
mod teams;

#[derive(Debug)]
pub enum ApiError {
    /// A client-facing error: status, machine code, human message.
    Client {
        status: StatusCode,
        code: &'static str,
        message: String,
        retry_after: Option<u64>,
    },
    /// The database (or another dependency we cannot work without) is unreachable.
    Unavailable(anyhow::Error),
    /// Anything else: a fault of ours.
    Internal(anyhow::Error),
    /// `401 mfa_required`: the second factor is next (`error/mfa.rs`).
    MfaRequired {
        mfa_token: Option<String>,
        methods: Vec<&'static str>,
    },
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorDetail {
    /// Machine-readable code, e.g. `invalid_credentials`.
    pub code: String,
    /// Message shown to the user as is.
    pub message: String,
    /// `mfa_required` from the password grant: the token the mfa grant redeems (5 minutes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mfa_token: Option<String>,
    /// `mfa_required`: the methods the code step offers (`totp`, `recovery_code`, `passkey`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<MfaMethod>>)]
    pub methods: Option<Vec<&'static str>>,
}

pub type ApiResult<T> = Result<T, ApiError>;

pub const REAUTHENTICATION_REQUIRED: &str = "reauthentication_required";

impl ApiError {
    fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError::Client {
            status,
            code,
            message: message.into(),
            retry_after: None,
        }
    }

    fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    fn unprocessable(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
    }

    pub fn not_signed_in() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "not_signed_in",
            "Please sign in to continue",
        )
    }

    pub fn invalid_token() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "invalid_token",
            "Authentication required. Please sign in again.",
        )
    }

    fn too_many(code: &'static str, message: impl Into<String>, retry_after: u64) -> Self {
        ApiError::Client {
            status: StatusCode::TOO_MANY_REQUESTS,
            code,
            message: message.into(),
            retry_after: Some(retry_after.max(1)),
        }
    }

    /// `503` with `Retry-After`: a shared resource is full for now, not this client's fault.
    fn unavailable_for(code: &'static str, message: impl Into<String>, retry_after: u64) -> Self {
        ApiError::Client {
            status: StatusCode::SERVICE_UNAVAILABLE,
            code,
            message: message.into(),
            retry_after: Some(retry_after.max(1)),
        }
    }

    pub fn rate_limited(retry_after: u64) -> Self {
        let secs = retry_after.max(1);
        Self::too_many(
            "rate_limited",
            format!("Too many requests. Please try again in {secs} seconds."),
            secs,
        )
    }

    pub fn not_found() -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", "Not found")
    }

    /// `503 unavailable` whatever the cause (readiness: the database did not answer).
    pub fn unavailable(e: impl Into<anyhow::Error>) -> Self {
        ApiError::Unavailable(e.into())
    }

    pub fn internal(e: impl Into<anyhow::Error>) -> Self {
        ApiError::Internal(e.into())
    }
}

/// The HTTP layer's own refusals: the request's shape and origin, before any flow runs.
impl ApiError {
    /// The SAML ACS posted nothing: not an identity provider's form post.
    pub fn empty_saml_post() -> Self {
        Self::bad_request(
            "invalid_saml_response",
            "Expected the identity provider's form post (SAMLResponse)",
        )
    }

    pub fn unsupported_media_type() -> Self {
        Self::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "Expected a JSON body with Content-Type: application/json",
        )
    }

    /// A body that is not JSON at all.
    pub fn malformed_json(detail: impl std::fmt::Display) -> Self {
        Self::bad_request("invalid_json", format!("Malformed JSON: {detail}"))
    }

    pub fn invalid_json(detail: impl std::fmt::Display) -> Self {
        Self::bad_request("invalid_json", format!("Invalid request: {detail}"))
    }

    pub fn invalid_grant_type() -> Self {
        Self::bad_request(
            "invalid_grant_type",
            "grant_type must be password, refresh_token, authorization_code or urn:ietf:params:oauth:grant-type:device_code",
        )
    }

    /// A device request from another client than the app.
    pub fn invalid_client() -> Self {
        Self::bad_request(
            "invalid_client",
            "This sign-in is not from the Closewise app.",
        )
    }

    /// A device name or platform refused: a hidden or direction-changing character is
    /// `invalid_device_name` for the platform too (the two are shown side by side, and the trick
    /// is the same); a bad length has the field's own code.
    pub fn device_label(e: LabelError, length_code: &'static str, length_message: &str) -> Self {
        match e {
            LabelError::Invisible => {
                Self::bad_request("invalid_device_name", INVISIBLE_LABEL_MESSAGE)
            }
            LabelError::Length => Self::bad_request(length_code, length_message),
        }
    }

    /// The account's growing delay after failed sign-ins.
    pub fn too_many_attempts(secs: u64) -> Self {
        Self::too_many(
            "too_many_attempts",
            format!("Too many sign-in attempts. Please try again in {secs} seconds."),
            secs,
        )
    }

    /// One mail of a kind per address a minute.
    pub fn resend_wait(secs: u64) -> Self {
        Self::too_many(
            "over_email_send_rate_limit",
            closewise_domain::tokens::resend_wait_message(secs),
            secs,
        )
    }

    pub fn method_not_allowed() -> Self {
        Self::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            "Method not allowed",
        )
    }

    pub fn invalid_email(e: impl std::fmt::Display) -> Self {
        Self::unprocessable("invalid_email", e.to_string())
    }

    pub fn weak_password(e: impl std::fmt::Display) -> Self {
        Self::unprocessable("weak_password", e.to_string())
    }

    /// A resend of another kind of mail than the sign-up's.
    pub fn invalid_resend_type() -> Self {
        Self::unprocessable("invalid_type", "type must be \"signup\"")
    }

    /// A sensitive action whose session has not entered the password recently (docs/security.md).
    pub fn reauthentication_required() -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            REAUTHENTICATION_REQUIRED,
            "Please confirm your password to continue.",
        )
    }

    /// Leaving is refused to the owner, who transfers the team first.
    pub fn owner_cannot_leave() -> Self {
        Self::bad_request(
            "owner_cannot_leave",
            "The owner cannot leave the team. Transfer it to another member first.",
        )
    }

    pub fn cross_site_request() -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            "cross_site_request",
            "Cross-site requests cannot use the session",
        )
    }
}

/// A database out of reach (no connection, a server going away) is `503 unavailable`, as a
/// refused connection is; any other database error is a fault of ours.
impl From<DbError> for ApiError {
    fn from(e: DbError) -> Self {
        if is_unavailable(&e) {
            ApiError::Unavailable(e.into())
        } else {
            ApiError::Internal(e.into())
        }
    }
}

/// A budget a core command spent on its actor's behalf (`closewise_core::limits`).
impl From<closewise_core::limits::LimitError> for ApiError {
    fn from(e: closewise_core::limits::LimitError) -> Self {
        match e {
            closewise_core::limits::LimitError::Limited { retry_after } => {
                ApiError::rate_limited(retry_after)
            }
            closewise_core::limits::LimitError::Database(e) => e.into(),
        }
    }
}

/// The desktop app's sign-in, outside the token endpoint (whose grants answer OAuth errors).
impl From<DesktopAuthError> for ApiError {
    fn from(e: DesktopAuthError) -> Self {
        let code = e.code();
        match e {
            DesktopAuthError::InvalidClient => ApiError::invalid_client(),
            DesktopAuthError::InvalidDeviceName(e) => ApiError::device_label(
                e,
                "invalid_device_name",
                "The device name must be 1 to 100 characters.",
            ),
            DesktopAuthError::InvalidPlatform(e) => ApiError::device_label(
                e,
                "invalid_platform",
                "The platform must be 1 to 40 characters.",
            ),
            DesktopAuthError::VerificationRequired => SessionError::VerificationRequired.into(),
            DesktopAuthError::SsoRequired => SessionError::SsoRequired.into(),
            DesktopAuthError::ReauthenticationRequired => ApiError::reauthentication_required(),
            DesktopAuthError::MfaSetupRequired => {
                closewise_core::mfa::MfaError::SetupRequired.into()
            }
            DesktopAuthError::InvalidUserCode => ApiError::new(
                StatusCode::NOT_FOUND,
                code,
                "That code is not valid. Check the code shown in the app and try again.",
            ),
            DesktopAuthError::ExpiredUserCode => ApiError::bad_request(
                code,
                "That code has expired. Start the sign-in again in the app.",
            ),
            DesktopAuthError::UserCodeUsed => ApiError::new(
                StatusCode::CONFLICT,
                code,
                "That code has already been used.",
            ),
            DesktopAuthError::DeviceNotFound => {
                ApiError::new(StatusCode::NOT_FOUND, code, "That device was not found.")
            }
            DesktopAuthError::TooManyDeviceRequests => ApiError::unavailable_for(
                code,
                "Too many sign-in requests are waiting right now. Please try again in a minute.",
                closewise_domain::sweep::DEVICE_REQUESTS_RETRY_AFTER_SECS,
            ),
            DesktopAuthError::Database(e) => e.into(),
            other => ApiError::internal(other),
        }
    }
}

impl From<AuthorizeError> for ApiError {
    fn from(e: AuthorizeError) -> Self {
        Self::bad_request(e.code(), e.message())
    }
}

impl From<AccountError> for ApiError {
    fn from(e: AccountError) -> Self {
        match e {
            AccountError::SubscriptionNotCancelled(cause) => {
                tracing::warn!(error = %cause, "could not cancel the subscription; account kept");
                ApiError::new(
                    StatusCode::BAD_GATEWAY,
                    "stripe_unavailable",
                    "We could not cancel your subscription just now, so your account was not deleted. Please try again.",
                )
            }
            AccountError::TeamOwner => ApiError::new(
                StatusCode::CONFLICT,
                "team_owner",
                AccountError::TeamOwner.to_string(),
            ),
            AccountError::Database(e) => e.into(),
            AccountError::Internal(e) => e.into(),
            AccountError::NotSignedIn => ApiError::invalid_token(),
            AccountError::MfaRequired { methods } => Self::mfa_required(None, &methods),
            AccountError::StepUpRequired => Self::reauthentication_required(),
            AccountError::Passkey(e) => e.into(),
            AccountError::SsoRequired => Self::new(StatusCode::FORBIDDEN, e.code(), e.to_string()),
            AccountError::InvalidCode | AccountError::InvalidCredentials => {
                Self::new(StatusCode::UNAUTHORIZED, e.code(), e.to_string())
            }
            AccountError::LinkInvalid(_)
            | AccountError::LinkUsed(_)
            | AccountError::LinkExpired(_)
            | AccountError::WrongCurrentPassword
            | AccountError::WrongPassword => Self::bad_request(e.code(), e.to_string()),
        }
    }
}

impl From<UsageError> for ApiError {
    fn from(e: UsageError) -> Self {
        let status = match e {
            UsageError::Database(db) => return db.into(),
            UsageError::InvalidClientCallId | UsageError::InvalidGrant => StatusCode::BAD_REQUEST,
            UsageError::FreeCallsUsedUp { .. } => StatusCode::FORBIDDEN,
            UsageError::CallNotFound => StatusCode::NOT_FOUND,
            UsageError::CallEnded
            | UsageError::CallTimeLimitReached { .. }
            | UsageError::PlanLapsed => StatusCode::CONFLICT,
        };
        Self::new(status, e.code(), e.to_string())
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(e: anyhow::Error) -> Self {
        // A database fault wrapped in anyhow still means "unavailable" when the pool is down.
        match e.downcast::<DbError>() {
            Ok(db) => db.into(),
            Err(e) => ApiError::Internal(e),
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> Self {
        match rejection {
            JsonRejection::MissingJsonContentType(_) => Self::unsupported_media_type(),
            JsonRejection::JsonSyntaxError(e) => Self::malformed_json(e.body_text()),
            JsonRejection::JsonDataError(e) => Self::invalid_json(e.body_text()),
            JsonRejection::BytesRejection(e) => e.into(),
            other => Self::bad_request("invalid_json", other.body_text()),
        }
    }
}

impl From<BytesRejection> for ApiError {
    fn from(rejection: BytesRejection) -> Self {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            Self::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "payload_too_large",
                "The request body is too large (at most 64 KiB)",
            )
        } else {
            Self::bad_request("invalid_body", rejection.body_text())
        }
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> Self {
        Self::bad_request("invalid_query", rejection.body_text())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut extra = (None, None);
        let (status, code, message, retry_after) = match self {
            ApiError::MfaRequired { mfa_token, methods } => {
                extra = (mfa_token, Some(methods));
                (
                    StatusCode::UNAUTHORIZED,
                    "mfa_required",
                    mfa::MFA_REQUIRED_MESSAGE.into(),
                    None,
                )
            }
            ApiError::Client {
                status,
                code,
                message,
                retry_after,
            } => (status, code, message, retry_after),
            ApiError::Unavailable(e) => {
                tracing::warn!(error = ?e, "dependency unavailable");
                (
                    StatusCode::SERVICE_UNAVAILABLE,
                    "unavailable",
                    "The service is temporarily unavailable. Please try again shortly.".into(),
                    Some(5),
                )
            }
            ApiError::Internal(e) => {
                tracing::error!(error = ?e, "internal error");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal",
                    "Something went wrong. Please try again.".into(),
                    None,
                )
            }
        };
        let body = ErrorBody {
            error: ErrorDetail {
                code: code.to_string(),
                message,
                mfa_token: extra.0,
                methods: extra.1,
            },
        };
        let mut response = (status, axum::Json(body)).into_response();
        if let Some(secs) = retry_after {
            if let Ok(v) = HeaderValue::from_str(&secs.to_string()) {
                response.headers_mut().insert(header::RETRY_AFTER, v);
            }
        }
        response
    }
}
