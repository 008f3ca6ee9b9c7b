//! The team customer's billing portal at Stripe: card, invoices, cancel; no quantity changes
//! (seats change through `set_team_seats`, never below the members).

use closewise_domain::teams::Action;
use uuid::Uuid;

use super::TeamBillingError;
use crate::billing::{Billing, PortalReturn};

impl Billing {
    /// The team's billing portal for its owner, back to a page of the site; its URL.
    pub async fn open_team_portal(
        &self,
        user_id: Uuid,
        back_to: PortalReturn<'_>,
    ) -> Result<String, TeamBillingError> {
        let (team, _) = self.team_for(user_id, Action::ManageBilling).await?;
        let return_url = back_to.url().ok_or(TeamBillingError::InvalidRedirect)?;
        let customer = team
            .stripe_customer_id
            .ok_or(TeamBillingError::NoCustomer)?;
        self.stripe
            .team_portal_session(&customer, &return_url)
            .await
            .map_err(|e| {
                tracing::warn!(error = %e, "team portal failed");
                TeamBillingError::PortalFailed(e)
            })
    }
}
