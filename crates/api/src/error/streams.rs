//! The event streams' refusals as HTTP.

use axum::http::StatusCode;
use closewise_core::streams::StreamsError;

use super::ApiError;

impl From<StreamsError> for ApiError {
    fn from(e: StreamsError) -> Self {
        let status = match &e {
            StreamsError::Teams(_) | StreamsError::Database(_) => {
                return match e {
                    StreamsError::Teams(t) => t.into(),
                    StreamsError::Database(db) => db.into(),
                    _ => unreachable!("matched above"),
                }
            }
            StreamsError::Rule(_) | StreamsError::InvalidSince => StatusCode::UNPROCESSABLE_ENTITY,
            StreamsError::TooMany | StreamsError::NotSigned => StatusCode::CONFLICT,
            StreamsError::NotFound => StatusCode::NOT_FOUND,
        };
        Self::new(status, e.code(), e.to_string())
    }
}
