//! A second factor's errors as HTTP: `401 mfa_required` carrying the `mfa_token` (password grant)
//! or not (step-up) and the `methods`; the enrolment endpoints' refusals.

use axum::http::StatusCode;
use closewise_core::mfa::MfaError;
use closewise_domain::mfa::Method;
use serde::Serialize;

use super::ApiError;

/// What a code step asks, worded as the spec's sign-in page.
pub const MFA_REQUIRED_MESSAGE: &str = "Enter the 6-digit code from your authenticator app.";

/// A way to give the second factor, as `ErrorDetail.methods` lists it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MfaMethod {
    Totp,
    RecoveryCode,
    Passkey,
}

impl ApiError {
    pub fn mfa_required(mfa_token: Option<String>, methods: &[Method]) -> Self {
        ApiError::MfaRequired {
            mfa_token,
            methods: methods.iter().map(|m| m.as_str()).collect(),
        }
    }
}

impl From<MfaError> for ApiError {
    fn from(e: MfaError) -> Self {
        let status = match e {
            MfaError::Database(db) => return db.into(),
            MfaError::Internal(e) => return e.into(),
            MfaError::CodeRequired { methods } => return Self::mfa_required(None, &methods),
            MfaError::NotSignedIn => return ApiError::invalid_token(),
            MfaError::AlreadyEnrolled | MfaError::NoPendingEnrolment => StatusCode::CONFLICT,
            MfaError::InvalidCode => StatusCode::BAD_REQUEST,
            MfaError::SetupRequired => StatusCode::FORBIDDEN,
            MfaError::InvalidMfaToken => StatusCode::UNAUTHORIZED,
        };
        Self::new(status, e.code(), e.to_string())
    }
}
