//! The core's services over a fresh database of either kind, for the core's own suites: the
//! store migrated, a manual clock, and billing with Stripe out of reach (those suites never reach
//! Stripe; the API suite runs the Stripe side against stripe-mock) and the local webhook secret.

use std::time::Duration;

use closewise_core::billing::{Billing, StripeClient, StripeConnection, DEV_STRIPE_WEBHOOK_SECRET};
use closewise_core::clock::Clock;
use closewise_core::store::Store;

use crate::{Backend, FreshDatabase, TempDir};

/// A migrated store on a fresh database, its clock and billing service.
pub struct CoreFixture {
    /// The database's URL, for queries the store has no method for.
    pub url: String,
    pub store: Store,
    /// Manual, at now to the second.
    pub clock: Clock,
    pub billing: Billing,
    /// The SQLite database's folder (empty on PostgreSQL), removed on drop.
    pub dir: TempDir,
}

/// The store on a fresh database of the kind (`Backend::fresh_database`), migrated.
pub async fn core_fixture(backend: impl Into<Backend>, tag: &str) -> CoreFixture {
    let FreshDatabase { url, dir } = backend.into().migrated_database(tag).await;
    let store = Store::connect(&url, Duration::from_secs(10))
        .await
        .expect("connect");
    store.migrate().await.expect("migrate");
    let clock = Clock::manual(
        time::OffsetDateTime::now_utc()
            .replace_nanosecond(0)
            .expect("whole seconds"),
    );
    let stripe = StripeClient::new(&StripeConnection {
        api_base: "http://127.0.0.1:9".into(),
        secret_key: "sk_test_unused".to_owned().into(),
        timeout: Duration::from_millis(200),
    })
    .expect("stripe client");
    let billing = Billing::new(store.clone(), stripe, clock.clone())
        .with_webhook_secret(DEV_STRIPE_WEBHOOK_SECRET.into());
    CoreFixture {
        url,
        store,
        clock,
        billing,
        dir,
    }
}
