//! The `/v1` REST subset in Stripe's wire format, and the `/_mock` control endpoints. Each
//! resource owns its routes, declared with the parameters they take ([`Endpoint`]); [`all`]
//! lists the resources in one place.

use std::sync::Arc;

use axum::handler::Handler;
use axum::http::Method;
use axum::middleware::from_fn_with_state;
use axum::routing::{on, MethodFilter};
use axum::{Extension, Json, Router};
use serde_json::Value;

use crate::error::ApiError;
use crate::AppState;

mod billing_portal;
mod catalogue;
mod checkout;
mod clock;
mod coupons;
mod customers;
mod endpoint;
mod events;
mod invoices;
mod list;
mod middleware;
mod params;
mod payment_methods;
mod promotion_codes;
mod subscription_items;
mod subscriptions;
mod tax_ids;

type Shared = Arc<AppState>;
type ApiResult = Result<Json<Value>, ApiError>;

pub use endpoint::{Endpoint, EVERY_ENDPOINT, EVERY_LIST};

const MAX_BODY: usize = 1 << 20;

/// The `/v1` routes being built, and the endpoints they serve.
#[derive(Default)]
struct Routes {
    router: Router<Shared>,
    endpoints: Vec<Endpoint>,
}

impl Routes {
    /// Serves `endpoint` with `handler`; the handler's [`params::Params`] are checked against
    /// the endpoint's list.
    fn add<H, T>(mut self, endpoint: &'static Endpoint, handler: H) -> Self
    where
        H: Handler<T, Shared>,
        T: 'static,
    {
        let filter = match endpoint.method {
            "GET" => MethodFilter::GET,
            "POST" => MethodFilter::POST,
            "DELETE" => MethodFilter::DELETE,
            other => unreachable!("no {other} endpoints"),
        };
        let path = endpoint.path.strip_prefix("/v1").expect("under /v1");
        self.router = self
            .router
            .route(path, on(filter, handler).layer(Extension(endpoint)));
        self.endpoints.push(*endpoint);
        self
    }
}

/// Every resource's routes.
fn all() -> Routes {
    let routes = Routes::default();
    let routes = customers::routes(routes);
    let routes = tax_ids::routes(routes);
    let routes = catalogue::routes(routes);
    let routes = checkout::routes(routes);
    let routes = subscriptions::routes(routes);
    let routes = subscription_items::routes(routes);
    let routes = payment_methods::routes(routes);
    let routes = invoices::routes(routes);
    let routes = billing_portal::routes(routes);
    let routes = coupons::routes(routes);
    let routes = promotion_codes::routes(routes);
    events::routes(routes)
}

/// Every `/v1` endpoint the mock serves, with the parameters it takes.
pub fn endpoints() -> Vec<Endpoint> {
    all().endpoints
}

pub fn router(state: Shared) -> Router {
    let v1 = all()
        .router
        .method_not_allowed_fallback(unknown_route)
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
