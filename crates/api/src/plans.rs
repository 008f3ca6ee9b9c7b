//! `GET /api/plan` and `GET /api/products`.

use axum::extract::State;
use serde::Serialize;
use time::OffsetDateTime;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use crate::error::ApiResult;
use crate::extract::{AppJson, AuthUser};
use crate::state::AppState;
use closewise_core::billing::PlanView;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(plan))
        .routes(routes!(products))
}

/// The spec's `user_plans` row.
#[derive(Serialize, ToSchema)]
#[schema(as = PlanBody)]
pub struct PlanResponse {
    pub id: Uuid,
    pub user_id: Uuid,
    #[schema(schema_with = crate::schemas::plan_type)]
    pub plan_type: String,
    #[schema(schema_with = crate::schemas::plan_status)]
    pub status: String,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub plan_started_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub plan_updated_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: OffsetDateTime,
    pub stripe_subscription_id: Option<String>,
    pub stripe_customer_id: Option<String>,
    pub subscription_id: Option<String>,
    /// Paid on the personal plan: the plan is `monthly` or the user's own subscription is active
    /// or trialing (a seat in a paid team is not; see `GET /api/entitlements`).
    pub paid: bool,
    #[schema(schema_with = crate::schemas::checkout_offer)]
    pub checkout: String,
}

impl From<PlanView> for PlanResponse {
    fn from(view: PlanView) -> Self {
        let r = view.plan;
        PlanResponse {
            id: r.id,
            user_id: r.user_id,
            plan_type: r.plan_type.to_string(),
            status: r.status.to_string(),
            plan_started_at: r.plan_started_at,
            plan_updated_at: r.plan_updated_at,
            created_at: r.created_at,
            updated_at: r.updated_at,
            stripe_subscription_id: r.stripe_subscription_id,
            stripe_customer_id: r.stripe_customer_id,
            subscription_id: r.subscription_id,
            paid: view.paid,
            checkout: view.checkout.as_str().to_owned(),
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct ProductBody {
    pub id: String,
    #[serde(rename = "priceId")]
    pub price_id: String,
    pub name: String,
    pub description: String,
    #[schema(schema_with = crate::schemas::checkout_mode)]
    pub mode: String,
    /// Whole currency units (20 = 20 USD).
    pub price: u32,
    pub currency: String,
    /// `month` or `year` for a subscription.
    pub interval: Option<String>,
    /// Months of the monthly price a year at once saves (0 for the monthly price): the pricing
    /// card's "2 months free".
    pub months_free: u32,
    /// What it includes, as the pricing card lists it.
    pub features: Vec<String>,
}

/// The Free Trial as the pricing page shows it.
#[derive(Serialize, ToSchema)]
#[schema(as = FreeTrial)]
pub struct FreeTrialBody {
    pub name: String,
    /// What it includes, its limits first.
    pub features: Vec<String>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = ProductsBody)]
pub struct ProductsResponse {
    pub products: Vec<ProductBody>,
    pub free_trial: FreeTrialBody,
}

#[utoipa::path(get, path = "/api/plan", tag = "plans",
    responses((status = 200, body = PlanResponse), (status = 401, body = crate::error::ErrorBody)), security(("bearer" = [])))]
pub async fn plan(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<AppJson<PlanResponse>> {
    let view = state.billing.plan_view(auth.user_id).await?;
    Ok(AppJson(view.into()))
}

#[utoipa::path(get, path = "/api/products", tag = "plans", responses((status = 200, body = ProductsResponse)))]
pub async fn products(State(state): State<AppState>) -> AppJson<ProductsResponse> {
    AppJson(catalogue(state.settings.stripe.prices()))
}

/// What `GET /api/products` answers when the plan is sold under the default price ids, as JSON:
/// the snapshot the prerendered pricing pages are built from
/// (`web/src/lib/billing/catalogue.json`, written by `closewise-api catalogue`; a test fails when
/// they differ).
pub fn catalogue_json() -> String {
    let answer = catalogue(closewise_domain::catalogue::PriceIds::DEFAULT);
    let mut json = serde_json::to_string_pretty(&answer).expect("the catalogue serialises");
    json.push('\n');
    json
}

/// The catalogue's answer with the plan sold under `prices`.
fn catalogue(prices: closewise_domain::catalogue::PriceIds<'_>) -> ProductsResponse {
    let trial = closewise_domain::catalogue::free_trial();
    let products = closewise_domain::catalogue::catalogue(prices)
        .into_iter()
        .map(|p| ProductBody {
            id: p.id,
            price_id: p.price_id,
            name: p.name,
            description: p.description,
            mode: match p.mode {
                closewise_domain::catalogue::CheckoutMode::Subscription => "subscription".into(),
                closewise_domain::catalogue::CheckoutMode::Payment => "payment".into(),
            },
            price: p.price,
            currency: p.currency,
            interval: p.interval,
            months_free: p.months_free,
            features: p.features,
        })
        .collect();
    ProductsResponse {
        products,
        free_trial: FreeTrialBody {
            name: trial.name,
            features: trial.features,
        },
    }
}
