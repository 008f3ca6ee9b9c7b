//! Billing: the plan follows what Stripe says, read back from Stripe by the server, through one
//! idempotent fulfilment used by the success page's confirmation, Stripe's webhooks, the CLI's
//! replay and sync. The browser never grants a plan.

pub mod cancel;
mod checkout;
mod coupons;
pub mod dunning;
mod events;
pub mod interval;
pub mod invoices;
mod personal;
mod promotions;
mod replay;
mod return_pages;
pub mod signature;
pub mod stripe;
pub mod sync;
mod webhook;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::OwnedMutexGuard;
use uuid::Uuid;

use crate::clock::Clock;
use crate::store::locks::AdvisoryLock;
use crate::store::{Fulfilment, Store, SubscriptionRecord};

pub use self::checkout::{Activation, Buyer, Caller, PersonalBillingError, PersonalCheckout};
pub use self::coupons::{CouponView, CouponsError, PromotionCodeView};
pub use self::events::{EventError, EventOutcome};
pub use self::personal::{PlanView, SubscriptionView};
pub use self::promotions::PromotionError;
pub use self::replay::{ReplayError, Replayed};
pub use self::return_pages::{on_site, PortalReturn};
pub use self::stripe::{
    CheckoutSessionView, CustomerDetails, InvoiceSummary, NewCoupon, NewPromotionCode, Promotion,
    SeatsPreview, StripeClient, StripeConnection, StripeFailure, TeamSubscription,
};
pub use self::webhook::WebhookError;

/// stripe-mock's local defaults, shared with `./just up`; production refuses them.
pub const DEV_STRIPE_SECRET_KEY: &str = "sk_test_closewise_local";
pub const DEV_STRIPE_WEBHOOK_SECRET: &str = "whsec_closewise_local";
pub const DEV_STRIPE_API_BASE: &str = "http://127.0.0.1:12111";

/// Why a billing step did not happen. `code()` is the machine code adapters show.
#[derive(Debug, thiserror::Error)]
pub enum BillingError {
    /// No Stripe object by that id (or a malformed id).
    #[error("Stripe has no checkout session by that id")]
    SessionNotFound,
    /// The checkout session belongs to somebody else.
    #[error("the checkout session is not the caller's")]
    SessionNotYours,
    /// The checkout session is not complete and paid (yet).
    #[error("the checkout session is not paid")]
    SessionNotPaid,
    /// Stripe could not be reached or failed; nothing changed.
    #[error("Stripe is unavailable: {0}")]
    StripeUnavailable(StripeFailure),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

impl BillingError {
    pub fn code(&self) -> &'static str {
        match self {
            BillingError::SessionNotFound => "session_not_found",
            BillingError::SessionNotYours => "session_not_yours",
            BillingError::SessionNotPaid => "session_not_paid",
            BillingError::StripeUnavailable(_) => "stripe_unavailable",
            BillingError::Database(_) => "internal",
        }
    }
}

/// The billing service: the store, Stripe, the clock and the per-user locks it needs.
#[derive(Clone)]
pub struct Billing {
    pub(crate) store: Store,
    pub(crate) stripe: StripeClient,
    pub(crate) clock: Clock,
    locks: Arc<UserLocks>,
    /// The site's public base URL, for links in the mails billing sends (none from the CLI).
    pub(crate) base_url: Option<String>,
    /// The webhook endpoint's secret (`with_webhook_secret`); without it no webhook is received.
    webhook_secret: Option<secrecy::SecretString>,
    /// The plan and subscription reads, cached per user (`caching_reads`; none from the CLI).
    pub(crate) reads: Option<personal::ReadCaches>,
    /// The members' budgets of Stripe calls (`with_limits`; none from the CLI).
    pub(crate) limits: crate::limits::Limits,
}

impl Billing {
    pub fn new(store: Store, stripe: StripeClient, clock: Clock) -> Self {
        Billing {
            store,
            stripe,
            clock,
            locks: Arc::new(UserLocks::default()),
            base_url: None,
            webhook_secret: None,
            reads: None,
            limits: crate::limits::unlimited(),
        }
    }

    /// The team commands spend a member's Stripe budget (`Limit::StripePerUser`) through these.
    pub fn with_limits(mut self, limits: crate::limits::Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Answers the plan and subscription reads from a per-user cache emptied by the writes that
    /// change them (`crate::sessions::read_cache`): for the API, whose reads are the hot path.
    pub fn caching_reads(mut self) -> Self {
        self.reads = Some(personal::ReadCaches::for_store(&self.store));
        self
    }

    /// Links in billing's mails (the owner's over-seats notice) go to this site.
    pub fn with_base_url(mut self, base_url: &str) -> Self {
        self.base_url = Some(base_url.trim_end_matches('/').to_owned());
        self
    }

    pub fn stripe(&self) -> &StripeClient {
        &self.stripe
    }

    /// Serialises a user's read-from-Stripe-then-store steps, across every replica: the
    /// in-process lock first (so one process's waiters queue in memory), then on PostgreSQL the
    /// user's advisory lock, held by a transaction until the returned guard is dropped.
    pub async fn lock(&self, user_id: Uuid) -> Result<UserLock, sqlx::Error> {
        let local = self.locks.lock(user_id).await;
        let shared = self.store.advisory_lock(advisory_key(user_id)).await?;
        Ok(UserLock {
            _shared: shared,
            _local: local,
        })
    }

    /// Stores Stripe's view of the user's subscription and sets the plan it gives: monthly with
    /// the Stripe ids while it counts as subscribed (active, trialing), free once it ends. Safe to
    /// run any number of times, concurrently: the plan changes once.
    pub async fn fulfil(
        &self,
        user_id: Uuid,
        record: &SubscriptionRecord,
    ) -> Result<Fulfilment, sqlx::Error> {
        let outcome = self
            .store
            .apply_subscription(user_id, record, self.clock.now())
            .await?;
        match outcome.plan_changed_to {
            Some(plan) => tracing::info!(
                %user_id,
                subscription = %record.subscription_id,
                status = %record.status,
                plan,
                "plan changed"
            ),
            None => tracing::debug!(
                %user_id,
                subscription = %record.subscription_id,
                status = %record.status,
                stored = outcome.stored,
                "subscription up to date"
            ),
        }
        Ok(outcome)
    }

    /// The success page's activation: reads the checkout session back from Stripe and fulfils
    /// it only when it is complete, paid and the caller's.
    pub async fn confirm_checkout(
        &self,
        user_id: Uuid,
        session_id: &str,
    ) -> Result<Fulfilment, BillingError> {
        let id = session_id.trim();
        if !is_stripe_id(id) {
            return Err(BillingError::SessionNotFound);
        }
        let _serialised = self.lock(user_id).await?;
        let session = self
            .stripe
            .checkout_session(id)
            .await
            .map_err(|e| match e {
                StripeFailure::NotFound => BillingError::SessionNotFound,
                other => BillingError::StripeUnavailable(other),
            })?;
        let known_customer = self.store.stripe_customer_of(user_id).await?;
        if !session.belongs_to(user_id, known_customer.as_deref()) {
            tracing::warn!(session = %session.id, "confirm of a session that is not the caller's");
            return Err(BillingError::SessionNotYours);
        }
        match (&session.subscription, session.complete && session.paid) {
            (Some(record), true) => Ok(self.fulfil(user_id, record).await?),
            _ => Err(BillingError::SessionNotPaid),
        }
    }

    /// Cancels the user's live subscription at Stripe before their account is deleted, so nobody
    /// is charged for an account that no longer exists. Refuses (and so keeps the account) when
    /// Stripe cannot be reached rather than leave a paying subscription behind. Returns the
    /// user's billing lock: hold it until the account is deleted, so the webhooks the
    /// cancellation sets off wait for that instead of racing it; and the subscription it
    /// cancelled, if any.
    pub async fn cancel_for_deletion(
        &self,
        user_id: Uuid,
    ) -> Result<(UserLock, Option<String>), BillingError> {
        let guard = self.lock(user_id).await?;
        let Some(row) = self.store.subscription_of(user_id).await? else {
            return Ok((guard, None));
        };
        if row.status.is_terminal() {
            return Ok((guard, None));
        }
        match self.stripe.cancel_subscription(&row.subscription_id).await {
            Ok(()) | Err(StripeFailure::NotFound) => {
                tracing::info!(%user_id, subscription = %row.subscription_id, "subscription canceled with the account");
                Ok((guard, Some(row.subscription_id)))
            }
            Err(e) => {
                tracing::warn!(%user_id, error = %e, "could not cancel the subscription; account kept");
                Err(BillingError::StripeUnavailable(e))
            }
        }
    }
}

/// A user's billing lock (`Billing::lock`), released when dropped: the advisory lock's
/// transaction first, then the in-process lock.
#[derive(Debug)]
pub struct UserLock {
    _shared: Option<AdvisoryLock>,
    _local: OwnedMutexGuard<()>,
}

/// The advisory lock key of a user: the two halves of the id folded into one bigint. Two users
/// sharing a key (one chance in 2^64) would only wait for each other.
pub fn advisory_key(user_id: Uuid) -> i64 {
    let (hi, lo) = user_id.as_u64_pair();
    (hi ^ lo) as i64
}

/// One async lock per user, so that a read from Stripe and the write of what it said happen
/// together: two concurrent reads (the confirm call and a webhook, or two webhooks) then store in
/// the order they read, and an older answer never overwrites a newer one. In one process; on
/// PostgreSQL `Billing::lock` adds the user's advisory lock, which holds across replicas.
#[derive(Default)]
pub struct UserLocks {
    locks: Mutex<HashMap<Uuid, Arc<tokio::sync::Mutex<()>>>>,
}

impl UserLocks {
    pub async fn lock(&self, user_id: Uuid) -> OwnedMutexGuard<()> {
        let lock = {
            let mut map = self.locks.lock().expect("user locks");
            if map.len() > 10_000 {
                map.retain(|_, l| Arc::strong_count(l) > 1);
            }
            map.entry(user_id).or_default().clone()
        };
        lock.lock_owned().await
    }
}

/// A Stripe object id as we accept it from clients (`cs_test_…`, `sub_…`): it goes into a URL
/// path, so nothing but letters, digits and underscores.
pub fn is_stripe_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 255 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::is_stripe_id;

    #[test]
    fn stripe_ids_are_letters_digits_and_underscores() {
        assert!(is_stripe_id("cs_test_a1B2c3"));
        assert!(is_stripe_id("sub_123"));
        for bad in ["", "cs_test/../customers", "cs test", "cs_%2F", "é"] {
            assert!(!is_stripe_id(bad), "{bad:?}");
        }
        assert!(!is_stripe_id(&"a".repeat(256)));
    }
}
