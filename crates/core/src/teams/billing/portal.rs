//! The team customer's billing portal at Stripe: card, invoices, cancel; no quantity changes
//! (seats change through `set_team_seats`, never below the members).

use closewise_domain::teams::Action;
use uuid::Uuid;

use super::TeamBillingError;
use crate::actor::Actor;
use crate::billing::{Billing, PortalReturn};

impl Billing {
    /// The team's billing portal for its owner, back to a page of the site; its URL. Spends the
    /// member's Stripe budget once the role allows it.
    pub async fn open_team_portal(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        back_to: PortalReturn<'_>,
    ) -> Result<String, TeamBillingError> {
        let (team, _) = self.team_for(actor, team, Action::ManageBilling).await?;
        self.spend_stripe(actor).await?;
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
