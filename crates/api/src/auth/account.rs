//! The signed-in account: `GET /api/auth/user`, password change, deletion, and the public keys.

use super::common::*;
use super::session::{self, UserResponse};
use crate::error::{ApiError, ApiResult};
use crate::extract::{AppJson, AuthUser, ClientIp};
use crate::state::AppState;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum_extra::extract::CookieJar;
use closewise_core::mail::Template;
use serde::Deserialize;
use utoipa::ToSchema;

#[derive(Deserialize, ToSchema)]
#[schema(as = ChangePasswordBody)]
pub struct ChangePasswordRequest {
    pub current_password: String,
    pub password: String,
}

#[derive(Deserialize, ToSchema)]
#[schema(as = PasswordBody)]
pub struct DeleteAccountRequest {
    pub password: String,
}

#[utoipa::path(get, path = "/api/auth/user", tag = "auth",
    responses((status = 200, body = UserResponse), (status = 401, body = crate::error::ErrorBody)), security(("bearer" = [])))]
pub async fn current_user(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<AppJson<UserResponse>> {
    let user = state
        .store
        .user_by_id(auth.user_id)
        .await?
        .ok_or_else(ApiError::invalid_token)?;
    Ok(AppJson(UserResponse {
        user: (&user).into(),
    }))
}

/// The signed-in caller proves it knows the password again before a sensitive change. Attempts
/// count against the account's failed sign-in budget, like sign-in itself. A right password is a
/// password entry on the caller's session: it opens its re-authentication window (`reauth`).
pub(crate) async fn reconfirm_password(
    state: &AppState,
    auth: &AuthUser,
    ip: std::net::IpAddr,
    password: &str,
    wrong: &'static str,
) -> ApiResult<closewise_core::store::UserRow> {
    check_password(state, auth, ip, password)
        .await?
        .ok_or_else(|| ApiError::bad_request("invalid_credentials", wrong))
}

/// The caller's account when `password` is its password (the session then stamped), `None` when
/// it is not; spends a failed sign-in attempt first, refunded when right.
pub(crate) async fn check_password(
    state: &AppState,
    auth: &AuthUser,
    ip: std::net::IpAddr,
    password: &str,
) -> ApiResult<Option<closewise_core::store::UserRow>> {
    let user = state
        .store
        .user_by_id(auth.user_id)
        .await?
        .ok_or_else(ApiError::invalid_token)?;
    let attempt = password_attempt(state, &user.email, &ip.to_string()).await?;
    if !state
        .hasher
        .verify(password, Some(&user.password_hash))
        .await?
    {
        return Ok(None);
    }
    attempt.refund(state).await;
    super::reauth::service(state)
        .stamp(auth.session_id, auth.user_id)
        .await?;
    Ok(Some(user))
}

#[utoipa::path(post, path = "/api/auth/password", tag = "auth", request_body = ChangePasswordRequest,
    responses((status = 200, body = EmptyResponse), (status = 400, body = crate::error::ErrorBody), (status = 401, body = crate::error::ErrorBody),
        (status = 422, body = crate::error::ErrorBody),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`, `too_many_attempts`: password checks count as sign-in attempts")),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all)]
pub async fn change_password(
    State(state): State<AppState>,
    auth: AuthUser,
    ClientIp(ip): ClientIp,
    AppJson(body): AppJson<ChangePasswordRequest>,
) -> ApiResult<AppJson<EmptyResponse>> {
    let password = parse_password(&body.password)?;
    let user = reconfirm_password(
        &state,
        &auth,
        ip,
        &body.current_password,
        "Current password is incorrect",
    )
    .await?;
    let hash = state.hasher.hash(password.expose()).await?;
    let now = state.clock.now();
    let mail = state
        .mail
        .compose(&user.email, Template::PasswordChanged, now);
    state
        .store
        .change_password(user.id, &hash, Some(auth.session_id), false, &mail, now)
        .await?;
    Ok(AppJson(EmptyResponse {}))
}

#[utoipa::path(delete, path = "/api/account", tag = "auth", request_body = DeleteAccountRequest,
    responses((status = 204, description = "Account deleted"), (status = 400, body = crate::error::ErrorBody), (status = 401, body = crate::error::ErrorBody),
        (status = 409, body = crate::error::ErrorBody, description = "`team_owner`: transfer or delete the team first"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`, `too_many_attempts`: password checks count as sign-in attempts"),
        (status = 502, body = crate::error::ErrorBody, description = "`stripe_unavailable`: the subscription could not be cancelled; nothing deleted")),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all)]
pub async fn delete_account(
    State(state): State<AppState>,
    auth: AuthUser,
    ClientIp(ip): ClientIp,
    jar: CookieJar,
    AppJson(body): AppJson<DeleteAccountRequest>,
) -> ApiResult<Response> {
    let user =
        reconfirm_password(&state, &auth, ip, &body.password, "Password is incorrect").await?;
    state.accounts.delete(user.id, None).await?;
    let jar = session::clear_cookie(&state, jar);
    Ok((StatusCode::NO_CONTENT, jar).into_response())
}

#[utoipa::path(get, path = "/.well-known/jwks.json", tag = "auth", responses((status = 200, description = "The public keys of access tokens (JWKS)")))]
pub async fn jwks(State(state): State<AppState>) -> impl IntoResponse {
    (
        [(header::CACHE_CONTROL, "public, max-age=300")],
        axum::Json(state.keys.jwks()),
    )
}
