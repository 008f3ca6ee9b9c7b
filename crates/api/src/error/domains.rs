//! The verified domains service's refusals as HTTP (`/api/team/domains`).

use axum::http::StatusCode;
use closewise_core::verified_domains::VerifiedDomainsError as E;

use super::ApiError;

impl From<E> for ApiError {
    fn from(e: E) -> Self {
        let status = match e {
            E::Database(db) => return db.into(),
            E::Limited(limited) => return limited.into(),
            E::TeamNotFound | E::NotFound => StatusCode::NOT_FOUND,
            E::ForbiddenRole => StatusCode::FORBIDDEN,
            E::Invalid(_) => StatusCode::BAD_REQUEST,
            E::TooMany => StatusCode::UNPROCESSABLE_ENTITY,
            E::Exists(_) | E::Taken(_) | E::NotVerified(_) => StatusCode::CONFLICT,
        };
        Self::new(status, e.code(), e.to_string())
    }
}
