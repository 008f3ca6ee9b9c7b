//! A team's company domains (migration 0015): claimed, then verified by a DNS TXT record. A domain
//! is verified by one team at a time (`team_domains_verified_key`); single sign-on and SCIM accept
//! only addresses at a team's verified domains (`team_for_verified_domain`).

use time::OffsetDateTime;
use uuid::Uuid;

use super::seats::locked;
use crate::store::audit::{commit_audited, write_audit, NewAudit};
use crate::store::{dispatch, is_unique_violation, Pool, Store};

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct TeamDomainRow {
    pub id: Uuid,
    pub team_id: Uuid,
    /// Lower case, no trailing dot.
    pub domain: String,
    /// The random value of the TXT record `closewise-domain-verification=<txt_token>`.
    pub txt_token: String,
    /// `pending` or `verified`.
    pub status: String,
    pub created_at: OffsetDateTime,
    pub verified_at: Option<OffsetDateTime>,
    pub last_checked_at: Option<OffsetDateTime>,
    pub last_seen_at: Option<OffsetDateTime>,
}

const COLUMNS: &str =
    "id, team_id, domain, txt_token, status, created_at, verified_at, last_checked_at, last_seen_at";

/// A domain just claimed.
pub struct NewTeamDomain<'a> {
    pub id: Uuid,
    pub team_id: Uuid,
    pub domain: &'a str,
    pub txt_token: &'a str,
    pub created_by: Option<Uuid>,
    pub now: OffsetDateTime,
}

/// How a claim ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    Claimed,
    /// The team claimed it already.
    Exists,
    /// The team holds `max` domains already.
    TooMany,
    NoTeam,
}

impl Store {
    /// Claims `domain` for the team, pending, with no bound on the team's domains (fixtures and
    /// operators' seeds). False when the team claimed it already.
    pub async fn insert_team_domain(&self, d: &NewTeamDomain<'_>) -> Result<bool, sqlx::Error> {
        Ok(self.claim_team_domain(d, u32::MAX, None).await? == Claim::Claimed)
    }

    /// Claims `domain` for the team, pending, unless the team holds `max` other domains already;
    /// under the team's lock, so concurrent claims cannot pass `max` together. `audit` lands with
    /// the claim.
    pub async fn claim_team_domain(
        &self,
        d: &NewTeamDomain<'_>,
        max: u32,
        audit: Option<&NewAudit>,
    ) -> Result<Claim, sqlx::Error> {
        Ok(locked!(self, d.team_id, Claim::NoTeam, |tx, _seats| {
            let held: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM team_domains WHERE team_id = $1 AND domain <> $2",
            )
            .bind(d.team_id)
            .bind(d.domain)
            .fetch_one(&mut *tx)
            .await?;
            if held >= i64::from(max) {
                Claim::TooMany
            } else {
                let done = sqlx::query(
                    "INSERT INTO team_domains \
                     (id, team_id, domain, txt_token, status, created_by, created_at) \
                     VALUES ($1, $2, $3, $4, 'pending', $5, $6) \
                     ON CONFLICT (team_id, domain) DO NOTHING",
                )
                .bind(d.id)
                .bind(d.team_id)
                .bind(d.domain)
                .bind(d.txt_token)
                .bind(d.created_by)
                .bind(d.now)
                .execute(&mut *tx)
                .await?;
                if done.rows_affected() == 1 {
                    if let Some(audit) = audit {
                        write_audit!(self, tx, audit);
                    }
                    Claim::Claimed
                } else {
                    Claim::Exists
                }
            }
        }))
    }

    /// The team's domains, by name.
    pub async fn team_domains(&self, team_id: Uuid) -> Result<Vec<TeamDomainRow>, sqlx::Error> {
        let sql = format!("SELECT {COLUMNS} FROM team_domains WHERE team_id = $1 ORDER BY domain");
        dispatch!(self, |p| sqlx::query_as::<_, TeamDomainRow>(&sql)
            .bind(team_id)
            .fetch_all(p)
            .await)
    }

    /// One of the team's domains; None for another team's or an unknown id.
    pub async fn team_domain(
        &self,
        team_id: Uuid,
        id: Uuid,
    ) -> Result<Option<TeamDomainRow>, sqlx::Error> {
        let sql = format!("SELECT {COLUMNS} FROM team_domains WHERE team_id = $1 AND id = $2");
        dispatch!(self, |p| sqlx::query_as::<_, TeamDomainRow>(&sql)
            .bind(team_id)
            .bind(id)
            .fetch_optional(p)
            .await)
    }

    /// Marks the domain verified (its record seen at `now`). False when another team holds it
    /// verified already: the claim stays pending.
    pub async fn mark_team_domain_verified(
        &self,
        id: Uuid,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        self.verify_team_domain(id, now, None).await
    }

    /// Marks the domain verified with `audit` in the same transaction; false (and nothing
    /// written) when another team holds it verified already.
    pub async fn verify_team_domain(
        &self,
        id: Uuid,
        now: OffsetDateTime,
        audit: Option<&NewAudit>,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let done = sqlx::query(
                "UPDATE team_domains SET status = 'verified', \
                 verified_at = COALESCE(verified_at, $2), last_checked_at = $2, last_seen_at = $2 \
                 WHERE id = $1",
            )
            .bind(id)
            .bind(now)
            .execute(&mut *tx)
            .await;
            match done {
                Ok(r) if r.rows_affected() == 1 => {}
                Ok(_) => return Ok(false),
                Err(e) if is_unique_violation(&e) => return Ok(false),
                Err(e) => return Err(e),
            }
            commit_audited!(self, tx, audit);
            Ok(true)
        })
    }

    /// Removes one of the team's domains. False when there was none.
    pub async fn delete_team_domain(&self, team_id: Uuid, id: Uuid) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| Ok(sqlx::query(
            "DELETE FROM team_domains WHERE team_id = $1 AND id = $2"
        )
        .bind(team_id)
        .bind(id)
        .execute(p)
        .await?
        .rows_affected()
            == 1))
    }

    /// The team that holds `domain` (lower case) verified, if any.
    pub async fn team_for_verified_domain(
        &self,
        domain: &str,
    ) -> Result<Option<Uuid>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_scalar::<_, Uuid>(
            "SELECT team_id FROM team_domains WHERE domain = $1 AND status = 'verified'"
        )
        .bind(domain)
        .fetch_optional(p)
        .await)
    }
}

/// Domain join at a domain that is no longer the team's verified one ends ($1 team, $2 domain,
/// $3 now), and so do the requests still waiting (as turning it off does): run in this order.
const END_JOIN_REQUESTS: &str = "DELETE FROM team_join_requests WHERE team_id = $1 \
     AND decided_at IS NULL AND EXISTS (SELECT 1 FROM teams WHERE id = $1 AND join_domain = $2)";
const END_JOIN: &str =
    "UPDATE teams SET join_domain = NULL, updated_at = $3 WHERE id = $1 AND join_domain = $2";

/// Ends domain join at `$row`'s domain in the transaction `$tx`.
macro_rules! end_domain_join {
    ($tx:ident, $row:expr, $now:expr) => {{
        sqlx::query(END_JOIN_REQUESTS)
            .bind($row.team_id)
            .bind(&$row.domain)
            .execute(&mut *$tx)
            .await?;
        sqlx::query(END_JOIN)
            .bind($row.team_id)
            .bind(&$row.domain)
            .bind($now)
            .execute(&mut *$tx)
            .await?;
    }};
}

impl Store {
    /// The verified domains (of every team) last checked at or before `before` (never checked
    /// first), at most `limit`: those due for their daily re-check.
    pub async fn team_domains_due(
        &self,
        before: OffsetDateTime,
        limit: i64,
    ) -> Result<Vec<TeamDomainRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {COLUMNS} FROM team_domains WHERE status = 'verified' \
             AND (last_checked_at IS NULL OR last_checked_at <= $1) \
             ORDER BY last_checked_at IS NOT NULL, last_checked_at, id LIMIT $2"
        );
        dispatch!(self, |p| sqlx::query_as::<_, TeamDomainRow>(&sql)
            .bind(before)
            .bind(limit)
            .fetch_all(p)
            .await)
    }

    /// Records a re-check at `now` that found the record (`seen`) or not.
    pub async fn note_team_domain_checked(
        &self,
        id: Uuid,
        seen: bool,
        now: OffsetDateTime,
    ) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| sqlx::query(
            "UPDATE team_domains SET last_checked_at = $2, \
             last_seen_at = CASE WHEN $3 THEN $2 ELSE last_seen_at END WHERE id = $1"
        )
        .bind(id)
        .bind(now)
        .bind(seen)
        .execute(p)
        .await
        .map(|_| ()))
    }

    /// The domain is verified no more (its record gone for a week, or an operator's decision):
    /// pending again, and the team's domain join at it ends with its waiting requests. Written
    /// with `audit` in one transaction. False when it was not verified.
    pub async fn unverify_team_domain(
        &self,
        row: &TeamDomainRow,
        now: OffsetDateTime,
        audit: &NewAudit,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let done = sqlx::query(
                "UPDATE team_domains SET status = 'pending', verified_at = NULL, \
                 last_checked_at = $2 WHERE id = $1 AND status = 'verified'",
            )
            .bind(row.id)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected()
                == 1;
            if done {
                end_domain_join!(tx, row, now);
                write_audit!(self, tx, audit);
            }
            tx.commit().await?;
            Ok(done)
        })
    }

    /// Removes one of the team's domains with its audit row; domain join at it ends. The row
    /// removed, None when there was none.
    pub async fn remove_team_domain(
        &self,
        team_id: Uuid,
        id: Uuid,
        now: OffsetDateTime,
        audit: &NewAudit,
    ) -> Result<Option<TeamDomainRow>, sqlx::Error> {
        let sql =
            format!("DELETE FROM team_domains WHERE team_id = $1 AND id = $2 RETURNING {COLUMNS}");
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let row = sqlx::query_as::<_, TeamDomainRow>(&sql)
                .bind(team_id)
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
            if let Some(row) = &row {
                end_domain_join!(tx, row, now);
                write_audit!(self, tx, audit);
            }
            tx.commit().await?;
            Ok(row)
        })
    }
}
