//! A team's free trial, once (`team_trials`): recorded when Stripe first reports the team's
//! subscription trialing, looked up by team, owner and Stripe customer before another trial
//! starts, and marked when the owner is told the trial ends soon.

use time::OffsetDateTime;
use uuid::Uuid;

use crate::store::audit::{write_audit, NewAudit};
use crate::store::mail::bind_mail;
use crate::store::{dispatch, NewMail, Store};

/// A trial as Stripe reported it.
#[derive(Clone, Debug)]
pub struct NewTrial<'a> {
    pub team_id: Uuid,
    pub owner_id: Uuid,
    pub customer_id: &'a str,
    pub subscription_id: &'a str,
    /// Unix seconds.
    pub trial_end: Option<i64>,
}

impl Store {
    /// Records the team's trial unless it has one; true when this call recorded it.
    pub async fn record_team_trial(
        &self,
        trial: &NewTrial<'_>,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| sqlx::query(
            "INSERT INTO team_trials \
             (team_id, owner_id, customer_id, subscription_id, trial_end, started_at) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (team_id) DO NOTHING"
        )
        .bind(trial.team_id)
        .bind(trial.owner_id)
        .bind(trial.customer_id)
        .bind(trial.subscription_id)
        .bind(trial.trial_end)
        .bind(now)
        .execute(p)
        .await
        .map(|r| r.rows_affected() == 1))
    }

    /// Whether the team, its owner (with any team) or its Stripe customer had a trial.
    pub async fn had_team_trial(
        &self,
        team_id: Uuid,
        owner_id: Uuid,
        customer_id: Option<&str>,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_scalar::<_, i64>(
            "SELECT COUNT(*) FROM team_trials \
             WHERE team_id = $1 OR owner_id = $2 OR customer_id = $3"
        )
        .bind(team_id)
        .bind(owner_id)
        .bind(customer_id)
        .fetch_one(p)
        .await
        .map(|n| n > 0))
    }

    /// Marks the team's trial as announced to end soon, with its audit row and the owner's
    /// mail, in one transaction; false (nothing written) when it was announced already or the
    /// team had no trial recorded.
    pub async fn remind_team_trial(
        &self,
        team_id: Uuid,
        audit: &NewAudit,
        mail: &NewMail,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let marked = sqlx::query(
                "UPDATE team_trials SET reminded_at = $2 \
                 WHERE team_id = $1 AND reminded_at IS NULL",
            )
            .bind(team_id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            if marked.rows_affected() != 1 {
                return Ok(false);
            }
            write_audit!(self, tx, audit);
            bind_mail!(mail).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok(true)
        })
    }
}
