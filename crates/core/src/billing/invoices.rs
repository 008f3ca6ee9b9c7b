//! Invoices to download and the company details printed on them (docs/api.md "Invoices"): the
//! user's own invoices, a team's for its owner and admins (`teams::Action::ViewInvoices`), and the
//! team's billing name, address and tax IDs, which its owner edits
//! (`Action::EditBillingDetails`). Stripe keeps all of it on the customer; nothing is stored
//! here but the audit row of a change.

use closewise_domain::billing_details::DetailsError;
use uuid::Uuid;

use super::stripe::InvoicePage;
use super::{is_stripe_id, Billing, StripeFailure};
use crate::limits::LimitError;

/// Invoices in a page unless the caller asks otherwise, and the most they may ask (Stripe's).
pub const INVOICE_PAGE: i64 = 12;
pub const INVOICE_PAGE_MAX: i64 = 100;

#[derive(Debug, thiserror::Error)]
pub enum InvoicesError {
    #[error("There is no such team.")]
    TeamNotFound,
    #[error("Your role in the team does not allow this.")]
    ForbiddenRole,
    #[error("The cursor is not one this list gave.")]
    InvalidCursor,
    #[error("The limit must be between 1 and {max}.", max = INVOICE_PAGE_MAX)]
    InvalidLimit,
    /// The team has no Stripe customer yet, so no company details to edit.
    #[error("The team has no billing account yet. Buy seats first.")]
    NoCustomer,
    /// The details do not parse; the code names the field.
    #[error("{0}")]
    InvalidDetails(DetailsError),
    #[error("Stripe is unavailable: {0}")]
    StripeUnavailable(StripeFailure),
    /// The member's Stripe budget is spent.
    #[error(transparent)]
    Limited(#[from] LimitError),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

impl InvoicesError {
    pub fn code(&self) -> &'static str {
        match self {
            InvoicesError::TeamNotFound => "team_not_found",
            InvoicesError::ForbiddenRole => "forbidden_role",
            InvoicesError::InvalidCursor => "invalid_cursor",
            InvoicesError::InvalidLimit => "invalid_limit",
            InvoicesError::NoCustomer => "no_customer",
            InvoicesError::InvalidDetails(e) => e.code(),
            InvoicesError::StripeUnavailable(_) => "stripe_unavailable",
            InvoicesError::Limited(_) => "rate_limited",
            InvoicesError::Database(_) => "internal",
        }
    }
}

/// Which page: after the invoice `cursor` (none: the first), `limit` invoices.
#[derive(Clone, Copy, Debug, Default)]
pub struct InvoiceQuery<'a> {
    pub cursor: Option<&'a str>,
    pub limit: Option<i64>,
}

/// A page of invoices, newest first, and the cursor of the next.
#[derive(Clone, Debug, Default)]
pub struct Invoices {
    pub page: InvoicePage,
    pub next_cursor: Option<String>,
}

impl Billing {
    /// The user's own invoices (their personal customer's), newest first; none before a
    /// first checkout.
    pub async fn invoices(
        &self,
        user_id: Uuid,
        query: &InvoiceQuery<'_>,
    ) -> Result<Invoices, InvoicesError> {
        let customer = self.store.stripe_customer_of(user_id).await?;
        self.invoices_of(customer.as_deref(), query).await
    }

    pub(crate) async fn invoices_of(
        &self,
        customer: Option<&str>,
        query: &InvoiceQuery<'_>,
    ) -> Result<Invoices, InvoicesError> {
        let limit = query.limit.unwrap_or(INVOICE_PAGE);
        if !(1..=INVOICE_PAGE_MAX).contains(&limit) {
            return Err(InvoicesError::InvalidLimit);
        }
        let cursor = query.cursor.map(str::trim).filter(|c| !c.is_empty());
        if cursor.is_some_and(|c| !c.starts_with("in_") || !is_stripe_id(c)) {
            return Err(InvoicesError::InvalidCursor);
        }
        let Some(customer) = customer else {
            return Ok(Invoices::default());
        };
        let page = self
            .stripe
            .invoices(customer, cursor, limit as u8)
            .await
            .map_err(|e| match e {
                // Stripe names the cursor it does not know.
                StripeFailure::NotFound if cursor.is_some() => InvoicesError::InvalidCursor,
                other => InvoicesError::StripeUnavailable(other),
            })?;
        let next_cursor = page
            .has_more
            .then(|| page.invoices.last().map(|i| i.id.clone()))
            .flatten();
        Ok(Invoices { page, next_cursor })
    }
}
