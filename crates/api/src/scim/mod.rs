//! SCIM 2.0 at `APP_BASE_URL/scim/v2` (RFC 7643/7644, docs/api.md "SCIM"): the discovery
//! documents and Users, for a team's identity provider holding one of the team's SCIM tokens
//! (`Authorization: Bearer cws_scim_…`). Not in the OpenAPI document: SCIM has its own schema
//! language (`/scim/v2/Schemas`) and media type, and its own conformance checker (scim2-tester).
//!
//! Handlers parse, make one `closewise_core::scim::Scim` call and answer `application/scim+json`.

mod discovery;
mod users;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use closewise_core::scim::{ScimCaller, ScimError};
use serde_json::Value;

use crate::error::scim::{ScimApiError, SCIM_JSON};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/scim/v2/ServiceProviderConfig",
            get(discovery::service_provider_config),
        )
        .route("/scim/v2/ResourceTypes", get(discovery::resource_types))
        .route("/scim/v2/ResourceTypes/{id}", get(discovery::resource_type))
        .route("/scim/v2/Schemas", get(discovery::schemas))
        .route("/scim/v2/Schemas/{id}", get(discovery::schema))
        .route("/scim/v2/Users", get(users::list).post(users::create))
        .route("/scim/v2/Users/.search", post(users::search))
        .route("/scim/v2/.search", post(users::search))
        .route(
            "/scim/v2/Users/{id}",
            get(users::get_one)
                .put(users::replace)
                .patch(users::patch)
                .delete(users::delete),
        )
        .route("/scim/v2", axum::routing::any(not_found))
        .route("/scim/v2/{*rest}", axum::routing::any(not_found))
}

async fn not_found() -> ScimApiError {
    ScimApiError::not_found()
}

/// `Authorization: Bearer <SCIM token>`: the token's team.
pub struct Caller(pub ScimCaller);

impl FromRequestParts<AppState> for Caller {
    type Rejection = ScimApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let bearer = parts
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| {
                let (scheme, token) = v.split_once(' ')?;
                scheme.eq_ignore_ascii_case("bearer").then_some(token)
            })
            .ok_or(ScimError::InvalidToken)?;
        Ok(Caller(state.scim.authenticate(bearer).await?))
    }
}

/// A SCIM answer: `status` with `body` as `application/scim+json`.
pub struct Scim(pub StatusCode, pub Value);

impl IntoResponse for Scim {
    fn into_response(self) -> Response {
        let mut res = (self.0, self.1.to_string()).into_response();
        res.headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static(SCIM_JSON));
        res
    }
}

/// A request body: JSON whatever its content type says (`application/scim+json` or JSON).
fn json_body(bytes: &[u8]) -> Result<Value, ScimApiError> {
    serde_json::from_slice(bytes)
        .map_err(|e| ScimApiError::invalid_syntax(format!("The body is not JSON: {e}")))
}

/// `APP_BASE_URL/scim/v2` without a trailing slash.
fn base(state: &AppState) -> String {
    format!("{}/scim/v2", state.settings.base_url.trim_end_matches('/'))
}
