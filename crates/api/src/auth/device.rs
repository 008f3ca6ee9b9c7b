//! Device sign-in (RFC 8628): the app asks for a request (`POST /api/auth/device`), the signed-in
//! user looks its code up on `/activate` and approves or denies it; the app's poll of the token
//! endpoint (`grants.rs`) then gets the session. Guessing codes is limited per user and per IP.

use std::net::IpAddr;

use axum::extract::State;
use closewise_core::sessions::desktop::{CodeBudget, DeviceRequest as CoreDeviceRequest};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

use super::common::limit;
use crate::error::{ApiError, ApiResult};
use crate::extract::{AppJson, AuthUser, ClientIp};
use crate::ratelimit::Bucket;
use crate::state::AppState;

/// A missing field is refused like an empty one, with its own code.
#[derive(Deserialize, ToSchema)]
#[schema(as = DeviceRequestBody)]
pub struct DeviceRequest {
    #[serde(default)]
    pub client_id: String,
    /// 1–100 characters, shown to the user and kept on the session; no control, format (bidi,
    /// zero-width), line or paragraph separator characters (variation selectors are fine).
    #[serde(default)]
    pub device_name: String,
    /// 1–40 characters, the same characters as `device_name`.
    #[serde(default)]
    pub platform: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = DeviceAuthorization)]
pub struct DeviceResponse {
    pub device_code: String,
    /// Shown as `WDJB-MJHT`.
    pub user_code: String,
    pub verification_uri: String,
    pub verification_uri_complete: String,
    pub expires_in: i64,
    pub interval: i64,
}

#[utoipa::path(post, path = "/api/auth/device", tag = "auth", request_body = DeviceRequest,
    responses((status = 200, body = DeviceResponse),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_client`, `invalid_device_name` (also for hidden or direction-changing characters in the platform), `invalid_platform`"),
        (status = 429, body = crate::error::ErrorBody),
        (status = 503, body = crate::error::ErrorBody, description = "`too_many_device_requests`, with `Retry-After`: too many requests wait for a decision, all clients together")))]
pub async fn request_device(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppJson(body): AppJson<DeviceRequest>,
) -> ApiResult<AppJson<DeviceResponse>> {
    limit(&state, Bucket::DevicePerIp, &ip.to_string()).await?;
    let request = CoreDeviceRequest {
        client_id: &body.client_id,
        device_name: &body.device_name,
        platform: &body.platform,
    };
    let grant = state.desktop.request_device(&request, ip).await?;
    let verification_uri = format!("{}/activate", state.settings.base_url);
    let user_code = grant.user_code.display();
    Ok(AppJson(DeviceResponse {
        device_code: grant.device_code,
        verification_uri_complete: format!("{verification_uri}?user_code={user_code}"),
        verification_uri,
        user_code,
        expires_in: grant.expires_in,
        interval: grant.interval,
    }))
}

#[derive(Deserialize, ToSchema)]
#[schema(as = UserCodeBody)]
pub struct UserCodeRequest {
    /// As typed: case, dashes and spaces do not matter.
    pub user_code: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = PendingDevice)]
pub struct LookupResponse {
    pub user_code: String,
    /// Chosen by the device that asked: anyone can name a request anything.
    pub device_name: String,
    pub platform: String,
    /// The address the request came from (as this server sees it); null for requests older than
    /// the record of addresses.
    pub requested_from: Option<String>,
    /// Whether `requested_from` is on the caller's network (same IPv4 /24 or IPv6 /64); false
    /// when unknown. The page warns when it is not.
    pub same_network: bool,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub requested_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub expires_at: OffsetDateTime,
    #[schema(schema_with = crate::schemas::device_pending)]
    pub status: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = DeviceDecision)]
pub struct DecisionResponse {
    #[schema(schema_with = crate::schemas::device_decision)]
    pub status: String,
}

/// Every use of a user code counts, right or wrong: per user and per client address.
struct CodeAttempts<'a> {
    state: &'a AppState,
    user_id: String,
    ip: String,
}

impl<'a> CodeAttempts<'a> {
    fn new(state: &'a AppState, auth: &AuthUser, ip: IpAddr) -> Self {
        CodeAttempts {
            state,
            user_id: auth.user_id.to_string(),
            ip: ip.to_string(),
        }
    }
}

impl CodeBudget for CodeAttempts<'_> {
    type Refusal = ApiError;

    async fn spend(&self) -> ApiResult<()> {
        limit(self.state, Bucket::UserCodePerUser, &self.user_id).await?;
        limit(self.state, Bucket::UserCodePerIp, &self.ip).await
    }
}

#[utoipa::path(post, path = "/api/auth/device/lookup", operation_id = "lookup_device_code", tag = "auth", request_body = UserCodeRequest,
    responses((status = 200, body = LookupResponse),
        (status = 400, body = crate::error::ErrorBody, description = "`expired_user_code`"),
        (status = 403, body = crate::error::ErrorBody, description = "`email_not_confirmed`"),
        (status = 404, body = crate::error::ErrorBody, description = "`invalid_user_code`"),
        (status = 409, body = crate::error::ErrorBody, description = "`user_code_used`"),
        (status = 429, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn lookup(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    auth: AuthUser,
    AppJson(body): AppJson<UserCodeRequest>,
) -> ApiResult<AppJson<LookupResponse>> {
    let budget = CodeAttempts::new(&state, &auth, ip);
    let d = state
        .desktop
        .lookup(auth.user_id, &body.user_code, ip, &budget)
        .await??;
    Ok(AppJson(LookupResponse {
        user_code: d.user_code.display(),
        device_name: d.device_name,
        platform: d.platform,
        requested_from: d.requested_ip.map(|r| r.to_string()),
        same_network: d.same_network,
        requested_at: d.requested_at,
        expires_at: d.expires_at,
        status: "pending".into(),
    }))
}

async fn decide(
    state: AppState,
    ip: IpAddr,
    auth: AuthUser,
    body: UserCodeRequest,
    approve: bool,
) -> ApiResult<AppJson<DecisionResponse>> {
    let budget = CodeAttempts::new(&state, &auth, ip);
    (state.desktop)
        .decide_by(&auth, &body.user_code, approve, &budget)
        .await??;
    let status = if approve { "approved" } else { "denied" };
    Ok(AppJson(DecisionResponse {
        status: status.into(),
    }))
}

#[utoipa::path(post, path = "/api/auth/device/approve", operation_id = "approve_device", tag = "auth", request_body = UserCodeRequest,
    responses((status = 200, body = DecisionResponse),
        (status = 400, body = crate::error::ErrorBody, description = "`expired_user_code`"),
        (status = 403, body = crate::error::ErrorBody, description = "`reauthentication_required`: the password (and a second factor, when enrolled) was not given on this session in the last 15 minutes; `mfa_setup_required`: approving, the caller lacks the second factor a team of theirs requires; `sso_required`: the caller's address signs in by single sign-on (Require SSO) and this session was not started by it; `email_not_confirmed`"),
        (status = 404, body = crate::error::ErrorBody, description = "`invalid_user_code`"),
        (status = 409, body = crate::error::ErrorBody, description = "`user_code_used`"),
        (status = 429, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn approve(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    auth: AuthUser,
    AppJson(body): AppJson<UserCodeRequest>,
) -> ApiResult<AppJson<DecisionResponse>> {
    decide(state, ip, auth, body, true).await
}

#[utoipa::path(post, path = "/api/auth/device/deny", operation_id = "deny_device", tag = "auth", request_body = UserCodeRequest,
    responses((status = 200, body = DecisionResponse),
        (status = 400, body = crate::error::ErrorBody, description = "`expired_user_code`"),
        (status = 403, body = crate::error::ErrorBody, description = "`email_not_confirmed`"),
        (status = 404, body = crate::error::ErrorBody, description = "`invalid_user_code`"),
        (status = 409, body = crate::error::ErrorBody, description = "`user_code_used`"),
        (status = 429, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn deny(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    auth: AuthUser,
    AppJson(body): AppJson<UserCodeRequest>,
) -> ApiResult<AppJson<DecisionResponse>> {
    decide(state, ip, auth, body, false).await
}
