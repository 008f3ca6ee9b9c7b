//! The Stripe calls only the operator's tool makes: a customer's subscriptions of every status
//! (`closewise subscriptions sync` finds one nobody stored) and an event read back by its id
//! (`closewise webhooks replay`, which needs no signature since it comes from Stripe itself).

use serde_json::{json, Value};
use stripe_billing::subscription::{ListSubscription, ListSubscriptionStatus};
use stripe_core::event::RetrieveEvent;

use super::{StripeClient, StripeFailure};

impl StripeClient {
    /// The id of the customer's subscription that matters: a live one (it counts as
    /// subscribed), else the newest of any status; `None` when the customer never had one.
    pub async fn customer_subscription(
        &self,
        customer_id: &str,
    ) -> Result<Option<String>, StripeFailure> {
        let list = self
            .call(
                "list subscriptions",
                ListSubscription::new()
                    .customer(customer_id)
                    .status(ListSubscriptionStatus::All)
                    .limit(100)
                    .send(&self.client),
            )
            .await?;
        let live = list.data.iter().find(|s| {
            closewise_domain::subscription::SubscriptionStatus::parse(s.status.as_str())
                .is_ok_and(|st| st.counts_as_subscribed())
        });
        Ok(live.or(list.data.first()).map(|s| s.id.as_str().to_owned()))
    }

    /// The event as Stripe keeps it (30 days), in the shape of a webhook delivery: its id, type,
    /// creation and `data.object`.
    pub async fn event(&self, id: &str) -> Result<Value, StripeFailure> {
        let event = self
            .call("retrieve event", RetrieveEvent::new(id).send(&self.client))
            .await?;
        let object: Value =
            serde_json::from_str(&miniserde::json::to_string(&event.data.object))
                .map_err(|e| StripeFailure::Unavailable(format!("the event's object: {e}")))?;
        Ok(json!({
            "id": event.id.as_str(),
            "object": "event",
            "type": event.type_.as_str(),
            "created": event.created,
            "livemode": event.livemode,
            "data": { "object": object },
        }))
    }
}
