//! The Stripe call of cancelling at the period's end and of taking it back: the subscription's
//! `cancel_at_period_end`, set like the other subscription updates and read back with its card
//! and discounts.

use stripe_billing::subscription::UpdateSubscription;

use super::team::{team_subscription, TeamSubscription};
use super::{StripeClient, StripeFailure};

impl StripeClient {
    /// Sets the subscription to end at its period's end (`true`) or to renew again (`false`).
    pub async fn set_cancel_at_period_end(
        &self,
        subscription_id: &str,
        cancel: bool,
    ) -> Result<TeamSubscription, StripeFailure> {
        let sub = self
            .call(
                if cancel {
                    "cancel subscription at period end"
                } else {
                    "resume subscription"
                },
                UpdateSubscription::new(subscription_id)
                    .cancel_at_period_end(cancel)
                    .expand(super::subscription_expand())
                    .send(&self.client),
            )
            .await?;
        team_subscription(&sub)
    }
}
