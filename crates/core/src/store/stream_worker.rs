//! What the event stream worker reads and writes: the due streams, the lease it holds while it
//! delivers one destination's events in order, the batches, and the log of delivery attempts
//! (the newest [`DELIVERIES_KEPT`] of each stream kept).

use time::OffsetDateTime;
use uuid::Uuid;

use super::audit::NewAudit;
use super::mail::{unix_ms, NewMail};
use super::stream_rows::{DeliveryRow, OutboxRow};
use super::streams::{StreamRow, DELIVERIES_KEPT, STREAM_COLUMNS};
use super::{dispatch, Store};

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

impl Store {
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
