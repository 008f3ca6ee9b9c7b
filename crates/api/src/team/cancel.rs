//! `POST /api/team/billing/cancel` and `POST /api/team/billing/resume`: whoever may manage the
//! team's billing (the owner) sets the team's subscription to end at its period's end, with an
//! optional reason, or takes that back. One command of `closewise_core::teams::billing` each.

use axum::body::Bytes;
use axum::extract::State;
use closewise_core::billing::cancel::Cancellation;

use super::{team_response, TeamResponse};
use crate::billing::cancel::{cancellation, CancelRequest};
use crate::billing::interval::member;
use crate::error::ApiResult;
use crate::extract::{AppJson, AuthUser};
use crate::state::AppState;

#[utoipa::path(post, path = "/api/team/billing/cancel", tag = "teams", request_body = Option<CancelRequest>,
    operation_id = "cancel_team_plan",
    responses(
        (status = 200, body = TeamResponse, description = "The team's subscription is set to end at the period's end, with the reason given"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_reason`"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`: billing is the owner's"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`nothing_to_cancel`, `already_cancelling`, `period_over`"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`"),
        (status = 502, body = crate::error::ErrorBody, description = "`stripe_unavailable`"),
    ),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user_id = %auth.user_id))]
pub async fn cancel(
    State(state): State<AppState>,
    auth: AuthUser,
    raw: Bytes,
) -> ApiResult<AppJson<TeamResponse>> {
    let step = cancellation(&raw)?;
    state
        .billing
        .cancel_team_plan(&member(&auth), None, step)
        .await?;
    Ok(AppJson(team_response(&state, auth.user_id).await?))
}

#[utoipa::path(post, path = "/api/team/billing/resume", tag = "teams",
    operation_id = "resume_team_plan",
    responses(
        (status = 200, body = TeamResponse, description = "The team's subscription renews again; the reason is cleared"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`: billing is the owner's"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`nothing_to_resume`, `period_over`"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`"),
        (status = 502, body = crate::error::ErrorBody, description = "`stripe_unavailable`"),
    ),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user_id = %auth.user_id))]
pub async fn resume(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<AppJson<TeamResponse>> {
    state
        .billing
        .cancel_team_plan(&member(&auth), None, Cancellation::Resume)
        .await?;
    Ok(AppJson(team_response(&state, auth.user_id).await?))
}
