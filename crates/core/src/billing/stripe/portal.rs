//! The team's billing portal: a Stripe portal configuration that offers the card, the invoices
//! and cancelling but no subscription updates, so the owner cannot lower the seats below the
//! members there (seat changes go through `PUT /api/team/seats`, which checks them). Created once
//! at Stripe and found again by its metadata; two replicas creating it at the same moment send
//! the same idempotency key and get one configuration.

use std::collections::HashMap;

use stripe::{IdempotencyKey, RequestStrategy, StripeRequest};
use stripe_billing::billing_portal_configuration::{
    CreateBillingPortalConfiguration, CreateBillingPortalConfigurationFeatures,
    CreateBillingPortalConfigurationFeaturesSubscriptionCancel,
    CreateBillingPortalConfigurationFeaturesSubscriptionCancelMode,
    CreateBillingPortalConfigurationFeaturesSubscriptionUpdate, InvoiceListParam,
    ListBillingPortalConfiguration, PaymentMethodUpdateParam,
};
use stripe_billing::billing_portal_session::CreateBillingPortalSession;
use stripe_billing::BillingPortalConfiguration;

use super::{StripeClient, StripeFailure};

/// The metadata that names our team configuration; a new version is a new configuration.
pub const TEAM_PORTAL_KEY: &str = "closewise_portal";
pub const TEAM_PORTAL_VALUE: &str = "team_v1";

/// Whether a configuration is ours for teams and still fit for it.
fn is_team_configuration(c: &BillingPortalConfiguration) -> bool {
    c.active
        && !c.features.subscription_update.enabled
        && c.metadata
            .as_ref()
            .and_then(|m| m.get(TEAM_PORTAL_KEY))
            .is_some_and(|v| v == TEAM_PORTAL_VALUE)
}

fn team_features() -> CreateBillingPortalConfigurationFeatures {
    let mut features = CreateBillingPortalConfigurationFeatures::new();
    features.invoice_history = Some(InvoiceListParam::new(true));
    features.payment_method_update = Some(PaymentMethodUpdateParam::new(true));
    let mut cancel = CreateBillingPortalConfigurationFeaturesSubscriptionCancel::new(true);
    cancel.mode = Some(CreateBillingPortalConfigurationFeaturesSubscriptionCancelMode::AtPeriodEnd);
    features.subscription_cancel = Some(cancel);
    // No quantity (or price) changes: fewer seats than members must never be bought there.
    features.subscription_update =
        Some(CreateBillingPortalConfigurationFeaturesSubscriptionUpdate::new(false));
    features
}

impl StripeClient {
    /// The team portal configuration's id: remembered by this process, else found at Stripe by
    /// its metadata, else created.
    pub async fn team_portal_configuration(&self) -> Result<String, StripeFailure> {
        let mut known = self.team_portal.lock().await;
        if let Some(id) = known.as_ref() {
            return Ok(id.clone());
        }
        let id = match self.find_team_configuration().await? {
            Some(id) => id,
            None => self.create_team_configuration().await?,
        };
        *known = Some(id.clone());
        Ok(id)
    }

    async fn find_team_configuration(&self) -> Result<Option<String>, StripeFailure> {
        let mut after: Option<String> = None;
        // A few pages at most: an account has a handful of configurations.
        for _ in 0..10 {
            let mut list = ListBillingPortalConfiguration::new()
                .active(true)
                .limit(100);
            if let Some(a) = &after {
                list = list.starting_after(a.as_str());
            }
            let page = self
                .call("list portal configurations", list.send(&self.client))
                .await?;
            if let Some(c) = page.data.iter().find(|c| is_team_configuration(c)) {
                return Ok(Some(c.id.as_str().to_owned()));
            }
            match (page.has_more, page.data.last()) {
                (true, Some(last)) => after = Some(last.id.as_str().to_owned()),
                _ => return Ok(None),
            }
        }
        Ok(None)
    }

    /// Creates it under one idempotency key. Another replica sending the same key at the same
    /// moment makes Stripe answer `409` (its request still in flight): wait and send it again,
    /// which then answers that replica's configuration.
    async fn create_team_configuration(&self) -> Result<String, StripeFailure> {
        let mut attempt = 0u64;
        loop {
            match self.create_team_configuration_once().await {
                Err(StripeFailure::Refused { status: 409, .. }) if attempt < 5 => {
                    attempt += 1;
                    tokio::time::sleep(std::time::Duration::from_millis(100 * attempt)).await;
                }
                other => return other,
            }
        }
    }

    async fn create_team_configuration_once(&self) -> Result<String, StripeFailure> {
        let key = IdempotencyKey::new(format!("closewise-portal-{TEAM_PORTAL_VALUE}"))
            .map_err(|e| StripeFailure::Unavailable(e.to_string()))?;
        let created = self
            .call(
                "create team portal configuration",
                CreateBillingPortalConfiguration::new(team_features())
                    .name("Closewise teams")
                    .metadata(HashMap::from([(
                        TEAM_PORTAL_KEY.to_owned(),
                        TEAM_PORTAL_VALUE.to_owned(),
                    )]))
                    .customize()
                    .request_strategy(RequestStrategy::Idempotent(key))
                    .send(&self.client),
            )
            .await?;
        tracing::info!(configuration = %created.id.as_str(), "team portal configuration created");
        Ok(created.id.as_str().to_owned())
    }

    /// A billing-portal session of a team's customer with the team configuration; its URL. A
    /// configuration Stripe refuses (deactivated since) is forgotten, so the next call finds or
    /// creates a fit one.
    pub async fn team_portal_session(
        &self,
        customer_id: &str,
        return_url: &str,
    ) -> Result<String, StripeFailure> {
        let configuration = self.team_portal_configuration().await?;
        let session = self
            .call(
                "create team portal session",
                CreateBillingPortalSession::new()
                    .customer(customer_id)
                    .return_url(return_url)
                    .configuration(configuration.as_str())
                    .send(&self.client),
            )
            .await;
        if matches!(
            session,
            Err(StripeFailure::Refused { .. } | StripeFailure::NotFound)
        ) {
            *self.team_portal.lock().await = None;
        }
        Ok(session?.url)
    }
}
