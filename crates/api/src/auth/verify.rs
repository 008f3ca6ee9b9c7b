//! `POST /api/auth/verify` and `POST /api/auth/resend`: the verification link and sending it again.

use super::common::*;
use super::session::UserResponse;
use crate::error::{ApiError, ApiResult};
use crate::extract::{AppJson, ClientIp};
use crate::ratelimit::Bucket;
use crate::state::AppState;
use axum::extract::State;
use closewise_domain::limits::return_path;
use closewise_domain::tokens::EmailTokenKind;
use serde::Deserialize;
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

#[utoipa::path(post, path = "/api/auth/verify", tag = "auth", request_body = VerifyRequest,
    responses((status = 200, body = UserResponse), (status = 400, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
#[tracing::instrument(skip_all)]
pub async fn verify(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppJson(body): AppJson<VerifyRequest>,
) -> ApiResult<AppJson<UserResponse>> {
    limit(&state, Bucket::MailPerIp, &ip.to_string()).await?;
    let link = LinkErrors("verification");
    let row = live_email_token(&state, EmailTokenKind::Verification, &body.token, link).await?;
    let now = state.clock.now();
    let (invalid, used) = (|| link.invalid(), || link.used());
    if !state
        .store
        .consume_verification_token(row.id, row.user_id, now)
        .await?
    {
        return Err(used());
    }
    let user = state
        .store
        .user_by_id(row.user_id)
        .await?
        .ok_or_else(invalid)?;
    Ok(AppJson(UserResponse {
        user: (&user).into(),
    }))
}

#[utoipa::path(post, path = "/api/auth/resend", tag = "auth", request_body = ResendRequest,
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
        return Err(ApiError::unprocessable(
            "invalid_type",
            "type must be \"signup\"",
        ));
    }
    let email = parse_email(&body.email)?;
    limit(&state, Bucket::Resend, email.as_str()).await?;
    padded(async {
        if let Some(user) = state.store.user_by_email(email.as_str()).await? {
            if user.email_confirmed_at.is_none() {
                let kind = EmailTokenKind::Verification;
                // The resent link confirms the newest sign-up's password, as its own link would.
                let password = state.store.pending_signup_password(user.id).await?;
                send_link_next(
                    &state,
                    user.id,
                    email.as_str(),
                    kind,
                    time::Duration::ZERO,
                    password,
                    body.next.as_deref().and_then(return_path),
                )
                .await?;
            }
        }
        Ok(())
    })
    .await?;
    Ok(AppJson(EmptyResponse {}))
}
