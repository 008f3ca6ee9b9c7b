//! One error type for the whole API, with the HTTP mapping in one place. Client errors carry a
//! machine code and the message the web shows verbatim; internal errors are logged with their cause
//! chain and never shown.

use axum::extract::rejection::{BytesRejection, JsonRejection, QueryRejection};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use closewise_core::accounts::AccountError;
use closewise_core::usage::UsageError;
use serde::Serialize;

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
}

pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError::Client {
            status,
            code,
            message: message.into(),
            retry_after: None,
        }
    }

    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    pub fn unprocessable(code: &'static str, message: impl Into<String>) -> Self {
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

    pub fn too_many(code: &'static str, message: impl Into<String>, retry_after: u64) -> Self {
        ApiError::Client {
            status: StatusCode::TOO_MANY_REQUESTS,
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

    pub fn internal(e: impl Into<anyhow::Error>) -> Self {
        ApiError::Internal(e.into())
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        match e {
            sqlx::Error::PoolTimedOut | sqlx::Error::Io(_) | sqlx::Error::PoolClosed => {
                ApiError::Unavailable(e.into())
            }
            other => ApiError::Internal(other.into()),
        }
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
            AccountError::Database(e) => e.into(),
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
            UsageError::CallEnded | UsageError::CallTimeLimitReached => StatusCode::CONFLICT,
        };
        Self::new(status, e.code(), e.to_string())
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(e: anyhow::Error) -> Self {
        // A database fault wrapped in anyhow still means "unavailable" when the pool is down.
        match e.downcast::<sqlx::Error>() {
            Ok(sqlx_err) => sqlx_err.into(),
            Err(e) => ApiError::Internal(e),
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> Self {
        match rejection {
            JsonRejection::MissingJsonContentType(_) => Self::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                "Expected a JSON body with Content-Type: application/json",
            ),
            JsonRejection::JsonSyntaxError(e) => {
                Self::bad_request("invalid_json", format!("Malformed JSON: {}", e.body_text()))
            }
            JsonRejection::JsonDataError(e) => Self::bad_request(
                "invalid_json",
                format!("Invalid request: {}", e.body_text()),
            ),
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
        let (status, code, message, retry_after) = match self {
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
