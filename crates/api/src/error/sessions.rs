//! The sessions service's refusals as HTTP (sign-in, its second-factor step, refresh, sign-out).

use axum::http::StatusCode;
use closewise_core::sessions::SessionError;

use super::ApiError;

impl From<SessionError> for ApiError {
    fn from(e: SessionError) -> Self {
        let status = match e {
            SessionError::Database(db) => return db.into(),
            SessionError::Internal(e) => return e.into(),
            SessionError::MfaRequired(p) => {
                return Self::mfa_required(Some(p.mfa_token), &p.methods)
            }
            SessionError::InvalidCode | SessionError::InvalidMfaToken => StatusCode::UNAUTHORIZED,
            SessionError::InvalidCredentials
            | SessionError::EmailNotConfirmed
            | SessionError::InvalidScope => StatusCode::BAD_REQUEST,
            SessionError::VerificationRequired | SessionError::SsoRequired => StatusCode::FORBIDDEN,
            SessionError::NoSession
            | SessionError::InvalidRefreshToken
            | SessionError::RefreshTokenReused
            | SessionError::InvalidToken
            | SessionError::NotSignedIn => StatusCode::UNAUTHORIZED,
        };
        Self::new(status, e.code(), e.to_string())
    }
}
