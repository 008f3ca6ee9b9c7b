//! The Stripe calls of switching a subscription's interval: its one item moved to another price
//! (Stripe resets the billing cycle and invoices at once, the unused time credited), and the
//! invoice preview of that switch.

use stripe_billing::invoice::{
    CreatePreviewInvoice, CreatePreviewInvoiceSubscriptionDetails,
    CreatePreviewInvoiceSubscriptionDetailsItems,
};
use stripe_billing::subscription::{
    UpdateSubscription, UpdateSubscriptionItems, UpdateSubscriptionProrationBehavior,
};

use super::team::{team_subscription, SeatsPreview, TeamSubscription};
use super::{StripeClient, StripeFailure};

impl StripeClient {
    /// Moves the item to `price_id` (same quantity), prorated at `proration_date`.
    pub async fn set_subscription_price(
        &self,
        subscription_id: &str,
        item_id: &str,
        price_id: &str,
        proration_date: i64,
    ) -> Result<TeamSubscription, StripeFailure> {
        let mut item = UpdateSubscriptionItems::new();
        item.id = Some(item_id.to_owned());
        item.price = Some(price_id.to_owned());
        let sub = self
            .call(
                "update subscription price",
                self.tax_subscription(
                    UpdateSubscription::new(subscription_id)
                        .items(vec![item])
                        .proration_behavior(UpdateSubscriptionProrationBehavior::CreateProrations)
                        .proration_date(proration_date)
                        .expand(super::subscription_expand()),
                )
                .send(&self.client),
            )
            .await?;
        team_subscription(&sub)
    }

    /// The invoice the switch to `price_id` would make now: due now is its total (the new
    /// period less the unused time; negative: a credit), the new recurring total its lines that
    /// are not prorations.
    pub async fn preview_price(
        &self,
        customer_id: &str,
        subscription_id: &str,
        item_id: &str,
        price_id: &str,
        proration_date: i64,
    ) -> Result<SeatsPreview, StripeFailure> {
        let mut item = CreatePreviewInvoiceSubscriptionDetailsItems::new();
        item.id = Some(item_id.to_owned());
        item.price = Some(price_id.to_owned());
        let mut details = CreatePreviewInvoiceSubscriptionDetails::new();
        details.items = Some(vec![item]);
        details.proration_date = Some(proration_date);
        let invoice = self
            .call(
                "preview invoice",
                self.tax_preview(
                    CreatePreviewInvoice::new()
                        .customer(customer_id)
                        .subscription(subscription_id)
                        .subscription_details(details),
                )
                .send(&self.client),
            )
            .await?;
        let next_total = invoice
            .lines
            .data
            .iter()
            .filter(|line| !super::is_proration(line))
            .map(super::line_payable)
            .sum();
        Ok(SeatsPreview {
            amount_due_now: invoice.total,
            next_total,
            currency: invoice.currency.to_string(),
        })
    }
}
