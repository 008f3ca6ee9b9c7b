//! Accounts: what the API's account screens and the operator's CLI do to an account that goes
//! beyond one store call. Deleting an account cancels its live subscription at Stripe first.

use serde_json::Value;
use uuid::Uuid;

use crate::billing::{Billing, BillingError};
use crate::store::audit::NewAudit;
use crate::store::Store;

#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// The live subscription could not be cancelled, so the account was kept.
    #[error("could not cancel the subscription at Stripe, so the account was kept: {0}")]
    SubscriptionNotCancelled(BillingError),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

impl AccountError {
    pub fn code(&self) -> &'static str {
        match self {
            AccountError::SubscriptionNotCancelled(_) => "stripe_unavailable",
            AccountError::Database(_) => "internal",
        }
    }
}

/// What a deletion did.
#[derive(Debug, PartialEq, Eq)]
pub struct Deletion {
    /// False when the account was already gone.
    pub deleted: bool,
    /// The subscription cancelled at Stripe on the way, if one was live.
    pub cancelled_subscription: Option<String>,
}

#[derive(Clone)]
pub struct Accounts {
    store: Store,
    billing: Billing,
}

impl Accounts {
    pub fn new(store: Store, billing: Billing) -> Self {
        Accounts { store, billing }
    }

    /// Cancels the live subscription (refusing the deletion when Stripe cannot be reached), then
    /// deletes the account with its plan, sessions and tokens. With an audit row (an operator's
    /// deletion) the row is written in the same transaction, its `details.subscription` set to
    /// the cancelled subscription.
    pub async fn delete(
        &self,
        user_id: Uuid,
        audit: Option<NewAudit>,
    ) -> Result<Deletion, AccountError> {
        // Held until the account is gone: a webhook about this user waits, then finds no user.
        let (_billing, cancelled) = match self.billing.cancel_for_deletion(user_id).await {
            Ok(done) => done,
            Err(BillingError::Database(e)) => return Err(e.into()),
            Err(e) => return Err(AccountError::SubscriptionNotCancelled(e)),
        };
        let deleted = match audit {
            Some(mut audit) => {
                if let Value::Object(details) = &mut audit.details {
                    details.insert("subscription".into(), cancelled.clone().into());
                }
                self.store.delete_user_audited(user_id, &audit).await?
            }
            None => self.store.delete_user(user_id).await?,
        };
        if deleted {
            tracing::info!(%user_id, "account deleted");
        }
        Ok(Deletion {
            deleted,
            cancelled_subscription: cancelled,
        })
    }
}
