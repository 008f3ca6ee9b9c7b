//! `POST /api/billing/cancel`, `POST /api/billing/resume` and
//! `GET /api/billing/cancellation-reasons`: the caller sets their plan to end at its period's
//! end (with an optional reason from the list) or takes that back. One command of
//! `closewise_core::billing::cancel` each; the team's owner has the same under
//! `/api/team/billing/` (in the team's module).

use axum::body::Bytes;
use axum::extract::State;
use closewise_core::billing::cancel::Cancellation;
use closewise_domain::cancellation::CancellationReason;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::interval::member;
use super::routes::{SubscriptionBody, SubscriptionResponse};
use crate::error::ApiResult;
use crate::extract::{AppJson, AuthUser};
use crate::state::AppState;

#[derive(Deserialize, ToSchema, Default)]
#[schema(as = CancelBody)]
pub struct CancelRequest {
    /// Why, from `GET /api/billing/cancellation-reasons` (none: not said).
    #[serde(default)]
    #[schema(schema_with = crate::schemas::cancellation_reason_optional)]
    pub reason: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = CancellationReasonOption)]
pub struct ReasonBody {
    #[schema(schema_with = crate::schemas::cancellation_reason)]
    pub reason: String,
    /// How the cancel dialog says it.
    pub label: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = CancellationReasonsAnswer)]
pub struct ReasonsResponse {
    /// In the order the dialog offers them.
    pub reasons: Vec<ReasonBody>,
}

/// A cancellation as a client asked it: no body, `{}` or `{"reason": null}` give no reason; a
/// reason off the list is `400 invalid_reason`.
pub(crate) fn cancellation(raw: &[u8]) -> ApiResult<Cancellation> {
    let body: CancelRequest = if raw.iter().all(u8::is_ascii_whitespace) {
        CancelRequest::default()
    } else {
        crate::extract::json_object(raw)?
    };
    let reason = body
        .reason
        .as_deref()
        .map(|r| CancellationReason::parse(r.trim()))
        .transpose()?;
    Ok(Cancellation::AtPeriodEnd(reason))
}

#[utoipa::path(get, path = "/api/billing/cancellation-reasons", tag = "billing",
    operation_id = "cancellation_reasons",
    responses((status = 200, body = ReasonsResponse, description = "The reasons a cancellation may give, with their labels")))]
pub async fn reasons() -> AppJson<ReasonsResponse> {
    AppJson(ReasonsResponse {
        reasons: CancellationReason::ALL
            .into_iter()
            .map(|r| ReasonBody {
                reason: r.as_str().to_owned(),
                label: r.label().to_owned(),
            })
            .collect(),
    })
}

#[utoipa::path(post, path = "/api/billing/cancel", tag = "billing", request_body = Option<CancelRequest>,
    operation_id = "cancel_plan",
    responses(
        (status = 200, body = SubscriptionResponse, description = "Set to end at the period's end (`cancel_at_period_end`), with the reason given"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_reason`"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 409, body = crate::error::ErrorBody, description = "`nothing_to_cancel`, `already_cancelling`, `period_over`"),
        (status = 502, body = crate::error::ErrorBody, description = "`stripe_unavailable`"),
    ),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user_id = %auth.user_id))]
pub async fn cancel(
    State(state): State<AppState>,
    auth: AuthUser,
    raw: Bytes,
) -> ApiResult<AppJson<SubscriptionResponse>> {
    let step = cancellation(&raw)?;
    let row = state.billing.cancel_plan(&member(&auth), step).await?;
    Ok(AppJson(SubscriptionResponse {
        subscription: Some(SubscriptionBody::new(
            row,
            state.settings.stripe.prices(),
            state.clock.now(),
        )),
    }))
}

#[utoipa::path(post, path = "/api/billing/resume", tag = "billing",
    operation_id = "resume_plan",
    responses(
        (status = 200, body = SubscriptionResponse, description = "Renews again (`cancel_at_period_end` false); the reason is cleared"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 409, body = crate::error::ErrorBody, description = "`nothing_to_resume`, `period_over`"),
        (status = 502, body = crate::error::ErrorBody, description = "`stripe_unavailable`"),
    ),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user_id = %auth.user_id))]
pub async fn resume(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<AppJson<SubscriptionResponse>> {
    let row = state
        .billing
        .cancel_plan(&member(&auth), Cancellation::Resume)
        .await?;
    Ok(AppJson(SubscriptionResponse {
        subscription: Some(SubscriptionBody::new(
            row,
            state.settings.stripe.prices(),
            state.clock.now(),
        )),
    }))
}
