//! Billing: checkout, the success page's confirmation, the subscription, the billing portal and
//! Stripe's webhooks. The browser never grants a plan: the plan follows what Stripe says, read
//! back from Stripe by the server, through one idempotent fulfilment used by both the confirm
//! call and the webhook.

pub mod routes;
pub mod signature;
pub mod stripe;
pub mod webhook;

use axum::routing::{get, post};
use axum::Router;
use uuid::Uuid;

use crate::state::AppState;
use crate::store::{Fulfilment, SubscriptionRecord};

pub use self::stripe::{StripeClient, StripeFailure};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/checkout", post(routes::checkout))
        .route("/api/checkout/confirm", post(routes::confirm))
        .route("/api/subscription", get(routes::subscription))
        .route("/api/billing/portal", post(routes::portal))
        .route("/api/stripe/webhook", post(webhook::webhook))
}

/// Stores Stripe's view of the user's subscription and sets the plan it gives: monthly with the
/// Stripe ids while it counts as subscribed (active, trialing), free once it ends. Safe to run
/// any number of times, concurrently: the plan changes once.
pub async fn fulfil(
    state: &AppState,
    user_id: Uuid,
    record: &SubscriptionRecord,
) -> Result<Fulfilment, sqlx::Error> {
    let outcome = state
        .store
        .apply_subscription(user_id, record, state.clock.now())
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

/// Cancels the user's live subscription at Stripe before their account is deleted, so nobody is
/// charged for an account that no longer exists. Refuses the deletion when Stripe cannot be
/// reached rather than leave a paying subscription behind. Returns the user's billing lock: hold
/// it until the account is deleted, so the webhooks the cancellation sets off wait for that
/// instead of racing it.
pub async fn cancel_before_deletion(
    state: &AppState,
    user_id: Uuid,
) -> Result<tokio::sync::OwnedMutexGuard<()>, crate::error::ApiError> {
    let guard = state.billing_locks.lock(user_id).await;
    let Some(row) = state.store.subscription_of(user_id).await? else {
        return Ok(guard);
    };
    let ended = closewise_domain::subscription::SubscriptionStatus::parse(&row.status)
        .map(|s| s.is_terminal())
        .unwrap_or(false);
    if ended {
        return Ok(guard);
    }
    match state.stripe.cancel_subscription(&row.subscription_id).await {
        Ok(()) | Err(StripeFailure::NotFound) => {
            tracing::info!(%user_id, subscription = %row.subscription_id, "subscription canceled with the account");
            Ok(guard)
        }
        Err(e) => {
            tracing::warn!(%user_id, error = %e, "could not cancel the subscription; account kept");
            Err(crate::error::ApiError::new(
                axum::http::StatusCode::BAD_GATEWAY,
                "stripe_unavailable",
                "We could not cancel your subscription just now, so your account was not deleted. Please try again.",
            ))
        }
    }
}

/// One async lock per user, so that a read from Stripe and the write of what it said happen
/// together: two concurrent reads (the confirm call and a webhook, or two webhooks) then store in
/// the order they read, and an older answer never overwrites a newer one. In-process only, like
/// the rate limits: several API instances would need a database lock here.
#[derive(Default)]
pub struct UserLocks {
    locks:
        std::sync::Mutex<std::collections::HashMap<Uuid, std::sync::Arc<tokio::sync::Mutex<()>>>>,
}

impl UserLocks {
    pub async fn lock(&self, user_id: Uuid) -> tokio::sync::OwnedMutexGuard<()> {
        let lock = {
            let mut map = self.locks.lock().expect("user locks");
            if map.len() > 10_000 {
                map.retain(|_, l| std::sync::Arc::strong_count(l) > 1);
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
