//! Deleting a team with its subscription: the owner's (or an operator's), re-confirmed by the
//! adapter, the subscription cancelled at Stripe first and the team deleted with its audit row.

use closewise_domain::team_billing::has_live_subscription;
use closewise_domain::teams::Action;
use serde_json::json;
use uuid::Uuid;

use super::{status_of, unavailable, TeamBillingError};
use crate::actor::Actor;
use crate::billing::{Billing, StripeFailure};

impl Billing {
    /// The actor deletes the team (the owner, or an operator): the role is checked, then
    /// `confirmed` (the adapter's re-confirmation of who acts, e.g. the owner's password; its
    /// refusal is the inner `Err`), then the team's subscription is cancelled at Stripe at once
    /// (refusing, and keeping the team, when Stripe cannot be reached) and the team deleted with
    /// its members and invites, audited in the same transaction. Holds the team's lock
    /// throughout, so the cancellation's webhooks find no team. The subscription cancelled.
    pub async fn delete_team<E>(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        confirmed: impl std::future::Future<Output = Result<(), E>>,
    ) -> Result<Result<Option<String>, E>, TeamBillingError> {
        let (team, _) = self.team_for(actor, team, Action::Delete).await?;
        if let Err(refused) = confirmed.await {
            return Ok(Err(refused));
        }
        self.delete_team_now(team.id, actor).await.map(Ok)
    }

    async fn delete_team_now(
        &self,
        team_id: Uuid,
        actor: &Actor,
    ) -> Result<Option<String>, TeamBillingError> {
        let _serialised = self.lock(team_id).await?;
        let team = self.team_row(team_id).await?;
        // A checkout left open must not be paid for a team that is gone.
        if let Some(customer) = &team.stripe_customer_id {
            self.expire_open_checkouts(customer).await?;
        }
        // Every live subscription of the team's customer, the stored one and any paid a moment ago
        // and not stored yet (it bills all the same); listed before anything is cancelled, so a
        // failed list changes nothing.
        let mut cancelled = self.cancel_live_at_stripe(&team).await?;
        if let (Some(sub), true) = (
            &team.subscription_id,
            has_live_subscription(status_of(&team)),
        ) {
            if !cancelled.contains(sub) {
                match self.stripe.cancel_subscription(sub).await {
                    Ok(()) | Err(StripeFailure::NotFound) => cancelled.insert(0, sub.clone()),
                    Err(e) => return Err(unavailable(e)),
                }
            }
        }
        let cancelled = team
            .subscription_id
            .clone()
            .filter(|s| cancelled.contains(s))
            .or_else(|| cancelled.into_iter().next());
        let details = json!({"team_id": team_id, "name": team.name, "subscription": cancelled});
        let audit = actor.audit("team.delete", None, None, details, self.clock.now());
        self.store.delete_team_audited(team_id, &audit).await?;
        tracing::info!(%team_id, "team deleted");
        Ok(cancelled)
    }
}
