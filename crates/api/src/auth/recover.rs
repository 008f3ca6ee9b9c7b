//! `POST /api/auth/recover` and `POST /api/auth/reset`: forgotten passwords
//! (`closewise_core::accounts`).

use super::common::*;
use crate::error::ApiResult;
use crate::extract::{AppJson, ClientIp};
use crate::ratelimit::Bucket;
use crate::state::AppState;
use axum::extract::State;
use closewise_domain::oauth::{DEFAULT_DEVICE_NAME, DEFAULT_PLATFORM};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

use super::passkeys::PasskeyBody;

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

/// What a password reset leaves for the person to review.
#[derive(Serialize, ToSchema)]
#[schema(as = PasswordReset)]
pub struct ResetResponse {
    /// The account's passkeys: a reset removes none, and each still signs in. One the person does
    /// not recognise is removed from Settings → Security after signing in.
    pub passkeys: Vec<PasskeyBody>,
    /// The desktop apps the reset signed out (every session ends).
    pub devices_signed_out: Vec<SignedOutDevice>,
}

/// A desktop app a password reset signed out.
#[derive(Serialize, ToSchema)]
pub struct SignedOutDevice {
    pub name: String,
    pub platform: String,
    #[serde(with = "time::serde::rfc3339::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub last_seen_at: Option<OffsetDateTime>,
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
    responses((status = 200, body = ResetResponse, description = "The password is set and every session ended; the account's passkeys and the desktop apps signed out, to review"), (status = 400, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
#[tracing::instrument(skip_all)]
pub async fn reset(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppJson(body): AppJson<ResetRequest>,
) -> ApiResult<AppJson<ResetResponse>> {
    limit(&state, Bucket::MailPerIp, &ip.to_string()).await?;
    let password = parse_password(&body.password)?;
    let done = state.accounts.reset(&body.token, &password).await?;
    Ok(AppJson(ResetResponse {
        passkeys: done.passkeys.into_iter().map(Into::into).collect(),
        devices_signed_out: done
            .devices_signed_out
            .into_iter()
            .map(|d| SignedOutDevice {
                name: d.device_name.unwrap_or_else(|| DEFAULT_DEVICE_NAME.into()),
                platform: d.platform.unwrap_or_else(|| DEFAULT_PLATFORM.into()),
                last_seen_at: d.last_seen_at,
            })
            .collect(),
    }))
}
