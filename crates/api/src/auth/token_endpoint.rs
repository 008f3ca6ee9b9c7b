//! `POST /api/auth/token`: the password and refresh-token grants, and the refresh cookie; the
//! desktop app's `authorization_code` and device-code grants are in `grants.rs`.

use super::common::*;
use super::grants;
use super::opaque_tokens::{hash_token, successor_token};
use super::session::{self, Caller, SessionResponse, REFRESH_COOKIE};
use super::signup::CredentialsRequest;
use crate::error::{ApiError, ApiResult};
use crate::extract::{user_agent, AppQuery, ClientIp};
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
    decide_refresh, refresh_token_expiry, RefreshDecision, RefreshTokenState,
};
use serde::Deserialize;
use utoipa::ToSchema;
use uuid::Uuid;

#[derive(Deserialize, ToSchema, Default)]
#[schema(as = RefreshBody)]
pub struct RefreshRequest {
    #[serde(default)]
    pub refresh_token: Option<String>,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GrantQuery {
    /// `password`, `refresh_token`, `authorization_code` or
    /// `urn:ietf:params:oauth:grant-type:device_code`.
    pub grant_type: Option<String>,
}

#[utoipa::path(post, path = "/api/auth/token", tag = "auth", params(GrantQuery),
    request_body(content = CredentialsRequest, description = "`{email, password}` for the password grant; `{refresh_token}` (or the cookie) for the refresh grant; `AuthorizationCodeGrantBody` for `authorization_code`; `DeviceCodeGrantBody` for the device-code grant"),
    responses((status = 200, body = SessionResponse), (status = 400, body = grants::TokenErrorBody, description = "`ErrorBody` for the password and refresh grants; `OAuthErrorBody` (RFC 6749 §5.2, RFC 8628 §3.5) for `authorization_code` and the device-code grant"),
        (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody, description = "`cross_site_request`: a browser request from a page that is not ours"), (status = 429, body = crate::error::ErrorBody)))]
#[tracing::instrument(skip_all)]
pub async fn token(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppQuery(query): AppQuery<GrantQuery>,
    headers: HeaderMap,
    jar: CookieJar,
    body: Bytes,
) -> ApiResult<Response> {
    limit(&state, Bucket::TokenPerIp, &ip.to_string()).await?;
    let grant = query.grant_type.as_deref();
    if matches!(grant, Some("password" | "refresh_token")) {
        session::caller(&state, &headers)?;
        // A cross-site form can post `text/plain` without a preflight; JSON it cannot.
        require_json(&headers)?;
    }
    match grant {
        Some("password") => {
            let caller = session::caller(&state, &headers)?;
            let creds: CredentialsRequest = json_body(&body)?;
            let session = password_grant(&state, &ip.to_string(), &headers, creds).await?;
            Ok(session::respond(&state, jar, caller, session))
        }
        Some("refresh_token") => {
            let caller = session::caller(&state, &headers)?;
            let body: RefreshRequest = if body.iter().all(u8::is_ascii_whitespace) {
                RefreshRequest::default()
            } else {
                json_body(&body)?
            };
            refresh_grant(&state, caller, jar, body).await
        }
        Some("authorization_code") => grants::authorization_code(&state, ip, &headers, &body).await,
        Some(grants::DEVICE_CODE_GRANT) => grants::device_code(&state, ip, &headers, &body).await,
        _ => Err(ApiError::bad_request(
            "invalid_grant_type",
            "grant_type must be password, refresh_token, authorization_code or urn:ietf:params:oauth:grant-type:device_code",
        )),
    }
}

/// 415 unless the request says its body is JSON (`application/json`, any parameters).
pub(super) fn require_json(headers: &HeaderMap) -> ApiResult<()> {
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"));
    if json {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "Expected a JSON body with Content-Type: application/json",
        ))
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
    creds: CredentialsRequest,
) -> ApiResult<SessionResponse> {
    // A malformed e-mail is just another unknown account: same answer, same work.
    let email = Email::parse(&creds.email).ok();
    let key = email
        .as_ref()
        .map(|e| e.as_str().to_string())
        .unwrap_or_else(|| creds.email.trim().to_lowercase());
    // Spent before verifying, so concurrent guesses cannot overrun the budgets; refunded on success.
    let attempt = password_attempt(state, &key, ip).await?;
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
    attempt.refund(state).await;
    if user.email_confirmed_at.is_none() && !state.settings.allow_unverified_signin {
        return Err(ApiError::bad_request(
            "email_not_confirmed",
            "Email not confirmed",
        ));
    }
    let ua = user_agent(headers);
    session::start(state, &user, ua.as_deref(), Some(ip)).await
}

pub(super) fn session_ended(
    state: &AppState,
    jar: CookieJar,
    caller: Caller,
    code: &'static str,
) -> Response {
    let jar = match caller {
        Caller::Site => session::clear_cookie(state, jar),
        Caller::Native => jar,
    };
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
    caller: Caller,
    jar: CookieJar,
    body: RefreshRequest,
) -> ApiResult<Response> {
    let from_body = body.refresh_token.filter(|t| !t.trim().is_empty());
    let presented = match (from_body, caller) {
        (Some(t), _) => t,
        // The cookie rides along automatically: only our own pages may use it.
        (None, Caller::Native) => return Err(no_session()),
        (None, Caller::Site) => {
            match jar
                .get(REFRESH_COOKIE)
                .map(|c| c.value().to_string())
                .filter(|v| !v.is_empty())
            {
                Some(t) => t,
                None => return Err(no_session()),
            }
        }
    };
    let Some(row) = state
        .store
        .refresh_token_by_hash(&hash_token(&presented))
        .await?
    else {
        return Ok(session_ended(state, jar, caller, "invalid_refresh_token"));
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
                    refresh_token_expiry(
                        now,
                        row.session_created_at,
                        session::max_session_age(state),
                    ),
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
            return Ok(session_ended(state, jar, caller, "refresh_token_reused"));
        }
        RefreshDecision::Expired | RefreshDecision::Revoked => {
            return Ok(session_ended(state, jar, caller, "invalid_refresh_token"))
        }
    }
    let Some(user) = state.store.user_by_id(row.user_id).await? else {
        return Ok(session_ended(state, jar, caller, "invalid_refresh_token"));
    };
    // The Devices list's "last seen" (at most one write a minute per session).
    state.store.touch_session(row.session_id, now).await?;
    let body = session::session_body(state, &user, row.session_id, successor, now)?;
    Ok(session::respond(state, jar, caller, body))
}

fn no_session() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "no_session",
        "Please sign in to continue",
    )
}
