//! The team's invoices and company details: the owner's and admins' reading, the owner's edit,
//! both through the team's Stripe customer.

use closewise_domain::billing_details::{BillingDetails, DetailsError, TaxIdError};
use closewise_domain::teams::Action;
use serde_json::json;
use uuid::Uuid;

use super::TeamBillingError;
use crate::actor::Actor;
use crate::billing::invoices::{InvoiceQuery, Invoices, InvoicesError};
use crate::billing::stripe::{CustomerDetails, DetailsFailure};
use crate::billing::Billing;

impl From<TeamBillingError> for InvoicesError {
    fn from(e: TeamBillingError) -> Self {
        match e {
            TeamBillingError::ForbiddenRole => InvoicesError::ForbiddenRole,
            TeamBillingError::Database(e) => InvoicesError::Database(e),
            TeamBillingError::Limited(e) => InvoicesError::Limited(e),
            _ => InvoicesError::TeamNotFound,
        }
    }
}

impl Billing {
    /// The team's invoices for its owner and admins.
    pub async fn team_invoices(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        query: &InvoiceQuery<'_>,
    ) -> Result<Invoices, InvoicesError> {
        let (team, _) = self.team_for(actor, team, Action::ViewInvoices).await?;
        self.invoices_of(team.stripe_customer_id.as_deref(), query)
            .await
    }

    /// The team's company details as Stripe has them (empty before its first checkout).
    pub async fn team_billing_details(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
    ) -> Result<CustomerDetails, InvoicesError> {
        let (team, _) = self.team_for(actor, team, Action::ViewInvoices).await?;
        let Some(customer) = team.stripe_customer_id else {
            return Ok(CustomerDetails::default());
        };
        self.stripe
            .customer_details(&customer)
            .await
            .map_err(InvoicesError::StripeUnavailable)
    }

    /// The owner sets the team's billing name, address and tax IDs at Stripe, where the next
    /// invoices take them from; audited as `team.billing_details`. Answers what Stripe then has.
    pub async fn set_team_billing_details(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        details: &BillingDetails,
    ) -> Result<CustomerDetails, InvoicesError> {
        let (team, _) = self
            .team_for(actor, team, Action::EditBillingDetails)
            .await?;
        self.spend_stripe(actor).await?;
        let customer = team.stripe_customer_id.ok_or(InvoicesError::NoCustomer)?;
        self.stripe
            .set_customer_details(&customer, details)
            .await
            .map_err(|e| match e {
                DetailsFailure::TaxIdRefused { index, .. } => {
                    let kind = details.tax_ids[index].kind();
                    InvoicesError::InvalidDetails(DetailsError::TaxId {
                        index,
                        error: TaxIdError::Malformed(kind),
                    })
                }
                DetailsFailure::Stripe(e) => InvoicesError::StripeUnavailable(e),
            })?;
        let now = self.clock.now();
        let tax_ids: Vec<String> = details.tax_ids.iter().map(|t| t.to_string()).collect();
        let audit = json!({
            "team_id": team.id, "name": details.name,
            "country": details.address.country, "tax_ids": tax_ids,
        });
        self.store
            .record_audit(&actor.audit("team.billing_details", None, None, audit, now))
            .await?;
        self.stripe
            .customer_details(&customer)
            .await
            .map_err(InvoicesError::StripeUnavailable)
    }
}
