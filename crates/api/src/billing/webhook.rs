//! `POST /api/stripe/webhook`: Stripe's events, signature-checked over the raw body, recorded
//! once by event id, and never trusted for state: the subscription is read back from Stripe, so
//! events arriving late, twice or out of order leave the plan where Stripe says it is.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use secrecy::ExposeSecret;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;
use uuid::Uuid;

use super::signature::{self, SignatureError};
use super::stripe::StripeFailure;
use super::{fulfil, is_stripe_id};
use crate::error::{ApiError, ApiResult};
use crate::extract::AppJson;
use crate::state::AppState;
use crate::store::EventReceipt;

#[derive(Serialize, ToSchema)]
pub struct WebhookAnswer {
    pub received: bool,
}

/// What an event asks us to look at again.
#[derive(Debug, PartialEq, Eq)]
enum Subject {
    CheckoutSession(String),
    Subscription(String),
    Nothing,
}

fn subject(kind: &str, object: &Value) -> Subject {
    let id = |v: &Value| v.as_str().map(str::to_owned);
    let found = match kind {
        "checkout.session.completed" | "checkout.session.async_payment_succeeded" => {
            id(&object["id"]).map(Subject::CheckoutSession)
        }
        k if k.starts_with("customer.subscription.") => {
            id(&object["id"]).map(Subject::Subscription)
        }
        k if k.starts_with("invoice.") => id(&object["subscription"])
            .or_else(|| id(&object["parent"]["subscription_details"]["subscription"]))
            .map(Subject::Subscription),
        _ => None,
    };
    found.unwrap_or(Subject::Nothing)
}

fn invalid_signature(e: SignatureError) -> ApiError {
    tracing::warn!(error = %e, "webhook refused");
    ApiError::bad_request("invalid_signature", "Invalid Stripe signature")
}

#[utoipa::path(post, path = "/api/stripe/webhook", tag = "billing",
    request_body(content = serde_json::Value, description = "Stripe's event, as Stripe sent it (the raw bytes are what is signed)", content_type = "application/json"),
    params(("Stripe-Signature" = String, Header, description = "t=<unix>,v1=<hex HMAC-SHA256 of \"t.body\">")),
    responses(
        (status = 200, body = WebhookAnswer, description = "Received (a replayed event changes nothing)"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_signature`, `invalid_payload`"),
        (status = 503, body = crate::error::ErrorBody, description = "Stripe or the database is unavailable; Stripe delivers the event again"),
    ))]
#[tracing::instrument(skip_all)]
pub async fn webhook(
    State(state): State<AppState>,
    headers: HeaderMap,
    raw: Bytes,
) -> ApiResult<AppJson<WebhookAnswer>> {
    let header = headers
        .get("stripe-signature")
        .and_then(|v| v.to_str().ok())
        .ok_or(SignatureError::Malformed)
        .map_err(invalid_signature)?;
    let now = state.clock.now();
    signature::verify(
        state.settings.stripe.webhook_secret.expose_secret(),
        header,
        &raw,
        now.unix_timestamp(),
    )
    .map_err(invalid_signature)?;

    let event: Value = serde_json::from_slice(&raw).map_err(|_| invalid_payload())?;
    let (Some(event_id), Some(kind)) = (event["id"].as_str(), event["type"].as_str()) else {
        return Err(invalid_payload());
    };
    if event_id.is_empty() || event_id.len() > 255 {
        return Err(invalid_payload());
    }
    if state
        .store
        .receive_webhook_event(event_id, kind, now)
        .await?
        == EventReceipt::AlreadyProcessed
    {
        tracing::info!(event_id, kind, "webhook replay ignored");
        return Ok(AppJson(WebhookAnswer { received: true }));
    }
    // The customer the event names only picks the lock (and the account the event is listed
    // under until processing finds better); what is stored comes from Stripe.
    let _serialised = match event["data"]["object"]["customer"].as_str() {
        Some(c) => match state.store.user_of_customer(c).await? {
            Some(user) => {
                state.store.link_webhook_event_user(event_id, user).await?;
                Some(state.billing_locks.lock(user).await)
            }
            None => None,
        },
        None => None,
    };
    match process(&state, event_id, &subject(kind, &event["data"]["object"])).await {
        Ok(note) => {
            tracing::info!(event_id, kind, note, "webhook processed");
            state
                .store
                .finish_webhook_event(event_id, state.clock.now(), None)
                .await?;
            Ok(AppJson(WebhookAnswer { received: true }))
        }
        Err(e) => {
            tracing::warn!(event_id, kind, error = %e, "webhook processing failed; Stripe will retry");
            state
                .store
                .finish_webhook_event(event_id, state.clock.now(), Some(&e.to_string()))
                .await?;
            Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "unavailable",
                "The event could not be processed now. Please deliver it again.",
            ))
        }
    }
}

fn invalid_payload() -> ApiError {
    ApiError::bad_request("invalid_payload", "The event is not a Stripe event")
}

#[derive(Debug, thiserror::Error)]
enum ProcessError {
    #[error(transparent)]
    Stripe(#[from] StripeFailure),
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}

/// Reads the subject back from Stripe and fulfils it, noting on the event the account it was
/// about. Returns a note for the log.
async fn process(
    state: &AppState,
    event_id: &str,
    subject: &Subject,
) -> Result<&'static str, ProcessError> {
    match subject {
        Subject::Nothing => Ok("not an event we act on"),
        Subject::CheckoutSession(id) if !is_stripe_id(id) => Ok("malformed session id"),
        Subject::Subscription(id) if !is_stripe_id(id) => Ok("malformed subscription id"),
        Subject::CheckoutSession(id) => {
            let session = match state.stripe.checkout_session(id).await {
                Err(StripeFailure::NotFound) => return Ok("unknown checkout session"),
                other => other?,
            };
            let Some(record) = session.subscription.as_ref() else {
                return Ok("checkout session without a subscription");
            };
            if !(session.complete && session.paid) {
                return Ok("checkout session not paid");
            }
            let by_customer = match &session.customer_id {
                Some(c) => state.store.user_of_customer(c).await?,
                None => None,
            };
            let by_metadata = session
                .metadata_user_id
                .as_deref()
                .and_then(|s| s.parse::<Uuid>().ok());
            let user = match (by_customer, by_metadata) {
                (Some(a), Some(b)) if a != b => return Ok("session names two different users"),
                (Some(a), _) => a,
                (None, Some(b)) => {
                    if state.store.user_by_id(b).await?.is_none() {
                        return Ok("session of a deleted user");
                    }
                    if !session.belongs_to(b, None) {
                        return Ok("session references disagree");
                    }
                    // A checkout started outside our API (a payment link, the dashboard): remember
                    // the customer so the subscription's later events find the user.
                    state
                        .store
                        .save_stripe_customer(b, &record.customer_id, state.clock.now())
                        .await?;
                    b
                }
                (None, None) => return Ok("session of no user of ours"),
            };
            state.store.link_webhook_event_user(event_id, user).await?;
            fulfil(state, user, record).await?;
            Ok("checkout fulfilled")
        }
        Subject::Subscription(id) => {
            let record = match state.stripe.subscription(id).await {
                Err(StripeFailure::NotFound) => return Ok("unknown subscription"),
                other => other?,
            };
            let Some(user) = state.store.user_of_customer(&record.customer_id).await? else {
                return Ok("subscription of no customer of ours");
            };
            state.store.link_webhook_event_user(event_id, user).await?;
            fulfil(state, user, &record).await?;
            Ok("subscription synchronised")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn events_name_what_to_read_back() {
        assert_eq!(
            subject("checkout.session.completed", &json!({"id": "cs_1"})),
            Subject::CheckoutSession("cs_1".into())
        );
        assert_eq!(
            subject("customer.subscription.deleted", &json!({"id": "sub_1"})),
            Subject::Subscription("sub_1".into())
        );
        assert_eq!(
            subject(
                "invoice.paid",
                &json!({"id": "in_1", "parent": {"subscription_details": {"subscription": "sub_2"}}})
            ),
            Subject::Subscription("sub_2".into())
        );
        assert_eq!(
            subject(
                "invoice.payment_failed",
                &json!({"id": "in_1", "subscription": "sub_3"})
            ),
            Subject::Subscription("sub_3".into())
        );
        assert_eq!(
            subject("customer.created", &json!({"id": "cus_1"})),
            Subject::Nothing
        );
        assert_eq!(
            subject("invoice.paid", &json!({"id": "in_1"})),
            Subject::Nothing
        );
    }
}
