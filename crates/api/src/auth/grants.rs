//! The desktop app's two grants of `POST /api/auth/token`: `authorization_code` (browser sign-in
//! with PKCE) and `urn:ietf:params:oauth:grant-type:device_code`. They answer errors as RFC 6749
//! §5.2 and RFC 8628 §3.5 say, and always put the refresh token in the body, never a cookie.

use axum::body::Bytes;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use closewise_core::sessions::desktop::{DesktopAuthError, IssuedSession};
use closewise_domain::oauth::CLIENT_ID;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::session;
use crate::error::{ApiError, ApiResult};
use crate::extract::AppJson;
use crate::state::AppState;

pub const DEVICE_CODE_GRANT: &str = "urn:ietf:params:oauth:grant-type:device_code";

/// An OAuth error (RFC 6749 §5.2, RFC 8628 §3.5): the grants' answers, not our usual shape.
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = OAuthErrorBody)]
pub struct OAuthError {
    /// `invalid_request`, `invalid_client`, `invalid_grant`, `authorization_pending`,
    /// `slow_down`, `access_denied` or `expired_token`.
    pub error: &'static str,
    pub error_description: String,
    /// With `slow_down` only: the seconds the client must now wait between polls.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval: Option<i64>,
}

impl OAuthError {
    fn new(error: &'static str, description: impl Into<String>) -> Self {
        OAuthError {
            error,
            error_description: description.into(),
            interval: None,
        }
    }
}

impl IntoResponse for OAuthError {
    fn into_response(self) -> Response {
        (StatusCode::BAD_REQUEST, axum::Json(self)).into_response()
    }
}

/// What `POST /api/auth/token` answers with `400`: our usual error for the password and refresh
/// grants, an OAuth error for the desktop app's grants.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
#[allow(dead_code)]
pub enum TokenErrorBody {
    Api(crate::error::ErrorBody),
    OAuth(OAuthError),
}

/// `{code, code_verifier, redirect_uri, client_id}`.
#[derive(Deserialize, ToSchema, Default)]
#[schema(as = AuthorizationCodeGrantBody)]
pub struct CodeGrantRequest {
    pub code: Option<String>,
    pub code_verifier: Option<String>,
    pub redirect_uri: Option<String>,
    pub client_id: Option<String>,
}

/// `{device_code, client_id}`.
#[derive(Deserialize, ToSchema, Default)]
#[schema(as = DeviceCodeGrantBody)]
pub struct DeviceGrantRequest {
    pub device_code: Option<String>,
    pub client_id: Option<String>,
}

/// JSON, or `application/x-www-form-urlencoded` as RFC 6749 clients send.
fn grant_body<T: serde::de::DeserializeOwned>(
    headers: &HeaderMap,
    body: &Bytes,
) -> Result<T, OAuthError> {
    let form = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| {
            t.trim()
                .eq_ignore_ascii_case("application/x-www-form-urlencoded")
        });
    let parsed = if form {
        serde_urlencoded::from_bytes(body).map_err(|e| e.to_string())
    } else {
        serde_json::from_slice::<serde_json::Value>(body)
            .map_err(|e| e.to_string())
            .and_then(|v| match v.is_object() {
                true => serde_json::from_value(v).map_err(|e| e.to_string()),
                false => Err("the body must be a JSON object".to_string()),
            })
    };
    parsed.map_err(|e| OAuthError::new("invalid_request", format!("Invalid request: {e}")))
}

fn required(value: Option<String>, name: &str) -> Result<String, OAuthError> {
    value
        .filter(|v| !v.is_empty())
        .ok_or_else(|| OAuthError::new("invalid_request", format!("{name} is required")))
}

/// A grant's failure: an OAuth error to answer, or a fault of ours (the usual error).
enum GrantError {
    OAuth(OAuthError),
    Api(ApiError),
}

impl From<OAuthError> for GrantError {
    fn from(e: OAuthError) -> Self {
        GrantError::OAuth(e)
    }
}

impl From<ApiError> for GrantError {
    fn from(e: ApiError) -> Self {
        GrantError::Api(e)
    }
}

impl From<DesktopAuthError> for GrantError {
    fn from(e: DesktopAuthError) -> Self {
        let description = match &e {
            DesktopAuthError::InvalidGrant => {
                "The code is unknown, expired or already used, or does not match this sign-in."
            }
            DesktopAuthError::AuthorizationPending => "The sign-in has not been approved yet.",
            DesktopAuthError::SlowDown { .. } => {
                "Polling too often: wait the interval between polls."
            }
            DesktopAuthError::AccessDenied => "The sign-in was denied.",
            DesktopAuthError::ExpiredToken => "The sign-in request has expired. Start again.",
            _ => return GrantError::Api(e.into()),
        };
        let mut error = OAuthError::new(e.code(), description);
        if let DesktopAuthError::SlowDown { interval } = e {
            error.interval = Some(interval);
        }
        GrantError::OAuth(error)
    }
}

fn answer(result: Result<Response, GrantError>) -> ApiResult<Response> {
    match result {
        Ok(r) => Ok(r),
        Err(GrantError::OAuth(e)) => Ok(e.into_response()),
        Err(GrantError::Api(e)) => Err(e),
    }
}

/// The session for a native client: the refresh token in the body, no cookie.
async fn issued(state: &AppState, s: IssuedSession) -> Result<Response, GrantError> {
    let session = state.sessions.issued(s).await.map_err(ApiError::from)?;
    Ok(AppJson(session::session_body(state, session)?).into_response())
}

pub(super) async fn authorization_code(
    state: &AppState,
    ip: std::net::IpAddr,
    headers: &HeaderMap,
    body: &Bytes,
) -> ApiResult<Response> {
    answer(
        async {
            let req: CodeGrantRequest = grant_body(headers, body)?;
            let code = required(req.code, "code")?;
            let verifier = required(req.code_verifier, "code_verifier")?;
            let redirect_uri = required(req.redirect_uri, "redirect_uri")?;
            let client_id = required(req.client_id, "client_id")?;
            let s = state
                .desktop
                .exchange_code(&code, &verifier, &redirect_uri, &client_id, Some(ip))
                .await?;
            issued(state, s).await
        }
        .await,
    )
}

pub(super) async fn device_code(
    state: &AppState,
    ip: std::net::IpAddr,
    headers: &HeaderMap,
    body: &Bytes,
) -> ApiResult<Response> {
    answer(
        async {
            let req: DeviceGrantRequest = grant_body(headers, body)?;
            let device_code = required(req.device_code, "device_code")?;
            let client_id = required(req.client_id, "client_id")?;
            if client_id != CLIENT_ID {
                return Err(OAuthError::new(
                    "invalid_client",
                    "This client is not the Closewise app.",
                )
                .into());
            }
            let s = state
                .desktop
                .poll(&device_code, &client_id, Some(ip))
                .await?;
            issued(state, s).await
        }
        .await,
    )
}
