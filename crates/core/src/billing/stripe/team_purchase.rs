//! The Stripe call of a team paying by invoice: a subscription of N seats with
//! `collection_method=send_invoice`, active at once, whose first invoice Stripe sends.

use std::collections::HashMap;

use stripe_billing::subscription::{CreateSubscription, CreateSubscriptionItems};
use stripe_billing::SubscriptionCollectionMethod;
use uuid::Uuid;

use super::team::team_subscription;
use super::{StripeClient, StripeFailure, TeamSubscription};

/// The invoice Stripe sent for a subscription paid by invoice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SentInvoice {
    pub id: String,
    pub number: Option<String>,
    /// Where it is read and paid (Stripe's hosted invoice page).
    pub url: String,
    pub amount_due: i64,
    pub currency: String,
    /// Unix seconds.
    pub due_date: Option<i64>,
}

impl StripeClient {
    /// Subscribes the team's customer to `seats` × `price_id`, paid by invoices due
    /// `days_until_due` days after they are sent; returns the subscription and its first invoice.
    pub async fn create_team_invoice_subscription(
        &self,
        team_id: Uuid,
        customer_id: &str,
        price_id: &str,
        seats: u32,
        days_until_due: u32,
    ) -> Result<(TeamSubscription, SentInvoice), StripeFailure> {
        let mut item = CreateSubscriptionItems::new();
        item.price = Some(price_id.to_owned());
        item.quantity = Some(u64::from(seats));
        let mut expand = super::subscription_expand();
        expand.push("latest_invoice".to_owned());
        let sub = self
            .call(
                "create invoiced team subscription",
                CreateSubscription::new()
                    .customer(customer_id)
                    .items(vec![item])
                    .collection_method(SubscriptionCollectionMethod::SendInvoice)
                    .days_until_due(days_until_due)
                    .metadata(HashMap::from([("team_id".to_owned(), team_id.to_string())]))
                    .expand(expand)
                    .send(&self.client),
            )
            .await?;
        let invoice = sub
            .latest_invoice
            .as_ref()
            .and_then(|i| i.as_object())
            .ok_or_else(|| StripeFailure::Unavailable("subscription without its invoice".into()))?;
        let sent = SentInvoice {
            id: invoice
                .id
                .as_ref()
                .map(|i| i.as_str().to_owned())
                .unwrap_or_default(),
            number: invoice.number.clone(),
            url: invoice
                .hosted_invoice_url
                .clone()
                .ok_or_else(|| StripeFailure::Unavailable("invoice without its page".into()))?,
            amount_due: invoice.amount_due,
            currency: invoice.currency.to_string(),
            due_date: invoice.due_date,
        };
        Ok((team_subscription(&sub)?, sent))
    }
}
