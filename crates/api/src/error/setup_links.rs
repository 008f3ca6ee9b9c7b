//! The setup links' refusals as HTTP (`/api/team/setup-links` and `/api/setup/{token}`). A gone
//! link's `410` carries its reason too; `setup::SetupError` answers it.

use axum::http::StatusCode;
use closewise_core::setup_links::SetupLinksError as E;

use super::ApiError;

impl From<E> for ApiError {
    fn from(e: E) -> Self {
        let status = match e {
            E::Team(e) => return e.into(),
            E::Domains(e) => return e.into(),
            E::Sso(e) => return e.into(),
            E::Database(e) => return e.into(),
            E::Internal(e) => return ApiError::Internal(e),
            E::InvalidSteps(_) | E::NotAtVerifiedDomain => StatusCode::BAD_REQUEST,
            E::NotFound => StatusCode::NOT_FOUND,
            E::Gone(_) => StatusCode::GONE,
            E::StepNotAllowed => StatusCode::FORBIDDEN,
            E::NoDraft => StatusCode::CONFLICT,
        };
        Self::new(status, e.code(), e.to_string())
    }
}
