//! An operator's replay of a Stripe event (`closewise webhooks replay`): fetched from Stripe again
//! (so it needs no signature) and handled as a delivery to the webhook would be: idempotent by
//! event id, the subject read back from Stripe and fulfilled; then recorded as `webhook.replay`.

use serde_json::{json, Value};
use uuid::Uuid;

use super::{Billing, EventError, StripeFailure};
use crate::actor::Actor;
use crate::store::WebhookEventRow;

#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// Stripe could not give the event.
    #[error("cannot fetch the event from Stripe: {0}")]
    Stripe(StripeFailure),
    /// What Stripe gave has no id or type.
    #[error("the event has no id or type")]
    Invalid,
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// What a replay did.
#[derive(Debug, Clone)]
pub struct Replayed {
    pub kind: String,
    /// The account the event is about, when known.
    pub user_email: Option<String>,
    pub processed: bool,
    /// Why it was not processed, as recorded on the event.
    pub error: Option<String>,
}

impl Billing {
    /// The event as received, if it was.
    pub async fn webhook_event(
        &self,
        event_id: &str,
    ) -> Result<Option<WebhookEventRow>, sqlx::Error> {
        self.store.webhook_event(event_id).await
    }

    pub async fn replay_event(
        &self,
        actor: &Actor,
        event_id: &str,
    ) -> Result<Replayed, ReplayError> {
        let event = self
            .stripe
            .event(event_id)
            .await
            .map_err(ReplayError::Stripe)?;
        let kind = event["type"].as_str().unwrap_or("unknown").to_owned();
        let answer = match self.handle_event(&event).await {
            Err(EventError::Invalid) => return Err(ReplayError::Invalid),
            other => other,
        };
        let row = self.store.webhook_event(event_id).await?;
        let processed = answer.is_ok() && row.as_ref().is_some_and(|r| r.processed_at.is_some());
        let error = row.as_ref().and_then(|r| r.error.clone());
        let user = self.user_of_event(&event).await?;
        let details =
            json!({ "event_id": event_id, "type": kind, "processed": processed, "error": error });
        let (about, email) = (user.as_ref().map(|u| u.0), user.map(|u| u.1));
        let audit = actor.audit(
            "webhook.replay",
            about,
            email.clone(),
            details,
            self.clock.now(),
        );
        self.store.record_audit(&audit).await?;
        Ok(Replayed {
            kind,
            user_email: email,
            processed,
            error,
        })
    }

    /// The account an event is about, when we can tell: by its Stripe customer, else by the user
    /// id our checkout sessions carry.
    async fn user_of_event(&self, event: &Value) -> Result<Option<(Uuid, String)>, sqlx::Error> {
        let object = &event["data"]["object"];
        let customer = object["customer"]
            .as_str()
            .or_else(|| object["customer"]["id"].as_str());
        let mut id = match customer {
            Some(c) => self.store.user_of_customer(c).await?,
            None => None,
        };
        if id.is_none() {
            id = object["metadata"]["user_id"]
                .as_str()
                .and_then(|s| s.parse().ok());
        }
        Ok(match id {
            Some(id) => self.store.user_by_id(id).await?.map(|u| (u.id, u.email)),
            None => None,
        })
    }
}
