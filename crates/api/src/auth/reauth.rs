//! Re-authentication ("sudo mode", docs/security.md): `POST /api/auth/reauthenticate` checks the
//! password and stamps the caller's session; sensitive actions call `require_recent_password`,
//! which asks the core (`closewise_core::reauth`) whether the stamp is recent enough.

use axum::extract::State;
use closewise_core::accounts::StepUpFactor;
use closewise_core::reauth::Reauth;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::extract::{AppJson, AuthUser, ClientIp};
use crate::state::AppState;

/// The re-authentication service of the state's composition root.
pub(crate) fn service(state: &AppState) -> Reauth {
    state.reauth.clone()
}

/// `403 reauthentication_required` unless the password (and, for an account with a second factor,
/// the factor) was given on the caller's session within the window (a password sign-in or `POST /api/auth/reauthenticate`); a refreshed session keeps
/// the time of its last entry, so an access token alone cannot open the window again.
pub(crate) async fn require_recent_password(state: &AppState, auth: &AuthUser) -> ApiResult<()> {
    if recently_stepped_up(state, auth).await? {
        Ok(())
    } else {
        Err(ApiError::reauthentication_required())
    }
}

/// Whether the caller's session stepped up within the window, for a core command that decides
/// itself when it needs that (changing a team's sign-in switches).
pub(crate) async fn recently_stepped_up(state: &AppState, auth: &AuthUser) -> ApiResult<bool> {
    Ok(service(state).is_recent(auth.session_id).await?)
}

#[derive(Deserialize, ToSchema)]
#[schema(as = ReauthenticateBody)]
pub struct ReauthenticateRequest {
    #[serde(default)]
    pub password: String,
    /// The second factor (a 6-digit app code or a recovery code), required when the account has
    /// one, unless `passkey` gives it.
    #[serde(default)]
    pub code: Option<String>,
    /// The second factor as a passkey: the answer to a `step_up` challenge
    /// (`POST /api/auth/passkeys/challenge` with the bearer token). Taken instead of `code`.
    #[serde(default)]
    pub passkey: Option<StepUpPasskey>,
}

/// A passkey's answer to a `step_up` challenge.
#[derive(Deserialize, ToSchema)]
pub struct StepUpPasskey {
    #[serde(default)]
    pub challenge_id: String,
    /// `AuthenticationResponseJSON`: the `toJSON()` of what `navigator.credentials.get()` answered.
    #[schema(value_type = Object)]
    #[serde(default)]
    pub credential: serde_json::Value,
}

#[derive(Serialize, ToSchema)]
#[schema(as = Reauthenticated)]
pub struct ReauthenticateResponse {
    /// Until when this session may take sensitive actions without entering the password again.
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub reauthenticated_until: OffsetDateTime,
}

#[utoipa::path(post, path = "/api/auth/reauthenticate", tag = "auth", request_body = ReauthenticateRequest,
    responses((status = 200, body = ReauthenticateResponse),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_json`; `invalid_passkey`: the passkey answer does not verify (another account's passkey, another challenge; counts as a failed sign-in); `challenge_expired`"),
        (status = 401, body = crate::error::ErrorBody, description = "`invalid_credentials`: the password is wrong (counts as a failed sign-in); `mfa_required`: the account has a second factor and neither `code` nor `passkey` came (`methods` in the error, no `mfa_token`); `invalid_code`: the code is wrong (counts as a failed sign-in); `invalid_token`, `not_signed_in`"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`, `too_many_attempts`: the same budgets as sign-in")),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all)]
pub async fn reauthenticate(
    State(state): State<AppState>,
    auth: AuthUser,
    ClientIp(ip): ClientIp,
    AppJson(body): AppJson<ReauthenticateRequest>,
) -> ApiResult<AppJson<ReauthenticateResponse>> {
    let budget = super::account::SigninBudget::new(&state, ip);
    let factor = match body.passkey {
        Some(p) => Some(StepUpFactor::Passkey {
            challenge_id: p.challenge_id,
            credential: p.credential,
        }),
        None => body.code.as_deref().map(StepUpFactor::Code),
    };
    let until = state
        .accounts
        .reauthenticate(
            super::account::caller(&auth),
            &body.password,
            factor,
            &budget,
        )
        .await??;
    Ok(AppJson(ReauthenticateResponse {
        reauthenticated_until: until,
    }))
}
