//! Deleting an account: by its owner after entering the password (the API), or by an operator
//! with an audit row (the CLI). Either way its live subscription is cancelled at Stripe first.

use closewise_domain::subscription::SubscriptionStatus;
use closewise_domain::team_billing::owner_may_delete_account;
use closewise_domain::teams::Role;
use serde_json::Value;
use uuid::Uuid;

use crate::billing::{Billing, BillingError};
use crate::store::audit::NewAudit;
use crate::store::user_deletion::UserDeletion;
use crate::store::Store;
use crate::teams::billing::TeamBillingError;

use super::{AccountError, Accounts, Caller, Checked, PasswordBudget};

/// What a deletion did.
#[derive(Debug, PartialEq, Eq)]
pub struct Deletion {
    /// False when the account was already gone.
    pub deleted: bool,
    /// The subscription cancelled at Stripe on the way, if one was live.
    pub cancelled_subscription: Option<String>,
}

/// Deletion needs no more than the store and Stripe, so the CLI builds it on its own.
#[derive(Clone)]
pub struct AccountDeletion {
    store: Store,
    billing: Billing,
}

impl AccountDeletion {
    pub fn new(store: Store, billing: Billing) -> Self {
        AccountDeletion { store, billing }
    }

    /// A team's owner may go only with a team nobody else is in and nothing is paid for (it is
    /// deleted with the account, its open checkouts expired first); a member's or admin's seat
    /// simply frees. The store checks again as it deletes (`UserDeletion::TeamOwner`).
    async fn check_team_ownership(&self, user_id: Uuid) -> Result<(), AccountError> {
        let Some((team_id, Role::Owner)) = self.store.membership_of(user_id).await? else {
            return Ok(());
        };
        let Some(team) = self.store.team_by_id(team_id).await? else {
            return Ok(());
        };
        let team_goes = |e: TeamBillingError| match e {
            TeamBillingError::TeamNotFound => Ok(()),
            TeamBillingError::AlreadySubscribed => Err(AccountError::TeamOwner),
            TeamBillingError::Database(e) => Err(e.into()),
            TeamBillingError::StripeUnavailable(f) => Err(AccountError::SubscriptionNotCancelled(
                BillingError::StripeUnavailable(f),
            )),
            other => {
                tracing::warn!(error = %other, "expiring the team's checkouts failed");
                Err(AccountError::TeamOwner)
            }
        };
        let (members, _) = self.store.team_headcount(team_id).await?;
        let status = team
            .subscription_status
            .as_deref()
            .and_then(|s| SubscriptionStatus::parse(s).ok());
        if !owner_may_delete_account(members.saturating_sub(1), status) {
            return Err(AccountError::TeamOwner);
        }
        match self.billing.expire_team_checkouts(team_id).await {
            Ok(()) => Ok(()),
            Err(e) => team_goes(e),
        }
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
        self.check_team_ownership(user_id).await?;
        // Held until the account is gone: a webhook about this user waits, then finds no user.
        let (_billing, cancelled) = match self.billing.cancel_for_deletion(user_id).await {
            Ok(done) => done,
            Err(BillingError::Database(e)) => return Err(e.into()),
            Err(e) => return Err(AccountError::SubscriptionNotCancelled(e)),
        };
        let outcome = match audit {
            Some(mut audit) => {
                if let Value::Object(details) = &mut audit.details {
                    details.insert("subscription".into(), cancelled.clone().into());
                }
                self.store.delete_user_audited(user_id, &audit).await?
            }
            None => self.store.delete_user(user_id).await?,
        };
        // The store decides again, atomically: a transfer may have made them an owner since.
        let deleted = match outcome {
            UserDeletion::Deleted => true,
            UserDeletion::Gone => false,
            UserDeletion::TeamOwner => return Err(AccountError::TeamOwner),
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

impl Accounts {
    /// The signed-in caller deletes their own account after entering its password.
    pub async fn delete_own<B: PasswordBudget>(
        &self,
        caller: Caller,
        password: &str,
        budget: &B,
    ) -> Checked<Deletion, B::Refusal> {
        let user = match self.check_password(caller, password, budget).await? {
            Err(refusal) => return Ok(Err(refusal)),
            Ok(None) => return Err(AccountError::WrongPassword),
            Ok(Some(user)) => user,
        };
        self.deletion.delete(user.id, None).await.map(Ok)
    }
}
