//! `/v1/invoices`.

use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};

use super::params::Params;
use super::{ApiResult, Shared};
use crate::error::ApiError;

pub(super) fn routes() -> Router<Shared> {
    Router::new().route("/invoices/{id}", get(get_invoice))
}

async fn get_invoice(State(st): State<Shared>, Path(id): Path<String>, p: Params) -> ApiResult {
    st.mutate(|s, _| {
        s.invoices
            .get(&id)
            .map(|i| Json(s.render_invoice(i, &p.expand)))
            .ok_or_else(|| ApiError::no_such("invoice", &id, "invoice"))
    })
}
