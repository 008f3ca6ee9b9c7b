//! What every `/v1` request goes through: the API key, a `Request-Id`, and `Idempotency-Key`.

use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::{Shared, MAX_BODY};
use crate::error::ApiError;
use crate::store::new_id;

/// Stripe keeps idempotency keys for at least 24 hours.
const IDEMPOTENCY_TTL: i64 = 24 * 3600;

/// Checks `Authorization: Bearer <key>` (or Basic with the key as user name, as Stripe allows)
/// and gives every request a `Request-Id`.
pub(super) async fn authenticate(
    State(state): State<Shared>,
    mut req: Request,
    next: Next,
) -> Response {
    let request_id = new_id("req");
    let provided = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(api_key_from_header);
    let result = match provided {
        None => Err(ApiError::unauthorized(
            "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
        )),
        Some(key) if key == state.config.secret_key => Ok(()),
        Some(key) => Err(ApiError::unauthorized(format!(
            "Invalid API Key provided: {}",
            mask_key(&key)
        ))),
    };
    let mut response = match result {
        Ok(()) => {
            req.extensions_mut().insert(RequestId(request_id.clone()));
            next.run(req).await
        }
        Err(e) => e.into_response(),
    };
    if let Ok(v) = HeaderValue::from_str(&request_id) {
        response.headers_mut().insert("request-id", v);
    }
    response.headers_mut().insert(
        "stripe-version",
        HeaderValue::from_static(crate::API_VERSION),
    );
    response
}

fn api_key_from_header(value: &str) -> Option<String> {
    if let Some(token) = value.strip_prefix("Bearer ") {
        return Some(token.trim().to_owned());
    }
    if let Some(basic) = value.strip_prefix("Basic ") {
        use base64::Engine;
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(basic.trim())
            .ok()?;
        let decoded = String::from_utf8(decoded).ok()?;
        return Some(decoded.split(':').next().unwrap_or_default().to_owned());
    }
    None
}

/// Stripe shows the first 8 and last 4 characters: `sk_test_****ocal`.
fn mask_key(key: &str) -> String {
    let chars: Vec<char> = key.chars().collect();
    if chars.len() <= 12 {
        return "*".repeat(chars.len());
    }
    let head: String = chars[..8].iter().collect();
    let tail: String = chars[chars.len() - 4..].iter().collect();
    format!("{head}{}{tail}", "*".repeat(chars.len() - 12))
}

#[derive(Clone)]
pub(super) struct RequestId(pub(super) String);

/// Same `Idempotency-Key` (on POST/DELETE) + same method, path and body: the first answer is
/// replayed with `Idempotent-Replayed: true`. Same key with a different request: 400.
pub(super) async fn idempotency(State(state): State<Shared>, req: Request, next: Next) -> Response {
    let key = req
        .headers()
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let Some(key) = key.filter(|_| matches!(*req.method(), Method::POST | Method::DELETE)) else {
        return next.run(req).await;
    };
    let (parts, body) = req.into_parts();
    let Ok(bytes) = to_bytes(body, MAX_BODY).await else {
        return ApiError::invalid_request("Request body too large.").into_response();
    };
    let fingerprint = format!(
        "{} {}\n{}",
        parts.method,
        parts.uri.path(),
        String::from_utf8_lossy(&bytes)
    );
    let stored = state.mutate(|store, now| {
        store
            .idempotency
            .retain(|_, r| now - r.created < IDEMPOTENCY_TTL);
        store.idempotency.get(&key).cloned()
    });
    if let Some(stored) = stored {
        if stored.fingerprint != fingerprint {
            let mut e = ApiError::invalid_request(format!(
                "Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '{key}' if you meant to execute a different request."
            ));
            e.kind = "idempotency_error";
            return e.into_response();
        }
        let mut response = Response::new(Body::from(stored.body));
        *response.status_mut() = StatusCode::from_u16(stored.status).unwrap_or(StatusCode::OK);
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        headers.insert("idempotent-replayed", HeaderValue::from_static("true"));
        if let Ok(v) = HeaderValue::from_str(&key) {
            headers.insert("idempotency-key", v);
        }
        return response;
    }
    if !state
        .idempotency_in_flight
        .lock()
        .expect("lock")
        .insert(key.clone())
    {
        let mut e = ApiError::invalid_request(
            "There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): Please try again later.",
        );
        e.status = StatusCode::CONFLICT;
        e.kind = "idempotency_error";
        return e.into_response();
    }
    let req = Request::from_parts(parts, Body::from(bytes));
    let response = next.run(req).await;
    let (mut parts, body) = response.into_parts();
    let bytes = to_bytes(body, usize::MAX).await.unwrap_or_default();
    // Like Stripe, server errors are not saved: retrying them may succeed.
    if !parts.status.is_server_error() {
        let stored = crate::store::StoredResponse {
            created: state.clock.now(),
            fingerprint,
            status: parts.status.as_u16(),
            body: String::from_utf8_lossy(&bytes).into_owned(),
        };
        state.mutate(|store, _| store.idempotency.insert(key.clone(), stored));
    }
    state
        .idempotency_in_flight
        .lock()
        .expect("lock")
        .remove(&key);
    if let Ok(v) = HeaderValue::from_str(&key) {
        parts.headers.insert("idempotency-key", v);
    }
    Response::from_parts(parts, Body::from(bytes))
}
