//! The one state every handler shares.

use std::ops::Deref;
use std::sync::Arc;

use crate::auth::jwt::Keys;
use crate::auth::password::Hasher;
use crate::billing::{StripeClient, UserLocks};
use crate::clock::Clock;
use crate::config::Settings;
use crate::mail::Composer;
use crate::ratelimit::Limiter;
use crate::store::Store;

#[derive(Clone)]
pub struct AppState(Arc<Inner>);

pub struct Inner {
    pub settings: Settings,
    pub store: Store,
    pub keys: Keys,
    pub hasher: Hasher,
    pub clock: Clock,
    pub limiter: Limiter,
    pub mail: Composer,
    pub stripe: StripeClient,
    /// Serialises each user's read-from-Stripe-then-store steps (confirm, webhooks).
    pub billing_locks: UserLocks,
}

impl AppState {
    pub fn new(
        settings: Settings,
        store: Store,
        keys: Keys,
        hasher: Hasher,
        clock: Clock,
        stripe: StripeClient,
    ) -> Self {
        let mail = Composer::new(&settings.base_url);
        AppState(Arc::new(Inner {
            settings,
            store,
            keys,
            hasher,
            clock,
            limiter: Limiter::default(),
            mail,
            stripe,
            billing_locks: UserLocks::default(),
        }))
    }
}

impl Deref for AppState {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}
