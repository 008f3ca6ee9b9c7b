//! Request extractors: JSON bodies whose rejections are our JSON errors, the signed-in caller,
//! and the client's IP.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequest, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap};

use crate::error::ApiError;
use crate::net;
use crate::state::AppState;

/// `axum::Json` with rejections turned into `{"error": {...}}` answers. Every body we take is a
/// JSON object: an array or a scalar is refused (serde would read `[]` as a struct whose fields
/// all have defaults).
pub struct AppJson<T>(pub T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequest<S> for AppJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, ApiError> {
        let axum::Json(value) = axum::Json::<serde_json::Value>::from_request(req, state).await?;
        from_object(value).map(AppJson)
    }
}

/// A body that must be a JSON object, read into `T`.
pub fn json_object<T: serde::de::DeserializeOwned>(raw: &[u8]) -> Result<T, ApiError> {
    let value: serde_json::Value = serde_json::from_slice(raw).map_err(ApiError::malformed_json)?;
    from_object(value)
}

fn from_object<T: serde::de::DeserializeOwned>(value: serde_json::Value) -> Result<T, ApiError> {
    if !value.is_object() {
        return Err(ApiError::invalid_json("the body must be a JSON object"));
    }
    serde_json::from_value(value).map_err(ApiError::invalid_json)
}

impl<T: serde::Serialize> axum::response::IntoResponse for AppJson<T> {
    fn into_response(self) -> axum::response::Response {
        axum::Json(self.0).into_response()
    }
}

/// `axum::extract::Query` with rejections turned into JSON errors.
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct AppQuery<T>(pub T);

/// The caller, from a valid bearer access token whose session is still active.
pub use closewise_core::sessions::auth_cache::AuthUser;

/// Reads the bearer token: `None` when there is no Authorization header at all.
pub fn bearer(headers: &HeaderMap) -> Option<Result<&str, ()>> {
    let value = headers.get(header::AUTHORIZATION)?;
    let value = match value.to_str() {
        Ok(v) => v,
        Err(_) => return Some(Err(())),
    };
    let token = value
        .strip_prefix("Bearer ")
        .or_else(|| value.strip_prefix("bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty());
    Some(token.ok_or(()))
}

impl FromRequestParts<AppState> for AuthUser {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let token = match bearer(&parts.headers) {
            None => return Err(ApiError::not_signed_in()),
            Some(Err(())) => return Err(ApiError::invalid_token()),
            Some(Ok(t)) => t,
        };
        authenticate(state, token)
            .await?
            .ok_or_else(ApiError::invalid_token)
    }
}

/// The signed-in caller when the request has an Authorization header (`None` without one); a
/// header whose token is not valid is refused as `AuthUser` refuses it.
pub async fn optional_user(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<Option<AuthUser>, ApiError> {
    match bearer(headers) {
        None => Ok(None),
        Some(Err(())) => Err(ApiError::invalid_token()),
        Some(Ok(t)) => authenticate(state, t)
            .await?
            .ok_or_else(ApiError::invalid_token)
            .map(Some),
    }
}

/// The caller of a bearer token (`Sessions::authenticate`); `None` when not valid.
pub async fn authenticate(state: &AppState, token: &str) -> Result<Option<AuthUser>, ApiError> {
    Ok(state.sessions.authenticate(&state.keys, token).await?)
}

/// The client's address: the socket peer, or, when the peer is one of `TRUSTED_PROXIES`, the
/// rightmost `X-Forwarded-For` address that is not (`net::client_address`; without trusted
/// proxies forwarding headers are ignored).
#[derive(Clone, Copy, Debug)]
pub struct ClientIp(pub IpAddr);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip())
            .unwrap_or(IpAddr::from([127, 0, 0, 1]));
        let forwarded_for = parts
            .headers
            .get_all("x-forwarded-for")
            .iter()
            // A value that is not text ends the walk like any malformed entry.
            .map(|v| v.to_str().unwrap_or("?"));
        Ok(ClientIp(net::client_address(
            peer,
            forwarded_for,
            &state.settings.trusted_proxies,
        )))
    }
}

pub fn user_agent(headers: &HeaderMap) -> Option<String> {
    headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map(|s| s.chars().take(256).collect())
}
