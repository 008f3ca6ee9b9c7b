//! `POST /api/checkout`, `POST /api/checkout/confirm`, `GET /api/subscription`,
//! `POST /api/billing/portal`.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use closewise_domain::catalogue::{catalogue, find_by_price};
use closewise_domain::checkout::{
    decide_checkout, CheckoutRefusal, CheckoutRequest, ACTIVATION_FAILED, CHECKOUT_FAILED,
};
use closewise_domain::limits::same_origin;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::error::{ApiError, ApiResult};
use crate::extract::{bearer, AppJson, AuthUser};
use crate::plans::PlanResponse;
use crate::state::AppState;
use closewise_core::billing::BillingError;
use closewise_core::store::SubscriptionRow;

#[derive(Deserialize, ToSchema)]
#[schema(as = CheckoutBody)]
pub struct StartCheckoutRequest {
    /// The catalogue's `priceId`.
    pub price_id: String,
    /// `subscription` (the catalogue's only product) or `payment`.
    pub mode: String,
    /// Where Stripe returns after paying; must be on this site. `{CHECKOUT_SESSION_ID}` is
    /// replaced by Stripe.
    pub success_url: String,
    /// Where Stripe returns when the buyer cancels; must be on this site.
    pub cancel_url: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = UrlAnswer)]
pub struct UrlResponse {
    pub url: String,
}

#[derive(Deserialize, ToSchema)]
#[schema(as = ConfirmBody)]
pub struct ConfirmRequest {
    /// The `session_id` Stripe put in the success URL.
    pub session_id: String,
}

/// The spec's `stripe_user_subscriptions` view.
#[derive(Serialize, ToSchema)]
pub struct SubscriptionBody {
    pub price_id: Option<String>,
    /// Stripe's status: `active`, `trialing`, `canceled`, `incomplete`, `incomplete_expired`,
    /// `past_due`, `unpaid`, `paused`, `not_started`.
    pub subscription_status: String,
    pub cancel_at_period_end: bool,
    /// Unix seconds.
    pub current_period_end: Option<i64>,
    pub payment_method_brand: Option<String>,
    pub payment_method_last4: Option<String>,
}

impl From<SubscriptionRow> for SubscriptionBody {
    fn from(r: SubscriptionRow) -> Self {
        SubscriptionBody {
            price_id: r.price_id,
            subscription_status: r.status.to_string(),
            cancel_at_period_end: r.cancel_at_period_end,
            current_period_end: r.current_period_end,
            payment_method_brand: r.payment_method_brand,
            payment_method_last4: r.payment_method_last4,
        }
    }
}

#[derive(Serialize, ToSchema)]
#[schema(as = SubscriptionAnswer)]
pub struct SubscriptionResponse {
    pub subscription: Option<SubscriptionBody>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = ConfirmAnswer)]
pub struct ConfirmResponse {
    pub plan: PlanResponse,
    pub subscription: Option<SubscriptionBody>,
}

#[derive(Deserialize, ToSchema, Default)]
#[schema(as = PortalBody)]
pub struct PortalRequest {
    /// Where the portal's "back" link goes; must be on this site. Defaults to `/dashboard`.
    #[serde(default)]
    pub return_url: Option<String>,
}

fn refusal(r: CheckoutRefusal) -> ApiError {
    let status = match r {
        CheckoutRefusal::NotSignedIn | CheckoutRefusal::InvalidToken => StatusCode::UNAUTHORIZED,
        CheckoutRefusal::EmailNotVerified => StatusCode::FORBIDDEN,
        CheckoutRefusal::AlreadySubscribed => StatusCode::CONFLICT,
    };
    ApiError::new(status, r.code(), r.to_string())
}

fn checkout_failed() -> ApiError {
    ApiError::new(StatusCode::BAD_GATEWAY, "checkout_failed", CHECKOUT_FAILED)
}

fn activation_failed(status: StatusCode, code: &'static str) -> ApiError {
    ApiError::new(status, code, ACTIVATION_FAILED)
}

/// A return address that is not a page of this site (personal and team checkout, the portals).
pub(crate) fn invalid_redirect() -> ApiError {
    ApiError::bad_request(
        "invalid_redirect_url",
        "The return addresses must be pages of this site",
    )
}

/// Who is calling, checked in the spec's order: a token at all, then a valid one whose session
/// is still active. `None` when there is no Authorization header.
async fn caller(state: &AppState, headers: &HeaderMap) -> ApiResult<Option<Option<Uuid>>> {
    let token = match bearer(headers) {
        None => return Ok(None),
        Some(Err(())) => return Ok(Some(None)),
        Some(Ok(t)) => t,
    };
    let user = crate::extract::authenticate(state, token).await?;
    Ok(Some(user.map(|u| u.user_id)))
}

#[utoipa::path(post, path = "/api/checkout", tag = "billing", request_body = StartCheckoutRequest,
    responses(
        (status = 200, body = UrlResponse, description = "The hosted checkout page to send the browser to"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_redirect_url`, `unknown_price`"),
        (status = 401, body = crate::error::ErrorBody, description = "`not_signed_in`, `invalid_token`"),
        (status = 403, body = crate::error::ErrorBody, description = "`email_not_verified`"),
        (status = 409, body = crate::error::ErrorBody, description = "`already_subscribed`: a personal subscription to this price counts as subscribed, or a seat in a paid team (teams buy the same price)"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`: the user's Stripe calls (checkouts, their confirmations, billing portals) are spent, 20 per 10 minutes by default"),
        (status = 502, body = crate::error::ErrorBody, description = "`checkout_failed`"),
    ),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all)]
pub async fn checkout(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<AppJson<StartCheckoutRequest>, ApiError>,
) -> ApiResult<AppJson<UrlResponse>> {
    // The spec's checks, in its order; the body is only read once the caller is known and verified.
    let who = caller(&state, &headers).await?;
    let user = match who {
        Some(Some(user_id)) => state.store.user_by_id(user_id).await?,
        _ => None,
    };
    let base = CheckoutRequest {
        has_auth_header: who.is_some(),
        token_valid: user.is_some(),
        email_verified: false,
        price_id: "",
        active_subscription_price_id: None,
        team_price_id: None,
    };
    let Some(user) = user else {
        return Err(refusal(
            decide_checkout(&base).expect_err("no user, no checkout"),
        ));
    };
    stripe_budget(&state, user.id).await?;
    // A verified e-mail comes before anything the body says.
    let verified = CheckoutRequest {
        email_verified: user.email_confirmed_at.is_some(),
        ..base
    };
    decide_checkout(&verified).map_err(refusal)?;
    let AppJson(body) = body?;
    let active = state
        .store
        .subscription_of(user.id)
        .await?
        .filter(|s| s.counts_as_subscribed());
    // Teams buy the configured price per seat.
    let team_covers = state.teams.member_paid(user.id).await?;
    decide_checkout(&CheckoutRequest {
        price_id: &body.price_id,
        active_subscription_price_id: active.as_ref().and_then(|s| s.price_id.as_deref()),
        team_price_id: team_covers.then_some(state.settings.stripe.price_id.as_str()),
        ..verified
    })
    .map_err(refusal)?;

    let products = catalogue(&state.settings.stripe.price_id);
    let product = find_by_price(&products, &body.price_id)
        .filter(|p| p.mode.as_str() == body.mode)
        .ok_or_else(|| ApiError::bad_request("unknown_price", "This product is not available"))?;
    let base_url = &state.settings.base_url;
    if !same_origin(base_url, &body.success_url) || !same_origin(base_url, &body.cancel_url) {
        return Err(invalid_redirect());
    }

    let stripe = state.billing.stripe();
    let customer = match state.store.stripe_customer_of(user.id).await? {
        Some(c) => c,
        None => {
            let created = stripe
                .create_customer(user.id, &user.email)
                .await
                .map_err(|_| checkout_failed())?;
            state
                .store
                .save_stripe_customer(user.id, &created, state.clock.now())
                .await?
        }
    };
    let url = stripe
        .create_checkout_session(
            user.id,
            &customer,
            &product.price_id,
            &body.success_url,
            &body.cancel_url,
        )
        .await
        .map_err(|_| checkout_failed())?;
    tracing::info!(user_id = %user.id, "checkout started");
    Ok(AppJson(UrlResponse { url }))
}

#[utoipa::path(post, path = "/api/checkout/confirm", tag = "billing", request_body = ConfirmRequest,
    responses(
        (status = 200, body = ConfirmResponse, description = "The session was paid: the plan is monthly"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`session_not_yours`"),
        (status = 404, body = crate::error::ErrorBody, description = "`session_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`session_not_paid`"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`: the user's Stripe calls (checkouts, their confirmations, billing portals) are spent, 20 per 10 minutes by default"),
        (status = 502, body = crate::error::ErrorBody, description = "`stripe_unavailable`"),
    ),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user_id = %auth.user_id))]
pub async fn confirm(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<ConfirmRequest>,
) -> ApiResult<AppJson<ConfirmResponse>> {
    stripe_budget(&state, auth.user_id).await?;
    state
        .billing
        .confirm_checkout(auth.user_id, &body.session_id)
        .await
        .map_err(|e| match e {
            BillingError::SessionNotFound => activation_failed(StatusCode::NOT_FOUND, e.code()),
            BillingError::SessionNotYours => activation_failed(StatusCode::FORBIDDEN, e.code()),
            BillingError::SessionNotPaid => activation_failed(StatusCode::CONFLICT, e.code()),
            BillingError::StripeUnavailable(_) => {
                activation_failed(StatusCode::BAD_GATEWAY, e.code())
            }
            BillingError::Database(e) => e.into(),
        })?;
    let plan = state
        .store
        .plan_for(auth.user_id, state.clock.now())
        .await?;
    let subscription = state.store.subscription_of(auth.user_id).await?;
    Ok(AppJson(ConfirmResponse {
        plan: plan.into(),
        subscription: subscription.map(Into::into),
    }))
}

#[utoipa::path(get, path = "/api/subscription", tag = "billing",
    responses((status = 200, body = SubscriptionResponse), (status = 401, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn subscription(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<AppJson<SubscriptionResponse>> {
    let row = state.store.subscription_of(auth.user_id).await?;
    Ok(AppJson(SubscriptionResponse {
        subscription: row.map(Into::into),
    }))
}

#[utoipa::path(post, path = "/api/billing/portal", tag = "billing", request_body = PortalRequest,
    responses(
        (status = 200, body = UrlResponse, description = "The billing portal to send the browser to"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_redirect_url`"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 404, body = crate::error::ErrorBody, description = "`no_customer`"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`: the user's Stripe calls (checkouts, their confirmations, billing portals) are spent, 20 per 10 minutes by default"),
        (status = 502, body = crate::error::ErrorBody, description = "`portal_failed`"),
    ),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user_id = %auth.user_id))]
pub async fn portal(
    State(state): State<AppState>,
    auth: AuthUser,
    raw: Bytes,
) -> ApiResult<AppJson<UrlResponse>> {
    stripe_budget(&state, auth.user_id).await?;
    let return_url = portal_return_url(&state, &raw, "/dashboard")?;
    let customer = state
        .store
        .stripe_customer_of(auth.user_id)
        .await?
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "no_customer",
                "No billing account yet. Start a subscription first.",
            )
        })?;
    let url = open_portal(&state, &customer, &return_url).await?;
    Ok(AppJson(UrlResponse { url }))
}

/// Spends one of the user's Stripe calls (`RATE_LIMIT_STRIPE_PER_USER` per
/// `RATE_LIMIT_STRIPE_WINDOW_SECS`, one budget for checkouts, confirmations and portals, personal
/// and team): every such request makes the app call Stripe, whose own rate limit is the whole
/// site's. Counted as soon as the caller is known, whatever the answer.
pub(crate) async fn stripe_budget(state: &AppState, user_id: Uuid) -> ApiResult<()> {
    crate::auth::limit(
        state,
        crate::ratelimit::Bucket::StripePerUser,
        &user_id.to_string(),
    )
    .await
}

/// Where a billing portal's "back" link goes: the body's `return_url` (on this site), or
/// `default_path` of this site when there is no body at all.
pub(crate) fn portal_return_url(
    state: &AppState,
    raw: &[u8],
    default_path: &str,
) -> ApiResult<String> {
    let body: PortalRequest = if raw.iter().all(u8::is_ascii_whitespace) {
        PortalRequest::default()
    } else {
        serde_json::from_slice(raw)
            .map_err(|e| ApiError::bad_request("invalid_json", format!("Invalid request: {e}")))?
    };
    let base_url = &state.settings.base_url;
    let return_url = body
        .return_url
        .unwrap_or_else(|| format!("{base_url}{default_path}"));
    if !same_origin(base_url, &return_url) {
        return Err(invalid_redirect());
    }
    Ok(return_url)
}

/// A billing-portal session of `customer` at Stripe; its URL.
pub(crate) async fn open_portal(
    state: &AppState,
    customer: &str,
    return_url: &str,
) -> ApiResult<String> {
    state
        .billing
        .stripe()
        .portal_session(customer, return_url)
        .await
        .map_err(|_| {
            ApiError::new(
                StatusCode::BAD_GATEWAY,
                "portal_failed",
                "Could not open the billing portal. Please try again.",
            )
        })
}
