//! The outbox as operators see it: the list, reading one mail (recorded first, since the text
//! holds live links), and queueing an undelivered one again.

use serde_json::json;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::actor::Actor;
use crate::clock::Clock;
use crate::store::mail::MailFilter;
use crate::store::{MailRow, Store};

#[derive(Debug, thiserror::Error)]
pub enum OutboxError {
    #[error("no mail with id {0}")]
    NotFound(Uuid),
    /// Delivered already (at the time given): there is nothing to retry.
    #[error("mail {0} was already delivered")]
    AlreadySent(Uuid, OffsetDateTime),
    /// Delivered between the read and the retry.
    #[error("mail {0} was delivered meanwhile")]
    SentMeanwhile(Uuid),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// Where a mail is: sent, failed for good, or waiting for the worker.
pub fn state(m: &MailRow) -> &'static str {
    if m.sent_at.is_some() {
        "sent"
    } else if m.failed_at.is_some() {
        "failed"
    } else {
        "pending"
    }
}

#[derive(Clone)]
pub struct Outbox {
    store: Store,
    clock: Clock,
}

impl Outbox {
    pub fn new(store: Store, clock: Clock) -> Self {
        Outbox { store, clock }
    }

    /// The newest mails first; `to` an address already lower-cased.
    pub async fn list(
        &self,
        to: Option<&str>,
        filter: MailFilter,
        limit: i64,
    ) -> Result<Vec<MailRow>, sqlx::Error> {
        self.store.list_mail(to, filter, limit).await
    }

    /// One mail, without recording the read (its state only: callers that print the text use
    /// [`Outbox::read`]).
    pub async fn get(&self, id: Uuid) -> Result<MailRow, OutboxError> {
        self.store
            .get_mail(id)
            .await?
            .ok_or(OutboxError::NotFound(id))
    }

    /// One mail with its text; the read is recorded first, and nothing is returned when it
    /// cannot be.
    pub async fn read(&self, actor: &Actor, id: Uuid) -> Result<MailRow, OutboxError> {
        let m = self.get(id).await?;
        let about = self.store.user_by_email(&m.to_email).await?.map(|u| u.id);
        let audit = actor.audit(
            "mail.show",
            about,
            Some(m.to_email.clone()),
            json!({ "mail_id": m.id, "kind": m.kind }),
            self.clock.now(),
        );
        self.store.record_audit(&audit).await?;
        Ok(m)
    }

    /// Queues an undelivered mail again, recorded in the same transaction; the mail as it was.
    pub async fn retry(&self, actor: &Actor, id: Uuid) -> Result<MailRow, OutboxError> {
        let m = self.get(id).await?;
        if let Some(at) = m.sent_at {
            return Err(OutboxError::AlreadySent(m.id, at));
        }
        let about = self.store.user_by_email(&m.to_email).await?.map(|u| u.id);
        let audit = actor.audit(
            "mail.retry",
            about,
            Some(m.to_email.clone()),
            json!({
                "mail_id": m.id,
                "kind": m.kind,
                "state": state(&m),
                "attempts": m.attempts,
                "last_error": m.last_error,
            }),
            self.clock.now(),
        );
        if self.store.retry_mail_audited(m.id, &audit).await? {
            Ok(m)
        } else {
            Err(OutboxError::SentMeanwhile(m.id))
        }
    }
}
