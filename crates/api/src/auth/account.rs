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
use closewise_core::accounts::{AccountError, Caller, PasswordBudget};
use serde::Deserialize;
use utoipa::ToSchema;

#[derive(Deserialize, ToSchema)]
#[schema(as = ChangePasswordBody)]
pub struct ChangePasswordRequest {
    pub current_password: String,
    #[schema(schema_with = crate::schemas::new_password)]
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
    let user = state.accounts.user(auth.user_id).await?;
    Ok(AppJson(UserResponse {
        user: (&user).into(),
    }))
}

/// Sign-in's budget of password checks (`password_attempt`) for a caller at `ip`: the account
/// flows spend it before they compare a password, as sign-in does.
pub(super) struct SigninBudget<'a> {
    state: &'a AppState,
    ip: String,
}

impl<'a> SigninBudget<'a> {
    pub(super) fn new(state: &'a AppState, ip: std::net::IpAddr) -> Self {
        SigninBudget {
            state,
            ip: ip.to_string(),
        }
    }
}

impl PasswordBudget for SigninBudget<'_> {
    type Spent = PasswordAttempt;
    type Refusal = ApiError;

    async fn spend(&self, account: &str) -> ApiResult<PasswordAttempt> {
        password_attempt(self.state, account, &self.ip).await
    }

    async fn refund(&self, spent: PasswordAttempt) {
        spent.refund(self.state).await
    }
}

/// The caller of a signed-in request, as the account flows know it.
pub(super) fn caller(auth: &AuthUser) -> Caller {
    Caller {
        user_id: auth.user_id,
        session_id: auth.session_id,
    }
}

/// The signed-in caller proves it knows the password again before a sensitive change (team
/// billing's): `Accounts::check_password`, refused as a deletion's wrong password is (`400
/// invalid_credentials`: a 401 would make the web app refresh its session and retry).
pub(crate) async fn reconfirm_password(
    state: &AppState,
    auth: &AuthUser,
    ip: std::net::IpAddr,
    password: &str,
) -> ApiResult<closewise_core::store::UserRow> {
    let budget = SigninBudget::new(state, ip);
    state
        .accounts
        .check_password(caller(auth), password, &budget)
        .await??
        .ok_or_else(|| AccountError::WrongPassword.into())
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
    let budget = SigninBudget::new(&state, ip);
    state
        .accounts
        .change_password(caller(&auth), &body.current_password, &password, &budget)
        .await??;
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
    let budget = SigninBudget::new(&state, ip);
    state
        .accounts
        .delete_own(caller(&auth), &body.password, &budget)
        .await??;
    let jar = session::clear_cookie(&state, jar);
    let account = session::account_cookie(&state, None);
    Ok((StatusCode::NO_CONTENT, jar, account).into_response())
}

#[utoipa::path(get, path = "/.well-known/jwks.json", tag = "auth", responses((status = 200, description = "The public keys of access tokens (JWKS)")))]
pub async fn jwks(State(state): State<AppState>) -> impl IntoResponse {
    (
        [(header::CACHE_CONTROL, "public, max-age=300")],
        axum::Json(state.keys.jwks()),
    )
}
