//! The Stripe calls of team billing: the team's own customer, a checkout of N seats, the
//! subscription with its item and quantity, a quantity change with prorations and its preview.

use std::collections::HashMap;

use stripe_billing::invoice::{
    CreatePreviewInvoice, CreatePreviewInvoiceAutomaticTax,
    CreatePreviewInvoiceSubscriptionDetails, CreatePreviewInvoiceSubscriptionDetailsItems,
};
use stripe_billing::subscription::{
    ListSubscription, UpdateSubscription, UpdateSubscriptionAutomaticTax, UpdateSubscriptionItems,
    UpdateSubscriptionProrationBehavior,
};
use stripe_billing::Subscription;
use stripe_checkout::checkout_session::{
    CreateCheckoutSession, CreateCheckoutSessionLineItems, CreateCheckoutSessionSubscriptionData,
    ExpireCheckoutSession, ListCheckoutSession,
};
use stripe_checkout::checkout_session::{
    CreateCheckoutSessionCustomerUpdate, CreateCheckoutSessionCustomerUpdateAddress,
    CreateCheckoutSessionCustomerUpdateName, CreateCheckoutSessionTaxIdCollection,
};
use stripe_checkout::{
    CheckoutSessionBillingAddressCollection, CheckoutSessionMode, CheckoutSessionStatus,
};
use stripe_core::customer::CreateCustomer;
use uuid::Uuid;

use super::{record, StripeClient, StripeFailure};
use crate::store::SubscriptionRecord;

/// A team's subscription as Stripe has it: the record every subscription gets, plus the one item
/// whose quantity is the team's seats, and the team its metadata names.
#[derive(Clone, Debug)]
pub struct TeamSubscription {
    pub record: SubscriptionRecord,
    pub item_id: Option<String>,
    pub quantity: u32,
    pub team_id: Option<Uuid>,
    /// The seat item's current period (Unix seconds): a proration date must fall inside it.
    pub period: Option<(i64, i64)>,
    /// When its free trial ends (Unix seconds), if it has one.
    pub trial_end: Option<i64>,
}

impl TeamSubscription {
    /// `now` moved into the current period: a server clock a moment behind Stripe's (just after
    /// checkout) or ahead of it (at renewal) must not make Stripe refuse the change.
    pub fn proration_date(&self, now: i64) -> i64 {
        closewise_domain::team_billing::proration_date(now, self.period)
    }
}

/// What changing the seats would cost (cents): the prorated difference on the next invoice
/// (negative: a credit) and the new recurring total.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatsPreview {
    pub amount_due_now: i64,
    pub next_total: i64,
    pub currency: String,
}

/// Stripe saves what Checkout collects on an existing customer only when told to (and refuses
/// tax ID collection without the name).
fn company_update() -> CreateCheckoutSessionCustomerUpdate {
    CreateCheckoutSessionCustomerUpdate {
        address: Some(CreateCheckoutSessionCustomerUpdateAddress::Auto),
        name: Some(CreateCheckoutSessionCustomerUpdateName::Auto),
        shipping: None,
    }
}

fn team_metadata(team_id: Uuid) -> HashMap<String, String> {
    HashMap::from([("team_id".to_owned(), team_id.to_string())])
}

pub(super) fn team_subscription(sub: &Subscription) -> Result<TeamSubscription, StripeFailure> {
    let item = sub.items.data.first();
    Ok(TeamSubscription {
        record: record(sub)?,
        item_id: item.map(|i| i.id.as_str().to_owned()),
        quantity: item
            .and_then(|i| i.quantity)
            .map_or(0, |q| u32::try_from(q).unwrap_or(u32::MAX)),
        team_id: sub.metadata.get("team_id").and_then(|t| t.parse().ok()),
        period: item.map(|i| (i.current_period_start, i.current_period_end)),
        trial_end: sub.trial_end,
    })
}

impl StripeClient {
    /// A subscription change taxed like its checkout when automatic tax is on.
    pub(super) fn tax_subscription(&self, update: UpdateSubscription) -> UpdateSubscription {
        match self.automatic_tax() {
            Some(on) => update.automatic_tax(UpdateSubscriptionAutomaticTax::new(on)),
            None => update,
        }
    }

    /// A preview taxed like the invoice it previews when automatic tax is on.
    pub(super) fn tax_preview(&self, preview: CreatePreviewInvoice) -> CreatePreviewInvoice {
        match self.automatic_tax() {
            Some(on) => preview.automatic_tax(CreatePreviewInvoiceAutomaticTax::new(on)),
            None => preview,
        }
    }

    /// The team's own customer (not the owner's personal one), created once: the idempotency key
    /// makes two racing checkouts of the team get one customer.
    pub async fn create_team_customer(
        &self,
        team_id: Uuid,
        email: &str,
        name: &str,
    ) -> Result<String, StripeFailure> {
        let key = format!("closewise-team-customer-{team_id}");
        let customer = CreateCustomer::new()
            .email(email)
            .name(name)
            .metadata(team_metadata(team_id));
        self.create_customer_once("create team customer", &key, customer)
            .await
    }

    /// A hosted checkout of `seats` × `price_id` for the team (free for `trial_days` first, when
    /// given); returns the page's URL.
    // Each argument is one of the session's Stripe parameters.
    #[allow(clippy::too_many_arguments)]
    pub async fn create_team_checkout_session(
        &self,
        team_id: Uuid,
        customer_id: &str,
        price_id: &str,
        seats: u32,
        success_url: &str,
        cancel_url: &str,
        promotion: &super::Promotion,
        trial_days: Option<u32>,
    ) -> Result<String, StripeFailure> {
        let mut item = CreateCheckoutSessionLineItems::new();
        item.price = Some(price_id.to_owned());
        item.quantity = Some(u64::from(seats));
        let mut subscription_data = CreateCheckoutSessionSubscriptionData::new();
        subscription_data.metadata = Some(team_metadata(team_id));
        // A trial charges nothing now; Checkout still takes the card, charged at its end.
        subscription_data.trial_period_days = trial_days;
        let session = CreateCheckoutSession::new()
            .mode(CheckoutSessionMode::Subscription)
            .customer(customer_id)
            .line_items(vec![item])
            .success_url(success_url)
            .cancel_url(cancel_url)
            .client_reference_id(team_id.to_string())
            .metadata(team_metadata(team_id))
            .subscription_data(subscription_data)
            // The company's name, address and tax ID go on its invoices: Checkout asks for them
            // and saves them on the team's customer.
            .billing_address_collection(CheckoutSessionBillingAddressCollection::Required)
            .tax_id_collection(CreateCheckoutSessionTaxIdCollection::new(true))
            .customer_update(company_update());
        let session = self.taxed(promotion.apply(session));
        self.checkout_url("create team checkout session", &session)
            .await
    }

    /// The customer's checkout sessions that can still be paid (at most 100: a team opens one at
    /// a time, since each new one expires those before it).
    pub async fn open_checkout_sessions(
        &self,
        customer_id: &str,
    ) -> Result<Vec<String>, StripeFailure> {
        let list = self
            .call(
                "list open checkout sessions",
                ListCheckoutSession::new()
                    .customer(customer_id)
                    .status(CheckoutSessionStatus::Open)
                    .limit(100)
                    .send(&self.client),
            )
            .await?;
        Ok(list
            .data
            .into_iter()
            .map(|s| s.id.as_str().to_owned())
            .collect())
    }

    /// The customer's subscriptions that have not ended (Stripe's list leaves out cancelled ones;
    /// `incomplete_expired` ones are dropped here). At most 100: a team has one at a time.
    pub async fn live_subscriptions(
        &self,
        customer_id: &str,
    ) -> Result<Vec<TeamSubscription>, StripeFailure> {
        let list = self
            .call(
                "list subscriptions",
                ListSubscription::new()
                    .customer(customer_id)
                    .limit(100)
                    .send(&self.client),
            )
            .await?;
        let subs = list
            .data
            .iter()
            .map(team_subscription)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(subs
            .into_iter()
            .filter(|s| !s.record.status.is_terminal())
            .collect())
    }

    /// Ends an open checkout session: its page can no longer be paid. A session paid meanwhile
    /// cannot be expired (Stripe refuses it).
    pub async fn expire_checkout_session(&self, id: &str) -> Result<(), StripeFailure> {
        self.call(
            "expire checkout session",
            ExpireCheckoutSession::new(id).send(&self.client),
        )
        .await
        .map(|_| ())
    }

    /// The subscription with its seat item, as Stripe has it now.
    pub async fn team_subscription(&self, id: &str) -> Result<TeamSubscription, StripeFailure> {
        team_subscription(&self.retrieve_subscription(id).await?)
    }

    /// Sets the seat item's quantity; the prorated lines wait for the next invoice.
    pub async fn set_subscription_quantity(
        &self,
        subscription_id: &str,
        item_id: &str,
        quantity: u32,
        proration_date: i64,
    ) -> Result<TeamSubscription, StripeFailure> {
        let mut item = UpdateSubscriptionItems::new();
        item.id = Some(item_id.to_owned());
        item.quantity = Some(u64::from(quantity));
        let sub = self
            .call(
                "update subscription quantity",
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

    /// The next invoice as it would be with the seat item at `quantity`, prorated at
    /// `proration_date`: "due now" is the sum of its proration lines, the new total the rest, each
    /// line as paid (discounts off, tax on).
    pub async fn preview_quantity(
        &self,
        customer_id: &str,
        subscription_id: &str,
        item_id: &str,
        quantity: u32,
        proration_date: i64,
    ) -> Result<SeatsPreview, StripeFailure> {
        let mut item = CreatePreviewInvoiceSubscriptionDetailsItems::new();
        item.id = Some(item_id.to_owned());
        item.quantity = Some(u64::from(quantity));
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
        let (mut amount_due_now, mut next_total) = (0, 0);
        for line in &invoice.lines.data {
            if super::is_proration(line) {
                amount_due_now += super::line_payable(line);
            } else {
                next_total += super::line_payable(line);
            }
        }
        Ok(SeatsPreview {
            amount_due_now,
            next_total,
            currency: invoice.currency.to_string(),
        })
    }
}
