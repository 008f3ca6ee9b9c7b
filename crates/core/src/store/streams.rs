//! Event streams: a team's destinations and the outbox of events each is owed (written in the
//! transaction of the change that raised them, `enqueue_events!`). What the worker reads and
//! writes while it delivers — the lease, the batches, the log of attempts — is in
//! `store::stream_worker`.

use time::OffsetDateTime;
use uuid::Uuid;

use super::audit::{enqueue_events, AuditRow, NewAudit, NewStreamEvent, AUDIT_COLUMNS};
use super::mail::unix_ms;
pub use super::stream_rows::{DeliveryRow, OutboxRow};
use super::{dispatch, Pool, Store};

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct StreamRow {
    pub id: Uuid,
    pub team_id: Uuid,
    pub kind: String,
    pub url: String,
    /// Sealed.
    pub token: Option<String>,
    /// Sealed.
    pub secret: Option<String>,
    /// Sealed.
    pub previous_secret: Option<String>,
    pub previous_secret_until_ms: Option<i64>,
    /// JSON array.
    pub events: String,
    pub created_at: OffsetDateTime,
    pub failures: i32,
    pub failing_since_ms: Option<i64>,
    pub next_attempt_ms: i64,
    pub paused_at: Option<OffsetDateTime>,
}

pub(crate) const STREAM_COLUMNS: &str = "id, team_id, kind, url, token, secret, previous_secret, \
    previous_secret_until_ms, events, created_at, failures, failing_since_ms, next_attempt_ms, \
    paused_at";

/// A stream as listed: with how many events wait for it.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct StreamListRow {
    #[sqlx(flatten)]
    pub stream: StreamRow,
    pub pending: i64,
}

/// A new stream, its secrets already sealed.
#[derive(Clone, Debug)]
pub struct NewStream<'a> {
    pub id: Uuid,
    pub team_id: Uuid,
    pub kind: &'a str,
    pub url: &'a str,
    pub token: Option<&'a str>,
    pub secret: Option<&'a str>,
    pub events: &'a str,
    pub created_by: Option<Uuid>,
    pub now: OffsetDateTime,
}

/// How many deliveries of a stream are kept (the list shows them all).
pub const DELIVERIES_KEPT: i64 = closewise_domain::sweep::STREAM_DELIVERIES_KEPT;

impl Store {
    /// Adds a stream with `audit` in one transaction, unless the team has `max` already: false.
    /// Creates for one team take turns, so that two at `max - 1` cannot both pass the count: on
    /// PostgreSQL the team's row is locked `FOR UPDATE` first; on SQLite the transaction begins
    /// `IMMEDIATE` (the database's one write lock).
    pub async fn insert_stream(
        &self,
        s: &NewStream<'_>,
        max: i64,
        audit: &NewAudit,
    ) -> Result<bool, sqlx::Error> {
        macro_rules! insert {
            ($tx:ident) => {{
                let added = sqlx::query(
                    "INSERT INTO event_streams (id, team_id, kind, url, token, secret, events, \
                     created_by, created_at) \
                     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9 \
                     WHERE (SELECT COUNT(*) FROM event_streams WHERE team_id = $2) < $10",
                )
                .bind(s.id)
                .bind(s.team_id)
                .bind(s.kind)
                .bind(s.url)
                .bind(s.token)
                .bind(s.secret)
                .bind(s.events)
                .bind(s.created_by)
                .bind(s.now)
                .bind(max)
                .execute(&mut *$tx)
                .await?
                .rows_affected()
                    == 1;
                if !added {
                    return Ok(false);
                }
                crate::store::audit::commit_audited!(self, $tx, Some(audit));
                Ok(true)
            }};
        }
        match &self.pool {
            Pool::Sqlite(p) => {
                let mut tx = p.begin_with("BEGIN IMMEDIATE").await?;
                insert!(tx)
            }
            Pool::Postgres(p) => {
                let mut tx = crate::store::begin::begin(p).await?;
                sqlx::query("SELECT id FROM teams WHERE id = $1 FOR UPDATE")
                    .bind(s.team_id)
                    .execute(&mut *tx)
                    .await?;
                insert!(tx)
            }
        }
    }

    /// The team's streams, oldest first, each with how many events wait for it.
    pub async fn team_streams(&self, team_id: Uuid) -> Result<Vec<StreamListRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {STREAM_COLUMNS}, (SELECT COUNT(*) FROM stream_outbox o \
             WHERE o.stream_id = s.id AND o.delivered_at IS NULL) AS pending \
             FROM event_streams s WHERE team_id = $1 ORDER BY created_at, id"
        );
        dispatch!(self, |p| sqlx::query_as::<_, StreamListRow>(&sql)
            .bind(team_id)
            .fetch_all(p)
            .await)
    }

    /// One of the team's streams.
    pub async fn team_stream(
        &self,
        team_id: Uuid,
        id: Uuid,
    ) -> Result<Option<StreamRow>, sqlx::Error> {
        let sql =
            format!("SELECT {STREAM_COLUMNS} FROM event_streams WHERE id = $1 AND team_id = $2");
        dispatch!(self, |p| sqlx::query_as::<_, StreamRow>(&sql)
            .bind(id)
            .bind(team_id)
            .fetch_optional(p)
            .await)
    }

    /// Removes one of the team's streams (its outbox and deliveries go with it) with `audit`.
    pub async fn delete_stream(
        &self,
        team_id: Uuid,
        id: Uuid,
        audit: &NewAudit,
    ) -> Result<bool, sqlx::Error> {
        let sql = "DELETE FROM event_streams WHERE id = $1 AND team_id = $2";
        crate::store::teams::audited::audited_one!(
            self,
            Some(audit),
            sqlx::query(sql).bind(id).bind(team_id)
        )
    }

    /// Replaces the signing secret, the current one signing beside it until `previous_until`.
    pub async fn rotate_stream_secret(
        &self,
        team_id: Uuid,
        id: Uuid,
        secret: &str,
        previous_until: OffsetDateTime,
        audit: &NewAudit,
    ) -> Result<bool, sqlx::Error> {
        let sql = "UPDATE event_streams SET previous_secret = secret, \
                   previous_secret_until_ms = $4, secret = $3 \
                   WHERE id = $1 AND team_id = $2 AND kind = 'https'";
        crate::store::teams::audited::audited_one!(
            self,
            Some(audit),
            sqlx::query(sql)
                .bind(id)
                .bind(team_id)
                .bind(secret)
                .bind(unix_ms(previous_until))
        )
    }

    /// Writes `events` to the outbox of the team's streams subscribed to them (a test event: of
    /// `only` that stream) and makes those streams due now.
    pub async fn enqueue_stream_events(
        &self,
        team_id: Uuid,
        only: Option<Uuid>,
        events: &[NewStreamEvent],
    ) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            match only {
                Some(stream_id) => {
                    for e in events {
                        let seq: i64 = sqlx::query_scalar(
                            "UPDATE event_streams SET last_seq = last_seq + 1, next_attempt_ms = 0 \
                             WHERE id = $1 AND team_id = $2 RETURNING last_seq",
                        )
                        .bind(stream_id)
                        .bind(team_id)
                        .fetch_one(&mut *tx)
                        .await?;
                        sqlx::query(
                            "INSERT INTO stream_outbox \
                             (stream_id, seq, event_id, event_type, payload, created_ms) \
                             VALUES ($1, $2, $3, $4, $5, $6)",
                        )
                        .bind(stream_id)
                        .bind(seq)
                        .bind(&e.id)
                        .bind(e.event_type)
                        .bind(&e.payload)
                        .bind(e.created_ms)
                        .execute(&mut *tx)
                        .await?;
                    }
                }
                None => enqueue_events!(tx, team_id, events),
            }
            tx.commit().await?;
            Ok(())
        })
    }

    /// "Retry now": the stream is due at once, resumed if it was paused (with 3 more days before
    /// it is paused again). False when the team has no such stream.
    pub async fn retry_stream_now(
        &self,
        team_id: Uuid,
        id: Uuid,
        now: OffsetDateTime,
        audit: &NewAudit,
    ) -> Result<bool, sqlx::Error> {
        let sql = "UPDATE event_streams SET next_attempt_ms = 0, \
             failing_since_ms = CASE WHEN paused_at IS NULL THEN failing_since_ms ELSE $3 END, \
             paused_at = NULL WHERE id = $1 AND team_id = $2";
        crate::store::teams::audited::audited_one!(
            self,
            Some(audit),
            sqlx::query(sql).bind(id).bind(team_id).bind(unix_ms(now))
        )
    }

    /// Queues again, in their order, the team's audit events raised at or after `since` and the
    /// webhook events they raise (those the stream subscribes to), read from the audit trail
    /// with their ids, and makes the stream due now: how many. The outbox's delivered rows are
    /// swept, so they are not read.
    pub async fn replay_stream(
        &self,
        team_id: Uuid,
        id: Uuid,
        since: OffsetDateTime,
        audit: &NewAudit,
    ) -> Result<Option<i64>, sqlx::Error> {
        let rows_sql = format!(
            "SELECT {AUDIT_COLUMNS} FROM audit_log WHERE team_id = $1 AND created_at >= $2 \
             ORDER BY created_at, id"
        );
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let stream: Option<(i64, String)> = sqlx::query_as(
                "UPDATE event_streams SET next_attempt_ms = 0 WHERE id = $1 AND team_id = $2 \
                 RETURNING last_seq, events",
            )
            .bind(id)
            .bind(team_id)
            .fetch_optional(&mut *tx)
            .await?;
            let Some((last, subscribed)) = stream else {
                return Ok(None);
            };
            let subscribed: Vec<String> = serde_json::from_str(&subscribed).unwrap_or_default();
            let rows: Vec<AuditRow> = sqlx::query_as(&rows_sql)
                .bind(team_id)
                .bind(since)
                .fetch_all(&mut *tx)
                .await?;
            let mut seq = last;
            for row in &rows {
                for e in NewStreamEvent::of_audit_row(team_id, row)
                    .iter()
                    .filter(|e| subscribed.iter().any(|s| s == e.event_type))
                {
                    seq += 1;
                    sqlx::query(
                        "INSERT INTO stream_outbox \
                         (stream_id, seq, event_id, event_type, payload, created_ms) \
                         VALUES ($1, $2, $3, $4, $5, $6)",
                    )
                    .bind(id)
                    .bind(seq)
                    .bind(&e.id)
                    .bind(e.event_type)
                    .bind(&e.payload)
                    .bind(e.created_ms)
                    .execute(&mut *tx)
                    .await?;
                }
            }
            sqlx::query("UPDATE event_streams SET last_seq = $2 WHERE id = $1")
                .bind(id)
                .bind(seq)
                .execute(&mut *tx)
                .await?;
            crate::store::audit::commit_audited!(self, tx, Some(audit));
            Ok(Some(seq - last))
        })
    }

    /// The stream's deliveries, newest first.
    pub async fn stream_deliveries(
        &self,
        stream_id: Uuid,
        limit: i64,
    ) -> Result<Vec<DeliveryRow>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_as::<_, DeliveryRow>(
            "SELECT id, stream_id, attempted_at, events, first_seq, last_seq, status, \
             response_code, latency_ms, error, next_retry_at FROM stream_deliveries \
             WHERE stream_id = $1 ORDER BY attempted_at DESC, id DESC LIMIT $2"
        )
        .bind(stream_id)
        .bind(limit)
        .fetch_all(p)
        .await)
    }
}
