//! `GET /api/billing/interval/preview` and `PUT /api/billing/interval`: switching the caller's
//! subscription between monthly and yearly, priced by Stripe first. One command of
//! `closewise_core::billing::interval` each; the team's owner has the same under
//! `/api/team/billing/interval` (in the team's module).

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use closewise_core::actor::Actor;
use closewise_core::billing::interval::IntervalPreview;
use closewise_domain::billing_interval::Interval;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::routes::{SubscriptionBody, SubscriptionResponse};
use crate::error::ApiResult;
use crate::extract::{AppJson, AuthUser};
use crate::state::AppState;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct IntervalQuery {
    /// `month` or `year`.
    #[serde(default)]
    #[param(value_type = String, example = "year")]
    pub interval: String,
}

#[derive(Deserialize, ToSchema)]
#[schema(as = IntervalBody)]
pub struct IntervalRequest {
    /// `month` or `year`.
    #[schema(example = "year")]
    pub interval: String,
    /// From the preview; default now.
    #[serde(default)]
    pub proration_date: Option<i64>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = IntervalPreviewAnswer)]
pub struct IntervalPreviewResponse {
    #[schema(schema_with = crate::schemas::interval)]
    pub interval: String,
    /// Cents: the switch's invoice, charged now (the new period less the unused time of the
    /// current one); negative for a credit.
    pub amount_due_now: i64,
    /// Cents: the new total each period from now on.
    pub next_total: i64,
    pub currency: String,
    /// Unix seconds; send it back with the switch to be charged what was shown.
    pub proration_date: i64,
}

impl From<IntervalPreview> for IntervalPreviewResponse {
    fn from(p: IntervalPreview) -> Self {
        IntervalPreviewResponse {
            interval: p.interval.as_str().to_owned(),
            amount_due_now: p.amount_due_now,
            next_total: p.next_total,
            currency: p.currency,
            proration_date: p.proration_date,
        }
    }
}

/// The interval a client asked for: anything but `month` or `year` is `400 invalid_interval`.
pub(crate) fn interval(raw: &str) -> ApiResult<Interval> {
    Ok(Interval::parse(raw.trim())?)
}

pub(crate) fn member(auth: &AuthUser) -> Actor {
    Actor::member(auth.user_id, &auth.email)
}

#[utoipa::path(get, path = "/api/billing/interval/preview", tag = "billing", params(IntervalQuery),
    operation_id = "preview_interval",
    responses(
        (status = 200, body = IntervalPreviewResponse, description = "What the switch would cost, from Stripe's invoice preview"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_interval`"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 409, body = crate::error::ErrorBody, description = "`no_subscription`, `subscription_ending`, `same_interval`"),
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
        .preview_interval(&member(&auth), to, state.settings.stripe.prices())
        .await?;
    Ok(AppJson(preview.into()))
}

#[utoipa::path(put, path = "/api/billing/interval", tag = "billing", request_body = IntervalRequest,
    operation_id = "change_interval",
    responses(
        (status = 200, body = SubscriptionResponse, description = "Switched at Stripe: the new period was invoiced at once, the unused time credited"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_interval`, `invalid_proration_date`"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 409, body = crate::error::ErrorBody, description = "`no_subscription`, `subscription_ending`, `same_interval`"),
        (status = 502, body = crate::error::ErrorBody, description = "`stripe_unavailable`"),
    ),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user_id = %auth.user_id))]
pub async fn change(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<IntervalRequest>,
) -> ApiResult<AppJson<SubscriptionResponse>> {
    let to = interval(&body.interval)?;
    let prices = state.settings.stripe.prices();
    let row = state
        .billing
        .change_interval(&member(&auth), to, prices, body.proration_date)
        .await?;
    Ok(AppJson(SubscriptionResponse {
        subscription: Some(SubscriptionBody::new(row, prices, state.clock.now())),
    }))
}
