//! The one state every handler shares: the settings, the HTTP-side parts (keys, limiter, the
//! minted tokens) and the core's services, built by the composition root
//! (`closewise_core::app::Services`); `state.teams` reads through to them.

use std::ops::Deref;
use std::sync::Arc;

use closewise_core::app::{ServiceSettings, Services};
use closewise_core::billing::StripeClient;
use closewise_core::clock::Clock;
use closewise_core::mfa::SecretBox;
use closewise_core::password::Hasher;
use closewise_core::store::Store;

use crate::config::Settings;
use crate::ratelimit::RateLimiter;
use closewise_core::sessions::tokens::{Keys, MintedTokens};

#[derive(Clone)]
pub struct AppState(Arc<Inner>);

pub struct Inner {
    pub settings: Settings,
    pub keys: Keys,
    pub limiter: RateLimiter,
    /// The entitlement tokens minted in the last minute, by session (`GET /api/entitlements`).
    pub minted: MintedTokens,
    /// Every core service, over the one store.
    pub services: Services,
}

impl AppState {
    pub fn new(
        settings: Settings,
        store: Store,
        keys: Keys,
        hasher: Hasher,
        clock: Clock,
        stripe: StripeClient,
        mfa_key: SecretBox,
    ) -> Self {
        let limiter = RateLimiter::for_store(&store, settings.limits.max_keys);
        // The limiter behind core's budget port, for the services' commands.
        let limits: closewise_core::limits::Limits = Arc::new(crate::limits_port::LimitsPort::new(
            limiter.clone(),
            settings.limits.clone(),
            clock.clone(),
        ));
        let services = Services::new(
            store,
            ServiceSettings {
                base_url: settings.base_url.clone(),
                stripe,
                webhook_secret: Some(settings.stripe.webhook_secret.clone()),
                session_max_age: settings.session_max_age,
                device_requests_max_pending: settings.device_requests_max_pending,
                allow_unverified_signin: settings.allow_unverified_signin,
                dns_resolver: settings.dns_resolver,
                provider_reach: if settings.is_development() {
                    closewise_domain::sso::ProviderReach::Local
                } else {
                    closewise_domain::sso::ProviderReach::PublicOnly
                },
                mfa_key,
                refresh_key: keys.refresh_key().to_vec(),
                hasher,
                clock,
                limits,
                cache_reads: true,
            },
        );
        AppState(Arc::new(Inner {
            settings,
            keys,
            limiter,
            minted: Default::default(),
            services,
        }))
    }
}

impl Deref for AppState {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

impl Deref for Inner {
    type Target = Services;
    fn deref(&self) -> &Services {
        &self.services
    }
}
