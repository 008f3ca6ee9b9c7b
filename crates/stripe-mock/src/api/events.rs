//! `/v1/events`.

use axum::extract::{Path, State};
use axum::Json;
use serde_json::Value;

use super::list::page;
use super::params::Params;
use super::{ApiResult, Endpoint, Routes, Shared};
use crate::error::ApiError;

static LIST: Endpoint = Endpoint::list("/v1/events", &["type", "types[]"]);
static RETRIEVE: Endpoint = Endpoint::get("/v1/events/{id}", &[]);

pub(super) fn routes(r: Routes) -> Routes {
    r.add(&LIST, list_events).add(&RETRIEVE, get_event)
}

async fn list_events(State(st): State<Shared>, p: Params) -> ApiResult {
    let kind = p.str("type")?;
    let types: Option<Vec<String>> = match p.values.get("types") {
        Some(Value::Array(items)) => Some(
            items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect(),
        ),
        _ => None,
    };
    st.mutate(|s, _| {
        let matches = |event_type: &str| {
            let by_type = kind.as_deref().is_none_or(|k| match k.strip_suffix(".*") {
                Some(prefix) => event_type.starts_with(&format!("{prefix}.")),
                None => event_type == k,
            });
            by_type
                && types
                    .as_ref()
                    .is_none_or(|t| t.iter().any(|t| t == event_type))
        };
        // Newest first, like Stripe: events are kept in creation order.
        page(
            &p,
            "/v1/events",
            s.events.iter().rev(),
            |e| matches(&e.kind),
            |e, _| s.render_event(e),
        )
    })
}

async fn get_event(State(st): State<Shared>, Path(id): Path<String>, _p: Params) -> ApiResult {
    st.mutate(|s, _| {
        s.events
            .iter()
            .find(|e| e.id == id)
            .map(|e| Json(s.render_event(e)))
            .ok_or_else(|| ApiError::no_such("event", &id, "id"))
    })
}
