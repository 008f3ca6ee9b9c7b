//! The one state every handler shares: the settings, the HTTP-side parts (keys, limiter) and the
//! core's store and services.

use std::ops::Deref;
use std::sync::Arc;

use closewise_core::accounts::Accounts;
use closewise_core::billing::{Billing, StripeClient};
use closewise_core::clock::Clock;
use closewise_core::domains::{Dns, Domains};
use closewise_core::mail::Composer;
use closewise_core::mfa::{Mfa, SecretBox};
use closewise_core::passkeys::Passkeys;
use closewise_core::password::Hasher;
use closewise_core::scim::Scim;
use closewise_core::sessions::auth_cache::AuthCache;
use closewise_core::sessions::desktop::DesktopAuth;
use closewise_core::sessions::Sessions;
use closewise_core::sso::Sso;
use closewise_core::store::Store;
use closewise_core::teams::Teams;
use closewise_core::usage::Usage;

use crate::config::Settings;
use crate::jwt::Keys;
use crate::ratelimit::RateLimiter;

#[derive(Clone)]
pub struct AppState(Arc<Inner>);

pub struct Inner {
    pub settings: Settings,
    pub store: Store,
    pub keys: Keys,
    pub hasher: Hasher,
    pub clock: Clock,
    pub limiter: RateLimiter,
    /// The limiter behind core's budget port, for the services' commands.
    pub limits: closewise_core::limits::Limits,
    pub mail: Composer,
    pub billing: Billing,
    pub accounts: Accounts,
    pub usage: Usage,
    pub teams: Teams,
    /// Signing in with the password, refresh, sign-out.
    pub sessions: Sessions,
    /// The desktop app's browser and device sign-in, and its devices.
    pub desktop: DesktopAuth,
    /// Passkeys: registration, sign-in challenges and assertions (RP from `base_url`).
    pub passkeys: Passkeys,
    /// Verified access tokens of active sessions (`closewise_core::sessions::auth_cache`).
    pub auth_cache: Arc<AuthCache>,
    /// A second factor: enrolment, codes, the mfa_token.
    pub mfa: Mfa,
    /// Single sign-on: the owner's connection and the sign-in through the provider.
    pub sso: Sso,
    /// The team's verified domains, looked up at `DNS_RESOLVER` (else the system's resolver).
    pub domains: Domains,
    /// SCIM provisioning: the team's tokens and the identity provider's users.
    pub scim: Scim,
    /// The entitlement tokens minted in the last minute, by session (`GET /api/entitlements`).
    pub minted: crate::minted::MintedTokens,
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
        let mail = Composer::new(&settings.base_url);
        let billing = Billing::new(store.clone(), stripe, clock.clone())
            .with_base_url(&settings.base_url)
            .with_webhook_secret(settings.stripe.webhook_secret.clone())
            .caching_reads();
        let mfa = Mfa::new(store.clone(), clock.clone(), mfa_key.clone(), mail.clone());
        let passkeys = Passkeys::new(
            store.clone(),
            clock.clone(),
            mail.clone(),
            &settings.base_url,
        )
        .expect("APP_BASE_URL is an http(s) URL with a host (checked by the configuration)");
        let accounts = Accounts::new(
            store.clone(),
            billing.clone(),
            hasher.clone(),
            mail.clone(),
            clock.clone(),
            mfa.clone(),
        )
        .with_passkeys(passkeys.clone())
        .caching_reads();
        let limiter = RateLimiter::for_store(&store, settings.limits.max_keys);
        let limits: closewise_core::limits::Limits =
            std::sync::Arc::new(crate::limits_port::LimitsPort::new(
                limiter.clone(),
                settings.limits.clone(),
                clock.clone(),
            ));
        let usage = Usage::new(store.clone(), clock.clone()).caching_reads();
        let teams = Teams::new(store.clone(), clock.clone());
        let domains = Domains::new(
            store.clone(),
            clock.clone(),
            Dns::from_setting(settings.dns_resolver),
        );
        let auth_cache = AuthCache::for_store(&store);
        let scim = Scim::new(store.clone(), clock.clone(), mail.clone(), hasher.clone());
        let desktop = DesktopAuth::new(
            store.clone(),
            clock.clone(),
            closewise_core::sessions::max_age(settings.session_max_age),
        )
        .with_max_pending_devices(settings.device_requests_max_pending)
        .with_signin_mail(mail.clone());
        let sessions = Sessions::new(
            store.clone(),
            clock.clone(),
            hasher.clone(),
            closewise_core::sessions::max_age(settings.session_max_age),
            keys.refresh_key(),
            mfa.clone(),
        )
        .allowing_unverified_signin(settings.allow_unverified_signin);
        let sso = Sso::new(
            store.clone(),
            clock.clone(),
            mfa_key,
            hasher.clone(),
            sessions.clone(),
            &settings.base_url,
            if settings.is_development() {
                closewise_domain::sso::ProviderReach::Local
            } else {
                closewise_domain::sso::ProviderReach::PublicOnly
            },
        );
        AppState(Arc::new(Inner {
            settings,
            store,
            keys,
            hasher,
            clock,
            limiter,
            limits,
            mail,
            billing,
            accounts,
            usage,
            teams,
            sessions,
            desktop,
            passkeys,
            auth_cache,
            mfa,
            sso,
            domains,
            scim,
            minted: Default::default(),
        }))
    }
}

impl Deref for AppState {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}
