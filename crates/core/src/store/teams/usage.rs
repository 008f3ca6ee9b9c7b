//! Adoption and seats (issue 26): each member's figures from the call meter (`calls`), their
//! devices and second factor; the team's audit trail a page at a time; and the weekly idle-seats
//! mail's one row per team and week.
//!
//! Timestamps are compared in SQL: every one is written in UTC by the same encoder.

use time::OffsetDateTime;
use uuid::Uuid;

use super::TeamRow;
use crate::store::audit::AuditRow;
use crate::store::mail::bind_mail;
use crate::store::{dispatch, NewMail, Store};

/// One member's figures: calls started and their recorded seconds in a month and the month
/// before, their newest call and session, devices signed in, second factors.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct UsageRow {
    pub user_id: Uuid,
    pub email: String,
    pub role: String,
    pub joined_at: OffsetDateTime,
    /// The newest call they started, whenever.
    pub last_call_at: Option<OffsetDateTime>,
    /// The newest use of any of their sessions (site or device).
    pub last_seen_at: Option<OffsetDateTime>,
    pub calls_month: i64,
    /// Seconds of the month's calls that have ended (a call still going counts once it ends).
    pub seconds_month: i64,
    pub calls_previous: i64,
    pub seconds_previous: i64,
    /// Desktop sessions not signed out whose refresh token has not lapsed.
    pub devices: i64,
    /// Confirmed authenticator apps plus passkeys.
    pub factors: i64,
}

/// The months a usage report covers: `[previous, start)` and `[start, end)`.
#[derive(Clone, Copy, Debug)]
pub struct UsageWindow {
    pub previous: OffsetDateTime,
    pub start: OffsetDateTime,
    pub end: OffsetDateTime,
    pub now: OffsetDateTime,
}

/// Where a page of the audit trail starts: after this row (newest first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AuditCursor {
    pub created_at: OffsetDateTime,
    pub id: Uuid,
}

/// One pass over the two months' calls of the team's members (`calls_user_started_idx`, a range
/// per member), grouped; the newest call and session, devices and factors one probe each.
const USAGE_SQL: &str = "SELECT m.user_id, u.email, m.role, m.joined_at, \
    (SELECT MAX(c.started_at) FROM calls c WHERE c.user_id = m.user_id) AS last_call_at, \
    (SELECT MAX(COALESCE(s.last_seen_at, s.refreshed_at)) FROM sessions s \
     WHERE s.user_id = m.user_id) AS last_seen_at, \
    COALESCE(w.calls_month, 0) AS calls_month, COALESCE(w.seconds_month, 0) AS seconds_month, \
    COALESCE(w.calls_previous, 0) AS calls_previous, \
    COALESCE(w.seconds_previous, 0) AS seconds_previous, \
    (SELECT COUNT(*) FROM sessions s WHERE s.user_id = m.user_id AND s.client_id IS NOT NULL \
     AND s.revoked_at IS NULL AND EXISTS (SELECT 1 FROM refresh_tokens r \
     WHERE r.session_id = s.id AND r.rotated_at IS NULL AND r.expires_at > $5)) AS devices, \
    (SELECT COUNT(*) FROM mfa_totp t WHERE t.user_id = m.user_id AND t.confirmed_at IS NOT NULL) \
     + (SELECT COUNT(*) FROM passkeys p WHERE p.user_id = m.user_id) AS factors \
    FROM team_members m JOIN users u ON u.id = m.user_id \
    LEFT JOIN (SELECT c.user_id, \
     CAST(SUM(CASE WHEN c.started_at >= $3 THEN 1 ELSE 0 END) AS BIGINT) AS calls_month, \
     CAST(SUM(CASE WHEN c.started_at >= $3 THEN COALESCE(c.duration_seconds, 0) ELSE 0 END) \
      AS BIGINT) AS seconds_month, \
     CAST(SUM(CASE WHEN c.started_at < $3 THEN 1 ELSE 0 END) AS BIGINT) AS calls_previous, \
     CAST(SUM(CASE WHEN c.started_at < $3 THEN COALESCE(c.duration_seconds, 0) ELSE 0 END) \
      AS BIGINT) AS seconds_previous \
     FROM team_members tm JOIN calls c ON c.user_id = tm.user_id \
     WHERE tm.team_id = $1 AND c.started_at >= $2 AND c.started_at < $4 \
     GROUP BY c.user_id) w ON w.user_id = m.user_id \
    WHERE m.team_id = $1 ORDER BY m.joined_at, m.user_id";

const AUDIT_COLUMNS: &str =
    "id, actor, action, user_id, target_email, reason, details, created_at, instance";

impl Store {
    /// Every member of the team with their figures over `window`, in the order they joined.
    pub async fn team_usage(
        &self,
        team_id: Uuid,
        window: &UsageWindow,
    ) -> Result<Vec<UsageRow>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_as::<_, UsageRow>(USAGE_SQL)
            .bind(team_id)
            .bind(window.previous)
            .bind(window.start)
            .bind(window.end)
            .bind(window.now)
            .fetch_all(p)
            .await)
    }

    /// A page of the team's audit trail (its rows by `team_id`: `audit_log_team_idx`), newest
    /// first, after `cursor`, with only `actions` when some are given. `limit` rows at most.
    pub async fn team_audit_page(
        &self,
        team_id: Uuid,
        actions: &[String],
        cursor: Option<AuditCursor>,
        limit: i64,
    ) -> Result<Vec<AuditRow>, sqlx::Error> {
        let mut sql = format!("SELECT {AUDIT_COLUMNS} FROM audit_log WHERE team_id = $1");
        let mut n = 2;
        if cursor.is_some() {
            sql.push_str(" AND (created_at, id) < ($2, $3)");
            n = 4;
        }
        if !actions.is_empty() {
            let marks: Vec<String> = (0..actions.len()).map(|i| format!("${}", n + i)).collect();
            sql.push_str(&format!(" AND action IN ({})", marks.join(", ")));
            n += actions.len();
        }
        sql.push_str(&format!(" ORDER BY created_at DESC, id DESC LIMIT ${n}"));
        dispatch!(self, |p| {
            let mut q = sqlx::query_as::<_, AuditRow>(&sql).bind(team_id);
            if let Some(c) = cursor {
                q = q.bind(c.created_at).bind(c.id);
            }
            for a in actions {
                q = q.bind(a);
            }
            q.bind(limit).fetch_all(p).await
        })
    }

    /// Teams with a subscription whose weekly idle-seats mail for `week` is not written yet.
    pub async fn teams_without_idle_mail(&self, week: &str) -> Result<Vec<TeamRow>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_as::<_, TeamRow>(
            "SELECT t.id, t.name, t.owner_id, t.stripe_customer_id, t.subscription_id, \
             t.price_id, t.seats, t.subscription_status, t.current_period_end, \
             t.cancel_at_period_end, t.join_domain, t.created_at, t.updated_at FROM teams t \
             WHERE t.subscription_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM team_idle_mails x \
             WHERE x.team_id = t.id AND x.week = $1) ORDER BY t.id"
        )
        .bind(week)
        .fetch_all(p)
        .await)
    }

    /// Notes the team's idle-seats mail of `week` and queues `mail` (None: nothing idle, noted
    /// only), in one transaction. False, with nothing written, when the week was noted already.
    pub async fn record_idle_mail(
        &self,
        team_id: Uuid,
        week: &str,
        idle: u32,
        mail: Option<&NewMail>,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = p.begin().await?;
            let noted = sqlx::query(
                "INSERT INTO team_idle_mails (team_id, week, idle, created_at) \
                 VALUES ($1, $2, $3, $4) ON CONFLICT (team_id, week) DO NOTHING",
            )
            .bind(team_id)
            .bind(week)
            .bind(i32::try_from(idle).unwrap_or(i32::MAX))
            .bind(now)
            .execute(&mut *tx)
            .await?;
            if noted.rows_affected() != 1 {
                return Ok(false);
            }
            if let Some(mail) = mail {
                bind_mail!(mail).execute(&mut *tx).await?;
            }
            tx.commit().await?;
            Ok(true)
        })
    }
}
