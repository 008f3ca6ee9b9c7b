//! Domain join (docs/teams.md): a team turns it on for its company's mail domain, verified users at
//! that domain ask to join, and an admin approves (taking a seat under the team's lock, as the
//! changes of `seats` do) or denies.

use time::OffsetDateTime;
use uuid::Uuid;

use closewise_domain::teams::{may_request_join, Role, Seats};

use super::seats::{join_team, locked, seats_in, AcceptOutcome};
use super::{count, OPEN};
use crate::store::audit::{commit_audited, write_audit, NewAudit};
use crate::store::{dispatch, is_unique_violation, Pool, Revoked, Store};

/// An undecided request, with the address of who asks.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct JoinRequestRow {
    pub id: Uuid,
    pub team_id: Uuid,
    pub user_id: Uuid,
    pub email: String,
    pub created_at: OffsetDateTime,
}

const UNDECIDED: &str = "decided_at IS NULL";

impl Store {
    /// Turns domain join on for `domain` (already checked and normalised) or off (None). The
    /// requests still waiting go when the domain changes or join goes off: nobody approves what
    /// the owner no longer allows. `audit` is written in the same transaction.
    pub async fn set_team_join_domain(
        &self,
        team_id: Uuid,
        domain: Option<&str>,
        now: OffsetDateTime,
        audit: Option<&NewAudit>,
    ) -> Result<bool, sqlx::Error> {
        let withdraw = format!(
            "DELETE FROM team_join_requests WHERE team_id = $1 AND {UNDECIDED} \
             AND EXISTS (SELECT 1 FROM teams WHERE id = $1 \
                 AND ($2 IS NULL OR join_domain IS NULL OR join_domain <> $2))"
        );
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            // The domain stored now, not the new one: a request made for it goes if it changes.
            sqlx::query(&withdraw)
                .bind(team_id)
                .bind(domain)
                .execute(&mut *tx)
                .await?;
            let set =
                sqlx::query("UPDATE teams SET join_domain = $2, updated_at = $3 WHERE id = $1")
                    .bind(team_id)
                    .bind(domain)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected()
                    == 1;
            if !set {
                return Ok(false);
            }
            commit_audited!(self, tx, audit);
            Ok(set)
        })
    }

    /// The teams (id, name) whose domain join is on for `domain`, by name.
    pub async fn teams_joinable_at(
        &self,
        domain: &str,
    ) -> Result<Vec<(Uuid, String)>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_as::<_, (Uuid, String)>(
            "SELECT id, name FROM teams WHERE join_domain = $1 ORDER BY name, id"
        )
        .bind(domain)
        .fetch_all(p)
        .await)
    }

    /// Records a request to join, unless the user has an undecided one for that team already.
    /// True when a new one was written.
    pub async fn request_team_join(
        &self,
        id: Uuid,
        team_id: Uuid,
        user_id: Uuid,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        let sql = format!(
            "INSERT INTO team_join_requests (id, team_id, user_id, created_at) \
             SELECT $1, $2, $3, $4 WHERE NOT EXISTS (SELECT 1 FROM team_join_requests \
             WHERE team_id = $2 AND user_id = $3 AND {UNDECIDED})"
        );
        dispatch!(self, |p| sqlx::query(&sql)
            .bind(id)
            .bind(team_id)
            .bind(user_id)
            .bind(now)
            .execute(p)
            .await
            .map(|r| r.rows_affected() == 1))
    }

    /// The team's undecided requests, oldest first, leaving out users who are in a team by now.
    pub async fn team_join_requests(
        &self,
        team_id: Uuid,
    ) -> Result<Vec<JoinRequestRow>, sqlx::Error> {
        let sql = format!(
            "SELECT r.id, r.team_id, r.user_id, u.email, r.created_at \
             FROM team_join_requests r JOIN users u ON u.id = r.user_id \
             WHERE r.team_id = $1 AND r.{UNDECIDED} \
             AND NOT EXISTS (SELECT 1 FROM team_members m WHERE m.user_id = r.user_id) \
             ORDER BY r.created_at, r.id"
        );
        dispatch!(self, |p| sqlx::query_as::<_, JoinRequestRow>(&sql)
            .bind(team_id)
            .fetch_all(p)
            .await)
    }

    /// Approves the team's undecided request and makes its user a member, under the team's lock:
    /// the user must be in no team and a seat must be free. Nothing is written unless they join;
    /// `Spent`: no undecided request by that id in this team.
    #[tracing::instrument(skip_all, fields(%team_id))]
    async fn approve_team_join_unannounced(
        &self,
        team_id: Uuid,
        request_id: Uuid,
        now: OffsetDateTime,
        audit: Option<&NewAudit>,
    ) -> Result<AcceptOutcome, sqlx::Error> {
        let decide = format!(
            "UPDATE team_join_requests SET decided_at = $3, decision = 'approved' \
             WHERE id = $1 AND team_id = $2 AND {UNDECIDED} RETURNING user_id"
        );
        Ok(locked!(
            self,
            team_id,
            AcceptOutcome::NoTeam,
            |tx, total| {
                let user: Option<Uuid> = sqlx::query_scalar(&decide)
                    .bind(request_id)
                    .bind(team_id)
                    .bind(now)
                    .fetch_optional(&mut *tx)
                    .await?;
                let Some(user_id) = user else {
                    return Ok(AcceptOutcome::Spent);
                };
                // Still allowed: domain join on, for the asker's verified address (an account
                // deleted meanwhile asks for nothing).
                let asker: Option<(String, Option<OffsetDateTime>, Option<String>)> =
                    sqlx::query_as(
                        "SELECT u.email, u.email_confirmed_at, t.join_domain \
                         FROM users u, teams t WHERE u.id = $1 AND t.id = $2",
                    )
                    .bind(user_id)
                    .bind(team_id)
                    .fetch_optional(&mut *tx)
                    .await?;
                let allowed = asker.is_some_and(|(email, verified, domain)| {
                    may_request_join(&email, verified.is_some(), domain.as_deref())
                });
                if !allowed {
                    return Ok(AcceptOutcome::Spent);
                }
                let joined = join_team!(tx, team_id, total, now, user_id, Role::Member, None, true);
                if let Some(audit) = audit {
                    write_audit!(self, tx, audit);
                }
                joined
            }
        ))
    }

    /// `approve_team_join_unannounced`, then every cached read announced changed
    /// (`Revoked::AllReads`: the member who joined is not returned) once they joined.
    pub async fn approve_team_join(
        &self,
        team_id: Uuid,
        request_id: Uuid,
        now: OffsetDateTime,
        audit: Option<&NewAudit>,
    ) -> Result<AcceptOutcome, sqlx::Error> {
        let outcome = self
            .approve_team_join_unannounced(team_id, request_id, now, audit)
            .await?;
        let joined = outcome == AcceptOutcome::Joined;
        self.announce_if(joined, Revoked::AllReads).await?;
        Ok(outcome)
    }
}
