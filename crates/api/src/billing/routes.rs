//! `POST /api/checkout`, `POST /api/checkout/confirm`, `GET /api/subscription`,
//! `POST /api/billing/portal`.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::error::{ApiError, ApiResult};
use crate::extract::{bearer, AppJson, AuthUser};
use crate::plans::PlanResponse;
use crate::state::AppState;
use closewise_core::billing::{Caller, PersonalCheckout, PortalReturn};
use closewise_core::store::payment_failures::PaymentFailureRow;
use closewise_core::store::SubscriptionRow;

#[derive(Deserialize, ToSchema)]
#[schema(as = CheckoutBody)]
pub struct StartCheckoutRequest {
    /// The catalogue's `priceId`.
    pub price_id: String,
    /// `subscription` (the catalogue's only product) or `payment`.
    #[schema(schema_with = crate::schemas::checkout_mode)]
    pub mode: String,
    /// Where Stripe returns after paying; must be on this site. `{CHECKOUT_SESSION_ID}` is
    /// replaced by Stripe.
    pub success_url: String,
    /// Where Stripe returns when the buyer cancels; must be on this site.
    pub cancel_url: String,
    /// A promotion code as the buyer typed it. Without one, Stripe's checkout page offers a
    /// field for it.
    #[serde(default)]
    pub promotion_code: Option<String>,
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
    #[schema(schema_with = crate::schemas::subscription_status)]
    pub subscription_status: String,
    pub cancel_at_period_end: bool,
    /// Unix seconds.
    pub current_period_end: Option<i64>,
    pub payment_method_brand: Option<String>,
    pub payment_method_last4: Option<String>,
    /// How the subscription is billed: `month` or `year` (null for a price the catalogue does
    /// not sell).
    #[schema(schema_with = crate::schemas::interval)]
    pub interval: Option<String>,
    /// The discount on the subscription while it applies (null when none): its coupon's terms
    /// and how the dashboard says it.
    pub discount: Option<DiscountBody>,
    // While a payment failed and Stripe retries it (`past_due`): when it first failed, its attempts
    // so far and Stripe's next try (Unix seconds; null when none is left), all null otherwise
    // (docs/api.md). Their doc comments are left out to keep the web's generated types of the
    // shared schemas within a file.
    pub past_due_since: Option<i64>,
    pub attempt_count: Option<u32>,
    pub next_payment_attempt: Option<i64>,
    /// The reason given when it was set to end (null: none given, or it renews).
    #[schema(schema_with = crate::schemas::cancellation_reason_optional)]
    pub cancellation_reason: Option<String>,
}

// A subscription's discount: a coupon taken with a promotion code at checkout (or set at Stripe).
// Its fields are Stripe's coupon's (docs/api.md says them); their doc comments are left out to keep
// the web's generated types of the shared schemas within a file.
#[derive(Serialize, ToSchema)]
#[schema(as = Discount)]
pub struct DiscountBody {
    pub name: Option<String>,
    pub percent_off: Option<f64>,
    pub amount_off: Option<i64>,
    pub currency: Option<String>,
    #[schema(schema_with = crate::schemas::discount_duration)]
    pub duration: String,
    pub duration_in_months: Option<i64>,
    /// Unix seconds.
    pub ends_at: Option<i64>,
    /// The discount in words: "20% off until March 2027".
    pub label: String,
}

impl DiscountBody {
    /// The discount while it applies at `now`, as the API answers it.
    pub fn current(
        discount: Option<closewise_domain::promotion::Discount>,
        now: time::OffsetDateTime,
    ) -> Option<Self> {
        let d = discount?.current(now)?;
        Some(DiscountBody {
            label: d.label(),
            duration: d.duration.as_str().to_owned(),
            name: d.name,
            percent_off: d.percent_off,
            amount_off: d.amount_off,
            currency: d.currency,
            duration_in_months: d.duration_in_months,
            ends_at: d.ends_at,
        })
    }
}

impl SubscriptionBody {
    pub fn new(
        r: SubscriptionRow,
        prices: closewise_domain::catalogue::PriceIds<'_>,
        now: time::OffsetDateTime,
    ) -> Self {
        SubscriptionBody {
            discount: DiscountBody::current(r.discount(), now),
            interval: r
                .price_id
                .as_deref()
                .and_then(|p| prices.interval_of(p))
                .map(|i| i.as_str().to_owned()),
            price_id: r.price_id,
            subscription_status: r.status.to_string(),
            cancel_at_period_end: r.cancel_at_period_end,
            current_period_end: r.current_period_end,
            payment_method_brand: r.payment_method_brand,
            payment_method_last4: r.payment_method_last4,
            past_due_since: None,
            attempt_count: None,
            next_payment_attempt: None,
            cancellation_reason: r.cancellation_reason,
        }
    }

    /// The body with the payment Stripe is retrying, if any.
    pub fn with_payment_failure(mut self, f: Option<&PaymentFailureRow>) -> Self {
        if let Some(f) = f {
            self.past_due_since = Some(f.past_due_since);
            self.attempt_count = Some(u32::try_from(f.attempt_count).unwrap_or(0));
            self.next_payment_attempt = f.next_payment_attempt;
        }
        self
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

/// Who is calling, checked in the spec's order: a token at all, then a valid one whose session
/// is still active.
async fn caller(state: &AppState, headers: &HeaderMap) -> ApiResult<Caller> {
    let token = match bearer(headers) {
        None => {
            return Ok(Caller {
                has_auth_header: false,
                user_id: None,
            })
        }
        Some(Err(())) => None,
        Some(Ok(t)) => Some(t),
    };
    let user_id = match token {
        Some(t) => crate::extract::authenticate(state, t)
            .await?
            .map(|u| u.user_id),
        None => None,
    };
    Ok(Caller {
        has_auth_header: true,
        user_id,
    })
}

#[utoipa::path(post, path = "/api/checkout", operation_id = "start_checkout", tag = "billing", request_body = StartCheckoutRequest,
    responses(
        (status = 200, body = UrlResponse, description = "The hosted checkout page to send the browser to"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_redirect_url`, `unknown_price`, `invalid_promotion_code` (the message says why: unknown, expired, used up, first purchase only, below the minimum)"),
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
    let buyer = state.billing.buyer(caller(&state, &headers).await?).await?;
    stripe_budget(&state, buyer.user_id()).await?;
    buyer.may_check_out()?;
    let AppJson(body) = body?;
    let order = PersonalCheckout {
        price_id: &body.price_id,
        mode: &body.mode,
        success_url: &body.success_url,
        cancel_url: &body.cancel_url,
        prices: state.settings.stripe.prices(),
        site: &state.settings.base_url,
        promotion_code: body.promotion_code.as_deref(),
    };
    let url = state.billing.start_checkout(&buyer, &order).await?;
    Ok(AppJson(UrlResponse { url }))
}

#[utoipa::path(post, path = "/api/checkout/confirm", operation_id = "confirm_checkout", tag = "billing", request_body = ConfirmRequest,
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
    let activation = state
        .billing
        .activate(auth.user_id, &body.session_id)
        .await?;
    Ok(AppJson(ConfirmResponse {
        plan: activation.plan.into(),
        subscription: activation
            .subscription
            .map(|s| SubscriptionBody::new(s, state.settings.stripe.prices(), state.clock.now())),
    }))
}

#[utoipa::path(get, path = "/api/subscription", tag = "billing",
    responses((status = 200, body = SubscriptionResponse), (status = 401, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn subscription(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<AppJson<SubscriptionResponse>> {
    let view = state.billing.subscription_view(auth.user_id).await?;
    Ok(AppJson(SubscriptionResponse {
        subscription: view.map(|v| {
            SubscriptionBody::new(
                v.subscription,
                state.settings.stripe.prices(),
                state.clock.now(),
            )
            .with_payment_failure(v.payment_failure.as_ref())
        }),
    }))
}

#[utoipa::path(post, path = "/api/billing/portal", tag = "billing", request_body = Option<PortalRequest>,
    operation_id = "billing_portal",
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
    let back_to = portal_request(&raw)?;
    let url = state
        .billing
        .open_portal(auth.user_id, back_to.to(&state, "/dashboard"))
        .await?;
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

/// A billing portal's body, personal or team: none at all is `{}`.
pub(crate) fn portal_request(raw: &[u8]) -> ApiResult<PortalRequest> {
    if raw.iter().all(u8::is_ascii_whitespace) {
        return Ok(PortalRequest::default());
    }
    crate::extract::json_object(raw)
}

impl PortalRequest {
    /// Where the portal's "back" link goes: the body's `return_url`, or `default_path` of this
    /// site (core checks it is a page of the site).
    pub(crate) fn to<'a>(&'a self, state: &'a AppState, default_path: &'a str) -> PortalReturn<'a> {
        PortalReturn {
            requested: self.return_url.as_deref(),
            site: &state.settings.base_url,
            default_path,
        }
    }
}
