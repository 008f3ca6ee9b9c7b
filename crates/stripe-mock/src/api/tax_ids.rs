//! `/v1/customers/{id}/tax_ids`: create, retrieve, list and delete a customer's tax IDs.

use axum::extract::{Path, State};
use axum::Json;
use serde_json::json;

use super::list::page;
use super::params::Params;
use super::{ApiResult, Endpoint, Routes, Shared};

static CREATE: Endpoint = Endpoint::post("/v1/customers/{id}/tax_ids", &["type", "value"]);
static RETRIEVE: Endpoint = Endpoint::get("/v1/customers/{id}/tax_ids/{tax_id}", &[]);
static DELETE: Endpoint = Endpoint::delete("/v1/customers/{id}/tax_ids/{tax_id}", &[]);
static LIST: Endpoint = Endpoint::list("/v1/customers/{id}/tax_ids", &[]);

pub(super) fn routes(r: Routes) -> Routes {
    r.add(&CREATE, create_tax_id)
        .add(&RETRIEVE, get_tax_id)
        .add(&DELETE, delete_tax_id)
        .add(&LIST, list_tax_ids)
}

async fn create_tax_id(State(st): State<Shared>, Path(id): Path<String>, p: Params) -> ApiResult {
    let kind = p.required("type")?;
    let value = p.required("value")?;
    st.mutate(|s, now| {
        let tax_id = s.create_tax_id(&id, &kind, &value, now)?;
        let json = s.render_tax_id(&s.tax_ids[&tax_id]);
        s.emit(
            "customer.tax_id.created",
            json.clone(),
            None,
            &p.origin,
            now,
        );
        Ok(Json(json))
    })
}

async fn get_tax_id(
    State(st): State<Shared>,
    Path((id, tax_id)): Path<(String, String)>,
    _p: Params,
) -> ApiResult {
    st.mutate(|s, _| Ok(Json(s.render_tax_id(s.tax_id(&id, &tax_id)?))))
}

async fn delete_tax_id(
    State(st): State<Shared>,
    Path((id, tax_id)): Path<(String, String)>,
    p: Params,
) -> ApiResult {
    st.mutate(|s, now| {
        let json = s.render_tax_id(s.tax_id(&id, &tax_id)?);
        s.tax_ids.remove(&tax_id);
        s.emit("customer.tax_id.deleted", json, None, &p.origin, now);
        Ok(Json(
            json!({ "id": tax_id, "object": "tax_id", "deleted": true }),
        ))
    })
}

async fn list_tax_ids(State(st): State<Shared>, Path(id): Path<String>, p: Params) -> ApiResult {
    st.mutate(|s, _| {
        s.customer(&id, "id")?;
        page(
            &p,
            &format!("/v1/customers/{id}/tax_ids"),
            s.tax_ids.values(),
            |t| t.customer == id,
            |t, _| s.render_tax_id(t),
        )
    })
}
