//! `POST /api/auth/signup`: answers alike for new and existing addresses; mails a verification link.

use super::common::*;
use crate::error::ApiResult;
use crate::extract::{AppJson, ClientIp};
use crate::ratelimit::Bucket;
use crate::state::AppState;
use axum::extract::State;
use closewise_core::mail::Template;
use closewise_core::store::users::{NewUser, SignupOutcome};
use closewise_domain::email::Email;
use closewise_domain::limits::return_path;
use closewise_domain::tokens::{EmailTokenKind, RESEND_INTERVAL};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

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
    // Hashed before we know whether the e-mail is taken, so both answers take as long.
    let hash = state.hasher.hash(password.expose()).await?;
    let now = state.clock.now();
    let (token, mut token_row) = new_email_token(EmailTokenKind::Verification, now);
    // The link confirms this sign-up's password, whoever registered the address first, as long
    // as no other sign-up of the address came (closewise_domain::signup).
    token_row.password_hash = Some(hash.clone());
    let next = body.next.as_deref().and_then(return_path);
    let link = state.mail.link_with_next("/verify", &token, next);
    let mail = state
        .mail
        .compose(email.as_str(), Template::Verification { link }, now);
    let user = NewUser {
        id: Uuid::now_v7(),
        email: email.as_str().to_string(),
        password_hash: hash,
        now,
    };
    padded(async {
        let outcome = state
            .store
            .create_user(&user, Uuid::now_v7(), &token_row, &mail)
            .await?;
        if outcome == SignupOutcome::AlreadyRegistered {
            notify_existing(&state, &email, &user.password_hash, next).await?;
        }
        Ok(())
    })
    .await?;
    Ok(AppJson(SignupResponse {
        email: email.as_str().to_string(),
    }))
}

/// Someone signed up with a registered e-mail: its owner gets the verification again (if still
/// unconfirmed) or a notice — at most one a minute, so repeated sign-ups cannot flood an inbox.
pub(super) async fn notify_existing(
    state: &AppState,
    email: &Email,
    password_hash: &str,
    next: Option<&str>,
) -> ApiResult<()> {
    let Some(user) = state.store.user_by_email(email.as_str()).await? else {
        return Ok(());
    };
    if user.email_confirmed_at.is_none() {
        send_link_next(
            state,
            user.id,
            email.as_str(),
            EmailTokenKind::Verification,
            RESEND_INTERVAL,
            Some(password_hash.to_owned()),
            next,
        )
        .await?;
    } else {
        let mail = state.mail.compose(
            email.as_str(),
            Template::AlreadyRegistered,
            state.clock.now(),
        );
        state
            .store
            .mail_user_throttled(user.id, None, &mail, RESEND_INTERVAL)
            .await?;
    }
    Ok(())
}
