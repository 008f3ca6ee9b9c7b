//! The teams service's refusals as HTTP (`/api/team`, invitations, joins, roles, policies).

use axum::http::StatusCode;
use closewise_core::teams::TeamsError;
use closewise_domain::teams::SeatError;

use super::ApiError;

impl From<TeamsError> for ApiError {
    fn from(e: TeamsError) -> Self {
        let e = match e {
            TeamsError::Database(db) => return db.into(),
            TeamsError::Limited(limit) => return limit.into(),
            other => other,
        };
        let status = match &e {
            TeamsError::Database(_) | TeamsError::Limited(_) => StatusCode::INTERNAL_SERVER_ERROR,
            TeamsError::TeamNotFound | TeamsError::InviteNotFound => StatusCode::NOT_FOUND,
            TeamsError::ForbiddenRole
            | TeamsError::EmailNotVerified
            | TeamsError::DeactivatedByDirectory
            | TeamsError::StepUpRequired => StatusCode::FORBIDDEN,
            TeamsError::AlreadyInTeam
            | TeamsError::AlreadyMember(_)
            | TeamsError::InviteUsed
            | TeamsError::InviteOtherAddress
            | TeamsError::SsoNotConfigured => StatusCode::CONFLICT,
            TeamsError::Seats(SeatError::OutOfRange) => StatusCode::BAD_REQUEST,
            TeamsError::Seats(_) => StatusCode::CONFLICT,
            TeamsError::InviteExpired
            | TeamsError::InvalidName(_)
            | TeamsError::InvalidTokenName(_)
            | TeamsError::InvalidEmail(_)
            | TeamsError::InvalidRole
            | TeamsError::InvalidTransfer
            | TeamsError::DomainNotAllowed
            | TeamsError::InvalidPolicy(_) => StatusCode::BAD_REQUEST,
        };
        Self::new(status, e.code(), e.to_string())
    }
}
