//! `POST /api/auth/recover` and `POST /api/auth/reset`: forgotten passwords
//! (`closewise_core::accounts`).

use super::common::*;
use crate::error::ApiResult;
use crate::extract::{AppJson, ClientIp};
use crate::ratelimit::Bucket;
use crate::state::AppState;
use axum::extract::State;
use serde::Deserialize;
use utoipa::ToSchema;

#[derive(Deserialize, ToSchema)]
#[schema(as = EmailBody)]
pub struct RecoverRequest {
    pub email: String,
}

#[derive(Deserialize, ToSchema)]
#[schema(as = ResetBody)]
pub struct ResetRequest {
    pub token: String,
    #[schema(schema_with = crate::schemas::new_password)]
    pub password: String,
}

#[utoipa::path(post, path = "/api/auth/recover", tag = "auth", request_body = RecoverRequest,
    responses((status = 200, body = EmptyResponse, description = "Same answer for known and unknown e-mails"),
        (status = 422, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
#[tracing::instrument(skip_all)]
pub async fn recover(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppJson(body): AppJson<RecoverRequest>,
) -> ApiResult<AppJson<EmptyResponse>> {
    limit(&state, Bucket::MailPerIp, &ip.to_string()).await?;
    let email = parse_email(&body.email)?;
    limit(&state, Bucket::Recover, email.as_str()).await?;
    state.accounts.recover(&email).await?;
    Ok(AppJson(EmptyResponse {}))
}

#[utoipa::path(post, path = "/api/auth/reset", tag = "auth", request_body = ResetRequest,
    responses((status = 200, body = EmptyResponse), (status = 400, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
#[tracing::instrument(skip_all)]
pub async fn reset(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppJson(body): AppJson<ResetRequest>,
) -> ApiResult<AppJson<EmptyResponse>> {
    limit(&state, Bucket::MailPerIp, &ip.to_string()).await?;
    let password = parse_password(&body.password)?;
    state.accounts.reset(&body.token, &password).await?;
    Ok(AppJson(EmptyResponse {}))
}
