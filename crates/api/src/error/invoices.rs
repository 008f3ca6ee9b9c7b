//! Invoices' and company details' errors as HTTP.

use axum::http::StatusCode;
use closewise_core::billing::invoices::InvoicesError;
use closewise_domain::billing_details::DetailsError;

use super::ApiError;

impl From<InvoicesError> for ApiError {
    fn from(e: InvoicesError) -> Self {
        use InvoicesError as E;
        let status = match e {
            E::Database(db) => return db.into(),
            E::Limited(limited) => return limited.into(),
            E::TeamNotFound | E::NoCustomer => StatusCode::NOT_FOUND,
            E::ForbiddenRole => StatusCode::FORBIDDEN,
            E::InvalidCursor | E::InvalidLimit | E::InvalidDetails(_) => StatusCode::BAD_REQUEST,
            E::StripeUnavailable(_) => StatusCode::BAD_GATEWAY,
        };
        let message = match &e {
            E::StripeUnavailable(cause) => {
                tracing::warn!(error = %cause, "invoices: Stripe failed");
                "Stripe could not be reached. Please try again.".to_owned()
            }
            other => other.to_string(),
        };
        Self::new(status, e.code(), message)
    }
}

impl ApiError {
    /// Company details that do not parse: the code names the field.
    pub fn billing_details(e: DetailsError) -> Self {
        Self::bad_request(e.code(), e.to_string())
    }
}
