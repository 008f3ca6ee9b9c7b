//! `/v1/billing_portal/sessions`.

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};

use super::params::{valid_url, Params};
use super::{ApiResult, Shared};
use crate::error::ApiError;
use crate::store::{new_id, PortalSession};

pub(super) fn routes() -> Router<Shared> {
    Router::new().route("/billing_portal/sessions", post(create_portal_session))
}

async fn create_portal_session(State(st): State<Shared>, p: Params) -> ApiResult {
    let customer = p.required("customer")?;
    let return_url = p.str("return_url")?.filter(|s| !s.is_empty());
    if let Some(url) = &return_url {
        if !valid_url(url) {
            return Err(ApiError::invalid_param("return_url", "Not a valid URL"));
        }
    }
    st.mutate(|s, now| {
        s.customer(&customer, "customer")?;
        let id = format!("bps_{}", new_id("x").trim_start_matches("x_"));
        let session = PortalSession {
            url: format!("{}/p/session/{id}", st.public_url()),
            id: id.clone(),
            created: now,
            customer,
            return_url,
        };
        s.portal_sessions.insert(id.clone(), session);
        Ok(Json(s.render_portal(&s.portal_sessions[&id])))
    })
}
