//! SCIM's refusals (RFC 7644 §3.12): the error schema with `status` as a string and a `scimType`
//! where one applies, as `application/scim+json`. Internal errors are logged and answered 500
//! in the same schema, without their cause.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use closewise_core::scim::ScimError;
use serde_json::json;

/// The content type of every SCIM answer.
pub const SCIM_JSON: &str = "application/scim+json";
pub const ERROR_SCHEMA: &str = "urn:ietf:params:scim:api:messages:2.0:Error";

/// A SCIM error answer.
#[derive(Debug)]
pub struct ScimApiError {
    pub status: StatusCode,
    pub scim_type: Option<&'static str>,
    pub detail: String,
}

impl ScimApiError {
    pub fn new(
        status: StatusCode,
        scim_type: Option<&'static str>,
        detail: impl Into<String>,
    ) -> Self {
        ScimApiError {
            status,
            scim_type,
            detail: detail.into(),
        }
    }

    pub fn not_found() -> Self {
        Self::new(StatusCode::NOT_FOUND, None, "Not found.")
    }

    pub fn invalid_value(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, Some("invalidValue"), detail)
    }

    pub fn invalid_syntax(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, Some("invalidSyntax"), detail)
    }
}

impl From<ScimError> for ScimApiError {
    fn from(e: ScimError) -> Self {
        let (status, scim_type) = match &e {
            ScimError::Database(db) => {
                tracing::error!(error = %db, "scim: database error");
                return Self::new(StatusCode::INTERNAL_SERVER_ERROR, None, "Internal error.");
            }
            ScimError::Internal(err) => {
                tracing::error!(error = %format!("{err:#}"), "scim: internal error");
                return Self::new(StatusCode::INTERNAL_SERVER_ERROR, None, "Internal error.");
            }
            ScimError::InvalidToken => (StatusCode::UNAUTHORIZED, None),
            ScimError::NotFound => (StatusCode::NOT_FOUND, None),
            ScimError::Uniqueness(_) => (StatusCode::CONFLICT, Some("uniqueness")),
            ScimError::Seats(_) => (StatusCode::CONFLICT, None),
            ScimError::Rule(r) => (StatusCode::BAD_REQUEST, Some(r.scim_type())),
            ScimError::DomainNotVerified => (StatusCode::BAD_REQUEST, Some("invalidValue")),
            ScimError::Owner => (StatusCode::BAD_REQUEST, Some("mutability")),
        };
        Self::new(status, scim_type, e.to_string())
    }
}

impl IntoResponse for ScimApiError {
    fn into_response(self) -> Response {
        let mut body = json!({
            "schemas": [ERROR_SCHEMA],
            "status": self.status.as_u16().to_string(),
            "detail": self.detail,
        });
        if let Some(t) = self.scim_type {
            body["scimType"] = t.into();
        }
        let mut res = (self.status, body.to_string()).into_response();
        res.headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static(SCIM_JSON));
        if self.status == StatusCode::UNAUTHORIZED {
            res.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"scim\""),
            );
        }
        res
    }
}
