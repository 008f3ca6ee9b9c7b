//! `/v1/payment_methods`.

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};

use super::params::Params;
use super::{ApiResult, Shared};
use crate::error::ApiError;

pub(super) fn routes() -> Router<Shared> {
    Router::new().route("/payment_methods/{id}", get(get_payment_method))
}

async fn get_payment_method(
    State(st): State<Shared>,
    Path(id): Path<String>,
    p: Params,
) -> ApiResult {
    st.mutate(|s, _| {
        s.payment_methods
            .get(&id)
            .map(|pm| Json(s.render_payment_method(pm, &p.expand)))
            .ok_or_else(|| ApiError::no_such("PaymentMethod", &id, "payment_method"))
    })
}
