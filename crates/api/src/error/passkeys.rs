//! The passkey flows' refusals over HTTP, each `PasskeyError` as docs/api.md gives it.

use axum::http::StatusCode;
use closewise_core::passkeys::PasskeyError;

use super::ApiError;

impl From<PasskeyError> for ApiError {
    fn from(e: PasskeyError) -> Self {
        let status = match e {
            PasskeyError::Database(db) => return db.into(),
            PasskeyError::InvalidPasskey(_)
            | PasskeyError::ChallengeExpired
            | PasskeyError::InvalidName(_) => StatusCode::BAD_REQUEST,
            PasskeyError::NotSignedIn | PasskeyError::InvalidMfaToken => StatusCode::UNAUTHORIZED,
            PasskeyError::NotFound => StatusCode::NOT_FOUND,
        };
        ApiError::new(status, e.code(), e.to_string())
    }
}
