//! The operators' audit trail: who changed what, when and why. Written in the same transaction as
//! the change it describes (see `admin.rs`), read back by `closewise users show`.

use time::OffsetDateTime;
use uuid::Uuid;

use super::mail::unix_ms;
use super::{dispatch, Store};

/// One change an operator made.
#[derive(Clone, Debug)]
pub struct NewAudit {
    pub actor: String,
    /// A dotted verb: `user.verify`, `user.sign_out`, `user.delete`, `plan.set`, `subscription.sync`...
    pub action: &'static str,
    pub user_id: Option<Uuid>,
    pub target_email: Option<String>,
    pub reason: Option<String>,
    /// What changed, as JSON (before and after).
    pub details: serde_json::Value,
    pub now: OffsetDateTime,
}

#[derive(Clone, Debug, sqlx::FromRow, serde::Serialize)]
pub struct AuditRow {
    pub id: Uuid,
    pub actor: String,
    pub action: String,
    pub user_id: Option<Uuid>,
    pub target_email: Option<String>,
    pub reason: Option<String>,
    /// JSON text.
    pub details: String,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// The API replica or CLI host that wrote the row (`APP_INSTANCE`, default the host name);
    /// None for rows older than migration 0007.
    pub instance: Option<String>,
}

pub(crate) const INSERT_AUDIT: &str = "INSERT INTO audit_log \
    (id, actor, action, user_id, target_email, reason, details, created_at, instance, team_id) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";

impl NewAudit {
    /// The team the row is about: its details' top-level `"team_id"` (the column a team's
    /// activity is read by, `audit_log_team_idx`).
    pub fn team_id(&self) -> Option<Uuid> {
        self.details
            .get("team_id")
            .and_then(|t| t.as_str())
            .and_then(|t| Uuid::try_parse(t).ok())
    }
}

/// Binds a `NewAudit` to `INSERT_AUDIT` as row `$id`, written by `$store`'s instance.
macro_rules! bind_audit {
    ($store:expr, $audit:expr, $id:expr) => {
        sqlx::query($crate::store::audit::INSERT_AUDIT)
            .bind($id)
            .bind(&$audit.actor)
            .bind($audit.action)
            .bind($audit.user_id)
            .bind(&$audit.target_email)
            .bind(&$audit.reason)
            .bind($audit.details.to_string())
            .bind($audit.now)
            .bind(&*$store.instance)
            .bind($audit.team_id())
    };
}
pub(crate) use bind_audit;

/// Writes `$audit` (a `&NewAudit`) in the transaction `$tx`, and the events it raises to the
/// outbox of its team's event streams (`enqueue_events!`) in the same transaction.
/// Every audit row is written here.
macro_rules! write_audit {
    ($store:expr, $tx:ident, $audit:expr) => {{
        let audit: &$crate::store::audit::NewAudit = $audit;
        let id = uuid::Uuid::now_v7();
        $crate::store::audit::bind_audit!($store, audit, id)
            .execute(&mut *$tx)
            .await?;
        if let Some(team_id) = audit.team_id() {
            let events =
                $crate::store::audit::NewStreamEvent::of_audit(id, audit, &$store.instance);
            $crate::store::audit::enqueue_events!($tx, team_id, &events);
        }
    }};
}
pub(crate) use write_audit;

/// Writes `$audit` (an `Option<&NewAudit>`) in the transaction `$tx`, then commits it: a change
/// and its audit row land together or not at all.
macro_rules! commit_audited {
    ($store:expr, $tx:ident, $audit:expr) => {{
        if let Some(audit) = $audit {
            $crate::store::audit::write_audit!($store, $tx, audit);
        }
        $tx.commit().await?;
    }};
}
pub(crate) use commit_audited;

pub(crate) const AUDIT_COLUMNS: &str =
    "id, actor, action, user_id, target_email, reason, details, created_at, instance";

impl Store {
    /// Writes `audit` alone, with the events it raises, in one transaction.
    pub async fn record_audit(&self, audit: &NewAudit) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = super::begin::begin(p).await?;
            write_audit!(self, tx, audit);
            tx.commit().await
        })
    }

    /// Writes `audits`, with the events they raise, in one transaction (a bulk load's rows).
    pub async fn record_audits(&self, audits: &[NewAudit]) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = super::begin::begin(p).await?;
            for audit in audits {
                write_audit!(self, tx, audit);
            }
            tx.commit().await
        })
    }

    /// The trail of one account, newest first: by id, and by address for what outlived it.
    pub async fn audit_of(
        &self,
        user_id: Option<Uuid>,
        email: &str,
        limit: i64,
    ) -> Result<Vec<AuditRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {AUDIT_COLUMNS} FROM audit_log WHERE user_id = $1 OR target_email = $2 \
             ORDER BY created_at DESC, id DESC LIMIT $3"
        );
        dispatch!(self, |p| sqlx::query_as::<_, AuditRow>(&sql)
            .bind(user_id)
            .bind(email)
            .bind(limit)
            .fetch_all(p)
            .await)
    }

    /// The whole trail, newest first.
    pub async fn audit_log(&self, limit: i64) -> Result<Vec<AuditRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {AUDIT_COLUMNS} FROM audit_log ORDER BY created_at DESC, id DESC LIMIT $1"
        );
        dispatch!(self, |p| sqlx::query_as::<_, AuditRow>(&sql)
            .bind(limit)
            .fetch_all(p)
            .await)
    }
}

/// One event for the outbox: what `enqueue_events!` writes for each stream subscribed to it.
#[derive(Clone, Debug)]
pub struct NewStreamEvent {
    pub id: String,
    pub event_type: &'static str,
    /// The event as JSON (`closewise_domain::streams::Event::to_json`).
    pub payload: String,
    pub created_ms: i64,
}

impl NewStreamEvent {
    /// The events an audit row raises: itself (`audit`) and the webhook event of its action, if
    /// any. The audit event's data is the row as the activity export has it.
    pub fn of_audit(id: Uuid, audit: &NewAudit, instance: &str) -> Vec<NewStreamEvent> {
        let Some(team_id) = audit.team_id() else {
            return Vec::new();
        };
        let row = serde_json::json!({
            "id": id,
            "team_id": team_id,
            "actor": audit.actor,
            "action": audit.action,
            "user_id": audit.user_id,
            "target_email": audit.target_email,
            "reason": audit.reason,
            "details": audit.details,
            "created_at": audit.now.format(&time::format_description::well_known::Rfc3339).unwrap_or_default(),
            "instance": instance,
        });
        Self::raised(id, audit.action, audit.now, row)
    }

    /// The same events of a row read back from the audit trail (a replay): the same ids.
    pub fn of_audit_row(team_id: Uuid, row: &AuditRow) -> Vec<NewStreamEvent> {
        let details: serde_json::Value =
            serde_json::from_str(&row.details).unwrap_or(serde_json::Value::Null);
        let data = serde_json::json!({
            "id": row.id,
            "team_id": team_id,
            "actor": row.actor,
            "action": row.action,
            "user_id": row.user_id,
            "target_email": row.target_email,
            "reason": row.reason,
            "details": details,
            "created_at": row.created_at.format(&time::format_description::well_known::Rfc3339).unwrap_or_default(),
            "instance": row.instance,
        });
        Self::raised(row.id, &row.action, row.created_at, data)
    }

    /// Audit row `id`'s event (`audit`, with `row` as its data), and its action's webhook event.
    fn raised(
        id: Uuid,
        action: &str,
        at: OffsetDateTime,
        row: serde_json::Value,
    ) -> Vec<NewStreamEvent> {
        use closewise_domain::streams::{webhook_event_of, Event, AUDIT};
        let mut out = Vec::with_capacity(2);
        let mut push = |event_type: &'static str, id: String| {
            let event = Event {
                id: id.clone(),
                event_type: event_type.into(),
                timestamp: at,
                data: row.clone(),
            };
            out.push(NewStreamEvent {
                id,
                event_type,
                payload: event.to_json().to_string(),
                created_ms: unix_ms(at),
            });
        };
        push(AUDIT, format!("evt_{}", id.simple()));
        if let Some(webhook) = webhook_event_of(action) {
            push(
                webhook,
                format!("evt_{}_{}", id.simple(), webhook.replace('.', "_")),
            );
        }
        out
    }

    /// `subscription.updated`: the team's subscription as Stripe last told it.
    pub fn subscription_updated(
        team_id: Uuid,
        record: &super::SubscriptionRecord,
        seats: u32,
        now: OffsetDateTime,
    ) -> NewStreamEvent {
        use closewise_domain::streams::Event;
        let id = format!("evt_{}", Uuid::now_v7().simple());
        let event = Event {
            id: id.clone(),
            event_type: "subscription.updated".into(),
            timestamp: now,
            data: serde_json::json!({
                "team_id": team_id,
                "subscription_id": record.subscription_id,
                "status": record.status.as_str(),
                "seats": seats,
                "cancel_at_period_end": record.cancel_at_period_end,
                "current_period_end": record.current_period_end,
            }),
        };
        NewStreamEvent {
            id,
            event_type: "subscription.updated",
            payload: event.to_json().to_string(),
            created_ms: unix_ms(now),
        }
    }

    /// The event "Send test event" sends.
    pub fn test(team_id: Uuid, stream_id: Uuid, now: OffsetDateTime) -> NewStreamEvent {
        use closewise_domain::streams::{Event, TEST_EVENT};
        let id = format!("evt_{}", Uuid::now_v7().simple());
        let event = Event {
            id: id.clone(),
            event_type: TEST_EVENT.into(),
            timestamp: now,
            data: serde_json::json!({ "team_id": team_id, "stream_id": stream_id }),
        };
        NewStreamEvent {
            id,
            event_type: TEST_EVENT,
            payload: event.to_json().to_string(),
            created_ms: unix_ms(now),
        }
    }
}

/// Writes `$events` (`&[NewStreamEvent]`) to the outbox of each of team `$team_id`'s streams
/// subscribed to them, in the transaction `$tx`. Each row takes its stream's next sequence
/// number; bumping it locks the stream's row until the transaction ends, so a stream's rows are
/// numbered in commit order and a worker never skips one still being written.
macro_rules! enqueue_events {
    ($tx:ident, $team_id:expr, $events:expr) => {{
        let events: &[$crate::store::audit::NewStreamEvent] = $events;
        if !events.is_empty() {
            let streams: Vec<(uuid::Uuid, String)> = sqlx::query_as(
                "SELECT id, events FROM event_streams WHERE team_id = $1 ORDER BY id",
            )
            .bind($team_id)
            .fetch_all(&mut *$tx)
            .await?;
            for (stream_id, subscribed) in streams {
                let subscribed: Vec<String> = serde_json::from_str(&subscribed).unwrap_or_default();
                for e in events.iter().filter(|e| {
                    e.event_type == closewise_domain::streams::TEST_EVENT
                        || subscribed.iter().any(|s| s == e.event_type)
                }) {
                    let seq: i64 = sqlx::query_scalar(
                        "UPDATE event_streams SET last_seq = last_seq + 1 WHERE id = $1 \
                         RETURNING last_seq",
                    )
                    .bind(stream_id)
                    .fetch_one(&mut *$tx)
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
                    .execute(&mut *$tx)
                    .await?;
                }
            }
        }
    }};
}
pub(crate) use enqueue_events;
