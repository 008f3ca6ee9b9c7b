//! `/v1/payment_methods`.

use axum::extract::{Path, State};
use axum::Json;

use super::params::Params;
use super::{ApiResult, Endpoint, Routes, Shared};
use crate::error::ApiError;

static RETRIEVE: Endpoint = Endpoint::get("/v1/payment_methods/{id}", &[]);

pub(super) fn routes(r: Routes) -> Routes {
    r.add(&RETRIEVE, get_payment_method)
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
