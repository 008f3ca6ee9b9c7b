//! `POST /api/auth/signup`: answers alike for new and existing addresses; mails a verification link
//! (`closewise_core::accounts`).

use super::common::*;
use crate::error::ApiResult;
use crate::extract::{AppJson, ClientIp};
use crate::ratelimit::Bucket;
use crate::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Deserialize, ToSchema)]
#[schema(as = Credentials)]
pub struct CredentialsRequest {
    pub email: String,
    pub password: String,
}

#[derive(Deserialize, ToSchema)]
#[schema(as = SignupBody)]
pub struct SignupRequest {
    pub email: String,
    #[schema(schema_with = crate::schemas::new_password)]
    pub password: String,
    /// Where to go after verifying and signing in: a path of this site ("/pricing?checkout=…"),
    /// carried in the verification link. Anything else is ignored.
    #[serde(default)]
    pub next: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = SignupAnswer)]
pub struct SignupResponse {
    /// The e-mail as we store it (trimmed, lower case).
    pub email: String,
}

#[utoipa::path(post, path = "/api/auth/signup", tag = "auth", request_body = SignupRequest,
    responses((status = 200, body = SignupResponse, description = "Same answer for new and registered e-mails"),
        (status = 422, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
#[tracing::instrument(skip_all)]
pub async fn signup(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppJson(body): AppJson<SignupRequest>,
) -> ApiResult<AppJson<SignupResponse>> {
    limit(&state, Bucket::MailPerIp, &ip.to_string()).await?;
    let email = parse_email(&body.email)?;
    let password = parse_password(&body.password)?;
    limit(&state, Bucket::MailPerEmail, email.as_str()).await?;
    state
        .accounts
        .sign_up(&email, &password, body.next.as_deref())
        .await?;
    Ok(AppJson(SignupResponse {
        email: email.as_str().to_string(),
    }))
}
