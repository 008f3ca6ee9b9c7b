//! A second factor over HTTP (docs/api.md "Second factor"): its status, enrolling an
//! authenticator app, confirming it (recovery codes shown once), new recovery codes, turning it
//! off. The flows are `closewise_core::mfa`; signing in with a code is the token endpoint's
//! `mfa` grant (`token_endpoint.rs`), step-up `reauth.rs`.

use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::ApiResult;
use crate::extract::{AppJson, AuthUser, ClientIp};
use crate::state::AppState;

#[derive(Serialize, ToSchema)]
#[schema(as = MfaStatus)]
pub struct MfaStatusResponse {
    /// A confirmed authenticator app.
    pub totp: bool,
    /// Unused recovery codes.
    pub recovery_codes_remaining: u32,
    /// Registered passkeys.
    pub passkeys: u32,
    /// A team the user belongs to requires a second factor.
    pub required: bool,
}

#[derive(Serialize, ToSchema)]
#[schema(as = TotpEnrolment)]
pub struct TotpEnrolmentResponse {
    /// The secret, base32 (RFC 4648, no padding), to type into the app.
    pub secret: String,
    /// `otpauth://totp/Closewise:EMAIL?secret=…&issuer=Closewise&algorithm=SHA1&digits=6&period=30`, for the QR code.
    pub otpauth_uri: String,
}

#[derive(Deserialize, ToSchema)]
#[schema(as = MfaCodeBody)]
pub struct CodeRequest {
    /// A 6-digit code from the app (spaces ignored), or where accepted a recovery code
    /// (`xxxxx-xxxxx`, case and dashes ignored).
    #[serde(default)]
    pub code: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = RecoveryCodes)]
pub struct RecoveryCodesResponse {
    /// 10 single-use codes, `xxxxx-xxxxx`: shown this once.
    pub recovery_codes: Vec<String>,
}

#[utoipa::path(get, path = "/api/auth/mfa", tag = "auth",
    responses((status = 200, body = MfaStatusResponse), (status = 401, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn status(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<AppJson<MfaStatusResponse>> {
    let s = state.mfa.status(auth.user_id).await?;
    Ok(AppJson(MfaStatusResponse {
        totp: s.totp,
        recovery_codes_remaining: s.recovery_codes_remaining,
        passkeys: s.passkeys,
        required: s.required,
    }))
}

#[utoipa::path(post, path = "/api/auth/mfa/totp", tag = "auth",
    responses((status = 200, body = TotpEnrolmentResponse, description = "A pending enrolment (it replaces an older pending one); it counts once confirmed"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`reauthentication_required`: the password (and a second factor, when enrolled) was not given on this session in the last 15 minutes"),
        (status = 409, body = crate::error::ErrorBody, description = "`mfa_already_enrolled`: a confirmed app exists")),
    security(("bearer" = [])))]
pub async fn begin_totp(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<AppJson<TotpEnrolmentResponse>> {
    super::reauth::require_recent_password(&state, &auth).await?;
    let e = state.mfa.begin_totp(auth.user_id).await?;
    Ok(AppJson(TotpEnrolmentResponse {
        secret: e.secret,
        otpauth_uri: e.otpauth_uri,
    }))
}

#[utoipa::path(post, path = "/api/auth/mfa/totp/confirm", tag = "auth", request_body = CodeRequest,
    responses((status = 200, body = RecoveryCodesResponse, description = "The app is confirmed; the session counts as having given the factor"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_code`: not the app's current code (a recovery code is not accepted); `invalid_json`"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`reauthentication_required`: the password (and a second factor, when enrolled) was not given on this session in the last 15 minutes"),
        (status = 409, body = crate::error::ErrorBody, description = "`no_pending_enrolment`; `mfa_already_enrolled`: confirmed already")),
    security(("bearer" = [])))]
pub async fn confirm_totp(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<CodeRequest>,
) -> ApiResult<AppJson<RecoveryCodesResponse>> {
    super::reauth::require_recent_password(&state, &auth).await?;
    let recovery_codes = state
        .mfa
        .confirm_totp(auth.user_id, auth.session_id, &body.code)
        .await?;
    Ok(AppJson(RecoveryCodesResponse { recovery_codes }))
}

#[utoipa::path(delete, path = "/api/auth/mfa/totp", tag = "auth", request_body = CodeRequest,
    responses((status = 204, description = "The app and the recovery codes are removed; the account is mailed"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_code`: neither a current app code nor an unused recovery code"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`reauthentication_required`: the password and the factor were not given on this session in the last 15 minutes"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`, `too_many_attempts` (with `Retry-After`): the account's budget of failed checks, the one sign-in spends; spent before the code is checked, even a right one")),
    security(("bearer" = [])))]
pub async fn disable_totp(
    State(state): State<AppState>,
    auth: AuthUser,
    ClientIp(ip): ClientIp,
    AppJson(body): AppJson<CodeRequest>,
) -> ApiResult<StatusCode> {
    super::reauth::require_recent_password(&state, &auth).await?;
    let budget = super::account::SigninBudget::new(&state, ip);
    state
        .mfa
        .disable_totp(auth.user_id, &body.code, &budget)
        .await??;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(post, path = "/api/auth/mfa/recovery-codes", tag = "auth", request_body = CodeRequest,
    responses((status = 200, body = RecoveryCodesResponse, description = "A new set; the old codes no longer work"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_code`: not a current app code"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`reauthentication_required`: the password (and a second factor, when enrolled) was not given on this session in the last 15 minutes"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`, `too_many_attempts` (with `Retry-After`): the account's budget of failed checks, the one sign-in spends; spent before the code is checked, even a right one")),
    security(("bearer" = [])))]
pub async fn regenerate_recovery_codes(
    State(state): State<AppState>,
    auth: AuthUser,
    ClientIp(ip): ClientIp,
    AppJson(body): AppJson<CodeRequest>,
) -> ApiResult<AppJson<RecoveryCodesResponse>> {
    super::reauth::require_recent_password(&state, &auth).await?;
    let budget = super::account::SigninBudget::new(&state, ip);
    let recovery_codes = state
        .mfa
        .regenerate_recovery_codes(auth.user_id, &body.code, &budget)
        .await??;
    Ok(AppJson(RecoveryCodesResponse { recovery_codes }))
}
