//! `POST /api/stripe/webhook`: Stripe's events, signature-checked over the raw body here, then
//! handed to the billing service, which records each once by event id and reads its subject back
//! from Stripe (`closewise_core::billing::Billing::handle_event`).

use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use closewise_core::billing::signature::{self, SignatureError};
use closewise_core::billing::EventError;
use secrecy::ExposeSecret;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::error::ApiResult;
use crate::extract::AppJson;
use crate::state::AppState;

#[derive(Serialize, ToSchema)]
#[schema(as = WebhookAnswer)]
pub struct WebhookResponse {
    pub received: bool,
}

#[utoipa::path(post, path = "/api/stripe/webhook", tag = "billing",
    request_body(content = serde_json::Value, description = "Stripe's event, as Stripe sent it (the raw bytes are what is signed)", content_type = "application/json"),
    params(("Stripe-Signature" = String, Header, description = "t=<unix>,v1=<hex HMAC-SHA256 of \"t.body\">")),
    responses(
        (status = 200, body = WebhookResponse, description = "Received (a replayed event changes nothing)"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_signature`, `invalid_payload`"),
        (status = 503, body = crate::error::ErrorBody, description = "Stripe or the database is unavailable; Stripe delivers the event again"),
    ))]
#[tracing::instrument(skip_all)]
pub async fn webhook(
    State(state): State<AppState>,
    headers: HeaderMap,
    raw: Bytes,
) -> ApiResult<AppJson<WebhookResponse>> {
    let header = headers
        .get("stripe-signature")
        .and_then(|v| v.to_str().ok())
        .ok_or(SignatureError::Malformed)?;
    let now = state.clock.now();
    signature::verify(
        state.settings.stripe.webhook_secret.expose_secret(),
        header,
        &raw,
        now.unix_timestamp(),
    )?;

    let event: Value = serde_json::from_slice(&raw).map_err(|_| EventError::Invalid)?;
    // A replayed event (`AlreadyProcessed`) is received as the first delivery was.
    state.billing.handle_event(&event).await?;
    Ok(AppJson(WebhookResponse { received: true }))
}
