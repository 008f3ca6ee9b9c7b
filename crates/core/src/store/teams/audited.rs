//! A team change of one statement written with its audit row: both in one transaction, the row
//! only when the statement changed what it names.

use time::OffsetDateTime;
use uuid::Uuid;

use crate::store::audit::NewAudit;
use crate::store::{Revoked, Store};

/// Runs `$query` (a bound `sqlx::query`) in a transaction of `$store` and, when it changed exactly
/// one row, `$audit` (an `Option<&NewAudit>`) in the same one. Answers whether it changed one;
/// nothing is written otherwise.
macro_rules! audited_one {
    ($store:expr, $audit:expr, $query:expr) => {
        $crate::store::dispatch!($store, |p| {
            let mut tx = $crate::store::begin::begin(p).await?;
            let changed = $query.execute(&mut *tx).await?.rows_affected() == 1;
            if changed {
                $crate::store::audit::commit_audited!($store, tx, $audit);
            }
            Ok::<bool, sqlx::Error>(changed)
        })
    };
}
pub(crate) use audited_one;

impl Store {
    /// Sets the team's "require a second factor" switch with `audit` in the same transaction; part
    /// of the policy in every member's entitlements, so announced (`Revoked::AllReads`).
    pub async fn require_team_mfa(
        &self,
        team_id: Uuid,
        required: bool,
        now: OffsetDateTime,
        audit: Option<&NewAudit>,
    ) -> Result<bool, sqlx::Error> {
        let sql = "UPDATE teams SET require_mfa = $2, updated_at = $3 WHERE id = $1";
        let changed = audited_one!(
            self,
            audit,
            sqlx::query(sql).bind(team_id).bind(required).bind(now)
        )?;
        self.announce_if(changed, Revoked::AllReads).await
    }

    /// Denies the team's undecided request, with `audit` in the same transaction. False when there
    /// is none by that id.
    pub async fn deny_team_join(
        &self,
        team_id: Uuid,
        request_id: Uuid,
        now: OffsetDateTime,
        audit: Option<&NewAudit>,
    ) -> Result<bool, sqlx::Error> {
        let sql = "UPDATE team_join_requests SET decided_at = $3, decision = 'denied' \
             WHERE id = $1 AND team_id = $2 AND decided_at IS NULL";
        audited_one!(
            self,
            audit,
            sqlx::query(sql).bind(request_id).bind(team_id).bind(now)
        )
    }
}
