//! What operators do to teams through the CLI, as nobody's member: find teams, read their audit
//! trail. Removing a member is `removal`'s, transferring ownership `transfer_team`, each with its
//! audit row in the same transaction; seats go through `seats`' locked path.
//!
//! A team's audit rows carry `"team_id"` in their `details`, copied by the store into the
//! indexed `team_id` column: that is how they are found again.

use uuid::Uuid;

use super::TeamRow;
use crate::store::audit::AuditRow;
use crate::store::{dispatch, Store};

/// A team with its owner's address, as `closewise teams list` shows it.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct TeamListRow {
    #[sqlx(flatten)]
    pub team: TeamRow,
    pub owner_email: String,
}

const TEAM_COLUMNS: &str = "t.id, t.name, t.owner_id, t.stripe_customer_id, t.subscription_id, \
    t.price_id, t.seats, t.subscription_status, t.current_period_end, t.cancel_at_period_end, \
    t.discount, t.join_domain, t.created_at, t.updated_at, u.email AS owner_email";

impl Store {
    /// Every team with its owner's address, newest first.
    pub async fn admin_teams(&self, limit: i64) -> Result<Vec<TeamListRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {TEAM_COLUMNS} FROM teams t JOIN users u ON u.id = t.owner_id \
             ORDER BY t.created_at DESC, t.id DESC LIMIT $1"
        );
        dispatch!(self, |p| sqlx::query_as::<_, TeamListRow>(&sql)
            .bind(limit)
            .fetch_all(p)
            .await)
    }

    /// The teams with this name, compared without regard to case (names are not unique).
    pub async fn teams_named(&self, name: &str) -> Result<Vec<TeamListRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {TEAM_COLUMNS} FROM teams t JOIN users u ON u.id = t.owner_id \
             WHERE LOWER(t.name) = LOWER($1) ORDER BY t.created_at, t.id"
        );
        dispatch!(self, |p| sqlx::query_as::<_, TeamListRow>(&sql)
            .bind(name.trim())
            .fetch_all(p)
            .await)
    }

    pub async fn admin_team(&self, team_id: Uuid) -> Result<Option<TeamListRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {TEAM_COLUMNS} FROM teams t JOIN users u ON u.id = t.owner_id \
             WHERE t.id = $1"
        );
        dispatch!(self, |p| sqlx::query_as::<_, TeamListRow>(&sql)
            .bind(team_id)
            .fetch_optional(p)
            .await)
    }

    /// The team's audit trail, newest first: the rows whose details name the team.
    pub async fn team_audit(
        &self,
        team_id: Uuid,
        limit: i64,
    ) -> Result<Vec<AuditRow>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_as::<_, AuditRow>(
            "SELECT id, actor, action, user_id, target_email, reason, details, created_at, \
             instance FROM audit_log WHERE team_id = $1 ORDER BY created_at DESC, id DESC \
             LIMIT $2"
        )
        .bind(team_id)
        .bind(limit)
        .fetch_all(p)
        .await)
    }
}
