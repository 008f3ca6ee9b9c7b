//! Calls made with the desktop app, and the calls operators granted: the Free Trial's meter.
//!
//! Starting a call counts and inserts under a per-user lock, so that concurrent starts (two
//! devices, retries) let exactly as many through as the meter allows: on PostgreSQL the user's
//! `user_plans` row is locked (`FOR UPDATE`, which also orders the start after a plan change in
//! flight); on SQLite the transaction begins `IMMEDIATE`, taking the database's write lock before
//! it reads.

use closewise_domain::plan::{PlanStatus, PlanType};
use closewise_domain::subscription::SubscriptionStatus;
use closewise_domain::team_billing::TeamSubscriptionFacts;
use closewise_domain::usage::{BillingFacts, EndReason, Ending, OpenCall};
use time::OffsetDateTime;
use uuid::Uuid;

use super::audit::{write_audit, NewAudit};
use super::revocations::{notify_revoked, Revoked};
use super::{dispatch, domain_sql, Pool, Store};

#[derive(Clone, Debug, sqlx::FromRow, serde::Serialize)]
pub struct CallRow {
    pub id: Uuid,
    pub user_id: Uuid,
    pub client_call_id: String,
    pub session_id: Option<Uuid>,
    /// Started under the Free Trial: counts against it.
    pub free: bool,
    pub max_seconds: Option<i32>,
    #[serde(with = "time::serde::rfc3339")]
    pub started_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub last_heartbeat_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339::option")]
    pub ended_at: Option<OffsetDateTime>,
    /// `ended`, `time_limit` or `stale`.
    pub ended_reason: Option<String>,
    pub duration_seconds: Option<i32>,
}

impl CallRow {
    pub fn max_seconds(&self) -> Option<u32> {
        self.max_seconds.and_then(|m| u32::try_from(m).ok())
    }

    pub fn open(&self) -> OpenCall {
        OpenCall {
            started_at: self.started_at,
            last_heartbeat_at: self.last_heartbeat_at,
            max_seconds: self.max_seconds(),
        }
    }

    pub fn end_reason(&self) -> Option<EndReason> {
        self.ended_reason.as_deref().map(EndReason::parse)
    }

    /// The row as it reads once `ending` is applied.
    pub fn ended(mut self, ending: &Ending) -> CallRow {
        self.ended_at = Some(ending.at);
        self.ended_reason = Some(ending.reason.as_str().to_owned());
        self.duration_seconds = Some(i32::try_from(ending.duration_seconds).unwrap_or(i32::MAX));
        self
    }
}

#[derive(Clone, Debug, sqlx::FromRow, serde::Serialize)]
pub struct GrantRow {
    pub id: Uuid,
    pub user_id: Uuid,
    pub calls: i32,
    pub actor: String,
    pub reason: String,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
}

/// What the meter is decided from, read together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsageFacts {
    pub billing: BillingFacts,
    /// The team whose seat the user holds, if any.
    pub team: Option<TeamFacts>,
    /// Calls started under the Free Trial.
    pub free_used: u32,
    /// Calls operators granted.
    pub granted: u32,
}

/// The terms a new call starts on.
/// The team whose seat the user holds, and its subscription.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamFacts {
    pub id: Uuid,
    pub name: String,
    pub subscription: TeamSubscriptionFacts,
}

#[derive(sqlx::FromRow)]
struct TeamFactsRow {
    id: Uuid,
    name: String,
    subscription_status: Option<String>,
    current_period_end: Option<i64>,
}

impl TeamFactsRow {
    fn facts(self) -> TeamFacts {
        TeamFacts {
            id: self.id,
            name: self.name,
            subscription: TeamSubscriptionFacts {
                status: self
                    .subscription_status
                    .and_then(|s| SubscriptionStatus::parse(&s).ok()),
                current_period_end: self
                    .current_period_end
                    .and_then(|t| OffsetDateTime::from_unix_timestamp(t).ok()),
            },
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallTerms {
    pub free: bool,
    pub max_seconds: Option<u32>,
}

pub struct NewCall<'a> {
    pub user_id: Uuid,
    pub client_call_id: &'a str,
    pub session_id: Option<Uuid>,
    pub now: OffsetDateTime,
}

#[derive(Debug)]
pub enum StartOutcome {
    Started(CallRow),
    /// The same `client_call_id` started this call before.
    Existing(CallRow),
    /// The decision refused a new call, on these facts.
    Refused(UsageFacts),
}

#[derive(sqlx::FromRow)]
struct PlanFacts {
    #[sqlx(try_from = "String")]
    plan_type: PlanType,
    #[sqlx(try_from = "String")]
    status: PlanStatus,
}

#[derive(sqlx::FromRow)]
struct SubscriptionFacts {
    #[sqlx(try_from = "String")]
    status: SubscriptionStatus,
    current_period_end: Option<i64>,
}

const CALL_COLUMNS: &str = "id, user_id, client_call_id, session_id, free, max_seconds, \
    started_at, last_heartbeat_at, ended_at, ended_reason, duration_seconds";

const ENSURE_PLAN: &str = "INSERT INTO user_plans (id, user_id, plan_type, status, \
    plan_started_at, plan_updated_at, created_at, updated_at) \
    VALUES ($1, $2, '{free}', '{active}', $3, $3, $3, $3) ON CONFLICT (user_id) DO NOTHING";

fn count(n: i64) -> u32 {
    u32::try_from(n.max(0)).unwrap_or(u32::MAX)
}

/// Reads the `UsageFacts` of `$user_id` through `$conn` (re-evaluated for each statement);
/// `$plan_sql` selects the plan row (locking it or not).
macro_rules! facts_in {
    ($conn:expr, $plan_sql:expr, $user_id:expr) => {{
        // No plan row yet: the free, active one it would be created as.
        let plan = sqlx::query_as::<_, PlanFacts>($plan_sql)
            .bind($user_id)
            .fetch_optional($conn)
            .await?
            .unwrap_or(PlanFacts {
                plan_type: PlanType::Free,
                status: PlanStatus::Active,
            });
        let subscription = sqlx::query_as::<_, SubscriptionFacts>(
            "SELECT status, current_period_end FROM subscriptions WHERE user_id = $1",
        )
        .bind($user_id)
        .fetch_optional($conn)
        .await?;
        let free_used: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM calls WHERE user_id = $1 AND free = $2")
                .bind($user_id)
                .bind(true)
                .fetch_one($conn)
                .await?;
        let granted: i64 = sqlx::query_scalar(
            "SELECT COALESCE(SUM(calls), 0) FROM call_grants WHERE user_id = $1",
        )
        .bind($user_id)
        .fetch_one($conn)
        .await?;
        let team = sqlx::query_as::<_, TeamFactsRow>(
            "SELECT t.id, t.name, t.subscription_status, t.current_period_end \
             FROM team_members m JOIN teams t ON t.id = m.team_id WHERE m.user_id = $1",
        )
        .bind($user_id)
        .fetch_optional($conn)
        .await?;
        UsageFacts {
            team: team.map(TeamFactsRow::facts),
            billing: BillingFacts {
                plan_type: plan.plan_type,
                plan_status: plan.status,
                subscription: subscription.as_ref().map(|s| s.status),
                current_period_end: subscription
                    .and_then(|s| s.current_period_end)
                    .and_then(|t| OffsetDateTime::from_unix_timestamp(t).ok()),
            },
            free_used: count(free_used),
            granted: count(granted),
        }
    }};
}

/// `start_call`'s statements on the open transaction `$tx`, which holds the user's lock.
macro_rules! start_in {
    ($tx:ident, $plan_sql:expr, $new:expr, $decide:expr) => {{
        let select = format!(
            "SELECT {CALL_COLUMNS} FROM calls WHERE user_id = $1 AND client_call_id = $2"
        );
        sqlx::query(&domain_sql(ENSURE_PLAN))
            .bind(Uuid::now_v7())
            .bind($new.user_id)
            .bind($new.now)
            .execute(&mut *$tx)
            .await?;
        let existing = sqlx::query_as::<_, CallRow>(&select)
            .bind($new.user_id)
            .bind($new.client_call_id)
            .fetch_optional(&mut *$tx)
            .await?;
        let facts = match existing {
            Some(row) => Err(StartOutcome::Existing(row)),
            None => Ok(facts_in!(&mut *$tx, $plan_sql, $new.user_id)),
        };
        match facts.map(|f| ($decide(&f), f)) {
            Err(existing) => existing,
            Ok((None, facts)) => StartOutcome::Refused(facts),
            Ok((Some(terms), _)) => {
            let insert = format!(
                "INSERT INTO calls (id, user_id, client_call_id, session_id, free, max_seconds, \
                 started_at, last_heartbeat_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7) \
                 RETURNING {CALL_COLUMNS}"
            );
            let row = sqlx::query_as::<_, CallRow>(&insert)
                .bind(Uuid::now_v7())
                .bind($new.user_id)
                .bind($new.client_call_id)
                .bind($new.session_id)
                .bind(terms.free)
                .bind(terms.max_seconds.map(|m| i32::try_from(m).unwrap_or(i32::MAX)))
                .bind($new.now)
                .fetch_one(&mut *$tx)
                .await?;
            StartOutcome::Started(row)
            }
        }
    }};
}

const PLAN_FACTS: &str = "SELECT plan_type, status FROM user_plans WHERE user_id = $1";

impl Store {
    /// The meter's facts now, without a lock.
    pub async fn usage_facts(&self, user_id: Uuid) -> Result<UsageFacts, sqlx::Error> {
        dispatch!(self, |p| Ok(facts_in!(p, PLAN_FACTS, user_id)))
    }

    /// Starts a call unless one with the same `client_call_id` exists, under the user's lock:
    /// `decide` sees the facts as they stand and says on which terms (None: refused).
    #[tracing::instrument(skip_all, fields(user_id = %new.user_id))]
    pub async fn start_call<F>(
        &self,
        new: &NewCall<'_>,
        decide: F,
    ) -> Result<StartOutcome, sqlx::Error>
    where
        F: FnOnce(&UsageFacts) -> Option<CallTerms>,
    {
        // A call started changes the user's meter: their cached entitlements are announced
        // changed (`Revoked::Reads`) with the insert.
        let changed = Revoked::Reads(new.user_id);
        let outcome = match &self.pool {
            Pool::Sqlite(p) => {
                let mut tx = p.begin_with("BEGIN IMMEDIATE").await?;
                let outcome = start_in!(tx, PLAN_FACTS, new, decide);
                tx.commit().await?;
                outcome
            }
            Pool::Postgres(p) => {
                let mut tx = crate::store::begin::begin(p).await?;
                let locked = format!("{PLAN_FACTS} FOR UPDATE");
                let outcome = start_in!(tx, &locked, new, decide);
                if matches!(outcome, StartOutcome::Started(_)) {
                    notify_revoked!(self, tx, changed);
                }
                tx.commit().await?;
                outcome
            }
        };
        if matches!(outcome, StartOutcome::Started(_)) {
            self.revoked(changed);
        }
        Ok(outcome)
    }

    /// The user's call by id; another user's is None.
    pub async fn call_of(
        &self,
        user_id: Uuid,
        call_id: Uuid,
    ) -> Result<Option<CallRow>, sqlx::Error> {
        let sql = format!("SELECT {CALL_COLUMNS} FROM calls WHERE id = $1 AND user_id = $2");
        dispatch!(self, |p| sqlx::query_as::<_, CallRow>(&sql)
            .bind(call_id)
            .bind(user_id)
            .fetch_optional(p)
            .await)
    }

    /// Notes a heartbeat of a call still going. False when it had ended.
    pub async fn heartbeat_call(
        &self,
        call_id: Uuid,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| sqlx::query(
            "UPDATE calls SET last_heartbeat_at = $2 WHERE id = $1 AND ended_at IS NULL"
        )
        .bind(call_id)
        .bind(now)
        .execute(p)
        .await
        .map(|r| r.rows_affected() == 1))
    }

    /// Ends a call still going. False when it had ended already (the first ending stays). Its
    /// user's cached entitlements are announced changed (their open calls).
    pub async fn end_call(&self, call_id: Uuid, ending: &Ending) -> Result<bool, sqlx::Error> {
        let user = dispatch!(self, |p| sqlx::query_scalar::<_, Uuid>(
            "UPDATE calls SET ended_at = $2, ended_reason = $3, duration_seconds = $4 \
             WHERE id = $1 AND ended_at IS NULL RETURNING user_id"
        )
        .bind(call_id)
        .bind(ending.at)
        .bind(ending.reason.as_str())
        .bind(i32::try_from(ending.duration_seconds).unwrap_or(i32::MAX))
        .fetch_optional(p)
        .await)?;
        match user {
            Some(user_id) => self.announce_if(true, Revoked::Reads(user_id)).await,
            None => Ok(false),
        }
    }

    /// The user's calls still going.
    pub async fn open_calls_of(&self, user_id: Uuid) -> Result<Vec<CallRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {CALL_COLUMNS} FROM calls WHERE user_id = $1 AND ended_at IS NULL \
             ORDER BY started_at, id"
        );
        dispatch!(self, |p| sqlx::query_as::<_, CallRow>(&sql)
            .bind(user_id)
            .fetch_all(p)
            .await)
    }

    /// The user's newest calls first.
    pub async fn recent_calls(
        &self,
        user_id: Uuid,
        limit: i64,
    ) -> Result<Vec<CallRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {CALL_COLUMNS} FROM calls WHERE user_id = $1 \
             ORDER BY started_at DESC, id DESC LIMIT $2"
        );
        dispatch!(self, |p| sqlx::query_as::<_, CallRow>(&sql)
            .bind(user_id)
            .bind(limit)
            .fetch_all(p)
            .await)
    }

    /// Calls the user started at or after `since`. Compared in SQL: every timestamp is written
    /// in UTC by the same encoder (see `admin_users`).
    pub async fn calls_since(
        &self,
        user_id: Uuid,
        since: OffsetDateTime,
    ) -> Result<u32, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_scalar::<_, i64>(
            "SELECT COUNT(*) FROM calls WHERE user_id = $1 AND started_at >= $2"
        )
        .bind(user_id)
        .bind(since)
        .fetch_one(p)
        .await
        .map(count))
    }

    /// The calls operators granted the user, newest first.
    pub async fn grants_of(&self, user_id: Uuid) -> Result<Vec<GrantRow>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_as::<_, GrantRow>(
            "SELECT id, user_id, calls, actor, reason, created_at FROM call_grants \
             WHERE user_id = $1 ORDER BY created_at DESC, id DESC"
        )
        .bind(user_id)
        .fetch_all(p)
        .await)
    }

    /// Grants the user `calls` more free calls, with its audit row, in one transaction; their
    /// cached entitlements are announced changed (`Revoked::Reads`).
    pub async fn grant_calls(
        &self,
        user_id: Uuid,
        calls: u32,
        audit: &NewAudit,
    ) -> Result<GrantRow, sqlx::Error> {
        let reason = audit.reason.clone().unwrap_or_default();
        let row = dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let row = sqlx::query_as::<_, GrantRow>(
                "INSERT INTO call_grants (id, user_id, calls, actor, reason, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6) \
                 RETURNING id, user_id, calls, actor, reason, created_at",
            )
            .bind(Uuid::now_v7())
            .bind(user_id)
            .bind(i32::try_from(calls).unwrap_or(i32::MAX))
            .bind(&audit.actor)
            .bind(&reason)
            .bind(audit.now)
            .fetch_one(&mut *tx)
            .await?;
            write_audit!(self, tx, audit);
            notify_revoked!(self, tx, Revoked::Reads(user_id));
            tx.commit().await?;
            row
        });
        self.revoked(Revoked::Reads(user_id));
        Ok(row)
    }
}
