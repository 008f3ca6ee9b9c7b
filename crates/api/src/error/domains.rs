//! The domains service's refusals as HTTP (`/api/team/domains`).

use axum::http::StatusCode;
use closewise_core::domains::DomainsError;

use super::ApiError;

impl From<DomainsError> for ApiError {
    fn from(e: DomainsError) -> Self {
        let status = match e {
            DomainsError::Database(db) => return db.into(),
            DomainsError::TeamNotFound | DomainsError::NotFound => StatusCode::NOT_FOUND,
            DomainsError::ForbiddenRole => StatusCode::FORBIDDEN,
            DomainsError::Invalid(_) => StatusCode::BAD_REQUEST,
            DomainsError::TooMany => StatusCode::UNPROCESSABLE_ENTITY,
            DomainsError::Exists(_) | DomainsError::Taken(_) | DomainsError::NotVerified(_) => {
                StatusCode::CONFLICT
            }
        };
        Self::new(status, e.code(), e.to_string())
    }
}
