//! A team's payment Stripe took that is not stored yet (its confirm call and webhook still to
//! come) bills all the same: before a second checkout, the team's deletion or its owner's account
//! deletion, the live subscriptions of the team's customer are read from Stripe. Callers hold the
//! team's lock.

use closewise_domain::subscription::SubscriptionStatus;

use super::TeamBillingError;
use crate::billing::{Billing, StripeFailure};
use crate::store::teams::TeamRow;

impl Billing {
    /// Stores a live subscription of the team's customer that the team row does not show yet,
    /// and answers `AlreadySubscribed`: the team is paid for. An abandoned first payment
    /// (`incomplete`) does not count, as for `may_start_checkout`.
    pub(super) async fn refuse_if_paid_at_stripe(
        &self,
        team: &TeamRow,
    ) -> Result<(), TeamBillingError> {
        let Some(customer) = &team.stripe_customer_id else {
            return Ok(());
        };
        let live = self
            .stripe
            .live_subscriptions(customer)
            .await
            .map_err(TeamBillingError::StripeUnavailable)?;
        if let Some(sub) = live
            .iter()
            .find(|s| s.record.status != SubscriptionStatus::Incomplete)
        {
            tracing::warn!(team_id = %team.id, subscription = %sub.record.subscription_id,
                "a team payment not stored yet was found at Stripe");
            self.fulfil_team(team.id, sub).await?;
            return Err(TeamBillingError::AlreadySubscribed);
        }
        Ok(())
    }

    /// Cancels at once every subscription of the team's customer that has not ended, stored or
    /// not; returns their ids.
    pub(super) async fn cancel_live_at_stripe(
        &self,
        team: &TeamRow,
    ) -> Result<Vec<String>, TeamBillingError> {
        let Some(customer) = &team.stripe_customer_id else {
            return Ok(Vec::new());
        };
        let live = self
            .stripe
            .live_subscriptions(customer)
            .await
            .map_err(TeamBillingError::StripeUnavailable)?;
        let mut cancelled = Vec::new();
        for sub in live {
            let id = sub.record.subscription_id;
            match self.stripe.cancel_subscription(&id).await {
                Ok(()) | Err(StripeFailure::NotFound) => cancelled.push(id),
                Err(e) => return Err(TeamBillingError::StripeUnavailable(e)),
            }
        }
        Ok(cancelled)
    }
}
