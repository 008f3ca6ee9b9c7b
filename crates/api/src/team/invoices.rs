//! The team's invoices and the company details on them: `GET /api/team/billing/invoices` (owner
//! and admins), `GET`/`PUT /api/team/billing/details` (admins read, the owner writes). Each is
//! one call of `closewise_core::billing::invoices` with the caller as actor.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use closewise_core::actor::Actor;
use closewise_core::billing::CustomerDetails;
use closewise_domain::billing_details::{BillingDetails, RawDetails};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::billing::invoices::{InvoicesPageResponse, InvoicesQuery};
use crate::error::{ApiError, ApiResult};
use crate::extract::{AppJson, AuthUser};
use crate::state::AppState;

#[utoipa::path(get, path = "/api/team/billing/invoices", operation_id = "team_invoices", tag = "teams", params(InvoicesQuery),
    responses(
        (status = 200, body = InvoicesPageResponse, description = "A page of the team's invoices, newest first (none before its first checkout)"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_cursor`, `invalid_limit`"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`: the owner's and admins'"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
        (status = 502, body = crate::error::ErrorBody, description = "`stripe_unavailable`"),
    ),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user_id = %auth.user_id))]
pub async fn team_invoices(
    State(state): State<AppState>,
    auth: AuthUser,
    query: Result<Query<InvoicesQuery>, QueryRejection>,
) -> ApiResult<AppJson<InvoicesPageResponse>> {
    let Query(q) = query?;
    let actor = Actor::member(auth.user_id, &auth.email);
    let page = state.billing.team_invoices(&actor, None, &q.page()).await?;
    Ok(AppJson(page.into()))
}

#[derive(Serialize, Deserialize, ToSchema, Default)]
#[schema(as = BillingAddress)]
pub struct AddressBody {
    pub line1: Option<String>,
    pub line2: Option<String>,
    pub city: Option<String>,
    pub postal_code: Option<String>,
    pub state: Option<String>,
    /// Two-letter ISO code (`DE`); required when writing.
    pub country: Option<String>,
}

#[derive(Serialize, Deserialize, ToSchema)]
#[schema(as = TaxIdEntry)]
pub struct TaxIdBody {
    #[serde(rename = "type")]
    #[schema(schema_with = crate::schemas::tax_id_type)]
    pub kind: String,
    /// As Stripe keeps it: `DE123456789`, `CHE-123.456.789 MWST`.
    pub value: String,
}

/// The company name, address and tax IDs Stripe prints on the team's invoices.
#[derive(Serialize, Deserialize, ToSchema)]
#[schema(as = BillingDetails)]
pub struct DetailsBody {
    /// Null until set (at checkout or here).
    pub name: Option<String>,
    pub address: AddressBody,
    /// At most 5.
    pub tax_ids: Vec<TaxIdBody>,
}

impl From<CustomerDetails> for DetailsBody {
    fn from(d: CustomerDetails) -> Self {
        DetailsBody {
            name: d.name,
            address: AddressBody {
                line1: d.line1,
                line2: d.line2,
                city: d.city,
                postal_code: d.postal_code,
                state: d.state,
                country: d.country,
            },
            tax_ids: d
                .tax_ids
                .into_iter()
                .map(|(kind, value)| TaxIdBody { kind, value })
                .collect(),
        }
    }
}

#[utoipa::path(get, path = "/api/team/billing/details", operation_id = "team_billing_details", tag = "teams",
    responses(
        (status = 200, body = DetailsBody, description = "The company details on the team's invoices (empty before its first checkout)"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`: the owner's and admins'"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
        (status = 502, body = crate::error::ErrorBody, description = "`stripe_unavailable`"),
    ),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user_id = %auth.user_id))]
pub async fn get_details(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<AppJson<DetailsBody>> {
    let actor = Actor::member(auth.user_id, &auth.email);
    let details = state.billing.team_billing_details(&actor, None).await?;
    Ok(AppJson(details.into()))
}

#[utoipa::path(put, path = "/api/team/billing/details", operation_id = "set_team_billing_details", tag = "teams", request_body = DetailsBody,
    responses(
        (status = 200, body = DetailsBody, description = "Written to the team's Stripe customer: the next invoices carry it"),
        (status = 400, body = crate::error::ErrorBody, description = "By field: `invalid_billing_name`, `invalid_country`, `invalid_address`, `invalid_tax_id` (the message names the type's shape)"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`: the owner's"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`, `no_customer` (no checkout yet)"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`: the user's Stripe calls are spent"),
        (status = 502, body = crate::error::ErrorBody, description = "`stripe_unavailable`"),
    ),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user_id = %auth.user_id))]
pub async fn put_details(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<DetailsBody>,
) -> ApiResult<AppJson<DetailsBody>> {
    let a = &body.address;
    let raw = RawDetails {
        name: body.name.as_deref().unwrap_or_default(),
        line1: a.line1.as_deref(),
        line2: a.line2.as_deref(),
        city: a.city.as_deref(),
        postal_code: a.postal_code.as_deref(),
        state: a.state.as_deref(),
        country: a.country.as_deref().unwrap_or_default(),
        tax_ids: body
            .tax_ids
            .iter()
            .map(|t| (t.kind.as_str(), t.value.as_str()))
            .collect(),
    };
    let details = BillingDetails::parse(&raw).map_err(ApiError::billing_details)?;
    let actor = Actor::member(auth.user_id, &auth.email);
    let saved = state
        .billing
        .set_team_billing_details(&actor, None, &details)
        .await?;
    Ok(AppJson(saved.into()))
}
