//! The composition root: every service of the core, built once from the settings over one store.
//! The API's state holds one (`crates/api/src/state.rs`) and so does every CLI command
//! (`crates/cli/src/ctx.rs`), so both adapters call the same services wired the same way.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use closewise_domain::sso::ProviderReach;
use secrecy::SecretString;

use crate::accounts::Accounts;
use crate::billing::{Billing, StripeClient};
use crate::clock::Clock;
use crate::limits::Limits;
use crate::mail::outbox::Outbox;
use crate::mail::Composer;
use crate::mfa::{Mfa, SecretBox};
use crate::operations::Operations;
use crate::passkeys::Passkeys;
use crate::password::Hasher;
use crate::reauth::Reauth;
use crate::scim::Scim;
use crate::seed::Seeding;
use crate::sessions::auth_cache::AuthCache;
use crate::sessions::desktop::DesktopAuth;
use crate::sessions::Sessions;
use crate::setup_links::SetupLinks;
use crate::sso::{Sso, SsoAdmin};
use crate::store::Store;
use crate::streams::Streams;
use crate::sweep::Sweeper;
use crate::teams::idle_mail::IdleSeatMails;
use crate::teams::Teams;
use crate::usage::Usage;
use crate::verified_domains::{Dns, VerifiedDomains};

/// What the services are built from: the core-level part of an adapter's configuration.
pub struct ServiceSettings {
    /// The site's public URL: links in mail, the passkeys' relying party, SSO's redirect.
    pub base_url: String,
    pub stripe: StripeClient,
    /// Stripe's webhook endpoint secret; `None` where no webhook is received (the CLI).
    pub webhook_secret: Option<SecretString>,
    pub session_max_age: Duration,
    pub device_requests_max_pending: u32,
    /// Development only: an account may sign in before confirming its address.
    pub allow_unverified_signin: bool,
    /// The resolver the domain checks ask (`None`: the system's).
    pub dns_resolver: Option<SocketAddr>,
    /// Which identity-provider addresses SSO may fetch from.
    pub provider_reach: ProviderReach,
    /// Seals TOTP and SSO client secrets at rest.
    pub mfa_key: SecretBox,
    /// Derives a refresh token's successor.
    pub refresh_key: Vec<u8>,
    pub hasher: Hasher,
    pub clock: Clock,
    /// The request budgets the commands spend (`limits::unlimited()` for the CLI).
    pub limits: Limits,
    /// Caches the reads a busy server repeats (accounts, plans, usage); a one-shot CLI command
    /// reads once and skips it.
    pub cache_reads: bool,
}

impl ServiceSettings {
    /// Settings for an adapter that serves no sign-in and receives no webhook (the CLI, tests):
    /// a throwaway secret box and refresh key, since nothing it does seals or derives with them.
    pub fn offline(base_url: &str, stripe: StripeClient, clock: Clock) -> Self {
        let mut key = [0u8; 32];
        rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut key);
        ServiceSettings {
            base_url: base_url.to_owned(),
            stripe,
            webhook_secret: None,
            session_max_age: Duration::ZERO,
            device_requests_max_pending: 0,
            allow_unverified_signin: false,
            dns_resolver: None,
            provider_reach: ProviderReach::PublicOnly,
            mfa_key: SecretBox::new(&key),
            refresh_key: key.to_vec(),
            hasher: Hasher::new(),
            clock,
            limits: crate::limits::unlimited(),
            cache_reads: false,
        }
    }
}

/// Every service over one store.
#[derive(Clone)]
pub struct Services {
    pub store: Store,
    pub hasher: Hasher,
    pub clock: Clock,
    /// The request budgets the services' commands spend.
    pub limits: Limits,
    /// Composes mail into the outbox.
    pub mail: Composer,
    /// The outbox as operators read and retry it.
    pub outbox: Outbox,
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
    /// Verified access tokens of active sessions.
    pub auth_cache: Arc<AuthCache>,
    /// A second factor: enrolment, codes, the mfa_token, the operator's reset.
    pub mfa: Mfa,
    /// Single sign-on: the owner's connection and the sign-in through the provider.
    pub sso: Sso,
    /// Single sign-on as operators see it (any team's connection, turning it off).
    pub sso_admin: SsoAdmin,
    /// The team's verified domains.
    pub verified_domains: VerifiedDomains,
    /// The team's event streams (the worker delivering them: `streams::worker`).
    pub streams: Streams,
    /// SCIM provisioning: the team's tokens and the identity provider's users.
    pub scim: Scim,
    /// The owner's setup links for IT, and what IT does through one.
    pub setup_links: SetupLinks,
    /// Whether a session entered its password (and factor) recently enough.
    pub reauth: Reauth,
    /// Deletes expired rows, mails idle seats, re-checks domains.
    pub sweeper: Sweeper,
    /// The database for operators and probes.
    pub ops: Operations,
    /// Fixtures for development databases.
    pub seeding: Seeding,
}

impl Services {
    /// Panics when `base_url` is not an http(s) URL with a host: adapters check it when they
    /// read their configuration.
    pub fn new(store: Store, s: ServiceSettings) -> Services {
        let ServiceSettings {
            base_url,
            stripe,
            webhook_secret,
            session_max_age,
            device_requests_max_pending,
            allow_unverified_signin,
            dns_resolver,
            provider_reach,
            mfa_key,
            refresh_key,
            hasher,
            clock,
            limits,
            cache_reads,
        } = s;
        let mail = Composer::new(&base_url);
        let mut billing = Billing::new(store.clone(), stripe, clock.clone())
            .with_base_url(&base_url)
            .with_limits(limits.clone());
        if let Some(secret) = webhook_secret {
            billing = billing.with_webhook_secret(secret);
        }
        if cache_reads {
            billing = billing.caching_reads();
        }
        let mfa = Mfa::new(store.clone(), clock.clone(), mfa_key.clone(), mail.clone());
        let passkeys = Passkeys::new(store.clone(), clock.clone(), mail.clone(), &base_url)
            .expect("the base URL is an http(s) URL with a host (checked by the configuration)");
        let mut accounts = Accounts::new(
            store.clone(),
            billing.clone(),
            hasher.clone(),
            mail.clone(),
            clock.clone(),
            mfa.clone(),
        )
        .with_passkeys(passkeys.clone());
        if cache_reads {
            accounts = accounts.caching_reads();
        }
        let mut usage = Usage::new(store.clone(), clock.clone());
        if cache_reads {
            usage = usage.caching_reads();
        }
        let teams = Teams::new(store.clone(), clock.clone(), mail.clone(), limits.clone());
        let verified_domains = VerifiedDomains::new(
            store.clone(),
            clock.clone(),
            Dns::from_setting(dns_resolver),
            limits.clone(),
        );
        let auth_cache = AuthCache::for_store(&store);
        let scim = Scim::new(store.clone(), clock.clone(), mail.clone(), hasher.clone());
        let max_age = crate::sessions::max_age(session_max_age);
        let desktop = DesktopAuth::new(store.clone(), clock.clone(), max_age)
            .with_max_pending_devices(device_requests_max_pending)
            .with_signin_mail(mail.clone());
        let sessions = Sessions::new(
            store.clone(),
            clock.clone(),
            hasher.clone(),
            max_age,
            &refresh_key,
            mfa.clone(),
        )
        .allowing_unverified_signin(allow_unverified_signin)
        .with_auth_cache(auth_cache.clone());
        let streams = Streams::new(
            store.clone(),
            clock.clone(),
            mail.clone(),
            mfa_key.clone(),
            provider_reach,
        );
        let sso = Sso::new(
            store.clone(),
            clock.clone(),
            mfa_key,
            hasher.clone(),
            sessions.clone(),
            mail.clone(),
            provider_reach,
        );
        let sso_admin = SsoAdmin::new(store.clone(), clock.clone(), &base_url);
        let setup_links = SetupLinks::new(
            store.clone(),
            clock.clone(),
            mail.clone(),
            sso.clone(),
            verified_domains.clone(),
            scim.clone(),
        );
        let reauth = Reauth::new(store.clone(), clock.clone());
        let sweeper = Sweeper::new(store.clone(), clock.clone())
            .with_idle_seat_mails(IdleSeatMails::new(
                store.clone(),
                clock.clone(),
                mail.clone(),
            ))
            .with_domains(verified_domains.clone())
            .with_sso(sso.clone());
        let outbox = Outbox::new(store.clone(), clock.clone());
        let ops = Operations::new(store.clone(), clock.clone(), sweeper.clone());
        let seeding = Seeding::new(store.clone(), clock.clone(), hasher.clone());
        Services {
            store,
            hasher,
            clock,
            limits,
            mail,
            outbox,
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
            sso_admin,
            verified_domains,
            streams,
            scim,
            setup_links,
            reauth,
            sweeper,
            ops,
            seeding,
        }
    }
}
