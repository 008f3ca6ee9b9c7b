//! Stripe's events, recorded once by event id and never trusted for state: the subject is read
//! back from Stripe, so events arriving late, twice or out of order leave the plan where Stripe
//! says it is. The API calls this after checking the signature; the CLI's replay after fetching
//! the event from Stripe itself.

use serde_json::Value;
use uuid::Uuid;

use super::dunning::FollowError;
use super::{is_stripe_id, Billing, CheckoutSessionView, StripeFailure};
use crate::store::payment_failures::Payer;
use crate::store::EventReceipt;

/// What handling an event did.
#[derive(Debug, PartialEq, Eq)]
pub enum EventOutcome {
    /// The event was processed before; nothing changed.
    AlreadyProcessed,
    /// Processed now; the note says what it amounted to (for the log).
    Processed(&'static str),
}

#[derive(Debug, thiserror::Error)]
pub enum EventError {
    /// Not a Stripe event (no id or type).
    #[error("the event is not a Stripe event")]
    Invalid,
    /// Processing failed (Stripe or the database); the failure is recorded on the event and a
    /// later delivery or replay tries again.
    #[error("the event could not be processed: {0}")]
    Failed(String),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

impl EventError {
    pub fn code(&self) -> &'static str {
        match self {
            EventError::Invalid => "invalid_payload",
            EventError::Failed(_) => "unavailable",
            EventError::Database(_) => "internal",
        }
    }
}

/// What an event asks us to look at again.
#[derive(Debug, PartialEq, Eq)]
enum Subject {
    CheckoutSession(String),
    Subscription(String),
    /// The subscription, and its trial ends in three days (a team's owner is told).
    TrialWillEnd(String),
    Nothing,
}

fn subject(kind: &str, object: &Value) -> Subject {
    let id = |v: &Value| v.as_str().map(str::to_owned);
    let found = match kind {
        "checkout.session.completed" | "checkout.session.async_payment_succeeded" => {
            id(&object["id"]).map(Subject::CheckoutSession)
        }
        "customer.subscription.trial_will_end" => id(&object["id"]).map(Subject::TrialWillEnd),
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

/// The invoice an `invoice.*` event is about.
fn invoice_of(kind: &str, object: &Value) -> Option<String> {
    kind.starts_with("invoice.")
        .then(|| object["id"].as_str().map(str::to_owned))
        .flatten()
        .filter(|id| is_stripe_id(id))
}

#[derive(Debug, thiserror::Error)]
enum ProcessError {
    #[error(transparent)]
    Stripe(#[from] StripeFailure),
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}

impl From<FollowError> for ProcessError {
    fn from(e: FollowError) -> Self {
        match e {
            FollowError::Stripe(e) => ProcessError::Stripe(e),
            FollowError::Database(e) => ProcessError::Database(e),
        }
    }
}

impl Billing {
    /// Records the event once by id, then reads its subject back from Stripe and fulfils it,
    /// under the lock of the user the event names.
    pub async fn handle_event(&self, event: &Value) -> Result<EventOutcome, EventError> {
        let (Some(event_id), Some(kind)) = (event["id"].as_str(), event["type"].as_str()) else {
            return Err(EventError::Invalid);
        };
        if event_id.is_empty() || event_id.len() > 255 {
            return Err(EventError::Invalid);
        }
        let now = self.clock.now();
        if self
            .store
            .receive_webhook_event(event_id, kind, now)
            .await?
            == EventReceipt::AlreadyProcessed
        {
            tracing::info!(event_id, kind, "event replay ignored");
            return Ok(EventOutcome::AlreadyProcessed);
        }
        // The customer the event names only picks the lock (and the account the event is listed
        // under until processing finds better); what is stored comes from Stripe.
        // A team's events take the team's lock (its customer, else the team its metadata names).
        let object = &event["data"]["object"];
        let _serialised = match object["customer"].as_str() {
            Some(c) => match self.store.user_of_customer(c).await? {
                Some(user) => {
                    self.store.link_webhook_event_user(event_id, user).await?;
                    Some(self.lock(user).await?)
                }
                None => match self.store.team_of_customer(c).await? {
                    Some(team) => Some(self.lock(team).await?),
                    None => None,
                },
            },
            None => None,
        };
        let _serialised = match (_serialised, object["metadata"]["team_id"].as_str()) {
            (None, Some(team)) => match team.parse::<Uuid>() {
                Ok(team) => Some(self.lock(team).await?),
                Err(_) => None,
            },
            (held, _) => held,
        };
        let invoice = invoice_of(kind, object);
        match self
            .process(event_id, kind, &subject(kind, object), invoice.as_deref())
            .await
        {
            Ok(note) => {
                tracing::info!(event_id, kind, note, "event processed");
                self.store
                    .finish_webhook_event(event_id, self.clock.now(), None)
                    .await?;
                Ok(EventOutcome::Processed(note))
            }
            Err(e) => {
                tracing::warn!(event_id, kind, error = %e, "event processing failed; Stripe will retry");
                let error = e.to_string();
                self.store
                    .finish_webhook_event(event_id, self.clock.now(), Some(&error))
                    .await?;
                Err(EventError::Failed(error))
            }
        }
    }

    /// Reads the subject back from Stripe and fulfils it, noting on the event the account it was
    /// about. Returns a note for the log.
    async fn process(
        &self,
        event_id: &str,
        kind: &str,
        subject: &Subject,
        invoice: Option<&str>,
    ) -> Result<&'static str, ProcessError> {
        let store = &self.store;
        match subject {
            Subject::Nothing => Ok("not an event we act on"),
            Subject::CheckoutSession(id) if !is_stripe_id(id) => Ok("malformed session id"),
            Subject::Subscription(id) | Subject::TrialWillEnd(id) if !is_stripe_id(id) => {
                Ok("malformed subscription id")
            }
            Subject::CheckoutSession(id) => {
                let session = match self.stripe.checkout_session(id).await {
                    Err(StripeFailure::NotFound) => return Ok("unknown checkout session"),
                    other => other?,
                };
                let Some(record) = session.subscription.as_ref() else {
                    return Ok("checkout session without a subscription");
                };
                if !(session.complete && session.paid) {
                    return Ok("checkout session not paid");
                }
                if let Some(team) = session.metadata_team_id.as_deref() {
                    return self.process_team_session(team, &session).await;
                }
                let by_customer = match &session.customer_id {
                    Some(c) => store.user_of_customer(c).await?,
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
                        if store.user_by_id(b).await?.is_none() {
                            return Ok("session of a deleted user");
                        }
                        if !session.belongs_to(b, None) {
                            return Ok("session references disagree");
                        }
                        // A checkout started outside our API (a payment link, the dashboard):
                        // remember the customer so the subscription's later events find the user.
                        store
                            .save_stripe_customer(b, &record.customer_id, self.clock.now())
                            .await?;
                        b
                    }
                    (None, None) => return Ok("session of no user of ours"),
                };
                store.link_webhook_event_user(event_id, user).await?;
                self.fulfil(user, record).await?;
                Ok("checkout fulfilled")
            }
            Subject::Subscription(id) | Subject::TrialWillEnd(id) => {
                let trial_will_end = matches!(subject, Subject::TrialWillEnd(_));
                let record = match self.stripe.subscription(id).await {
                    Err(StripeFailure::NotFound) => return Ok("unknown subscription"),
                    other => other?,
                };
                let Some(user) = store.user_of_customer(&record.customer_id).await? else {
                    let sub = self.stripe.team_subscription(id).await?;
                    let Some(team) = self.team_of_subscription(&sub).await? else {
                        return Ok("subscription of no customer of ours");
                    };
                    self.fulfil_team(team, &sub).await?;
                    if trial_will_end {
                        self.remind_trial_end(team, &sub).await?;
                        return Ok("team trial ends soon");
                    }
                    let followed = self
                        .follow_collection(Payer::Team(team), id, sub.record.status, kind, invoice)
                        .await?;
                    return Ok(followed.unwrap_or("team subscription synchronised"));
                };
                store.link_webhook_event_user(event_id, user).await?;
                self.fulfil(user, &record).await?;
                let followed = self
                    .follow_collection(Payer::User(user), id, record.status, kind, invoice)
                    .await?;
                Ok(followed.unwrap_or("subscription synchronised"))
            }
        }
    }
}

impl Billing {
    /// A paid checkout of a team's seats: stored on the team named by its metadata when the
    /// session's customer is that team's, read back from the subscription itself.
    async fn process_team_session(
        &self,
        team: &str,
        session: &CheckoutSessionView,
    ) -> Result<&'static str, ProcessError> {
        let Ok(team_id) = team.parse::<Uuid>() else {
            return Ok("malformed team id");
        };
        let Some(team) = self.store.team_by_id(team_id).await? else {
            return Ok("checkout of a deleted team");
        };
        let customer_ok = match (&team.stripe_customer_id, &session.customer_id) {
            (Some(known), Some(theirs)) => known == theirs,
            (Some(_), None) => false,
            (None, _) => true,
        };
        let Some(record) = session.subscription.as_ref().filter(|_| customer_ok) else {
            return Ok("team session references disagree");
        };
        let sub = self
            .stripe
            .team_subscription(&record.subscription_id)
            .await?;
        self.fulfil_team(team_id, &sub).await?;
        Ok("team checkout fulfilled")
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
                "customer.subscription.trial_will_end",
                &json!({"id": "sub_3"})
            ),
            Subject::TrialWillEnd("sub_3".into())
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
