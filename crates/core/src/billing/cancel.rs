//! Cancelling the personal plan at its period's end, with an optional reason, and resuming it
//! before that date. Each is one command: the domain's rule (`cancellation`), the change at
//! Stripe under the user's lock, then Stripe's answer, the reason and the `billing.cancel` or
//! `billing.resume` audit row stored in one transaction. The team's owner does the same for the
//! team (`teams::billing::cancel`).

use closewise_domain::cancellation::{
    decide_cancel, decide_resume, CancelRefusal, CancellationReason, Running,
};
use closewise_domain::subscription::SubscriptionStatus;
use serde_json::json;
use time::OffsetDateTime;

use super::{Billing, StripeFailure};
use crate::actor::Actor;
use crate::store::SubscriptionRow;

/// Why a cancellation or a resumption did not happen.
#[derive(Debug, thiserror::Error)]
pub enum CancelError {
    #[error("{0}")]
    Refused(CancelRefusal),
    #[error("Stripe is unavailable: {0}")]
    StripeUnavailable(StripeFailure),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

impl CancelError {
    pub fn code(&self) -> &'static str {
        match self {
            CancelError::Refused(r) => r.code(),
            CancelError::StripeUnavailable(_) => "stripe_unavailable",
            CancelError::Database(_) => "internal",
        }
    }
}

/// Cancelling (with its reason) or taking a cancellation back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cancellation {
    AtPeriodEnd(Option<CancellationReason>),
    Resume,
}

impl Cancellation {
    /// Whether the subscription may take this step now.
    pub fn decide(
        &self,
        current: Option<Running>,
        now: OffsetDateTime,
    ) -> Result<(), CancelRefusal> {
        match self {
            Cancellation::AtPeriodEnd(_) => decide_cancel(current, now),
            Cancellation::Resume => decide_resume(current, now),
        }
    }

    pub(crate) fn cancels(&self) -> bool {
        matches!(self, Cancellation::AtPeriodEnd(_))
    }

    pub(crate) fn reason(&self) -> Option<CancellationReason> {
        match self {
            Cancellation::AtPeriodEnd(reason) => *reason,
            Cancellation::Resume => None,
        }
    }

    /// The audit row's details.
    pub(crate) fn details(
        &self,
        subscription_id: &str,
        period_end: Option<i64>,
    ) -> serde_json::Value {
        json!({
            "subscription_id": subscription_id,
            "reason": self.reason().map(|r| r.as_str()),
            "current_period_end": period_end,
        })
    }
}

pub(crate) fn running(
    status: SubscriptionStatus,
    cancel_at_period_end: bool,
    current_period_end: Option<i64>,
) -> Running {
    Running {
        status,
        cancel_at_period_end,
        current_period_end,
    }
}

impl Billing {
    /// The member's own subscription, when it may take `step` now.
    async fn cancellable(
        &self,
        actor: &Actor,
        step: Cancellation,
    ) -> Result<SubscriptionRow, CancelError> {
        let nothing = CancelError::Refused(if step.cancels() {
            CancelRefusal::NothingToCancel
        } else {
            CancelRefusal::NothingToResume
        });
        let Some(user_id) = actor.user_id() else {
            return Err(nothing);
        };
        let row = self.store.subscription_of(user_id).await?;
        let current = row
            .as_ref()
            .map(|r| running(r.status, r.cancel_at_period_end, r.current_period_end));
        step.decide(current, self.clock.now())
            .map_err(CancelError::Refused)?;
        row.ok_or(nothing)
    }

    /// Sets the member's subscription to end at its period's end (with the reason they gave),
    /// or takes that back. It runs to its end on a task of its own, so a caller that goes away
    /// does not cut it off between Stripe's change and storing it.
    pub async fn cancel_plan(
        &self,
        actor: &Actor,
        step: Cancellation,
    ) -> Result<SubscriptionRow, CancelError> {
        let (this, actor) = (self.clone(), actor.clone());
        tokio::spawn(async move { this.apply_cancellation(&actor, step).await })
            .await
            .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()))
    }

    async fn apply_cancellation(
        &self,
        actor: &Actor,
        step: Cancellation,
    ) -> Result<SubscriptionRow, CancelError> {
        let first = self.cancellable(actor, step).await?;
        let _serialised = self.lock(first.user_id).await?;
        let row = self.cancellable(actor, step).await?;
        let changed = self
            .stripe
            .set_cancel_at_period_end(&row.subscription_id, step.cancels())
            .await
            .map_err(|e| match e {
                StripeFailure::NotFound => CancelError::Refused(if step.cancels() {
                    CancelRefusal::NothingToCancel
                } else {
                    CancelRefusal::NothingToResume
                }),
                other => CancelError::StripeUnavailable(other),
            })?;
        let now = self.clock.now();
        let action = if step.cancels() {
            "billing.cancel"
        } else {
            "billing.resume"
        };
        let details = step.details(&row.subscription_id, changed.record.current_period_end);
        let audit = actor.audit(action, Some(row.user_id), None, details, now);
        self.store
            .apply_cancellation_audited(row.user_id, &changed.record, step.reason(), now, &audit)
            .await?;
        tracing::info!(user_id = %row.user_id, action, "subscription cancellation changed");
        self.store
            .subscription_of(row.user_id)
            .await?
            .ok_or(CancelError::Refused(CancelRefusal::NothingToCancel))
    }
}
