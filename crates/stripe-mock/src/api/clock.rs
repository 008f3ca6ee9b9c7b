//! `/_mock/...`: the test clock and a health check (not Stripe's API).

use axum::body::to_bytes;
use axum::extract::{Request, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

use super::params::int_value;
use super::{Shared, MAX_BODY};
use crate::error::ApiError;
use crate::form;

pub(super) fn routes() -> Router<Shared> {
    Router::new()
        .route("/_mock/health", get(|| async { Json(json!({"ok": true})) }))
        .route("/_mock/clock", get(get_clock))
        .route("/_mock/clock/advance", post(advance_clock))
        .route("/_mock/sent_invoices", get(sent_invoices))
}

/// The invoice e-mails sent so far (`collection_method=send_invoice`), newest first.
async fn sent_invoices(State(st): State<Shared>) -> Json<Value> {
    Json(st.mutate(|s, _| s.render_sent_invoices()))
}

async fn get_clock(State(st): State<Shared>) -> Json<Value> {
    Json(json!({ "now": st.clock.now() }))
}

/// `seconds=N` or `to=<unix>`, as a form or JSON body.
async fn advance_clock(State(st): State<Shared>, req: Request) -> Response {
    let is_json = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    let query = req.uri().query().unwrap_or_default().as_bytes().to_vec();
    let Ok(body) = to_bytes(req.into_body(), MAX_BODY).await else {
        return ApiError::invalid_request("Could not read the request body.").into_response();
    };
    let mut params = form::parse(&query);
    let parsed = if is_json {
        serde_json::from_slice::<Value>(&body).ok()
    } else {
        Some(form::parse(&body))
    };
    let Some(Value::Object(body)) = parsed else {
        return ApiError::invalid_request("Send `seconds` or `to` as JSON or a form.")
            .into_response();
    };
    if let Value::Object(m) = &mut params {
        m.extend(body);
    }
    let number = |name: &str| -> Result<Option<i64>, ApiError> {
        match params.get(name) {
            None => Ok(None),
            Some(Value::Number(n)) => n
                .as_i64()
                .map(Some)
                .ok_or_else(|| ApiError::invalid_param(name, "Invalid integer")),
            Some(Value::String(s)) => int_value(Some(s), name),
            Some(_) => Err(ApiError::invalid_param(name, "Invalid integer")),
        }
    };
    let seconds = match (number("seconds"), number("to")) {
        (Err(e), _) | (_, Err(e)) => return e.into_response(),
        (Ok(Some(s)), Ok(None)) => s,
        (Ok(None), Ok(Some(to))) => to - st.clock.now(),
        (Ok(None), Ok(None)) => return ApiError::missing_param("seconds").into_response(),
        (Ok(Some(_)), Ok(Some(_))) => {
            return ApiError::invalid_request("Send either `seconds` or `to`, not both.")
                .into_response()
        }
    };
    if seconds < 0 {
        return ApiError::invalid_param("seconds", "The clock only moves forward.").into_response();
    }
    let before = st.mutate(|s, _| s.events.len());
    let now = st.advance_clock(seconds);
    let events: Vec<Value> = st.mutate(|s, _| {
        s.events[before..]
            .iter()
            .map(|e| json!({ "id": e.id, "type": e.kind }))
            .collect()
    });
    Json(json!({ "now": now, "events": events })).into_response()
}
