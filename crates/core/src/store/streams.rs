//! Event streams: a team's destinations, the outbox of events each is owed (written in the
//! transaction of the change that raised them, `enqueue_events!`), the lease a worker holds while
//! it delivers one destination's events in order, and the log of delivery attempts.

use time::OffsetDateTime;
use uuid::Uuid;

use super::audit::{enqueue_events, NewAudit, NewStreamEvent};
use super::mail::{unix_ms, NewMail};
pub use super::stream_rows::{DeliveryRow, OutboxRow};
use super::{dispatch, Store};

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

const STREAM_COLUMNS: &str = "id, team_id, kind, url, token, secret, previous_secret, \
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

/// What a failed attempt leaves: the next attempt, or a pause with its mail and audit row.
pub struct Failure<'a> {
    pub failures: i32,
    pub failing_since_ms: i64,
    pub next_attempt_ms: i64,
    pub pause: Option<(OffsetDateTime, &'a NewMail, &'a NewAudit)>,
}

const INSERT_DELIVERY: &str = "INSERT INTO stream_deliveries (id, stream_id, attempted_at, \
    events, first_seq, last_seq, status, response_code, latency_ms, error, next_retry_at) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)";

macro_rules! bind_delivery {
    ($d:expr) => {
        sqlx::query(INSERT_DELIVERY)
            .bind($d.id)
            .bind($d.stream_id)
            .bind($d.attempted_at)
            .bind($d.events)
            .bind($d.first_seq)
            .bind($d.last_seq)
            .bind(&$d.status)
            .bind($d.response_code)
            .bind($d.latency_ms)
            .bind(&$d.error)
            .bind($d.next_retry_at)
    };
}

/// Keeps the stream's newest [`DELIVERIES_KEPT`] deliveries.
macro_rules! prune_deliveries {
    ($tx:ident, $stream_id:expr) => {
        sqlx::query(
            "DELETE FROM stream_deliveries WHERE stream_id = $1 AND id NOT IN \
             (SELECT id FROM stream_deliveries WHERE stream_id = $1 \
             ORDER BY attempted_at DESC, id DESC LIMIT $2)",
        )
        .bind($stream_id)
        .bind(DELIVERIES_KEPT)
        .execute(&mut *$tx)
        .await?;
    };
}

/// How many deliveries of a stream are kept (the list shows them all).
pub const DELIVERIES_KEPT: i64 = 100;

impl Store {
    /// Adds a stream with `audit` in one transaction, unless the team has `max` already: false.
    pub async fn insert_stream(
        &self,
        s: &NewStream<'_>,
        max: i64,
        audit: &NewAudit,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
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
            .execute(&mut *tx)
            .await?
            .rows_affected()
                == 1;
            if !added {
                return Ok(false);
            }
            crate::store::audit::commit_audited!(self, tx, Some(audit));
            Ok(true)
        })
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

    /// Queues again, in their order, the events of the stream raised at or after `since` (each
    /// once, by event id), and makes it due now: how many.
    pub async fn replay_stream(
        &self,
        team_id: Uuid,
        id: Uuid,
        since: OffsetDateTime,
        audit: &NewAudit,
    ) -> Result<Option<i64>, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let last: Option<i64> = sqlx::query_scalar(
                "UPDATE event_streams SET next_attempt_ms = 0 WHERE id = $1 AND team_id = $2 \
                 RETURNING last_seq",
            )
            .bind(id)
            .bind(team_id)
            .fetch_optional(&mut *tx)
            .await?;
            let Some(last) = last else {
                return Ok(None);
            };
            let copied = sqlx::query(
                "INSERT INTO stream_outbox \
                 (stream_id, seq, event_id, event_type, payload, created_ms) \
                 SELECT stream_id, $3 + ROW_NUMBER() OVER (ORDER BY seq), event_id, event_type, \
                 payload, created_ms FROM stream_outbox o \
                 WHERE o.stream_id = $1 AND o.seq <= $3 AND o.created_ms >= $2 \
                 AND NOT EXISTS (SELECT 1 FROM stream_outbox e WHERE e.stream_id = o.stream_id \
                 AND e.event_id = o.event_id AND e.seq < o.seq)",
            )
            .bind(id)
            .bind(unix_ms(since))
            .bind(last)
            .execute(&mut *tx)
            .await?
            .rows_affected() as i64;
            sqlx::query("UPDATE event_streams SET last_seq = $2 WHERE id = $1")
                .bind(id)
                .bind(last + copied)
                .execute(&mut *tx)
                .await?;
            crate::store::audit::commit_audited!(self, tx, Some(audit));
            Ok(Some(copied))
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

    /// Streams with events waiting, due at `now` and not leased: the worker's candidates.
    pub async fn due_streams(
        &self,
        now: OffsetDateTime,
        limit: i64,
    ) -> Result<Vec<Uuid>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_scalar::<_, Uuid>(
            "SELECT s.id FROM event_streams s WHERE s.paused_at IS NULL \
             AND s.next_attempt_ms <= $1 AND s.lease_until_ms <= $1 \
             AND EXISTS (SELECT 1 FROM stream_outbox o WHERE o.stream_id = s.id \
             AND o.delivered_at IS NULL) \
             ORDER BY s.next_attempt_ms, s.id LIMIT $2"
        )
        .bind(unix_ms(now))
        .bind(limit)
        .fetch_all(p)
        .await)
    }

    /// Takes the stream's lease for `owner` until `until` when it is due, not paused and no one
    /// else holds a live lease: the stream then, else None (another worker has it). Works alike
    /// on both databases: one conditional UPDATE.
    pub async fn lease_stream(
        &self,
        id: Uuid,
        owner: &str,
        now: OffsetDateTime,
        until: OffsetDateTime,
    ) -> Result<Option<StreamRow>, sqlx::Error> {
        let sql = format!(
            "UPDATE event_streams SET lease_owner = $2, lease_until_ms = $4 \
             WHERE id = $1 AND paused_at IS NULL AND next_attempt_ms <= $3 \
             AND (lease_until_ms <= $3 OR lease_owner = $2) RETURNING {STREAM_COLUMNS}"
        );
        dispatch!(self, |p| sqlx::query_as::<_, StreamRow>(&sql)
            .bind(id)
            .bind(owner)
            .bind(unix_ms(now))
            .bind(unix_ms(until))
            .fetch_optional(p)
            .await)
    }

    /// Gives the lease back (the worker is done with the stream for now).
    pub async fn release_stream(&self, id: Uuid, owner: &str) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| sqlx::query(
            "UPDATE event_streams SET lease_until_ms = 0, lease_owner = NULL \
             WHERE id = $1 AND lease_owner = $2"
        )
        .bind(id)
        .bind(owner)
        .execute(p)
        .await
        .map(drop))
    }

    /// The stream's oldest undelivered events, in order.
    pub async fn pending_stream_events(
        &self,
        stream_id: Uuid,
        limit: i64,
    ) -> Result<Vec<OutboxRow>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_as::<_, OutboxRow>(
            "SELECT seq, event_id, event_type, payload, created_ms FROM stream_outbox \
             WHERE stream_id = $1 AND delivered_at IS NULL ORDER BY seq LIMIT $2"
        )
        .bind(stream_id)
        .bind(limit)
        .fetch_all(p)
        .await)
    }

    /// A batch was answered 2xx: its events are delivered, the failures forgotten, the attempt
    /// logged, the lease renewed until `lease_until` — all while `owner` still holds it; false
    /// (nothing written) when another worker took the stream over.
    pub async fn stream_delivered(
        &self,
        owner: &str,
        delivery: &DeliveryRow,
        lease_until: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let held = sqlx::query(
                "UPDATE event_streams SET failures = 0, failing_since_ms = NULL, \
                 next_attempt_ms = 0, lease_until_ms = $3 WHERE id = $1 AND lease_owner = $2",
            )
            .bind(delivery.stream_id)
            .bind(owner)
            .bind(unix_ms(lease_until))
            .execute(&mut *tx)
            .await?
            .rows_affected()
                == 1;
            if !held {
                return Ok(false);
            }
            sqlx::query(
                "UPDATE stream_outbox SET delivered_at = $3 \
                 WHERE stream_id = $1 AND seq <= $2 AND delivered_at IS NULL",
            )
            .bind(delivery.stream_id)
            .bind(delivery.last_seq)
            .bind(delivery.attempted_at)
            .execute(&mut *tx)
            .await?;
            bind_delivery!(delivery).execute(&mut *tx).await?;
            prune_deliveries!(tx, delivery.stream_id);
            tx.commit().await?;
            Ok(true)
        })
    }

    /// A batch failed: the attempt logged, the next one scheduled (or the stream paused, its
    /// owner mailed and the pause audited), the lease released.
    pub async fn stream_failed(
        &self,
        owner: &str,
        delivery: &DeliveryRow,
        failure: &Failure<'_>,
    ) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let held = sqlx::query(
                "UPDATE event_streams SET failures = $3, failing_since_ms = $4, \
                 next_attempt_ms = $5, paused_at = $6, lease_until_ms = 0, lease_owner = NULL \
                 WHERE id = $1 AND lease_owner = $2",
            )
            .bind(delivery.stream_id)
            .bind(owner)
            .bind(failure.failures)
            .bind(failure.failing_since_ms)
            .bind(failure.next_attempt_ms)
            .bind(failure.pause.map(|(at, _, _)| at))
            .execute(&mut *tx)
            .await?
            .rows_affected()
                == 1;
            if !held {
                return Ok(());
            }
            bind_delivery!(delivery).execute(&mut *tx).await?;
            prune_deliveries!(tx, delivery.stream_id);
            if let Some((_, mail, audit)) = failure.pause {
                crate::store::mail::bind_mail!(mail)
                    .execute(&mut *tx)
                    .await?;
                crate::store::audit::commit_audited!(self, tx, Some(audit));
            } else {
                tx.commit().await?;
            }
            Ok(())
        })
    }
}
