//! `GET /api/team/billing/interval/preview` and `PUT /api/team/billing/interval`: the team's
//! owner switches the team's subscription between monthly and yearly, as seats change (a preview
//! first, its proration date sent back). One command of `closewise_core::teams::billing` each.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};

use super::{team_response, TeamResponse};
use crate::billing::interval::{
    interval, member, IntervalPreviewResponse, IntervalQuery, IntervalRequest,
};
use crate::error::ApiResult;
use crate::extract::{AppJson, AuthUser};
use crate::state::AppState;

#[utoipa::path(get, path = "/api/team/billing/interval/preview", tag = "teams", params(IntervalQuery),
    operation_id = "preview_team_interval",
    responses(
        (status = 200, body = IntervalPreviewResponse, description = "What the switch would cost, from Stripe's invoice preview"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_interval`"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`: billing is the owner's"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`no_team_subscription`, `subscription_ending`, `same_interval`"),
        (status = 502, body = crate::error::ErrorBody, description = "`stripe_unavailable`"),
    ),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user_id = %auth.user_id))]
pub async fn preview(
    State(state): State<AppState>,
    auth: AuthUser,
    query: Result<Query<IntervalQuery>, QueryRejection>,
) -> ApiResult<AppJson<IntervalPreviewResponse>> {
    let Query(query) = query?;
    let to = interval(&query.interval)?;
    let preview = state
        .billing
        .preview_team_interval(&member(&auth), None, to, state.settings.stripe.prices())
        .await?;
    Ok(AppJson(preview.into()))
}

#[utoipa::path(put, path = "/api/team/billing/interval", tag = "teams", request_body = IntervalRequest,
    operation_id = "change_team_interval",
    responses(
        (status = 200, body = TeamResponse, description = "Switched at Stripe: the new period was invoiced at once, the unused time credited"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_interval`, `invalid_proration_date`"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`: billing is the owner's"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`no_team_subscription`, `subscription_ending`, `same_interval`"),
        (status = 502, body = crate::error::ErrorBody, description = "`stripe_unavailable`"),
    ),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user_id = %auth.user_id))]
pub async fn change(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<IntervalRequest>,
) -> ApiResult<AppJson<TeamResponse>> {
    let to = interval(&body.interval)?;
    state
        .billing
        .change_team_interval(
            &member(&auth),
            None,
            to,
            state.settings.stripe.prices(),
            body.proration_date,
        )
        .await?;
    Ok(AppJson(team_response(&state, auth.user_id).await?))
}
