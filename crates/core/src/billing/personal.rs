//! A user's own billing as they read it: the plan, the personal subscription as last read from
//! Stripe, and the billing portal of their Stripe customer.

use std::sync::Arc;

use closewise_domain::checkout::{checkout_offer, personal_paid, CheckoutOffer};
use uuid::Uuid;

use super::{Billing, PersonalBillingError, PortalReturn};
use crate::sessions::read_cache::ReadCache;
use crate::store::payment_failures::PaymentFailureRow;
use crate::store::{PlanRow, Store, SubscriptionRow};

/// The per-user caches of `plan_view` and `subscription` (`Billing::caching_reads`).
#[derive(Clone)]
pub(crate) struct ReadCaches {
    plans: Arc<ReadCache<PlanView>>,
    subscriptions: Arc<ReadCache<Option<SubscriptionRow>>>,
}

impl ReadCaches {
    pub(crate) fn for_store(store: &Store) -> ReadCaches {
        ReadCaches {
            plans: ReadCache::for_store(store),
            subscriptions: ReadCache::for_store(store),
        }
    }
}

/// The user's subscription as last read from Stripe, with the payment Stripe is retrying.
#[derive(Clone, Debug)]
pub struct SubscriptionView {
    pub subscription: SubscriptionRow,
    pub payment_failure: Option<PaymentFailureRow>,
}

/// The user's plan with what the domain decides from it for the pricing page and the dashboard.
#[derive(Clone, Debug)]
pub struct PlanView {
    pub plan: PlanRow,
    /// Paid on the personal plan (`checkout::personal_paid`).
    pub paid: bool,
    /// What the checkout button offers (`checkout::checkout_offer`).
    pub checkout: CheckoutOffer,
}

impl Billing {
    /// The user's plan and the decisions that follow from it, their subscription, their
    /// address and a seat in a paid team.
    pub async fn plan_view(&self, user_id: Uuid) -> Result<PlanView, sqlx::Error> {
        match &self.reads {
            Some(reads) => {
                reads
                    .plans
                    .get_or_load(user_id, || self.load_plan_view(user_id))
                    .await
            }
            None => self.load_plan_view(user_id).await,
        }
    }

    async fn load_plan_view(&self, user_id: Uuid) -> Result<PlanView, sqlx::Error> {
        let plan = self.plan(user_id).await?;
        let own = self.store.subscription_of(user_id).await?.map(|s| s.status);
        let verified = self
            .store
            .user_by_id(user_id)
            .await?
            .is_some_and(|u| u.email_confirmed_at.is_some());
        let paid = personal_paid(plan.plan_type, own);
        let checkout = checkout_offer(verified, paid, self.member_paid(user_id).await?);
        Ok(PlanView {
            plan,
            paid,
            checkout,
        })
    }

    /// The user's plan now (the Free Trial when they never had another).
    pub async fn plan(&self, user_id: Uuid) -> Result<PlanRow, sqlx::Error> {
        self.store.plan_for(user_id, self.clock.now()).await
    }

    /// The user's personal subscription as last read from Stripe, if they ever had one.
    pub async fn subscription(
        &self,
        user_id: Uuid,
    ) -> Result<Option<SubscriptionRow>, sqlx::Error> {
        match &self.reads {
            Some(reads) => {
                reads
                    .subscriptions
                    .get_or_load(user_id, || self.store.subscription_of(user_id))
                    .await
            }
            None => self.store.subscription_of(user_id).await,
        }
    }

    /// The user's personal subscription with the payment Stripe is retrying, if any.
    pub async fn subscription_view(
        &self,
        user_id: Uuid,
    ) -> Result<Option<SubscriptionView>, sqlx::Error> {
        let Some(subscription) = self.subscription(user_id).await? else {
            return Ok(None);
        };
        let payment_failure = self
            .store
            .payment_failure(&subscription.subscription_id)
            .await?;
        Ok(Some(SubscriptionView {
            subscription,
            payment_failure,
        }))
    }

    /// The user's billing portal at Stripe, back to a page of the site; its URL.
    pub async fn open_portal(
        &self,
        user_id: Uuid,
        back_to: PortalReturn<'_>,
    ) -> Result<String, PersonalBillingError> {
        let return_url = back_to.url().ok_or(PersonalBillingError::InvalidRedirect)?;
        let customer = self
            .store
            .stripe_customer_of(user_id)
            .await?
            .ok_or(PersonalBillingError::NoCustomer)?;
        self.stripe
            .portal_session(&customer, &return_url)
            .await
            .map_err(PersonalBillingError::PortalFailed)
    }
}
