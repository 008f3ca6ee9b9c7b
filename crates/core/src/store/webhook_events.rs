//! The Stripe webhook events received: each noted on arrival (a replay of one processed changes
//! nothing), finished with its outcome, linked to the account it concerned, and listed for operators.

use time::OffsetDateTime;
use uuid::Uuid;

use super::billing::{EventReceipt, WebhookEventRow};
use super::{dispatch, Store};

impl Store {
    /// Notes a webhook event's arrival. Says whether to process it: a replay of an event that
    /// was processed changes nothing.
    pub async fn receive_webhook_event(
        &self,
        event_id: &str,
        kind: &str,
        now: OffsetDateTime,
    ) -> Result<EventReceipt, sqlx::Error> {
        dispatch!(self, |p| {
            let processed: Option<OffsetDateTime> = sqlx::query_scalar(
                "INSERT INTO webhook_events (event_id, type, received_at, attempts) VALUES ($1, $2, $3, 1) \
                 ON CONFLICT (event_id) DO UPDATE SET attempts = webhook_events.attempts + 1 \
                 RETURNING processed_at",
            )
            .bind(event_id)
            .bind(kind)
            .bind(now)
            .fetch_one(p)
            .await?;
            Ok(if processed.is_some() {
                EventReceipt::AlreadyProcessed
            } else {
                EventReceipt::Process
            })
        })
    }

    /// Marks the event processed, or records why it failed (Stripe will deliver it again).
    pub async fn finish_webhook_event(
        &self,
        event_id: &str,
        now: OffsetDateTime,
        error: Option<&str>,
    ) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| {
            match error {
                None => sqlx::query(
                    "UPDATE webhook_events SET processed_at = COALESCE(processed_at, $2), error = NULL \
                     WHERE event_id = $1",
                )
                .bind(event_id)
                .bind(now)
                .execute(p)
                .await?,
                Some(e) => sqlx::query("UPDATE webhook_events SET error = $2 WHERE event_id = $1")
                    .bind(event_id)
                    .bind(e)
                    .execute(p)
                    .await?,
            };
            Ok(())
        })
    }

    /// Notes the account the event was about, once processing found it (the latest finding wins).
    pub async fn link_webhook_event_user(
        &self,
        event_id: &str,
        user_id: Uuid,
    ) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| {
            sqlx::query("UPDATE webhook_events SET user_id = $2 WHERE event_id = $1")
                .bind(event_id)
                .bind(user_id)
                .execute(p)
                .await?;
            Ok(())
        })
    }

    /// The newest webhook events about one account first.
    pub async fn webhook_events_for_user(
        &self,
        user_id: Uuid,
        limit: i64,
    ) -> Result<Vec<WebhookEventRow>, sqlx::Error> {
        dispatch!(self, |p| {
            sqlx::query_as::<_, WebhookEventRow>(
                "SELECT event_id, type, received_at, processed_at, attempts, error \
                 FROM webhook_events WHERE user_id = $1 \
                 ORDER BY received_at DESC, event_id DESC LIMIT $2",
            )
            .bind(user_id)
            .bind(limit)
            .fetch_all(p)
            .await
        })
    }

    /// The newest webhook events first.
    pub async fn webhook_events(&self, limit: i64) -> Result<Vec<WebhookEventRow>, sqlx::Error> {
        dispatch!(self, |p| {
            sqlx::query_as::<_, WebhookEventRow>(
            "SELECT event_id, type, received_at, processed_at, attempts, error FROM webhook_events \
             ORDER BY received_at DESC, event_id DESC LIMIT $1"
        )
        .bind(limit)
        .fetch_all(p)
        .await
        })
    }
}
