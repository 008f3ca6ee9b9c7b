//! One error type for the whole API, with the HTTP mapping in one place. Client errors carry a
//! machine code and the message the web shows verbatim; internal errors are logged with their cause
//! chain and never shown.

use axum::extract::rejection::{BytesRejection, JsonRejection, QueryRejection};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use closewise_core::accounts::AccountError;
use closewise_core::teams::TeamsError;
use closewise_core::usage::UsageError;
use closewise_domain::teams::SeatError;
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

    /// `503` with `Retry-After`: a shared resource is full for now, not this client's fault.
    pub fn unavailable_for(
        code: &'static str,
        message: impl Into<String>,
        retry_after: u64,
    ) -> Self {
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
            sqlx::Error::Database(ref db) if server_going_away(db.code().as_deref()) => {
                ApiError::Unavailable(e.into())
            }
            other => ApiError::Internal(other.into()),
        }
    }
}

/// PostgreSQL's SQLSTATEs for a server that is shutting down, starting up or dropped the
/// connection (classes 57P and 08): a request in flight when it goes is `503 unavailable`, as a
/// refused connection is, not a 500.
fn server_going_away(code: Option<&str>) -> bool {
    matches!(code, Some("57P01" | "57P02" | "57P03" | "57P05"))
        || code.is_some_and(|c| c.starts_with("08"))
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

impl From<TeamsError> for ApiError {
    fn from(e: TeamsError) -> Self {
        let e = match e {
            TeamsError::Database(db) => return db.into(),
            other => other,
        };
        let status = match &e {
            TeamsError::Database(_) => StatusCode::INTERNAL_SERVER_ERROR,
            TeamsError::TeamNotFound | TeamsError::InviteNotFound => StatusCode::NOT_FOUND,
            TeamsError::ForbiddenRole | TeamsError::EmailNotVerified => StatusCode::FORBIDDEN,
            TeamsError::AlreadyInTeam
            | TeamsError::AlreadyMember(_)
            | TeamsError::InviteUsed
            | TeamsError::InviteOtherAddress => StatusCode::CONFLICT,
            TeamsError::Seats(SeatError::OutOfRange) => StatusCode::BAD_REQUEST,
            TeamsError::Seats(_) => StatusCode::CONFLICT,
            TeamsError::InviteExpired
            | TeamsError::InvalidName(_)
            | TeamsError::InvalidEmail(_)
            | TeamsError::InvalidRole
            | TeamsError::InvalidTransfer
            | TeamsError::DomainNotAllowed => StatusCode::BAD_REQUEST,
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    #[derive(Debug)]
    struct PgError(&'static str);

    impl std::fmt::Display for PgError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "SQLSTATE {}", self.0)
        }
    }

    impl std::error::Error for PgError {}

    impl sqlx::error::DatabaseError for PgError {
        fn message(&self) -> &str {
            "terminating connection due to administrator command"
        }
        fn code(&self) -> Option<Cow<'_, str>> {
            Some(Cow::Borrowed(self.0))
        }
        fn as_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn as_error_mut(&mut self) -> &mut (dyn std::error::Error + Send + Sync + 'static) {
            self
        }
        fn into_error(self: Box<Self>) -> Box<dyn std::error::Error + Send + Sync + 'static> {
            self
        }
        fn kind(&self) -> sqlx::error::ErrorKind {
            sqlx::error::ErrorKind::Other
        }
    }

    fn status_of(code: &'static str) -> StatusCode {
        let e: ApiError = sqlx::Error::Database(Box::new(PgError(code))).into();
        e.into_response().status()
    }

    #[test]
    fn a_server_shutting_down_or_a_dropped_connection_is_unavailable() {
        for code in ["57P01", "57P02", "57P03", "08006", "08003"] {
            assert_eq!(status_of(code), StatusCode::SERVICE_UNAVAILABLE, "{code}");
        }
    }

    #[test]
    fn other_database_errors_stay_internal() {
        for code in ["23505", "42P01", "40001"] {
            assert_eq!(status_of(code), StatusCode::INTERNAL_SERVER_ERROR, "{code}");
        }
    }
}
