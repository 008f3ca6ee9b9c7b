//! The `/v1` REST subset in Stripe's wire format, and the `/_mock` control endpoints. Each
//! resource owns its routes; [`router`] lists them in one place.

use std::sync::Arc;

use axum::http::Method;
use axum::middleware::from_fn_with_state;
use axum::{Json, Router};
use serde_json::Value;

use crate::error::ApiError;
use crate::AppState;

mod billing_portal;
mod catalogue;
mod checkout;
mod clock;
mod customers;
mod events;
mod invoices;
mod list;
mod middleware;
mod params;
mod payment_methods;
mod subscriptions;

type Shared = Arc<AppState>;
type ApiResult = Result<Json<Value>, ApiError>;

const MAX_BODY: usize = 1 << 20;

pub fn router(state: Shared) -> Router {
    let v1 = Router::new()
        .merge(customers::routes())
        .merge(catalogue::routes())
        .merge(checkout::routes())
        .merge(subscriptions::routes())
        .merge(payment_methods::routes())
        .merge(invoices::routes())
        .merge(billing_portal::routes())
        .merge(events::routes())
        .fallback(unknown_route)
        .layer(from_fn_with_state(state.clone(), middleware::idempotency))
        .layer(from_fn_with_state(state.clone(), middleware::authenticate))
        .with_state(state);
    Router::new().nest("/v1", v1)
}

pub fn mock_router(state: Shared) -> Router {
    clock::routes().with_state(state)
}

async fn unknown_route(method: Method, uri: axum::extract::OriginalUri) -> ApiError {
    ApiError::unknown_route(method.as_str(), uri.0.path())
}
