//! Adoption and seats: each member's figures from the call meter (`calls`), their
//! devices and second factor (each month's calls from `call_months`, which the database keeps
//! with the calls), a page of members at a time, and the team's totals in one grouped
//! query; the team's audit trail a page at a time; and the weekly idle-seats
//! mail's one row per team and week.
//!
//! Timestamps are compared in SQL: every one is written in UTC by the same encoder.

use closewise_domain::idle_seats::Month;
use time::OffsetDateTime;
use uuid::Uuid;

use super::pages::PageAfter;
use super::TeamRow;
use crate::store::audit::AuditRow;
use crate::store::mail::bind_mail;
use crate::store::{dispatch, NewMail, Pool, Store};

/// One member's figures: calls started and their recorded seconds in a month and the month
/// before, their newest call and session, devices signed in, second factors.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct AdoptionRow {
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

/// The months an adoption report covers, as `call_months` names them (`YYYY-MM`, UTC), and when.
#[derive(Clone, Debug)]
pub struct AdoptionWindow {
    pub month: String,
    pub previous_month: String,
    pub now: OffsetDateTime,
}

/// Where a page of the audit trail starts: after this row (newest first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AuditCursor {
    pub created_at: OffsetDateTime,
    pub id: Uuid,
}

/// A page of members (`team_members_team_joined_idx`, after the cursor, `LIMIT`), then each
/// page member's figures, one indexed probe each: the two months' calls and seconds (their
/// `call_months` rows), the newest call (their months' newest) and session, devices and
/// factors. Correlated per member, so no plan reads another member's rows. `{after}` is empty on the first page, the keyset
/// condition on the others; `{limit}` the limit's `$n`. `$2` is the month before, `$3` the month
/// (`YYYY-MM`), `$4` now.
const ADOPTION_PAGE_SQL: &str = "WITH page AS (SELECT m.user_id, m.role, m.joined_at \
    FROM team_members m WHERE m.team_id = $1{after} ORDER BY m.joined_at, m.user_id LIMIT {limit}) \
    SELECT p.user_id, u.email, p.role, p.joined_at, \
    (SELECT MAX(k.last_started_at) FROM call_months k WHERE k.user_id = p.user_id) \
     AS last_call_at, \
    (SELECT MAX(COALESCE(s.last_seen_at, s.refreshed_at)) FROM sessions s \
     WHERE s.user_id = p.user_id) AS last_seen_at, \
    {MONTH_COLUMNS}, \
    (SELECT COUNT(*) FROM sessions s WHERE s.user_id = p.user_id AND s.client_id IS NOT NULL \
     AND s.revoked_at IS NULL AND EXISTS (SELECT 1 FROM refresh_tokens r \
     WHERE r.session_id = s.id AND r.rotated_at IS NULL AND r.expires_at > $4)) AS devices, \
    (SELECT COUNT(*) FROM mfa_totp t WHERE t.user_id = p.user_id AND t.confirmed_at IS NOT NULL) \
     + (SELECT COUNT(*) FROM passkeys k WHERE k.user_id = p.user_id) AS factors \
    FROM page p JOIN users u ON u.id = p.user_id {MONTH_JOINS} ORDER BY p.joined_at, p.user_id";

/// A member's (`p.user_id`) `call_months` rows of the month (`$3`, as `cur`) and the month before
/// (`$2`, as `prev`): one primary-key probe each, absent when they made no call then.
const MONTH_JOINS: &str = "\
    LEFT JOIN call_months cur ON cur.user_id = p.user_id AND cur.month = $3 \
    LEFT JOIN call_months prev ON prev.user_id = p.user_id AND prev.month = $2";

/// Calls started and the seconds of those ended, in the month and the month before.
const MONTH_COLUMNS: &str = "\
    CAST(COALESCE(cur.calls, 0) AS BIGINT) AS calls_month, \
    CAST(COALESCE(cur.seconds, 0) AS BIGINT) AS seconds_month, \
    CAST(COALESCE(prev.calls, 0) AS BIGINT) AS calls_previous, \
    CAST(COALESCE(prev.seconds, 0) AS BIGINT) AS seconds_previous";

/// The team's figures summed from `x`, one row per member (both forms below).
macro_rules! totals_of_members {
    () => {
        "SELECT CAST(COUNT(*) AS BIGINT) AS members, \
         CAST(COALESCE(SUM(x.idle), 0) AS BIGINT) AS idle, \
         CAST(COALESCE(SUM(x.new_member), 0) AS BIGINT) AS new_members, \
         CAST(COALESCE(SUM(x.calls_month), 0) AS BIGINT) AS calls_month, \
         CAST(COALESCE(SUM((x.seconds_month + 59) / 60), 0) AS BIGINT) AS minutes_month, \
         CAST(COALESCE(SUM(x.calls_previous), 0) AS BIGINT) AS calls_previous, \
         CAST(COALESCE(SUM((x.seconds_previous + 59) / 60), 0) AS BIGINT) AS minutes_previous, \
         CAST(COALESCE(SUM(x.devices), 0) AS BIGINT) AS devices, \
         CAST(COALESCE(SUM(x.factor), 0) AS BIGINT) AS second_factor \
         FROM (SELECT "
    };
}

/// Whether a member (`p`) joined since the idle cutoff (`$5`), and whether they used a session
/// since then (a sign-in): with a call since then, what keeps a member from being idle
/// (`idle_seats::seat_use`).
macro_rules! new_member_and_seen {
    () => {
        "CASE WHEN p.joined_at >= $5 THEN 1 ELSE 0 END AS new_member, "
    };
    (seen) => {
        "EXISTS (SELECT 1 FROM sessions s WHERE s.user_id = p.user_id \
         AND COALESCE(s.last_seen_at, s.refreshed_at) >= $5)"
    };
}

/// A member's devices signed in (`$4` is now) and whether they have a second factor: one probe
/// each (both forms below).
macro_rules! member_devices_and_factor {
    () => {
        "(SELECT COUNT(*) FROM sessions s WHERE s.user_id = p.user_id \
         AND s.client_id IS NOT NULL AND s.revoked_at IS NULL AND EXISTS (SELECT 1 \
         FROM refresh_tokens r WHERE r.session_id = s.id AND r.rotated_at IS NULL \
         AND r.expires_at > $4)) AS devices, \
         CASE WHEN EXISTS (SELECT 1 FROM mfa_totp t WHERE t.user_id = p.user_id \
         AND t.confirmed_at IS NOT NULL) OR EXISTS (SELECT 1 FROM passkeys k \
         WHERE k.user_id = p.user_id) THEN 1 ELSE 0 END AS factor "
    };
}

/// The whole team's figures in one grouped query: the same per-member terms as a page's lines
/// (minutes rounded up per member, as each line shows them), summed over every member of the
/// team (`team_members_team_joined_idx`). Per member one range of `call_months` (its primary key,
/// from `$6`, the earlier of the month before and the idle cutoff's month: a few rows) gives both
/// months' figures and whether they called since the idle cutoff (`$5`); one probe each gives the
/// devices and a factor. Grouped in the index's order (`joined_at`, `user_id`), so no sort.
const ADOPTION_TOTALS_SQL: &str = concat!(
    totals_of_members!(),
    "CAST(COALESCE(SUM(CASE WHEN cm.month = $3 THEN cm.calls END), 0) AS BIGINT) AS calls_month, \
     CAST(COALESCE(SUM(CASE WHEN cm.month = $3 THEN cm.seconds END), 0) AS BIGINT) \
      AS seconds_month, \
     CAST(COALESCE(SUM(CASE WHEN cm.month = $2 THEN cm.calls END), 0) AS BIGINT) \
      AS calls_previous, \
     CAST(COALESCE(SUM(CASE WHEN cm.month = $2 THEN cm.seconds END), 0) AS BIGINT) \
      AS seconds_previous, \
     CASE WHEN p.joined_at >= $5 \
      OR MAX(CASE WHEN cm.last_started_at >= $5 THEN 1 ELSE 0 END) = 1 OR ",
    new_member_and_seen!(seen),
    " THEN 0 ELSE 1 END AS idle, ",
    new_member_and_seen!(),
    member_devices_and_factor!(),
    "FROM team_members p LEFT JOIN call_months cm ON cm.user_id = p.user_id \
      AND cm.month >= $6 \
     WHERE p.team_id = $1 GROUP BY p.joined_at, p.user_id) x"
);

/// The same figures on SQLite, half the work there: per member two lookups of `call_months`'s
/// primary key (this month, the month before) and one short range for the idle test, instead of
/// grouping the range's rows. PostgreSQL plans this form as two hash joins over the whole table,
/// slower than its grouped form above (docs/performance.md, "usage at 1,000 members").
const ADOPTION_TOTALS_SQLITE_SQL: &str = concat!(
    totals_of_members!(),
    "COALESCE(cur.calls, 0) AS calls_month, COALESCE(cur.seconds, 0) AS seconds_month, \
     COALESCE(prev.calls, 0) AS calls_previous, COALESCE(prev.seconds, 0) AS seconds_previous, \
     CASE WHEN p.joined_at >= $5 OR EXISTS (SELECT 1 FROM call_months k \
      WHERE k.user_id = p.user_id AND k.month >= $6 AND k.last_started_at >= $5) OR ",
    new_member_and_seen!(seen),
    " THEN 0 ELSE 1 END AS idle, ",
    new_member_and_seen!(),
    member_devices_and_factor!(),
    "FROM team_members p \
     LEFT JOIN call_months cur ON cur.user_id = p.user_id AND cur.month = $3 \
     LEFT JOIN call_months prev ON prev.user_id = p.user_id AND prev.month = $2 \
     WHERE p.team_id = $1) x"
);

/// The members reclaiming would remove (`idle_seats::seat_use`): joined before `$2` (the idle
/// cutoff), no call since — none of their `call_months` from the cutoff's month (`$3`) on, a
/// short range of its primary key, holds one that recent — and no session used since; not the
/// owner; in the order they joined.
const IDLE_MEMBERS_SQL: &str = "SELECT p.user_id FROM team_members p WHERE p.team_id = $1 \
    AND p.role <> 'owner' AND p.joined_at < $2 AND NOT EXISTS (SELECT 1 FROM call_months k \
    WHERE k.user_id = p.user_id AND k.month >= $3 AND k.last_started_at >= $2) \
    AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.user_id = p.user_id \
    AND COALESCE(s.last_seen_at, s.refreshed_at) >= $2) \
    ORDER BY p.joined_at, p.user_id";

/// The team's figures over an adoption window: sums of what each member's line shows.
#[derive(Clone, Copy, Debug, sqlx::FromRow)]
pub struct AdoptionTotalsRow {
    pub members: i64,
    /// Members idle as of the cutoff (`idle_seats::seat_use`; the owner too).
    pub idle: i64,
    /// Members who joined since the idle cutoff.
    pub new_members: i64,
    pub calls_month: i64,
    /// Each member's minutes (seconds rounded up), summed.
    pub minutes_month: i64,
    pub calls_previous: i64,
    pub minutes_previous: i64,
    pub devices: i64,
    /// Members with a confirmed authenticator app or a passkey.
    pub second_factor: i64,
}

const AUDIT_COLUMNS: &str =
    "id, actor, action, user_id, target_email, reason, details, created_at, instance";

impl Store {
    /// Up to `limit` members after `after`, in the order they joined, with their figures over
    /// `window`: the page's rows only, whatever the team's size.
    pub async fn team_adoption_page(
        &self,
        team_id: Uuid,
        window: &AdoptionWindow,
        after: Option<PageAfter>,
        limit: i64,
    ) -> Result<Vec<AdoptionRow>, sqlx::Error> {
        let (after_sql, limit_n) = match after {
            Some(_) => (" AND (m.joined_at, m.user_id) > ($5, $6)", "$7"),
            None => ("", "$5"),
        };
        let sql = ADOPTION_PAGE_SQL
            .replace("{MONTH_COLUMNS}", MONTH_COLUMNS)
            .replace("{MONTH_JOINS}", MONTH_JOINS)
            .replace("{after}", after_sql)
            .replace("{limit}", limit_n);
        dispatch!(self, |p| {
            let mut q = sqlx::query_as::<_, AdoptionRow>(&sql)
                .bind(team_id)
                .bind(&window.previous_month)
                .bind(&window.month)
                .bind(window.now);
            if let Some(a) = after {
                q = q.bind(a.at).bind(a.id);
            }
            q.bind(limit).fetch_all(p).await
        })
    }

    /// Every member with their figures over `window`, in the order they joined, read a page of
    /// 500 at a time: the adoption CSV and the weekly idle-seats mail.
    pub async fn team_adoption_all(
        &self,
        team_id: Uuid,
        window: &AdoptionWindow,
    ) -> Result<Vec<AdoptionRow>, sqlx::Error> {
        const PAGE: i64 = 500;
        let mut out: Vec<AdoptionRow> = Vec::new();
        let mut after = None;
        loop {
            let page = self
                .team_adoption_page(team_id, window, after, PAGE)
                .await?;
            let last = page.len() < usize::try_from(PAGE).unwrap_or(usize::MAX);
            after = page.last().map(|r| PageAfter {
                at: r.joined_at,
                id: r.user_id,
            });
            out.extend(page);
            if last {
                return Ok(out);
            }
        }
    }

    /// The whole team's figures over `window` in one grouped query, idle as of `idle_since`.
    pub async fn team_adoption_totals(
        &self,
        team_id: Uuid,
        window: &AdoptionWindow,
        idle_since: OffsetDateTime,
    ) -> Result<AdoptionTotalsRow, sqlx::Error> {
        // `YYYY-MM` sorts as the months do.
        let from = window
            .previous_month
            .clone()
            .min(Month::of(idle_since).to_string());
        let sql = match self.pool {
            Pool::Sqlite(_) => ADOPTION_TOTALS_SQLITE_SQL,
            Pool::Postgres(_) => ADOPTION_TOTALS_SQL,
        };
        dispatch!(self, |p| sqlx::query_as::<_, AdoptionTotalsRow>(sql)
            .bind(team_id)
            .bind(&window.previous_month)
            .bind(&window.month)
            .bind(window.now)
            .bind(idle_since)
            .bind(&from)
            .fetch_one(p)
            .await)
    }

    /// The team's members other than the owner idle as of `idle_since` (in the team before it,
    /// no call and no sign-in since), in the order they joined: whom reclaiming would remove.
    pub async fn team_idle_members(
        &self,
        team_id: Uuid,
        idle_since: OffsetDateTime,
    ) -> Result<Vec<Uuid>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_scalar::<_, Uuid>(IDLE_MEMBERS_SQL)
            .bind(team_id)
            .bind(idle_since)
            .bind(Month::of(idle_since).to_string())
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
        dispatch!(self, |p| {
            sqlx::query_as::<_, TeamRow>(
            "SELECT t.id, t.name, t.owner_id, t.stripe_customer_id, t.subscription_id, \
             t.price_id, t.seats, t.subscription_status, t.current_period_end, \
             t.cancel_at_period_end, t.discount, t.join_domain, t.created_at, t.updated_at FROM teams t \
             WHERE t.subscription_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM team_idle_mails x \
             WHERE x.team_id = t.id AND x.week = $1) ORDER BY t.id"
        )
        .bind(week)
        .fetch_all(p)
        .await
        })
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
            let mut tx = crate::store::begin::begin(p).await?;
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
