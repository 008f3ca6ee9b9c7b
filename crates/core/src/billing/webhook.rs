//! Stripe's webhook as it arrives: the `Stripe-Signature` header checked over the raw body with
//! the endpoint's secret (`signature`), then the event parsed and handled (`handle_event`).

use secrecy::{ExposeSecret, SecretString};

use super::signature::{self, SignatureError};
use super::{Billing, EventError, EventOutcome};

/// Why a delivery was not received.
#[derive(Debug, thiserror::Error)]
pub enum WebhookError {
    /// The signature is missing, malformed, stale or wrong (or no secret is configured).
    #[error(transparent)]
    Signature(#[from] SignatureError),
    /// Signed, but not an event, or its processing failed.
    #[error(transparent)]
    Event(#[from] EventError),
}

impl Billing {
    /// Checks Stripe's webhooks with this endpoint secret (`whsec_…`).
    pub fn with_webhook_secret(mut self, secret: SecretString) -> Self {
        self.webhook_secret = Some(secret);
        self
    }

    /// A webhook delivery: `signature` is the `Stripe-Signature` header as sent (`None` when
    /// missing), `raw` the body as sent. Verified at the clock's now, then handled once by event
    /// id; nothing is recorded for a delivery whose signature fails.
    pub async fn receive_webhook(
        &self,
        signature: Option<&str>,
        raw: &[u8],
    ) -> Result<EventOutcome, WebhookError> {
        let header = signature.ok_or(SignatureError::Malformed)?;
        let secret = self.webhook_secret.as_ref().ok_or_else(|| {
            tracing::error!("a webhook arrived but no webhook secret is configured");
            SignatureError::Mismatch
        })?;
        let now = self.clock.now().unix_timestamp();
        signature::verify(secret.expose_secret(), header, raw, now)?;
        let event: serde_json::Value =
            serde_json::from_slice(raw).map_err(|_| EventError::Invalid)?;
        Ok(self.handle_event(&event).await?)
    }
}
