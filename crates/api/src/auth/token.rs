//! `POST /api/auth/token`: the password and refresh-token grants, and the refresh cookie.

use super::common::*;
use super::session::{self, SessionBody, REFRESH_COOKIE};
use super::signup::Credentials;
use super::tokens::{hash_token, successor_token};
use crate::error::{ApiError, ApiResult};
use crate::extract::{user_agent, AppJson, AppQuery, ClientIp};
use crate::ratelimit::Bucket;
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum_extra::extract::CookieJar;
use closewise_core::store::sessions::Rotation;
use closewise_domain::email::Email;
use closewise_domain::tokens::{
    decide_refresh, RefreshDecision, RefreshTokenState, REFRESH_TOKEN_TTL,
};
use serde::Deserialize;
use utoipa::ToSchema;
use uuid::Uuid;

#[derive(Deserialize, ToSchema, Default)]
pub struct RefreshBody {
    #[serde(default)]
    pub refresh_token: Option<String>,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GrantQuery {
    /// `password` or `refresh_token`.
    pub grant_type: Option<String>,
}

#[utoipa::path(post, path = "/api/auth/token", tag = "auth", params(GrantQuery),
    request_body(content = Credentials, description = "`{email, password}` for the password grant; `{refresh_token}` (or the cookie) for the refresh grant"),
    responses((status = 200, body = SessionBody), (status = 400, body = crate::error::ErrorBody),
        (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
#[tracing::instrument(skip_all)]
pub async fn token(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppQuery(query): AppQuery<GrantQuery>,
    headers: HeaderMap,
    jar: CookieJar,
    body: Bytes,
) -> ApiResult<Response> {
    limit(&state, Bucket::TokenPerIp, &ip.to_string())?;
    match query.grant_type.as_deref() {
        Some("password") => {
            let creds: Credentials = json_body(&body)?;
            password_grant(&state, &ip.to_string(), &headers, jar, creds).await
        }
        Some("refresh_token") => {
            let body: RefreshBody = if body.iter().all(u8::is_ascii_whitespace) {
                RefreshBody::default()
            } else {
                json_body(&body)?
            };
            refresh_grant(&state, &headers, jar, body).await
        }
        _ => Err(ApiError::bad_request(
            "invalid_grant_type",
            "grant_type must be password or refresh_token",
        )),
    }
}

pub(super) fn json_body<T: serde::de::DeserializeOwned>(body: &Bytes) -> ApiResult<T> {
    serde_json::from_slice(body)
        .map_err(|e| ApiError::bad_request("invalid_json", format!("Invalid request: {e}")))
}

pub(super) fn invalid_credentials() -> ApiError {
    ApiError::bad_request("invalid_credentials", "Invalid login credentials")
}

pub(super) async fn password_grant(
    state: &AppState,
    ip: &str,
    headers: &HeaderMap,
    jar: CookieJar,
    creds: Credentials,
) -> ApiResult<Response> {
    // A malformed e-mail is just another unknown account: same answer, same work.
    let email = Email::parse(&creds.email).ok();
    let key = email
        .as_ref()
        .map(|e| e.as_str().to_string())
        .unwrap_or_else(|| creds.email.trim().to_lowercase());
    // Spent before verifying, so concurrent guesses cannot overrun the budget; refunded on success.
    limit(state, Bucket::FailedSignin, &key)?;
    let user = match &email {
        Some(e) => state.store.user_by_email(e.as_str()).await?,
        None => None,
    };
    let ok = state
        .hasher
        .verify(
            &creds.password,
            user.as_ref().map(|u| u.password_hash.as_str()),
        )
        .await?;
    let user = match (ok, user) {
        (true, Some(user)) => user,
        _ => return Err(invalid_credentials()),
    };
    state.limiter.refund(Bucket::FailedSignin, &key);
    if user.email_confirmed_at.is_none() && !state.settings.allow_unverified_signin {
        return Err(ApiError::bad_request(
            "email_not_confirmed",
            "Email not confirmed",
        ));
    }
    let ua = user_agent(headers);
    let body = session::start(state, &user, ua.as_deref(), Some(ip)).await?;
    let jar = session::set_cookie(state, jar, &body.refresh_token);
    Ok((jar, AppJson(body)).into_response())
}

/// An `Origin` is ours when it is the configured public URL, or the very host this request was
/// sent to (the site opened as 127.0.0.1 rather than localhost): a page of another site cannot
/// send its request with our Host and its own Origin.
pub(super) fn same_site_origin(base_url: &str, headers: &HeaderMap, origin: &str) -> bool {
    if closewise_domain::limits::same_origin(base_url, origin) {
        return true;
    }
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    match (host, url::Url::parse(origin)) {
        (Some(host), Ok(o)) => {
            let origin_host = match o.port() {
                Some(port) => format!("{}:{port}", o.host_str().unwrap_or_default()),
                None => o.host_str().unwrap_or_default().to_string(),
            };
            matches!(o.scheme(), "http" | "https") && origin_host.eq_ignore_ascii_case(host)
        }
        _ => false,
    }
}

pub(super) fn session_ended(state: &AppState, jar: CookieJar, code: &'static str) -> Response {
    let jar = session::clear_cookie(state, jar);
    (
        jar,
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            code,
            "Your session has ended. Please sign in again.",
        ),
    )
        .into_response()
}

pub(super) async fn refresh_grant(
    state: &AppState,
    headers: &HeaderMap,
    jar: CookieJar,
    body: RefreshBody,
) -> ApiResult<Response> {
    let from_body = body.refresh_token.filter(|t| !t.trim().is_empty());
    let presented = match from_body {
        Some(t) => t,
        None => {
            // The cookie rides along automatically, so a cookie-only call must come from our own pages.
            if let Some(origin) = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) {
                if !same_site_origin(&state.settings.base_url, headers, origin) {
                    return Err(ApiError::new(
                        StatusCode::FORBIDDEN,
                        "cross_site",
                        "Cross-site requests cannot use the session cookie",
                    ));
                }
            }
            match jar
                .get(REFRESH_COOKIE)
                .map(|c| c.value().to_string())
                .filter(|v| !v.is_empty())
            {
                Some(t) => t,
                None => {
                    return Err(ApiError::new(
                        StatusCode::UNAUTHORIZED,
                        "no_session",
                        "Please sign in to continue",
                    ))
                }
            }
        }
    };
    let Some(row) = state
        .store
        .refresh_token_by_hash(&hash_token(&presented))
        .await?
    else {
        return Ok(session_ended(state, jar, "invalid_refresh_token"));
    };
    let now = state.clock.now();
    let decision = decide_refresh(
        &RefreshTokenState {
            expires_at: row.expires_at,
            revoked: row.session_revoked_at.is_some(),
            rotated_at: row.rotated_at,
        },
        now,
    );
    let successor = successor_token(state.keys.refresh_key(), &presented);
    match decision {
        RefreshDecision::Rotate => {
            let rotation = state
                .store
                .rotate_refresh_token(
                    row.id,
                    row.session_id,
                    Uuid::now_v7(),
                    &hash_token(&successor),
                    now + REFRESH_TOKEN_TTL,
                    now,
                )
                .await?;
            // Losing the race means another request rotated it a moment ago: the grace case.
            debug_assert!(matches!(
                rotation,
                Rotation::Rotated | Rotation::AlreadySpent
            ));
        }
        RefreshDecision::GraceReplay => {}
        RefreshDecision::ReuseDetected => {
            tracing::warn!(session_id = %row.session_id, "refresh token reused: revoking the session");
            state
                .store
                .revoke_session(row.session_id, "refresh_token_reused", now)
                .await?;
            return Ok(session_ended(state, jar, "refresh_token_reused"));
        }
        RefreshDecision::Expired | RefreshDecision::Revoked => {
            return Ok(session_ended(state, jar, "invalid_refresh_token"))
        }
    }
    let Some(user) = state.store.user_by_id(row.user_id).await? else {
        return Ok(session_ended(state, jar, "invalid_refresh_token"));
    };
    let body = session::session_body(state, &user, row.session_id, successor, now)?;
    let jar = session::set_cookie(state, jar, &body.refresh_token);
    Ok((jar, AppJson(body)).into_response())
}
