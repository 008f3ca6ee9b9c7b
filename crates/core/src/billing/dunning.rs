//! Failed payments (dunning), personal and a team's alike: after a Stripe event about a
//! subscription is processed, its invoice is read back and `dunning::collection_step` says what
//! it means. A failed attempt is stored (when it started, the attempts, Stripe's next try) and
//! mailed to the payer (the account, or the team's owner) with a link that opens the billing
//! portal; a paid invoice ends it with a receipt; a subscription Stripe ended (or marked unpaid)
//! ends it with a mail saying how to come back. Each is one transaction with its audit row and its
//! mail; a redelivered or late event finds the attempt stored and sends nothing twice.

use closewise_domain::dunning::{collection_step, day_label, CollectionStep};
use closewise_domain::idle_seats::money;
use closewise_domain::subscription::SubscriptionStatus;
use serde_json::json;
use uuid::Uuid;

use super::{Billing, StripeFailure};
use crate::actor::Actor;
use crate::mail::{Composer, Template};
use crate::store::mail::NewMail;
use crate::store::payment_failures::{
    NewPaymentFailure, Payer, PaymentFailureListRow, PaymentFailureRow,
};

/// The audit trail's name for Stripe's events.
const STRIPE: Actor = Actor::System { job: "stripe" };

/// Where the mails send the payer to update the card: the page that, signed in, opens the portal.
pub const UPDATE_CARD_PAGE: &str = "/dashboard#update-card";
pub const TEAM_UPDATE_CARD_PAGE: &str = "/team#update-card";

/// A failed payment with whom it is about, for operators (`closewise billing dunning list`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct PastDue {
    /// The account's address, or the team's owner's.
    pub email: Option<String>,
    /// The team's name for a team's subscription.
    pub team: Option<String>,
    pub subscription_id: String,
    pub invoice_id: String,
    /// Unix seconds.
    pub past_due_since: i64,
    pub attempt_count: u32,
    /// Unix seconds; None when Stripe has no retry left.
    pub next_payment_attempt: Option<i64>,
    pub amount_due: i64,
    pub currency: String,
}

impl From<PaymentFailureListRow> for PastDue {
    fn from(r: PaymentFailureListRow) -> Self {
        let f = r.failure;
        PastDue {
            email: r.email,
            team: r.team_name,
            subscription_id: f.subscription_id,
            invoice_id: f.invoice_id,
            past_due_since: f.past_due_since,
            attempt_count: u32::try_from(f.attempt_count).unwrap_or(0),
            next_payment_attempt: f.next_payment_attempt,
            amount_due: f.amount_due,
            currency: f.currency,
        }
    }
}

impl Billing {
    fn composer(&self) -> Composer {
        Composer::new(self.base_url.as_deref().unwrap_or_default())
    }

    /// Who is mailed about the payer's payments, and the team's name for a team.
    async fn payer_contact(
        &self,
        payer: Payer,
    ) -> Result<Option<(String, Option<String>)>, sqlx::Error> {
        Ok(match payer {
            Payer::User(id) => self.store.user_by_id(id).await?.map(|u| (u.email, None)),
            Payer::Team(id) => match self.store.team_by_id(id).await? {
                Some(team) => self
                    .store
                    .user_by_id(team.owner_id)
                    .await?
                    .map(|owner| (owner.email, Some(team.name))),
                None => None,
            },
        })
    }

    /// Follows the subscription's failed payment after `event` (its type) was processed:
    /// `invoice` is the invoice the event names, `status` the subscription's as read back.
    /// Returns a note for the log when something changed.
    pub(crate) async fn follow_collection(
        &self,
        payer: Payer,
        subscription_id: &str,
        status: SubscriptionStatus,
        event: &str,
        invoice: Option<&str>,
    ) -> Result<Option<&'static str>, FollowError> {
        let invoice = match invoice {
            Some(id) if event.starts_with("invoice.") => match self.stripe.invoice(id).await {
                Ok(i) => Some(i),
                Err(StripeFailure::NotFound) => None,
                Err(e) => return Err(FollowError::Stripe(e)),
            },
            _ => None,
        };
        let invoice_status = invoice.as_ref().map(|i| i.invoice.status.as_str());
        let now = self.clock.now();
        let audit_about = match payer {
            Payer::User(id) => Some(id),
            Payer::Team(_) => None,
        };
        let team_detail = match payer {
            Payer::Team(id) => Some(id),
            Payer::User(_) => None,
        };
        match collection_step(event, invoice_status, status) {
            CollectionStep::Nothing => Ok(None),
            CollectionStep::Failed => {
                let Some(i) = invoice else { return Ok(None) };
                let Some((email, team)) = self.payer_contact(payer).await? else {
                    return Ok(None);
                };
                let past_due_since = self
                    .store
                    .payment_failure(subscription_id)
                    .await?
                    .map_or(i.invoice.created, |f| f.past_due_since);
                let mail = self.composer();
                let link = mail.page(match payer {
                    Payer::User(_) => UPDATE_CARD_PAGE,
                    Payer::Team(_) => TEAM_UPDATE_CARD_PAGE,
                });
                let amount = money(i.invoice.amount_due, &i.invoice.currency);
                let message = mail.compose(
                    &email,
                    Template::PaymentFailed {
                        team,
                        amount,
                        next_attempt: i.next_payment_attempt.map(day_label),
                        link,
                    },
                    now,
                );
                let failure = NewPaymentFailure {
                    subscription_id: subscription_id.to_owned(),
                    payer,
                    invoice_id: i.invoice.id.clone(),
                    past_due_since,
                    attempt_count: i.attempt_count,
                    next_payment_attempt: i.next_payment_attempt,
                    amount_due: i.invoice.amount_due,
                    currency: i.invoice.currency.clone(),
                };
                let audit = STRIPE.audit(
                    "billing.payment_failed",
                    audit_about,
                    Some(email),
                    json!({
                        "team_id": team_detail, "subscription_id": subscription_id,
                        "invoice_id": i.invoice.id, "attempt_count": i.attempt_count,
                        "next_payment_attempt": i.next_payment_attempt,
                    }),
                    now,
                );
                let stored = self
                    .store
                    .record_payment_failure(&failure, &audit, Some(&message))
                    .await?;
                Ok(stored.then_some("payment failure recorded and mailed"))
            }
            CollectionStep::Recovered => {
                let Some(i) = invoice else { return Ok(None) };
                let Some(stored) = self.store.payment_failure(subscription_id).await? else {
                    return Ok(None);
                };
                let contact = self.payer_contact(payer).await?;
                let message = contact.as_ref().map(|(email, team)| {
                    self.composer().compose(
                        email,
                        Template::PaymentRecovered {
                            team: team.clone(),
                            amount: money(i.invoice.amount_paid, &i.invoice.currency),
                            paid_on: day_label(now.unix_timestamp()),
                            invoice_url: i.invoice.hosted_invoice_url.clone(),
                        },
                        now,
                    )
                });
                let ended = self
                    .end_failure(&stored, "billing.payment_recovered", contact, message)
                    .await?;
                Ok(ended.then_some("payment recovered; receipt mailed"))
            }
            CollectionStep::Ended => {
                let Some(stored) = self.store.payment_failure(subscription_id).await? else {
                    return Ok(None);
                };
                let contact = self.payer_contact(payer).await?;
                let message = contact.as_ref().map(|(email, team)| {
                    let mail = self.composer();
                    let link = mail.page(match payer {
                        Payer::User(_) => "/dashboard",
                        Payer::Team(_) => "/team",
                    });
                    mail.compose(
                        email,
                        Template::SubscriptionEndedUnpaid {
                            team: team.clone(),
                            link,
                        },
                        now,
                    )
                });
                let ended = self
                    .end_failure(
                        &stored,
                        "billing.subscription_ended_unpaid",
                        contact,
                        message,
                    )
                    .await?;
                Ok(ended.then_some("subscription ended after failed payments; mailed"))
            }
        }
    }

    async fn end_failure(
        &self,
        stored: &PaymentFailureRow,
        action: &'static str,
        contact: Option<(String, Option<String>)>,
        message: Option<NewMail>,
    ) -> Result<bool, sqlx::Error> {
        let now = self.clock.now();
        let email = contact.map(|(email, _)| email);
        let ended = self
            .store
            .end_payment_failure(
                &stored.subscription_id,
                |row| {
                    STRIPE.audit(
                        action,
                        row.user_id,
                        email,
                        json!({
                            "team_id": row.team_id, "subscription_id": row.subscription_id,
                            "invoice_id": row.invoice_id, "attempt_count": row.attempt_count,
                            "past_due_since": row.past_due_since,
                        }),
                        now,
                    )
                },
                message.as_ref(),
            )
            .await?;
        Ok(ended.is_some())
    }

    /// The failed payment of the user's own subscription, if Stripe is retrying one.
    pub async fn payment_failure_of_user(
        &self,
        user_id: Uuid,
    ) -> Result<Option<PaymentFailureRow>, sqlx::Error> {
        self.store.payment_failure_of(Payer::User(user_id)).await
    }

    /// Every subscription past due, personal and teams', the oldest failure first (operators).
    pub async fn past_due(&self) -> Result<Vec<PastDue>, sqlx::Error> {
        Ok(self
            .store
            .payment_failures()
            .await?
            .into_iter()
            .map(PastDue::from)
            .collect())
    }
}

/// Why following a failed payment stopped; the event is retried.
#[derive(Debug, thiserror::Error)]
pub(crate) enum FollowError {
    #[error(transparent)]
    Stripe(#[from] StripeFailure),
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
}
