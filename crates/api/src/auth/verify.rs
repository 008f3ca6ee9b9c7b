//! `POST /api/auth/verify`, `POST /api/auth/verify/password` and `POST /api/auth/resend`: the
//! verification link, the password chosen after sign-ups that disagreed, and sending the link again.

use super::common::*;
use super::session::{UserBody, UserResponse};
use crate::error::{ApiError, ApiResult};
use crate::extract::{AppJson, ClientIp};
use crate::ratelimit::Bucket;
use crate::state::AppState;
use axum::extract::State;
use closewise_domain::signup::Confirmation;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Deserialize, ToSchema)]
#[schema(as = TokenBody)]
pub struct VerifyRequest {
    pub token: String,
}

#[derive(Deserialize, ToSchema)]
#[schema(as = ResendBody)]
pub struct ResendRequest {
    pub email: String,
    /// Only `signup`.
    #[serde(rename = "type")]
    pub kind: String,
    /// As sign-up's `next`: a path of this site carried in the link; anything else is ignored.
    #[serde(default)]
    pub next: Option<String>,
}

/// What the verification link did.
#[derive(Serialize, ToSchema, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum VerifyStatus {
    /// The address is confirmed and the password chosen at sign-up is the account's.
    Confirmed,
    /// The address is confirmed, but it was signed up for more than once and no pending password
    /// became the account's: the clicker chooses one with `POST /api/auth/verify/password`.
    ChoosePassword,
}

#[derive(Serialize, ToSchema)]
#[schema(as = VerifyAnswer)]
pub struct VerifyResponse {
    pub status: VerifyStatus,
    pub user: UserBody,
    /// With `choose_password` only: the single-use token of the password step (1 hour).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub password_token: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[schema(as = ChoosePasswordBody)]
pub struct ChoosePasswordRequest {
    pub password_token: String,
    #[schema(schema_with = crate::schemas::new_password)]
    pub password: String,
}

#[utoipa::path(post, path = "/api/auth/verify", tag = "auth", request_body = VerifyRequest,
    responses((status = 200, body = VerifyResponse, description = "Confirmed; `choose_password` when the address's sign-ups disagree"),
        (status = 400, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
#[tracing::instrument(skip_all)]
pub async fn verify(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppJson(body): AppJson<VerifyRequest>,
) -> ApiResult<AppJson<VerifyResponse>> {
    limit(&state, Bucket::MailPerIp, &ip.to_string()).await?;
    let verified = state.accounts.verify(&body.token).await?;
    let status = match verified.confirmation {
        Confirmation::OneClick => VerifyStatus::Confirmed,
        Confirmation::ChoosePassword => VerifyStatus::ChoosePassword,
    };
    Ok(AppJson(VerifyResponse {
        status,
        user: (&verified.user).into(),
        password_token: verified.password_token,
    }))
}

#[utoipa::path(post, path = "/api/auth/verify/password", tag = "auth", request_body = ChoosePasswordRequest,
    responses((status = 200, body = UserResponse), (status = 400, body = crate::error::ErrorBody),
        (status = 422, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
#[tracing::instrument(skip_all)]
pub async fn choose_password(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppJson(body): AppJson<ChoosePasswordRequest>,
) -> ApiResult<AppJson<UserResponse>> {
    limit(&state, Bucket::MailPerIp, &ip.to_string()).await?;
    let password = parse_password(&body.password)?;
    let user = state
        .accounts
        .choose_password(&body.password_token, &password)
        .await?;
    Ok(AppJson(UserResponse {
        user: (&user).into(),
    }))
}

#[utoipa::path(post, path = "/api/auth/resend", operation_id = "resend_verification", tag = "auth", request_body = ResendRequest,
    responses((status = 200, body = EmptyResponse, description = "Same answer for known and unknown e-mails"),
        (status = 422, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
#[tracing::instrument(skip_all)]
pub async fn resend(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppJson(body): AppJson<ResendRequest>,
) -> ApiResult<AppJson<EmptyResponse>> {
    limit(&state, Bucket::MailPerIp, &ip.to_string()).await?;
    if body.kind != "signup" {
        return Err(ApiError::invalid_resend_type());
    }
    let email = parse_email(&body.email)?;
    limit(&state, Bucket::Resend, email.as_str()).await?;
    state.accounts.resend(&email, body.next.as_deref()).await?;
    Ok(AppJson(EmptyResponse {}))
}
