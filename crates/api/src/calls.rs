//! `POST /api/calls`, `/api/calls/{id}/heartbeat` and `/api/calls/{id}/end`: the desktop app's
//! calls, metered by the Free Trial (`closewise_core::usage`).

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use crate::error::{ApiError, ApiResult};
use crate::extract::{AppJson, AuthUser};
use crate::ratelimit::Bucket;
use crate::state::AppState;
use closewise_core::store::CallRow;
use closewise_core::usage::UsageError;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(start))
        .routes(routes!(heartbeat))
        .routes(routes!(end))
}

#[derive(Deserialize, ToSchema)]
#[schema(as = StartCallBody)]
pub struct StartCallRequest {
    /// The client's id for the call, 1–64 of `[A-Za-z0-9_-]`: the same id again is the same call.
    pub client_call_id: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = CallStartedBody)]
pub struct CallStartedResponse {
    pub call_id: Uuid,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub started_at: OffsetDateTime,
    /// 300 for a free call, null for a paid one.
    pub max_seconds: Option<u32>,
}

/// A heartbeat's optional body.
#[derive(Deserialize, ToSchema)]
#[schema(as = HeartbeatRequestBody)]
pub struct HeartbeatRequest {
    /// The `policy_version` of the entitlement token the app obeys (64 hex digits), recorded for
    /// the call and the device: `/team` counts the devices on the current policy.
    #[serde(default)]
    pub policy_version: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = CallHeartbeatBody)]
pub struct HeartbeatResponse {
    pub call_id: Uuid,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub started_at: OffsetDateTime,
    pub elapsed_seconds: i64,
    pub max_seconds: Option<u32>,
    /// Always null: an ended call answers 409.
    #[serde(with = "time::serde::rfc3339::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub ended_at: Option<OffsetDateTime>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = CallEndedBody)]
pub struct EndResponse {
    pub call_id: Uuid,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub started_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub ended_at: OffsetDateTime,
    /// Capped at the call's `max_seconds`.
    pub duration_seconds: i64,
}

fn started(call: &CallRow) -> CallStartedResponse {
    CallStartedResponse {
        call_id: call.id,
        started_at: call.started_at,
        max_seconds: call.max_seconds(),
    }
}

#[utoipa::path(post, path = "/api/calls", tag = "usage", request_body = StartCallRequest,
    responses(
        (status = 201, body = CallStartedResponse, description = "Started"),
        (status = 200, body = CallStartedResponse, description = "Started before with this client_call_id"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_client_call_id`"),
        (status = 403, body = crate::error::ErrorBody, description = "`free_calls_used_up`"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`: more than 60 calls started in an hour"),
    ),
    security(("bearer" = [])))]
pub async fn start(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<StartCallRequest>,
) -> ApiResult<(StatusCode, AppJson<CallStartedResponse>)> {
    crate::auth::limit(&state, Bucket::CallStartPerUser, &auth.user_id.to_string()).await?;
    let outcome = state
        .usage
        .start_call(auth.user_id, Some(auth.session_id), &body.client_call_id)
        .await?;
    let status = if outcome.created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, AppJson(started(&outcome.call))))
}

#[utoipa::path(post, path = "/api/calls/{id}/heartbeat", tag = "usage",
    request_body = Option<HeartbeatRequest>,
    params(("id" = Uuid, Path, description = "The call's id")),
    responses(
        (status = 200, body = HeartbeatResponse),
        (status = 404, body = crate::error::ErrorBody, description = "`call_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`call_time_limit_reached` (5 minutes free, 4 hours paid), `plan_lapsed` (a paid call whose plan ended) or `call_ended`"),
    ),
    security(("bearer" = [])))]
pub async fn heartbeat(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<String>,
    raw: Bytes,
) -> ApiResult<AppJson<HeartbeatResponse>> {
    let body: Option<HeartbeatRequest> = if raw.iter().all(u8::is_ascii_whitespace) {
        None
    } else {
        Some(crate::extract::json_object(&raw)?)
    };
    let version = body.and_then(|b| b.policy_version);
    let alive = state
        .usage
        .heartbeat(
            auth.user_id,
            Some(auth.session_id),
            call_id(&id)?,
            version.as_deref(),
        )
        .await?;
    Ok(AppJson(HeartbeatResponse {
        call_id: alive.call.id,
        started_at: alive.call.started_at,
        elapsed_seconds: alive.elapsed_seconds,
        max_seconds: alive.call.max_seconds(),
        ended_at: None,
    }))
}

#[utoipa::path(post, path = "/api/calls/{id}/end", tag = "usage",
    params(("id" = Uuid, Path, description = "The call's id")),
    responses(
        (status = 200, body = EndResponse),
        (status = 404, body = crate::error::ErrorBody, description = "`call_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn end(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<AppJson<EndResponse>> {
    let call = state.usage.end_call(auth.user_id, call_id(&id)?).await?;
    let ended_at = call.ended_at.unwrap_or(call.started_at);
    Ok(AppJson(EndResponse {
        call_id: call.id,
        started_at: call.started_at,
        ended_at,
        duration_seconds: call
            .duration_seconds
            .map(i64::from)
            .unwrap_or_else(|| (ended_at - call.started_at).whole_seconds()),
    }))
}

/// An id that is not a UUID names no call: the same 404 as another user's.
fn call_id(raw: &str) -> ApiResult<Uuid> {
    Uuid::parse_str(raw).map_err(|_| ApiError::from(UsageError::CallNotFound))
}
