//! `/v1/billing_portal/sessions`.

use axum::extract::State;
use axum::Json;

use super::params::{valid_url, Params};
use super::{ApiResult, Endpoint, Routes, Shared};
use crate::error::ApiError;
use crate::store::{new_id, PortalSession};

static CREATE: Endpoint =
    Endpoint::post("/v1/billing_portal/sessions", &["customer", "return_url"]);

pub(super) fn routes(r: Routes) -> Routes {
    r.add(&CREATE, create_portal_session)
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
