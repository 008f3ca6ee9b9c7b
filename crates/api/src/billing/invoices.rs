//! `GET /api/billing/invoices`: the caller's own invoices, a page at a time, newest first, with
//! the links to Stripe's hosted invoice and its PDF. The team's are under `/api/team/billing`.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use closewise_core::billing::invoices::{InvoiceQuery, Invoices};
use closewise_core::billing::InvoiceSummary;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::ApiResult;
use crate::extract::{AppJson, AuthUser};
use crate::state::AppState;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct InvoicesQuery {
    /// `next_cursor` of the page before; none: the first page.
    pub cursor: Option<String>,
    /// Invoices per page, 1 to 100; default 12.
    pub limit: Option<i64>,
}

impl InvoicesQuery {
    pub fn page(&self) -> InvoiceQuery<'_> {
        InvoiceQuery {
            cursor: self.cursor.as_deref(),
            limit: self.limit,
        }
    }
}

/// One invoice. Amounts are in cents of `currency`.
#[derive(Serialize, ToSchema)]
#[schema(as = Invoice)]
pub struct InvoiceBody {
    pub id: String,
    /// Stripe's invoice number (`CW-000001`); null on a draft.
    pub number: Option<String>,
    /// Unix seconds.
    pub date: i64,
    /// The service period, Unix seconds.
    pub period_start: i64,
    pub period_end: i64,
    pub currency: String,
    /// Before discount and tax.
    pub subtotal: i64,
    pub discount: i64,
    pub tax: i64,
    pub amount: i64,
    pub amount_paid: i64,
    #[schema(schema_with = crate::schemas::invoice_status)]
    pub status: String,
    /// Stripe's page of the invoice.
    pub hosted_invoice_url: Option<String>,
    /// The invoice as a PDF (the Download link).
    pub invoice_pdf: Option<String>,
}

impl From<InvoiceSummary> for InvoiceBody {
    fn from(i: InvoiceSummary) -> Self {
        InvoiceBody {
            id: i.id,
            number: i.number,
            date: i.created,
            period_start: i.period_start,
            period_end: i.period_end,
            currency: i.currency,
            subtotal: i.subtotal,
            discount: i.discount,
            tax: i.tax,
            amount: i.total,
            amount_paid: i.amount_paid,
            status: i.status,
            hosted_invoice_url: i.hosted_invoice_url,
            invoice_pdf: i.invoice_pdf,
        }
    }
}

#[derive(Serialize, ToSchema)]
#[schema(as = InvoicesPage)]
pub struct InvoicesPageResponse {
    /// Newest first.
    pub invoices: Vec<InvoiceBody>,
    /// Pass it as `cursor` for the next page; null on the last page.
    pub next_cursor: Option<String>,
}

impl From<Invoices> for InvoicesPageResponse {
    fn from(i: Invoices) -> Self {
        InvoicesPageResponse {
            invoices: i.page.invoices.into_iter().map(InvoiceBody::from).collect(),
            next_cursor: i.next_cursor,
        }
    }
}

#[utoipa::path(get, path = "/api/billing/invoices", operation_id = "invoices", tag = "billing", params(InvoicesQuery),
    responses(
        (status = 200, body = InvoicesPageResponse, description = "A page of the caller's invoices, newest first (none before a first checkout)"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_cursor`, `invalid_limit`"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 502, body = crate::error::ErrorBody, description = "`stripe_unavailable`"),
    ),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user_id = %auth.user_id))]
pub async fn invoices(
    State(state): State<AppState>,
    auth: AuthUser,
    query: Result<Query<InvoicesQuery>, QueryRejection>,
) -> ApiResult<AppJson<InvoicesPageResponse>> {
    let Query(q) = query?;
    let page = state.billing.invoices(auth.user_id, &q.page()).await?;
    Ok(AppJson(page.into()))
}
