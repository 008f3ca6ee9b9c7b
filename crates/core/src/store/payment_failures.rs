//! Failed payments Stripe is still retrying (dunning): one row per subscription, personal or a
//! team's, written with its audit row and its mail in one transaction.

use time::OffsetDateTime;
use uuid::Uuid;

use super::audit::{write_audit, NewAudit};
use super::mail::{bind_mail, NewMail};
use super::revocations::{notify_revoked, Revoked};
use super::{dispatch, Store};

/// Who pays the subscription.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Payer {
    User(Uuid),
    Team(Uuid),
}

impl Payer {
    fn user_id(self) -> Option<Uuid> {
        match self {
            Payer::User(id) => Some(id),
            Payer::Team(_) => None,
        }
    }

    fn team_id(self) -> Option<Uuid> {
        match self {
            Payer::Team(id) => Some(id),
            Payer::User(_) => None,
        }
    }
}

/// A failed payment as Stripe last reported it (Unix seconds).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct PaymentFailureRow {
    pub subscription_id: String,
    pub user_id: Option<Uuid>,
    pub team_id: Option<Uuid>,
    pub invoice_id: String,
    pub past_due_since: i64,
    pub attempt_count: i32,
    pub next_payment_attempt: Option<i64>,
    pub amount_due: i64,
    pub currency: String,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

/// A failed payment with whom the operators call about it: the account's address (the team's
/// owner's for a team) and the team's name.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct PaymentFailureListRow {
    #[sqlx(flatten)]
    pub failure: PaymentFailureRow,
    pub email: Option<String>,
    pub team_name: Option<String>,
}

/// A failed attempt to store: the invoice, when the payment first failed, the attempts so far and
/// the next retry.
#[derive(Clone, Debug)]
pub struct NewPaymentFailure {
    pub subscription_id: String,
    pub payer: Payer,
    pub invoice_id: String,
    pub past_due_since: i64,
    pub attempt_count: u64,
    pub next_payment_attempt: Option<i64>,
    pub amount_due: i64,
    pub currency: String,
}

const COLUMNS: &str = "subscription_id, user_id, team_id, invoice_id, past_due_since, \
    attempt_count, next_payment_attempt, amount_due, currency, created_at, updated_at";

/// A new failure, or a later attempt (or another invoice) of one already stored; an attempt
/// already stored (a redelivered or late event) changes nothing.
const UPSERT: &str = "INSERT INTO payment_failures (subscription_id, user_id, team_id, invoice_id, \
    past_due_since, attempt_count, next_payment_attempt, amount_due, currency, created_at, \
    updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) \
    ON CONFLICT (subscription_id) DO UPDATE SET invoice_id = excluded.invoice_id, \
    attempt_count = excluded.attempt_count, next_payment_attempt = excluded.next_payment_attempt, \
    amount_due = excluded.amount_due, currency = excluded.currency, updated_at = excluded.updated_at \
    WHERE payment_failures.invoice_id <> excluded.invoice_id \
       OR payment_failures.attempt_count < excluded.attempt_count";

impl Store {
    /// Stores a failed attempt with its audit row and its mail, in one transaction. False, with
    /// nothing written, when this attempt was stored already.
    pub async fn record_payment_failure(
        &self,
        failure: &NewPaymentFailure,
        audit: &NewAudit,
        mail: Option<&NewMail>,
    ) -> Result<bool, sqlx::Error> {
        let attempts = i32::try_from(failure.attempt_count).unwrap_or(i32::MAX);
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let written = sqlx::query(UPSERT)
                .bind(&failure.subscription_id)
                .bind(failure.payer.user_id())
                .bind(failure.payer.team_id())
                .bind(&failure.invoice_id)
                .bind(failure.past_due_since)
                .bind(attempts)
                .bind(failure.next_payment_attempt)
                .bind(failure.amount_due)
                .bind(&failure.currency)
                .bind(audit.now)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if written != 1 {
                return Ok(false);
            }
            write_audit!(self, tx, audit);
            if let Some(mail) = mail {
                bind_mail!(mail).execute(&mut *tx).await?;
            }
            if let Payer::User(user) = failure.payer {
                notify_revoked!(self, tx, Revoked::Reads(user));
            }
            tx.commit().await?;
            if let Payer::User(user) = failure.payer {
                self.revoked(Revoked::Reads(user));
            }
            Ok(true)
        })
    }

    /// Ends the subscription's failed payment (paid, or the subscription ended) with the audit row
    /// `audit` makes of it and its mail, in one transaction. None, with nothing written, when
    /// there was none.
    pub async fn end_payment_failure<F>(
        &self,
        subscription_id: &str,
        audit: F,
        mail: Option<&NewMail>,
    ) -> Result<Option<PaymentFailureRow>, sqlx::Error>
    where
        F: FnOnce(&PaymentFailureRow) -> NewAudit,
    {
        let delete =
            format!("DELETE FROM payment_failures WHERE subscription_id = $1 RETURNING {COLUMNS}");
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let Some(row) = sqlx::query_as::<_, PaymentFailureRow>(&delete)
                .bind(subscription_id)
                .fetch_optional(&mut *tx)
                .await?
            else {
                return Ok(None);
            };
            let audit = audit(&row);
            write_audit!(self, tx, &audit);
            if let Some(mail) = mail {
                bind_mail!(mail).execute(&mut *tx).await?;
            }
            if let Some(user) = row.user_id {
                notify_revoked!(self, tx, Revoked::Reads(user));
            }
            tx.commit().await?;
            if let Some(user) = row.user_id {
                self.revoked(Revoked::Reads(user));
            }
            Ok(Some(row))
        })
    }

    /// The failed payment of the subscription, if Stripe is retrying one.
    pub async fn payment_failure(
        &self,
        subscription_id: &str,
    ) -> Result<Option<PaymentFailureRow>, sqlx::Error> {
        let select = format!("SELECT {COLUMNS} FROM payment_failures WHERE subscription_id = $1");
        dispatch!(self, |p| sqlx::query_as::<_, PaymentFailureRow>(&select)
            .bind(subscription_id)
            .fetch_optional(p)
            .await)
    }

    /// The payer's failed payment, if Stripe is retrying one.
    pub async fn payment_failure_of(
        &self,
        payer: Payer,
    ) -> Result<Option<PaymentFailureRow>, sqlx::Error> {
        let select = format!(
            "SELECT {COLUMNS} FROM payment_failures WHERE user_id = $1 OR team_id = $2 \
             ORDER BY past_due_since LIMIT 1"
        );
        dispatch!(self, |p| sqlx::query_as::<_, PaymentFailureRow>(&select)
            .bind(payer.user_id())
            .bind(payer.team_id())
            .fetch_optional(p)
            .await)
    }

    /// Every failed payment being retried, the oldest first, with whom to call about it.
    pub async fn payment_failures(&self) -> Result<Vec<PaymentFailureListRow>, sqlx::Error> {
        let select = "SELECT f.subscription_id, f.user_id, f.team_id, f.invoice_id, \
            f.past_due_since, f.attempt_count, f.next_payment_attempt, f.amount_due, f.currency, \
            f.created_at, f.updated_at, COALESCE(u.email, o.email) AS email, t.name AS team_name \
            FROM payment_failures f \
            LEFT JOIN users u ON u.id = f.user_id \
            LEFT JOIN teams t ON t.id = f.team_id \
            LEFT JOIN users o ON o.id = t.owner_id \
            ORDER BY f.past_due_since, f.subscription_id";
        dispatch!(self, |p| sqlx::query_as::<_, PaymentFailureListRow>(select)
            .fetch_all(p)
            .await)
    }
}
