//! The HTTP mapping of the team's adoption, activity and reclaim errors.

use axum::http::StatusCode;
use closewise_core::teams::adoption::AdoptionError;
use closewise_core::teams::billing::reclaim::ReclaimError;
use closewise_domain::idle_seats::ReclaimRefusal;

use super::ApiError;

impl From<AdoptionError> for ApiError {
    fn from(e: AdoptionError) -> Self {
        match e {
            AdoptionError::Teams(t) => t.into(),
            other => Self::new(StatusCode::BAD_REQUEST, other.code(), other.to_string()),
        }
    }
}

impl From<ReclaimError> for ApiError {
    fn from(e: ReclaimError) -> Self {
        use ReclaimRefusal as R;
        let status = match &e {
            ReclaimError::Billing(_) => match e {
                ReclaimError::Billing(b) => return b.into(),
                _ => unreachable!("matched above"),
            },
            ReclaimError::Refused(R::NotAMember(_) | R::SeatsNotLower { .. }) => {
                StatusCode::BAD_REQUEST
            }
            ReclaimError::Refused(R::MayNotRemove(_)) => StatusCode::FORBIDDEN,
            ReclaimError::Refused(R::Seats(s)) if s.code() == "invalid_seats" => {
                StatusCode::BAD_REQUEST
            }
            ReclaimError::Refused(R::Seats(_)) | ReclaimError::Changed => StatusCode::CONFLICT,
        };
        Self::new(status, e.code(), e.to_string())
    }
}
