//! `POST /api/stripe/webhook`: Stripe's events, handed as they came (the raw body and the
//! `Stripe-Signature` header) to the billing service, which checks the signature, records each
//! event once by id and reads its subject back from Stripe
//! (`closewise_core::billing::Billing::receive_webhook`).

use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use serde::Serialize;
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
    let signature = headers
        .get("stripe-signature")
        .map(|v| v.to_str().unwrap_or_default());
    // A replayed event (`AlreadyProcessed`) is received as the first delivery was.
    state.billing.receive_webhook(signature, &raw).await?;
    Ok(AppJson(WebhookResponse { received: true }))
}
