//! Billing over HTTP: checkout, the success page's confirmation, the subscription, the billing
//! portal, the invoices and Stripe's webhooks. The flows, their rules and every Stripe call live in
//! `closewise_core::billing`; these handlers extract, call the service and answer (its errors
//! map to HTTP in `crate::error`).

pub mod cancel;
pub mod interval;
pub mod invoices;
pub mod routes;
pub mod webhook;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(routes::checkout))
        .routes(routes!(routes::confirm))
        .routes(routes!(routes::subscription))
        .routes(routes!(routes::portal))
        .routes(routes!(interval::preview))
        .routes(routes!(interval::change))
        .routes(routes!(cancel::cancel))
        .routes(routes!(cancel::resume))
        .routes(routes!(cancel::reasons))
        .routes(routes!(invoices::invoices))
        .routes(routes!(webhook::webhook))
}
