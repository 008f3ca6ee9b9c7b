//! A user's own billing as they read it: the plan, the personal subscription as last read from
//! Stripe, and the billing portal of their Stripe customer.

use uuid::Uuid;

use super::{Billing, PersonalBillingError};
use crate::store::{PlanRow, SubscriptionRow};

impl Billing {
    /// The user's plan now (the Free Trial when they never had another).
    pub async fn plan(&self, user_id: Uuid) -> Result<PlanRow, sqlx::Error> {
        self.store.plan_for(user_id, self.clock.now()).await
    }

    /// The user's personal subscription as last read from Stripe, if they ever had one.
    pub async fn subscription(
        &self,
        user_id: Uuid,
    ) -> Result<Option<SubscriptionRow>, sqlx::Error> {
        self.store.subscription_of(user_id).await
    }

    /// The user's billing portal at Stripe, back to `return_url` (checked by the caller); its URL.
    pub async fn open_portal(
        &self,
        user_id: Uuid,
        return_url: &str,
    ) -> Result<String, PersonalBillingError> {
        let customer = self
            .store
            .stripe_customer_of(user_id)
            .await?
            .ok_or(PersonalBillingError::NoCustomer)?;
        self.stripe
            .portal_session(&customer, return_url)
            .await
            .map_err(PersonalBillingError::PortalFailed)
    }
}
