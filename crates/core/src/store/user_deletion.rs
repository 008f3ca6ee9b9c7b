//! Deleting an account: the user's plans, tokens, sessions and subscription rows go with it by
//! cascade, and so does a team they own — which is why the delete itself refuses the owner of a
//! team somebody still needs (`team_billing::owner_may_delete_account`), in its own transaction:
//! on PostgreSQL the user's membership and their team's row are locked first (a transfer to them,
//! or somebody joining, is then decided wholly before or after the delete), on SQLite the
//! transaction begins `IMMEDIATE`. A check made earlier, outside it, could be overtaken.

use closewise_domain::subscription::SubscriptionStatus;
use closewise_domain::team_billing::owner_may_delete_account;
use uuid::Uuid;

use super::audit::{commit_audited, NewAudit};
use super::revocations::{notify_revoked, Revoked};
use super::teams::count;
use super::{dispatch, Pool, Store};

/// What a delete did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UserDeletion {
    Deleted,
    /// There was no such user.
    Gone,
    /// Nothing deleted: the user owns a team somebody else is in or that is paid for.
    TeamOwner,
}

impl Store {
    /// Deletes the user (see the module's notes on teams).
    pub async fn delete_user(&self, user_id: Uuid) -> Result<UserDeletion, sqlx::Error> {
        self.delete_user_with(user_id, None).await
    }

    /// Deletes the user and records it in the same transaction.
    pub async fn delete_user_audited(
        &self,
        user_id: Uuid,
        audit: &NewAudit,
    ) -> Result<UserDeletion, sqlx::Error> {
        self.delete_user_with(user_id, Some(audit)).await
    }

    async fn delete_user_with(
        &self,
        user_id: Uuid,
        audit: Option<&NewAudit>,
    ) -> Result<UserDeletion, sqlx::Error> {
        let postgres = matches!(self.pool, Pool::Postgres(_));
        let (begin, lock) = if postgres {
            ("BEGIN", " FOR UPDATE")
        } else {
            ("BEGIN IMMEDIATE", "")
        };
        let membership = format!("SELECT role FROM team_members WHERE user_id = $1{lock}");
        let owned = format!("SELECT id, subscription_status FROM teams WHERE owner_id = $1{lock}");
        let mut owned_team = false;
        let outcome = dispatch!(self, |p| {
            let mut tx = p.begin_with(begin).await?;
            sqlx::query(&membership)
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
            let team: Option<(Uuid, Option<String>)> = sqlx::query_as(&owned)
                .bind(user_id)
                .fetch_optional(&mut *tx)
                .await?;
            if let Some((team_id, status)) = team {
                owned_team = true;
                let members: i64 =
                    sqlx::query_scalar("SELECT COUNT(*) FROM team_members WHERE team_id = $1")
                        .bind(team_id)
                        .fetch_one(&mut *tx)
                        .await?;
                let status = status
                    .as_deref()
                    .and_then(|s| SubscriptionStatus::parse(s).ok());
                if !owner_may_delete_account(count(members).saturating_sub(1), status) {
                    return Ok(UserDeletion::TeamOwner);
                }
            }
            let deleted = sqlx::query("DELETE FROM users WHERE id = $1")
                .bind(user_id)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                == 1;
            if !deleted {
                return Ok(UserDeletion::Gone);
            }
            notify_revoked!(self, tx, Revoked::User(user_id));
            if owned_team {
                // The team goes with its owner: its members' reads change.
                notify_revoked!(self, tx, Revoked::AllReads);
            }
            commit_audited!(self, tx, audit);
            Ok::<_, sqlx::Error>(UserDeletion::Deleted)
        })?;
        if outcome == UserDeletion::Deleted {
            self.revoked(Revoked::User(user_id));
            if owned_team {
                self.revoked(Revoked::AllReads);
            }
        }
        Ok(outcome)
    }
}
