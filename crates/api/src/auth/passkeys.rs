//! Passkeys over HTTP: registration options and finish, the list, removal (step-up),
//! the sign-in challenge, and the passkey grant of `POST /api/auth/token`. Verification, the
//! challenges and the mails are `closewise_core::passkeys`'.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum_extra::extract::CookieJar;
use closewise_core::passkeys::mfa_token::{mfa_token_account, MfaClient};
use closewise_core::passkeys::{ChallengeOptions, PasskeyError, Passkeys, Purpose};
use closewise_core::store::passkeys::PasskeyRow;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;
use uuid::Uuid;

use super::common::limit;
use super::session::{self, Caller};
use crate::error::ApiResult;
use crate::extract::{user_agent, AppJson, AuthUser, ClientIp};
use crate::ratelimit::Bucket;
use crate::state::AppState;

fn service(state: &AppState) -> &Passkeys {
    &state.passkeys
}

#[derive(Deserialize, ToSchema)]
#[schema(as = PasskeyRegistrationRequest)]
pub struct RegistrationRequest {
    /// What the user calls this passkey ("MacBook", "Phone"): 1–64 characters.
    #[serde(default)]
    pub name: String,
}

/// A challenge and the options that carry it, for `navigator.credentials.create()` / `.get()`
/// after `PublicKeyCredential.parseCreationOptionsFromJSON` / `parseRequestOptionsFromJSON`.
#[derive(Serialize, ToSchema)]
#[schema(as = PasskeyChallenge)]
pub struct ChallengeResponse {
    /// Sent back with the browser's answer; single use, valid 5 minutes.
    pub challenge_id: Uuid,
    /// `PublicKeyCredentialCreationOptionsJSON` or `PublicKeyCredentialRequestOptionsJSON`
    /// (WebAuthn Level 3; binary fields base64url).
    #[schema(value_type = Object)]
    pub options: serde_json::Value,
}

impl From<ChallengeOptions> for ChallengeResponse {
    fn from(c: ChallengeOptions) -> Self {
        ChallengeResponse {
            challenge_id: c.challenge_id,
            options: c.options,
        }
    }
}

#[derive(Deserialize, ToSchema)]
#[schema(as = PasskeyCreateRequest)]
pub struct CreateRequest {
    #[serde(default)]
    pub challenge_id: String,
    #[serde(default)]
    pub name: String,
    /// `RegistrationResponseJSON`: the `toJSON()` of what `navigator.credentials.create()` answered.
    #[schema(value_type = Object)]
    #[serde(default)]
    pub credential: serde_json::Value,
}

#[derive(Serialize, ToSchema)]
#[schema(as = Passkey)]
pub struct PasskeyBody {
    pub id: Uuid,
    pub name: String,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub last_used_at: Option<OffsetDateTime>,
}

impl From<PasskeyRow> for PasskeyBody {
    fn from(p: PasskeyRow) -> Self {
        PasskeyBody {
            id: p.id,
            name: p.name,
            created_at: p.created_at,
            last_used_at: p.last_used_at,
        }
    }
}

#[derive(Serialize, ToSchema)]
#[schema(as = PasskeyList)]
pub struct ListResponse {
    pub passkeys: Vec<PasskeyBody>,
}

#[derive(Deserialize, ToSchema, Default)]
#[schema(as = PasskeyChallengeRequest)]
pub struct SignInChallengeRequest {
    /// The `mfa_token` of a password sign-in that asked for a second factor: the options then
    /// list that account's passkeys. Without it: a discoverable sign-in (empty allowCredentials).
    #[serde(default)]
    pub mfa_token: Option<String>,
}

/// `{challenge_id, credential, mfa_token?}` for `grant_type=passkey`.
#[derive(Deserialize, ToSchema)]
#[schema(as = PasskeyGrantBody)]
pub struct PasskeyGrantRequest {
    #[serde(default)]
    pub challenge_id: String,
    /// `AuthenticationResponseJSON`: the `toJSON()` of what `navigator.credentials.get()` answered.
    #[schema(value_type = Object)]
    #[serde(default)]
    pub credential: serde_json::Value,
    /// With it, the passkey is the second factor of that password sign-in and must be its account's.
    /// Without it, the passkey stands alone: its answer must show user verification (the UV flag),
    /// else `invalid_passkey`.
    #[serde(default)]
    pub mfa_token: Option<String>,
}

#[utoipa::path(post, path = "/api/auth/passkeys/registration", tag = "passkeys", request_body = RegistrationRequest,
    responses((status = 200, body = ChallengeResponse, description = "Creation options: resident key required, user verification required (a passkey may sign in without the password), the user's passkeys excluded"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_passkey_name`, `invalid_json`"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`reauthentication_required`: the password (and a second factor, when enrolled) was not given on this session in the last 15 minutes")),
    security(("bearer" = [])))]
pub async fn registration_options(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<RegistrationRequest>,
) -> ApiResult<AppJson<ChallengeResponse>> {
    super::reauth::require_recent_password(&state, &auth).await?;
    let options = service(&state)
        .registration_options(auth.user_id, &body.name)
        .await?;
    Ok(AppJson(options.into()))
}

#[utoipa::path(post, path = "/api/auth/passkeys", tag = "passkeys", request_body = CreateRequest,
    responses((status = 201, body = PasskeyBody, description = "Registered; the account is mailed; this session counts as having given the factor"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_passkey`: a response that does not verify (another challenge or origin, malformed, registered already, without user verification); `challenge_expired`; `invalid_passkey_name`; `invalid_json`"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`reauthentication_required`: the password (and a second factor, when enrolled) was not given on this session in the last 15 minutes")),
    security(("bearer" = [])))]
pub async fn create(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<CreateRequest>,
) -> ApiResult<(StatusCode, AppJson<PasskeyBody>)> {
    super::reauth::require_recent_password(&state, &auth).await?;
    let row = service(&state)
        .register(
            auth.user_id,
            auth.session_id,
            &body.challenge_id,
            &body.name,
            body.credential,
        )
        .await?;
    Ok((StatusCode::CREATED, AppJson(row.into())))
}

#[utoipa::path(get, path = "/api/auth/passkeys", tag = "passkeys",
    responses((status = 200, body = ListResponse), (status = 401, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn list(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<AppJson<ListResponse>> {
    let passkeys = service(&state).list(auth.user_id).await?;
    Ok(AppJson(ListResponse {
        passkeys: passkeys.into_iter().map(Into::into).collect(),
    }))
}

#[utoipa::path(delete, path = "/api/auth/passkeys/{id}", tag = "passkeys",
    params(("id" = String, Path, description = "The passkey's id")),
    responses((status = 204, description = "Removed; the account is mailed"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`reauthentication_required`: sign in or re-authenticate within 15 minutes first"),
        (status = 404, body = crate::error::ErrorBody, description = "`passkey_not_found`")),
    security(("bearer" = [])))]
pub async fn remove(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    super::reauth::require_recent_password(&state, &auth).await?;
    // A malformed id names no passkey: the same 404 as another user's.
    let id = Uuid::parse_str(&id).map_err(|_| PasskeyError::NotFound)?;
    service(&state).remove(auth.user_id, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(post, path = "/api/auth/passkeys/challenge", tag = "passkeys", request_body = Option<SignInChallengeRequest>,
    responses((status = 200, body = ChallengeResponse, description = "Request options. With `mfa_token`: the second factor of that sign-in (its account's passkeys). Else with the bearer token: a `step_up` challenge for `POST /api/auth/reauthenticate`'s `passkey` (the caller's passkeys). Else: a discoverable sign-in, user verification required (else preferred)"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_json`"),
        (status = 401, body = crate::error::ErrorBody, description = "`invalid_mfa_token`; `invalid_token` (a bearer token that is not valid)"),
        (status = 429, body = crate::error::ErrorBody)),
    security((), ("bearer" = [])))]
pub async fn sign_in_challenge(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<AppJson<ChallengeResponse>> {
    limit(&state, Bucket::TokenPerIp, &ip.to_string()).await?;
    let caller = session::caller(&state, &headers)?;
    let req: SignInChallengeRequest = if body.iter().all(u8::is_ascii_whitespace) {
        SignInChallengeRequest::default()
    } else {
        crate::extract::json_object(&body)?
    };
    let (purpose, user) = match req.mfa_token.as_deref().filter(|t| !t.is_empty()) {
        Some(token) => {
            let ip = ip.to_string();
            let client = mfa_client(caller, &ip);
            let user = mfa_token_account(&state.mfa, token, &client).await?;
            (Purpose::SignIn, Some(user))
        }
        None => match crate::extract::optional_user(&state, &headers).await? {
            Some(auth) => (Purpose::StepUp, Some(auth.user_id)),
            None => (Purpose::SignIn, None),
        },
    };
    let options = service(&state).request_options(purpose, user).await?;
    Ok(AppJson(options.into()))
}

/// The `mfa_token`'s client as the token is bound to it: our pages or a native client, and the
/// address.
fn mfa_client(caller: Caller, ip: &str) -> MfaClient<'_> {
    MfaClient {
        site: caller == Caller::Site,
        ip,
    }
}

/// `grant_type=passkey`: the session a password sign-in answers (cookie for our pages, body for
/// native clients).
pub(super) async fn passkey_grant(
    state: &AppState,
    ip: &str,
    headers: &HeaderMap,
    jar: CookieJar,
    caller: Caller,
    req: PasskeyGrantRequest,
) -> ApiResult<Response> {
    let client = mfa_client(caller, ip);
    let mfa_token = req.mfa_token.as_deref().filter(|t| !t.is_empty());
    let user_id = service(state)
        .sign_in_answer(
            &state.mfa,
            &req.challenge_id,
            req.credential,
            mfa_token,
            &client,
        )
        .await?;
    let ua = user_agent(headers);
    let session = state
        .sessions
        .passkey_sign_in(user_id, ua.as_deref(), Some(ip))
        .await?;
    let body = session::session_body(state, session)?;
    Ok(session::respond(state, jar, caller, body))
}
