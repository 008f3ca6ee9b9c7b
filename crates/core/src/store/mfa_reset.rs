//! An operator's reset of a customer's second factors: the factors go, the customer is mailed,
//! every session ends and the audit row is written in one transaction, so the trail shows a reset
//! exactly when one happened.

use uuid::Uuid;

use super::audit::{write_audit, NewAudit};
use super::mail::bind_mail;
use super::revocations::{notify_revoked, Revoked};
use super::sessions::REVOKE_ALL_SESSIONS;
use super::{dispatch, NewMail, Store};

/// What a reset removed.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct FactorsRemoved {
    pub app: bool,
    pub passkeys: u64,
}

impl Store {
    /// Removes the app and the recovery codes of `user_id` and, with `passkeys`, every passkey;
    /// when anything went, writes `mail` and `audit` and ends every session of the user.
    pub async fn reset_mfa_audited(
        &self,
        user_id: Uuid,
        passkeys: bool,
        mail: &NewMail,
        audit: &NewAudit,
    ) -> Result<FactorsRemoved, sqlx::Error> {
        let done = dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let mut done = FactorsRemoved::default();
            if passkeys {
                done.passkeys = sqlx::query("DELETE FROM passkeys WHERE user_id = $1")
                    .bind(user_id)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
            }
            done.app = sqlx::query("DELETE FROM mfa_totp WHERE user_id = $1")
                .bind(user_id)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                > 0;
            sqlx::query("DELETE FROM mfa_recovery_codes WHERE user_id = $1")
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
            if !done.app && done.passkeys == 0 {
                return Ok(done);
            }
            bind_mail!(mail).execute(&mut *tx).await?;
            sqlx::query(REVOKE_ALL_SESSIONS)
                .bind(user_id)
                .bind(audit.now)
                .bind("mfa_reset")
                .execute(&mut *tx)
                .await?;
            notify_revoked!(self, tx, Revoked::User(user_id));
            write_audit!(self, tx, audit);
            tx.commit().await?;
            Ok::<_, sqlx::Error>(done)
        })?;
        if done.app || done.passkeys > 0 {
            self.revoked(Revoked::User(user_id));
        }
        Ok(done)
    }
}
