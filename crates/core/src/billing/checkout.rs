//! A user's own checkout (the personal plan), beside the team's (`teams::billing`): who may
//! buy, the hosted checkout on the user's Stripe customer (created once), and the success page's
//! activation. The spec's preconditions and their order are the domain's (`decide_checkout`).

use closewise_domain::catalogue::{catalogue, find_by_price, same_plan, PriceIds};
use closewise_domain::checkout::{decide_checkout, CheckoutRefusal, CheckoutRequest};
use closewise_domain::promotion::PromotionRefusal;
use closewise_domain::subscription::SubscriptionStatus;
use closewise_domain::teams::member_is_paid;
use uuid::Uuid;

use super::{on_site, Billing, BillingError, PromotionError, StripeFailure};
use crate::store::{SubscriptionRow, UserRow};

/// Why a personal billing step (checkout, its activation, the portal) did not happen. The API
/// answers each with its status and message (`closewise_api::error`).
#[derive(Debug, thiserror::Error)]
pub enum PersonalBillingError {
    /// A precondition of the spec (signed in, verified, not subscribed already).
    #[error("{0}")]
    Refused(CheckoutRefusal),
    /// No product of the catalogue has that price and mode.
    #[error("This product is not available")]
    UnknownPrice,
    /// A return address that is not a page of the site.
    #[error("The return addresses must be pages of this site")]
    InvalidRedirect,
    /// The promotion code typed cannot be used; the reason is the domain's.
    #[error("{0}")]
    InvalidPromotion(PromotionRefusal),
    /// Stripe could not create the customer or the checkout session.
    #[error("the checkout could not be created: {0}")]
    CheckoutFailed(StripeFailure),
    /// The success page's activation did not happen (`BillingError`'s reasons).
    #[error(transparent)]
    Activation(BillingError),
    /// The user has no Stripe customer, so no portal.
    #[error("No billing account yet. Start a subscription first.")]
    NoCustomer,
    /// Stripe could not open the billing portal.
    #[error("the billing portal could not be opened: {0}")]
    PortalFailed(StripeFailure),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

impl PersonalBillingError {
    /// The machine code adapters show.
    pub fn code(&self) -> &'static str {
        match self {
            PersonalBillingError::Refused(r) => r.code(),
            PersonalBillingError::UnknownPrice => "unknown_price",
            PersonalBillingError::InvalidRedirect => "invalid_redirect_url",
            PersonalBillingError::InvalidPromotion(r) => r.code(),
            PersonalBillingError::CheckoutFailed(_) => "checkout_failed",
            PersonalBillingError::Activation(e) => e.code(),
            PersonalBillingError::NoCustomer => "no_customer",
            PersonalBillingError::PortalFailed(_) => "portal_failed",
            PersonalBillingError::Database(_) => "internal",
        }
    }
}

/// The caller of a checkout as far as it is known: whether they sent credentials at all, and the
/// user their valid session names.
#[derive(Clone, Copy, Debug)]
pub struct Caller {
    pub has_auth_header: bool,
    pub user_id: Option<Uuid>,
}

/// A signed-in user who asked to buy; `may_check_out` says whether their address allows it yet.
#[derive(Clone, Debug)]
pub struct Buyer {
    user: UserRow,
}

impl Buyer {
    pub fn user_id(&self) -> Uuid {
        self.user.id
    }

    fn request<'a>(&self, price_id: &'a str) -> CheckoutRequest<'a> {
        CheckoutRequest {
            has_auth_header: true,
            token_valid: true,
            email_verified: self.user.email_confirmed_at.is_some(),
            price_id,
            active_subscription_price_id: None,
            team_price_id: None,
        }
    }

    /// A verified e-mail comes before anything the order says.
    pub fn may_check_out(&self) -> Result<(), PersonalBillingError> {
        decide_checkout(&self.request("")).map_err(PersonalBillingError::Refused)
    }
}

/// A personal checkout as the caller asked it, with the site it must come back to.
pub struct PersonalCheckout<'a> {
    /// The catalogue's `priceId`.
    pub price_id: &'a str,
    /// `subscription` (the catalogue's only product) or `payment`.
    pub mode: &'a str,
    pub success_url: &'a str,
    pub cancel_url: &'a str,
    /// The configured prices the catalogue sells (and teams buy per seat).
    pub prices: PriceIds<'a>,
    /// The site's base URL: both return addresses must be its pages.
    pub site: &'a str,
    /// The promotion code as the buyer typed it, if any.
    pub promotion_code: Option<&'a str>,
}

impl From<PromotionError> for PersonalBillingError {
    fn from(e: PromotionError) -> Self {
        match e {
            PromotionError::Refused(r) => PersonalBillingError::InvalidPromotion(r),
            PromotionError::Stripe(f) => PersonalBillingError::CheckoutFailed(f),
        }
    }
}

/// The success page's answer: the plan the activation gave and the subscription behind it.
#[derive(Clone, Debug)]
pub struct Activation {
    pub plan: super::PlanView,
    pub subscription: Option<SubscriptionRow>,
}

impl Billing {
    /// The caller as a buyer: refused when they sent no credentials, or a session whose user is
    /// gone (the spec's first two checks).
    pub async fn buyer(&self, caller: Caller) -> Result<Buyer, PersonalBillingError> {
        let user = match caller.user_id {
            Some(id) => self.store.user_by_id(id).await?,
            None => None,
        };
        let Some(user) = user else {
            let refusal = decide_checkout(&CheckoutRequest {
                has_auth_header: caller.has_auth_header,
                token_valid: false,
                email_verified: false,
                price_id: "",
                active_subscription_price_id: None,
                team_price_id: None,
            })
            .expect_err("no user, no checkout");
            return Err(PersonalBillingError::Refused(refusal));
        };
        Ok(Buyer { user })
    }

    /// Starts the buyer's checkout of a catalogue product on their customer (created once);
    /// returns the hosted page's URL. Refused while a subscription of theirs or a seat in a paid
    /// team already gives them that price.
    pub async fn start_checkout(
        &self,
        buyer: &Buyer,
        order: &PersonalCheckout<'_>,
    ) -> Result<String, PersonalBillingError> {
        let user = &buyer.user;
        let active = self
            .store
            .subscription_of(user.id)
            .await?
            .filter(|s| s.counts_as_subscribed());
        let products = catalogue(order.prices);
        // The plan by the month and by the year is one plan: a subscriber to either has it.
        let active_price = active
            .as_ref()
            .and_then(|s| s.price_id.as_deref())
            .map(|p| {
                if same_plan(&products, p, order.price_id) {
                    order.price_id
                } else {
                    p
                }
            });
        // Teams buy the catalogue's plan per seat.
        let team_covers = self.member_paid(user.id).await?;
        decide_checkout(&CheckoutRequest {
            active_subscription_price_id: active_price,
            team_price_id: team_covers.then_some(order.price_id),
            ..buyer.request(order.price_id)
        })
        .map_err(PersonalBillingError::Refused)?;

        let product = find_by_price(&products, order.price_id)
            .filter(|p| p.mode.as_str() == order.mode)
            .ok_or(PersonalBillingError::UnknownPrice)?;
        if !on_site(order.site, &[order.success_url, order.cancel_url]) {
            return Err(PersonalBillingError::InvalidRedirect);
        }
        // Anyone who had a subscription has paid before (Stripe's first-time restriction).
        let paid_before = self.store.subscription_of(user.id).await?.is_some();
        let amount = i64::from(product.price) * 100;
        let promotion = self
            .promotion_for(order.promotion_code, paid_before, amount)
            .await?;

        let customer = match self.store.stripe_customer_of(user.id).await? {
            Some(c) => c,
            None => {
                let created = self
                    .stripe
                    .create_customer(user.id, &user.email)
                    .await
                    .map_err(PersonalBillingError::CheckoutFailed)?;
                self.store
                    .save_stripe_customer(user.id, &created, self.clock.now())
                    .await?
            }
        };
        let url = self
            .stripe
            .create_checkout_session(
                user.id,
                &customer,
                &product.price_id,
                order.success_url,
                order.cancel_url,
                &promotion,
            )
            .await
            .map_err(PersonalBillingError::CheckoutFailed)?;
        tracing::info!(user_id = %user.id, "checkout started");
        Ok(url)
    }

    /// The success page's activation (`confirm_checkout`), then the plan and subscription it
    /// left the user with.
    pub async fn activate(
        &self,
        user_id: Uuid,
        session_id: &str,
    ) -> Result<Activation, PersonalBillingError> {
        self.confirm_checkout(user_id, session_id)
            .await
            .map_err(PersonalBillingError::Activation)?;
        Ok(Activation {
            plan: self.plan_view(user_id).await?,
            subscription: self.subscription(user_id).await?,
        })
    }

    /// Whether the user holds a seat in a team whose subscription counts as subscribed.
    pub(super) async fn member_paid(&self, user_id: Uuid) -> Result<bool, sqlx::Error> {
        let status = self.store.team_subscription_of_member(user_id).await?;
        let status = status
            .flatten()
            .and_then(|s| SubscriptionStatus::parse(&s).ok());
        Ok(member_is_paid(status))
    }
}
