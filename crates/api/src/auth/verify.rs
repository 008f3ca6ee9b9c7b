//! `POST /api/auth/verify`, `POST /api/auth/verify/password` and `POST /api/auth/resend`: the
//! verification link, the password chosen after sign-ups that disagreed, and sending the link again.

use super::common::*;
use super::session::{UserBody, UserResponse};
use crate::error::{ApiError, ApiResult};
use crate::extract::{AppJson, ClientIp};
use crate::ratelimit::Bucket;
use crate::state::AppState;
use axum::extract::State;
use closewise_core::store::tokens::ChoosePasswordSetup;
use closewise_domain::limits::return_path;
use closewise_domain::signup::Confirmation;
use closewise_domain::tokens::EmailTokenKind;
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
    let link = LinkErrors("verification");
    let row = live_email_token(&state, EmailTokenKind::Verification, &body.token, link).await?;
    let now = state.clock.now();
    let (invalid, used) = (|| link.invalid(), || link.used());
    // Made whether or not the sign-ups disagree: the store decides under the user's lock.
    let (password_token, token_row) = new_email_token(EmailTokenKind::Reset, now);
    let choose = ChoosePasswordSetup {
        unusable_hash: state.hasher.unusable_hash()?,
        password_token: token_row,
    };
    let rule = state
        .store
        .consume_verification_token(row.id, row.user_id, &choose, now)
        .await?
        .ok_or_else(used)?;
    let user = state
        .store
        .user_by_id(row.user_id)
        .await?
        .ok_or_else(invalid)?;
    let (status, password_token) = match rule {
        Confirmation::OneClick => (VerifyStatus::Confirmed, None),
        Confirmation::ChoosePassword => (VerifyStatus::ChoosePassword, Some(password_token)),
    };
    Ok(AppJson(VerifyResponse {
        status,
        user: (&user).into(),
        password_token,
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
    let link = LinkErrors("password");
    let row = live_email_token(&state, EmailTokenKind::Reset, &body.password_token, link).await?;
    let hash = state.hasher.hash(password.expose()).await?;
    let now = state.clock.now();
    // A reset without the "password changed" mail: the account had no password anyone knew.
    if !state
        .store
        .reset_password(row.id, row.user_id, &hash, None, now)
        .await?
    {
        return Err(link.used());
    }
    let user = state
        .store
        .user_by_id(row.user_id)
        .await?
        .ok_or_else(|| link.invalid())?;
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
                // The resent link carries no password of its own, so it is no sign-up: it confirms
                // the only sign-up's password, or asks for one when they disagree.
                send_link_next(
                    &state,
                    user.id,
                    email.as_str(),
                    kind,
                    time::Duration::ZERO,
                    None,
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
