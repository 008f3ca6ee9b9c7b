//! Team billing (docs/teams.md): checkout of N seats, its confirmation, the seats' preview and
//! change, the billing portal, and deleting the team with its subscription. All of it is the
//! owner's, whose card pays (`teams::Action::BILLING`), but reading back a checkout already paid.
//! Each handler is one command of `closewise_core::teams::billing` with the caller as actor,
//! which checks the role, spends the Stripe budget and audits (its errors map to HTTP in
//! `crate::error`). Another team's anything is `404 team_not_found`.

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use closewise_core::actor::Actor;
use closewise_core::teams::billing::TeamCheckout;
use closewise_core::teams::billing::TeamPurchase;
use closewise_domain::team_purchase::Collection;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{team_response, TeamResponse};
use crate::error::{ApiError, ApiResult};
use crate::extract::{AppJson, AuthUser, ClientIp};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(checkout))
        .routes(routes!(confirm))
        .routes(routes!(preview))
        .routes(routes!(set_seats))
        .routes(routes!(portal))
        .routes(routes!(delete_team))
}

#[derive(Deserialize, ToSchema)]
#[schema(as = TeamCheckoutBody)]
pub struct TeamCheckoutRequest {
    /// At least the seats in use (members and pending invites), at most 10000
    /// (`closewise_domain::teams::MAX_SEATS`).
    #[schema(minimum = 1, maximum = 10000)]
    pub seats: i64,
    /// `month` (the default) or `year`: each seat at the catalogue's monthly or yearly price.
    #[serde(default)]
    #[schema(schema_with = crate::schemas::interval)]
    pub interval: Option<String>,
    /// Where Stripe returns after paying; must be on this site (`{CHECKOUT_SESSION_ID}` is
    /// replaced by Stripe). Required to pay by card; not used by an invoice.
    #[serde(default)]
    pub success_url: Option<String>,
    #[serde(default)]
    pub cancel_url: Option<String>,
    /// A promotion code as the owner typed it. Without one, Stripe's checkout page offers a
    /// field for it.
    #[serde(default)]
    pub promotion_code: Option<String>,
    /// "Try it with your team free for 14 days": the checkout takes the card and charges it at
    /// the trial's end. Once per team, per owner and per Stripe customer (`409
    /// trial_already_used`); never with `collection: "invoice"`.
    #[serde(default)]
    pub trial: bool,
    /// `card` (the default: Stripe's hosted checkout) or `invoice`: no checkout, the seats are
    /// active at once and Stripe sends an invoice due in 30 days; for 10 seats or more with
    /// `interval: "year"` (else `422 invoice_not_allowed`).
    #[serde(default)]
    #[schema(schema_with = crate::schemas::collection_or_null)]
    pub collection: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = TeamCheckoutAnswer)]
pub struct TeamCheckoutResponse {
    /// Where to go next: Stripe's checkout page, or (paid by invoice) the invoice's page.
    pub url: String,
    /// `card` or `invoice`, as asked.
    #[schema(schema_with = crate::schemas::collection)]
    pub collection: String,
    /// The seats are active already (paid by invoice); false until a checkout is paid.
    pub seats_active: bool,
    /// The invoice Stripe sent (paid by invoice); null for a checkout.
    pub invoice: Option<SentInvoiceBody>,
}

/// An invoice Stripe sent to the team's billing address, to pay by its due date.
#[derive(Serialize, ToSchema)]
#[schema(as = TeamSentInvoice)]
pub struct SentInvoiceBody {
    pub id: String,
    pub number: Option<String>,
    /// Stripe's page of the invoice: read it, download it, pay it by card.
    pub url: String,
    /// Cents.
    pub amount_due: i64,
    pub currency: String,
    /// Unix seconds.
    pub due_date: Option<i64>,
}

#[derive(Deserialize, ToSchema)]
#[schema(as = TeamConfirmBody)]
pub struct TeamConfirmRequest {
    pub session_id: String,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PreviewQuery {
    /// The new number of seats, 1 to 10000 and at least those in use.
    #[param(minimum = 1, maximum = 10000)]
    pub seats: i64,
}

#[derive(Serialize, ToSchema)]
#[schema(as = SeatsPreviewAnswer)]
pub struct SeatsPreviewResponse {
    pub seats: u32,
    /// Cents: the prorated difference on the next invoice; negative for a credit.
    pub amount_due_now: i64,
    /// Cents: the new monthly total.
    pub next_total: i64,
    pub currency: String,
    /// Unix seconds; send it back with `PUT /api/team/seats` to be charged what was shown.
    pub proration_date: i64,
}

#[derive(Deserialize, ToSchema)]
#[schema(as = TeamSeatsBody)]
pub struct SetSeatsRequest {
    /// 1 to 10000, at least those in use.
    #[schema(minimum = 1, maximum = 10000)]
    pub seats: i64,
    /// From the preview; default now.
    #[serde(default)]
    pub proration_date: Option<i64>,
}

#[derive(Deserialize, ToSchema)]
#[schema(as = TeamDeleteBody)]
pub struct DeleteTeamRequest {
    pub password: String,
}

fn member(auth: &AuthUser) -> Actor {
    Actor::member(auth.user_id, &auth.email)
}

/// Seats as a client sent them: out of `u32` is simply out of range.
fn seats(n: i64) -> u32 {
    u32::try_from(n).unwrap_or(if n < 0 { 0 } else { u32::MAX })
}

#[utoipa::path(post, path = "/api/team/checkout", operation_id = "team_checkout", tag = "teams", request_body = TeamCheckoutRequest,
    responses(
        (status = 200, body = TeamCheckoutResponse, description = "The hosted checkout of the seats (with a free trial: `trial: true`), or the seats active at once and the invoice sent (`collection: \"invoice\"`)"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_seats`, `invalid_interval`, `invalid_collection`, `invalid_redirect_url`, `invalid_promotion_code` (the message says why)"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`: billing is the owner's; `email_not_verified`"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`team_already_subscribed`; `trial_already_used`: the team, its owner or its customer had a trial"),
        (status = 422, body = crate::error::ErrorBody, description = "`invoice_not_allowed`: paying by invoice needs 10 seats or more, billed yearly; `trial_needs_card`: a trial is not paid by invoice"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`: the user's Stripe calls (checkouts, their confirmations, billing portals) are spent, 20 per 10 minutes by default"),
        (status = 502, body = crate::error::ErrorBody, description = "`checkout_failed`"),
    ),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user_id = %auth.user_id))]
pub async fn checkout(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<TeamCheckoutRequest>,
) -> ApiResult<AppJson<TeamCheckoutResponse>> {
    let interval = match body.interval.as_deref() {
        None => closewise_domain::billing_interval::Interval::Month,
        Some(raw) => crate::billing::interval::interval(raw)?,
    };
    let collection = match body.collection.as_deref() {
        None => Collection::Card,
        Some(raw) => Collection::parse(raw)?,
    };
    let order = TeamCheckout {
        seats: seats(body.seats),
        price_id: state.settings.stripe.prices().of(interval),
        prices: state.settings.stripe.prices(),
        success_url: body.success_url.as_deref().unwrap_or_default(),
        cancel_url: body.cancel_url.as_deref().unwrap_or_default(),
        site: &state.settings.base_url,
        promotion_code: body.promotion_code.as_deref(),
        interval,
        trial: body.trial,
    };
    let purchase = state
        .billing
        .start_team_purchase(&member(&auth), None, &order, collection)
        .await
        .map_err(ApiError::team_checkout)?;
    Ok(AppJson(match purchase {
        TeamPurchase::Checkout(url) => TeamCheckoutResponse {
            url,
            collection: collection.as_str().to_owned(),
            seats_active: false,
            invoice: None,
        },
        TeamPurchase::Invoice(sent) => {
            let invoice = sent.invoice;
            TeamCheckoutResponse {
                url: invoice.url.clone(),
                collection: collection.as_str().to_owned(),
                seats_active: true,
                invoice: Some(SentInvoiceBody {
                    id: invoice.id,
                    number: invoice.number,
                    url: invoice.url,
                    amount_due: invoice.amount_due,
                    currency: invoice.currency,
                    due_date: invoice.due_date,
                }),
            }
        }
    }))
}

#[utoipa::path(post, path = "/api/team/checkout/confirm", operation_id = "confirm_team_checkout", tag = "teams", request_body = TeamConfirmRequest,
    responses(
        (status = 200, body = TeamResponse, description = "The session was paid: the team's subscription and seats"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`session_not_yours`"),
        (status = 404, body = crate::error::ErrorBody, description = "`session_not_found`, `team_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`session_not_paid`"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`: the user's Stripe calls (checkouts, their confirmations, billing portals) are spent, 20 per 10 minutes by default"),
        (status = 502, body = crate::error::ErrorBody, description = "`stripe_unavailable`"),
    ),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user_id = %auth.user_id))]
pub async fn confirm(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<TeamConfirmRequest>,
) -> ApiResult<AppJson<TeamResponse>> {
    state
        .billing
        .confirm_team_checkout(&member(&auth), None, &body.session_id)
        .await
        .map_err(ApiError::team_confirmation)?;
    Ok(AppJson(team_response(&state, auth.user_id).await?))
}

#[utoipa::path(get, path = "/api/team/seats/preview", tag = "teams", params(PreviewQuery),
    responses(
        (status = 200, body = SeatsPreviewResponse, description = "What the change would cost, from Stripe's invoice preview"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_seats`"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`: billing is the owner's"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`no_team_subscription`, `seats_in_use`"),
        (status = 502, body = crate::error::ErrorBody, description = "`stripe_unavailable`"),
    ),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user_id = %auth.user_id))]
pub async fn preview(
    State(state): State<AppState>,
    auth: AuthUser,
    query: Result<Query<PreviewQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<AppJson<SeatsPreviewResponse>> {
    let Query(query) = query?;
    let p = state
        .billing
        .preview_team_seats(&member(&auth), None, seats(query.seats))
        .await?;
    Ok(AppJson(SeatsPreviewResponse {
        seats: p.seats,
        amount_due_now: p.amount_due_now,
        next_total: p.next_total,
        currency: p.currency,
        proration_date: p.proration_date,
    }))
}

#[utoipa::path(put, path = "/api/team/seats", tag = "teams", request_body = SetSeatsRequest,
    responses(
        (status = 200, body = TeamResponse, description = "The seats changed at Stripe, prorated on the next invoice"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_seats`, `invalid_proration_date`"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`: billing is the owner's"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`no_team_subscription`, `seats_in_use`"),
        (status = 502, body = crate::error::ErrorBody, description = "`stripe_unavailable`"),
    ),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user_id = %auth.user_id))]
pub async fn set_seats(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<SetSeatsRequest>,
) -> ApiResult<AppJson<TeamResponse>> {
    state
        .billing
        .change_team_seats(&member(&auth), None, seats(body.seats), body.proration_date)
        .await?;
    Ok(AppJson(team_response(&state, auth.user_id).await?))
}

#[utoipa::path(post, path = "/api/team/billing/portal", tag = "teams",
    request_body = Option<crate::billing::routes::PortalRequest>, operation_id = "team_billing_portal",
    responses(
        (status = 200, body = crate::billing::routes::UrlResponse, description = "The team customer's billing portal (card, invoices, cancel; no quantity changes), back to `/team` by default"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_redirect_url`"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`: billing is the owner's"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`, `no_customer`"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`: the user's Stripe calls (checkouts, their confirmations, billing portals) are spent, 20 per 10 minutes by default"),
        (status = 502, body = crate::error::ErrorBody, description = "`portal_failed`"),
    ),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user_id = %auth.user_id))]
pub async fn portal(
    State(state): State<AppState>,
    auth: AuthUser,
    raw: Bytes,
) -> ApiResult<AppJson<crate::billing::routes::UrlResponse>> {
    let back_to = crate::billing::routes::portal_request(&raw)?;
    let url = state
        .billing
        .open_team_portal(&member(&auth), None, back_to.to(&state, "/team"))
        .await?;
    Ok(AppJson(crate::billing::routes::UrlResponse { url }))
}

#[utoipa::path(delete, path = "/api/team", tag = "teams", request_body = DeleteTeamRequest,
    responses(
        (status = 204, description = "The team's subscription was cancelled at Stripe and the team deleted"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_credentials`: the password is wrong"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`team_already_subscribed`: a checkout of the team was paid at that moment; once its subscription is stored, deleting cancels it"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`, `too_many_attempts`: the password checks count as sign-in attempts"),
        (status = 502, body = crate::error::ErrorBody, description = "`stripe_unavailable`: nothing was deleted"),
    ),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user_id = %auth.user_id))]
pub async fn delete_team(
    State(state): State<AppState>,
    auth: AuthUser,
    ClientIp(ip): ClientIp,
    AppJson(body): AppJson<DeleteTeamRequest>,
) -> ApiResult<Response> {
    // A wrong password is `400 invalid_credentials`, as for `DELETE /api/account`; it is asked
    // once the role allows deleting.
    let confirmed = async {
        crate::auth::account::reconfirm_password(&state, &auth, ip, &body.password)
            .await
            .map(drop)
    };
    state
        .billing
        .delete_team(&member(&auth), None, confirmed)
        .await??;
    Ok(StatusCode::NO_CONTENT.into_response())
}
