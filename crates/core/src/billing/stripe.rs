//! The few Stripe calls Closewise makes, through async-stripe, against Stripe or the local
//! stripe-mock (`STRIPE_API_BASE`). Every call has a deadline (`STRIPE_TIMEOUT_SECS`, at most
//! 10 s) so a hanging Stripe fails fast instead of holding the caller's request.

use std::collections::HashMap;
use std::future::Future;
use std::time::Duration;

use closewise_domain::promotion::{Discount, DiscountDuration};
use closewise_domain::subscription::SubscriptionStatus;
use secrecy::{ExposeSecret, SecretString};
use stripe::{Client, ClientBuilder, IdempotencyKey, RequestStrategy, StripeError, StripeRequest};
use stripe_billing::billing_portal_session::CreateBillingPortalSession;
use stripe_billing::subscription::{CancelSubscription, RetrieveSubscription};
use stripe_billing::Subscription;
use stripe_checkout::checkout_session::{
    CreateCheckoutSession, CreateCheckoutSessionAutomaticTax, CreateCheckoutSessionCustomerUpdate,
    CreateCheckoutSessionCustomerUpdateAddress, CreateCheckoutSessionLineItems,
    RetrieveCheckoutSession,
};
use stripe_checkout::{CheckoutSessionMode, CheckoutSessionPaymentStatus, CheckoutSessionStatus};
use stripe_core::customer::CreateCustomer;
use uuid::Uuid;

use crate::store::SubscriptionRecord;

mod cancel;
mod interval;
mod invoices;
mod operator;
mod portal;
mod promotions;
mod team;
mod team_purchase;
pub use invoices::{
    CustomerDetails, DetailsFailure, InvoiceCollection, InvoicePage, InvoiceSummary,
};
pub use portal::{TEAM_PORTAL_KEY, TEAM_PORTAL_VALUE};
pub use promotions::{FoundCode, NewCoupon, NewPromotionCode, Promotion};
pub use team::{SeatsPreview, TeamSubscription};
pub use team_purchase::SentInvoice;

/// Where Stripe is and how to talk to it: all a client needs (webhook secrets and prices are the
/// API's business).
#[derive(Clone, Debug)]
pub struct StripeConnection {
    pub api_base: String,
    pub secret_key: SecretString,
    pub timeout: Duration,
}

/// The longest a single Stripe call may take, whatever the configuration says.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a Stripe call did not give us what we asked for.
#[derive(Debug, thiserror::Error)]
pub enum StripeFailure {
    /// Stripe has no such object (`resource_missing`).
    #[error("Stripe has no such object")]
    NotFound,
    /// Stripe answered with an error we cannot fix by retrying (bad request, bad key).
    #[error("Stripe refused the request ({status}): {message}")]
    Refused { status: u16, message: String },
    /// Stripe could not be reached, timed out, failed (5xx) or answered something we cannot read.
    #[error("Stripe is unavailable: {0}")]
    Unavailable(String),
}

/// A checkout session as the confirm call needs it.
#[derive(Clone, Debug)]
pub struct CheckoutSessionView {
    pub id: String,
    pub complete: bool,
    pub paid: bool,
    pub expired: bool,
    pub customer_id: Option<String>,
    pub client_reference_id: Option<String>,
    pub metadata_user_id: Option<String>,
    /// Set on a team's checkout (`metadata.team_id`): the subscription is the team's.
    pub metadata_team_id: Option<String>,
    /// The subscription it created, read in the same call (expanded).
    pub subscription: Option<SubscriptionRecord>,
}

impl CheckoutSessionView {
    /// Whether the session names `user_id` as its owner everywhere it can: its metadata and
    /// client reference (both set by us), and `customer` when we know the user's customer.
    pub fn belongs_to(&self, user_id: Uuid, known_customer: Option<&str>) -> bool {
        let id = user_id.to_string();
        let named = self.metadata_user_id.as_deref() == Some(id.as_str())
            && self.client_reference_id.as_deref() == Some(id.as_str());
        let customer_ok = match (known_customer, self.customer_id.as_deref()) {
            (Some(known), Some(theirs)) => known == theirs,
            (Some(_), None) => false,
            (None, _) => true,
        };
        named && customer_ok
    }
}

#[derive(Clone)]
pub struct StripeClient {
    client: Client,
    timeout: Duration,
    /// The team portal configuration's id once known (`portal.rs`).
    team_portal: std::sync::Arc<tokio::sync::Mutex<Option<String>>>,
    /// Checkouts, subscription changes and previews ask for Stripe's automatic tax.
    automatic_tax: bool,
}

impl std::fmt::Debug for StripeClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StripeClient")
            .field("timeout", &self.timeout)
            .field("automatic_tax", &self.automatic_tax)
            .finish_non_exhaustive()
    }
}

impl StripeClient {
    pub fn new(connection: &StripeConnection) -> anyhow::Result<StripeClient> {
        let timeout = connection
            .timeout
            .clamp(Duration::from_millis(100), MAX_TIMEOUT);
        let base = format!("{}/", connection.api_base.trim_end_matches('/'));
        let client = ClientBuilder::new(connection.secret_key.expose_secret())
            .url(base)
            .timeout(timeout)
            .request_strategy(RequestStrategy::Once)
            .app_info("closewise", Some(env!("CARGO_PKG_VERSION").into()), None)
            .build()
            .map_err(|e| anyhow::anyhow!("invalid Stripe configuration: {e}"))?;
        Ok(StripeClient {
            client,
            timeout,
            team_portal: Default::default(),
            automatic_tax: false,
        })
    }

    /// With `on`, checkouts (personal and team), subscription changes and their previews ask
    /// Stripe to compute tax (`automatic_tax[enabled]=true`).
    pub fn with_automatic_tax(mut self, on: bool) -> StripeClient {
        self.automatic_tax = on;
        self
    }

    /// The session with automatic tax when it is on. Checkout then collects the billing address
    /// tax needs; the session must also save it on its existing customer
    /// (`customer_update[address]=auto`), which Stripe requires.
    pub(super) fn taxed(&self, session: CreateCheckoutSession) -> CreateCheckoutSession {
        if !self.automatic_tax {
            return session;
        }
        session.automatic_tax(CreateCheckoutSessionAutomaticTax::new(true))
    }

    /// `automatic_tax[enabled]` for subscription changes and previews: sent only when on.
    pub(super) fn automatic_tax(&self) -> Option<bool> {
        self.automatic_tax.then_some(true)
    }

    /// Runs one call with the deadline (the client's own timeout covers the attempt; this one
    /// also covers connecting and reading the body, whatever the transport does).
    async fn call<T>(
        &self,
        what: &'static str,
        fut: impl Future<Output = Result<T, StripeError>>,
    ) -> Result<T, StripeFailure> {
        match tokio::time::timeout(self.timeout + Duration::from_millis(250), fut).await {
            Err(_) => {
                tracing::warn!(call = what, "Stripe timed out");
                Err(StripeFailure::Unavailable(format!("{what}: timed out")))
            }
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) => {
                let failure = classify(e);
                tracing::warn!(call = what, error = %failure, "Stripe call failed");
                Err(failure)
            }
        }
    }

    /// Creates the user's customer. The idempotency key makes two racing checkouts of the same
    /// user get one customer.
    pub async fn create_customer(
        &self,
        user_id: Uuid,
        email: &str,
    ) -> Result<String, StripeFailure> {
        let key = format!("closewise-customer-{user_id}");
        self.create_customer_once(
            "create customer",
            &key,
            CreateCustomer::new()
                .email(email)
                .metadata(user_metadata(user_id)),
        )
        .await
    }

    /// Creates `customer` under the idempotency `key`: racing callers get one customer.
    pub(crate) async fn create_customer_once(
        &self,
        what: &'static str,
        key: &str,
        customer: CreateCustomer,
    ) -> Result<String, StripeFailure> {
        let key =
            IdempotencyKey::new(key).map_err(|e| StripeFailure::Unavailable(e.to_string()))?;
        let customer = self
            .call(
                what,
                customer
                    .customize()
                    .request_strategy(RequestStrategy::Idempotent(key))
                    .send(&self.client),
            )
            .await?;
        Ok(customer.id.as_str().to_owned())
    }

    /// A hosted checkout for one `price_id` subscription; returns the page's URL.
    pub async fn create_checkout_session(
        &self,
        user_id: Uuid,
        customer_id: &str,
        price_id: &str,
        success_url: &str,
        cancel_url: &str,
        promotion: &Promotion,
    ) -> Result<String, StripeFailure> {
        let mut item = CreateCheckoutSessionLineItems::new();
        item.price = Some(price_id.to_owned());
        item.quantity = Some(1);
        let session = CreateCheckoutSession::new()
            .mode(CheckoutSessionMode::Subscription)
            .customer(customer_id)
            .line_items(vec![item])
            .success_url(success_url)
            .cancel_url(cancel_url)
            .client_reference_id(user_id.to_string())
            .metadata(user_metadata(user_id));
        let session = if self.automatic_tax {
            // The address typed for tax is saved on the customer, as Stripe requires.
            session.customer_update(CreateCheckoutSessionCustomerUpdate {
                address: Some(CreateCheckoutSessionCustomerUpdateAddress::Auto),
                name: None,
                shipping: None,
            })
        } else {
            session
        };
        let session = self.taxed(promotion.apply(session));
        self.checkout_url("create checkout session", &session).await
    }

    /// Creates the checkout session and returns its hosted page's URL (personal or a team's).
    pub(super) async fn checkout_url(
        &self,
        what: &'static str,
        session: &CreateCheckoutSession,
    ) -> Result<String, StripeFailure> {
        let session = self.call(what, session.send(&self.client)).await?;
        session
            .url
            .filter(|u| u.starts_with("http://") || u.starts_with("https://"))
            .ok_or_else(|| StripeFailure::Unavailable("checkout session without a url".into()))
    }

    /// The session with its subscription and that subscription's card.
    pub async fn checkout_session(&self, id: &str) -> Result<CheckoutSessionView, StripeFailure> {
        let s = self
            .call(
                "retrieve checkout session",
                RetrieveCheckoutSession::new(id)
                    .expand(
                        SUBSCRIPTION_EXPAND
                            .iter()
                            .map(|path| format!("subscription.{path}"))
                            .collect::<Vec<_>>(),
                    )
                    .send(&self.client),
            )
            .await?;
        let subscription = match s.subscription.as_ref().map(|e| e.as_object()) {
            Some(Some(sub)) => Some(record(sub)?),
            Some(None) => {
                return Err(StripeFailure::Unavailable(
                    "the session's subscription was not expanded".into(),
                ))
            }
            None => None,
        };
        Ok(CheckoutSessionView {
            id: s.id.as_str().to_owned(),
            complete: s.status == Some(CheckoutSessionStatus::Complete),
            // A trial charges nothing at checkout: Stripe says `no_payment_required`.
            paid: matches!(
                s.payment_status,
                CheckoutSessionPaymentStatus::Paid
                    | CheckoutSessionPaymentStatus::NoPaymentRequired
            ),
            expired: s.status == Some(CheckoutSessionStatus::Expired),
            customer_id: s.customer.as_ref().map(|c| c.id().as_str().to_owned()),
            client_reference_id: s.client_reference_id.clone(),
            metadata_user_id: s.metadata.as_ref().and_then(|m| m.get("user_id").cloned()),
            metadata_team_id: s.metadata.as_ref().and_then(|m| m.get("team_id").cloned()),
            subscription,
        })
    }

    /// The subscription as Stripe has it now, with its card.
    pub async fn subscription(&self, id: &str) -> Result<SubscriptionRecord, StripeFailure> {
        record(&self.retrieve_subscription(id).await?)
    }

    /// Stripe's subscription object with its card and discounts expanded (a personal or a
    /// team's).
    pub(super) async fn retrieve_subscription(
        &self,
        id: &str,
    ) -> Result<Subscription, StripeFailure> {
        self.call(
            "retrieve subscription",
            RetrieveSubscription::new(id)
                .expand(subscription_expand())
                .send(&self.client),
        )
        .await
    }

    /// Cancels at once (the account is being deleted).
    pub async fn cancel_subscription(&self, id: &str) -> Result<(), StripeFailure> {
        self.call(
            "cancel subscription",
            CancelSubscription::new(id).send(&self.client),
        )
        .await
        .map(|_| ())
    }

    /// A billing-portal session for the customer; returns its URL.
    pub async fn portal_session(
        &self,
        customer_id: &str,
        return_url: &str,
    ) -> Result<String, StripeFailure> {
        let portal = self
            .call(
                "create portal session",
                CreateBillingPortalSession::new()
                    .customer(customer_id)
                    .return_url(return_url)
                    .send(&self.client),
            )
            .await?;
        Ok(portal.url)
    }
}

/// What every subscription read expands: its card, and its discounts with their coupons.
const SUBSCRIPTION_EXPAND: [&str; 2] = ["default_payment_method", "discounts.source.coupon"];

/// What a preview line adds to the invoice, as the customer pays it: its amount less its discounts,
/// plus the tax Stripe adds on top (exclusive tax; inclusive tax is already in the amount).
pub(super) fn line_payable(line: &stripe_billing::InvoiceLineItem) -> i64 {
    use stripe_billing::BillingBillResourceInvoicingTaxesTaxTaxBehavior as Behavior;
    let discounts: i64 = line
        .discount_amounts
        .iter()
        .flatten()
        .map(|d| d.amount)
        .sum();
    let taxes: i64 = line
        .taxes
        .iter()
        .flatten()
        .filter(|t| matches!(t.tax_behavior, Behavior::Exclusive))
        .map(|t| t.amount)
        .sum();
    line.amount - discounts + taxes
}

/// Whether a preview line is a proration (due now) rather than the next period's charge.
pub(super) fn is_proration(line: &stripe_billing::InvoiceLineItem) -> bool {
    line.parent
        .as_ref()
        .and_then(|p| p.subscription_item_details.as_ref())
        .is_some_and(|d| d.proration)
}

pub(super) fn subscription_expand() -> Vec<String> {
    SUBSCRIPTION_EXPAND
        .iter()
        .map(|p| (*p).to_owned())
        .collect()
}

fn user_metadata(user_id: Uuid) -> HashMap<String, String> {
    HashMap::from([("user_id".to_owned(), user_id.to_string())])
}

fn classify(e: StripeError) -> StripeFailure {
    match e {
        StripeError::Stripe(api, status) => {
            let code = api.code.as_ref().map(|c| c.as_str().to_owned());
            if status == 404 || code.as_deref() == Some("resource_missing") {
                StripeFailure::NotFound
            } else if (400..500).contains(&status) && status != 429 {
                StripeFailure::Refused {
                    status,
                    message: api.message.clone().unwrap_or_default(),
                }
            } else {
                StripeFailure::Unavailable(format!(
                    "status {status}: {}",
                    api.message.clone().unwrap_or_default()
                ))
            }
        }
        other => StripeFailure::Unavailable(other.to_string()),
    }
}

/// What we keep of a subscription. An unknown status (a newer Stripe) is refused, not guessed.
fn record(sub: &Subscription) -> Result<SubscriptionRecord, StripeFailure> {
    let status = SubscriptionStatus::parse(sub.status.as_str())
        .map_err(|e| StripeFailure::Unavailable(e.to_string()))?;
    let item = sub.items.data.first();
    let card = sub
        .default_payment_method
        .as_ref()
        .and_then(|pm| pm.as_object())
        .and_then(|pm| pm.card.as_ref());
    Ok(SubscriptionRecord {
        customer_id: sub.customer.id().as_str().to_owned(),
        subscription_id: sub.id.as_str().to_owned(),
        price_id: item.map(|i| i.price.id.as_str().to_owned()),
        status,
        cancel_at_period_end: sub.cancel_at_period_end,
        current_period_end: item.map(|i| i.current_period_end),
        payment_method_brand: card.map(|c| c.brand.clone()),
        payment_method_last4: card.map(|c| c.last4.clone()),
        discount: discount(sub),
    })
}

/// The subscription's first discount whose coupon was expanded, in the domain's terms; none
/// when the coupon's duration is one we do not know.
fn discount(sub: &Subscription) -> Option<Discount> {
    sub.discounts.iter().find_map(|d| {
        let d = d.as_object()?;
        let coupon = d.source.coupon.as_ref()?.as_object()?;
        Some(Discount {
            name: coupon.name.clone(),
            percent_off: coupon.percent_off,
            amount_off: coupon.amount_off,
            currency: coupon.currency.as_ref().map(|c| c.to_string()),
            duration: DiscountDuration::parse(coupon.duration.as_str())?,
            duration_in_months: coupon.duration_in_months,
            ends_at: d.end,
        })
    })
}
