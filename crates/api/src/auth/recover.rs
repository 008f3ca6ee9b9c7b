//! `POST /api/auth/recover` and `POST /api/auth/reset`: forgotten passwords.

use super::common::*;
use crate::error::ApiResult;
use crate::extract::{AppJson, ClientIp};
use crate::ratelimit::Bucket;
use crate::state::AppState;
use axum::extract::State;
use closewise_core::mail::Template;
use closewise_domain::tokens::EmailTokenKind;
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
    padded(async {
        if let Some(user) = state.store.user_by_email(email.as_str()).await? {
            let kind = EmailTokenKind::Reset;
            send_link(
                &state,
                user.id,
                email.as_str(),
                kind,
                time::Duration::ZERO,
                None,
            )
            .await?;
        }
        Ok(())
    })
    .await?;
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
    let link = LinkErrors("reset");
    let row = live_email_token(&state, EmailTokenKind::Reset, &body.token, link).await?;
    let now = state.clock.now();
    let (invalid, used) = (|| link.invalid(), || link.used());
    let user = state
        .store
        .user_by_id(row.user_id)
        .await?
        .ok_or_else(invalid)?;
    let hash = state.hasher.hash(password.expose()).await?;
    let mail = state
        .mail
        .compose(&user.email, Template::PasswordChanged, now);
    // Spending the link and changing the password are one transaction, which also ends every
    // session and voids every other reset link.
    if !state
        .store
        .reset_password(row.id, user.id, &hash, Some(&mail), now)
        .await?
    {
        return Err(used());
    }
    Ok(AppJson(EmptyResponse {}))
}
