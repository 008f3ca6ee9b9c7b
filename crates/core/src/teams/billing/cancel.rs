//! The team's owner (whoever may manage its billing) cancels the team's subscription at its
//! period's end, with an optional reason, or resumes it before that date: the team's lock held,
//! the change made at Stripe, then stored with the reason and its `team.cancel` or
//! `team.resume` audit row in one transaction.

use closewise_domain::cancellation::{CancelRefusal, TEAM_CANCEL};
use uuid::Uuid;

use super::{live_subscription, status_of, unavailable, TeamBillingError};
use crate::actor::Actor;
use crate::billing::cancel::{running, Cancellation};
use crate::billing::{Billing, StripeFailure};
use crate::store::teams::TeamRow;

impl Billing {
    /// The team the actor may cancel or resume, when it may take `step` now.
    async fn team_cancellable(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        step: Cancellation,
    ) -> Result<TeamRow, TeamBillingError> {
        let (team, _) = self.team_for(actor, team, TEAM_CANCEL).await?;
        let current = status_of(&team)
            .map(|status| running(status, team.cancel_at_period_end, team.current_period_end));
        step.decide(current, self.clock.now())
            .map_err(TeamBillingError::Cancel)?;
        Ok(team)
    }

    /// Sets the team's subscription to end at its period's end (with the reason given), or takes
    /// that back; on a task of its own so that a caller going away does not cut it off midway.
    pub async fn cancel_team_plan(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        step: Cancellation,
    ) -> Result<TeamRow, TeamBillingError> {
        let (this, actor) = (self.clone(), actor.clone());
        tokio::spawn(async move { this.apply_team_cancellation(&actor, team, step).await })
            .await
            .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()))
    }

    async fn apply_team_cancellation(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        step: Cancellation,
    ) -> Result<TeamRow, TeamBillingError> {
        let first = self.team_cancellable(actor, team, step).await?;
        self.spend_stripe(actor).await?;
        let _serialised = self.lock(first.id).await?;
        let team = self.team_cancellable(actor, Some(first.id), step).await?;
        let (subscription_id, _) = live_subscription(&team).map_err(|_| nothing(step))?;
        let changed = self
            .stripe
            .set_cancel_at_period_end(subscription_id, step.cancels())
            .await
            .map_err(|e| match e {
                StripeFailure::NotFound => nothing(step),
                other => unavailable(other),
            })?;
        let now = self.clock.now();
        let action = if step.cancels() {
            "team.cancel"
        } else {
            "team.resume"
        };
        let mut details = step.details(subscription_id, changed.record.current_period_end);
        details["team_id"] = serde_json::json!(team.id);
        let audit = actor.audit(action, None, None, details, now);
        self.store
            .apply_team_cancellation_audited(
                team.id,
                &changed.record,
                changed.quantity,
                step.reason(),
                now,
                &audit,
            )
            .await?;
        tracing::info!(team_id = %team.id, action, "team subscription cancellation changed");
        self.team_row(team.id).await
    }
}

fn nothing(step: Cancellation) -> TeamBillingError {
    TeamBillingError::Cancel(if step.cancels() {
        CancelRefusal::NothingToCancel
    } else {
        CancelRefusal::NothingToResume
    })
}
