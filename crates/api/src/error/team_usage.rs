//! The HTTP mapping of the team's usage, activity and reclaim errors (issue 26).

use axum::http::StatusCode;
use closewise_core::teams::billing::reclaim::ReclaimError;
use closewise_core::teams::usage::TeamUsageError;
use closewise_domain::idle_seats::ReclaimRefusal;

use super::ApiError;

impl From<TeamUsageError> for ApiError {
    fn from(e: TeamUsageError) -> Self {
        match e {
            TeamUsageError::Teams(t) => t.into(),
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
