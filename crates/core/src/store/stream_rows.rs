//! The rows the event stream worker reads: an outbox event owed to a destination, and one
//! delivery attempt as the team's deliveries list shows it.

use time::OffsetDateTime;
use uuid::Uuid;

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct OutboxRow {
    pub seq: i64,
    pub event_id: String,
    pub event_type: String,
    pub payload: String,
    pub created_ms: i64,
}

/// One request to a destination (or a refusal to send it).
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct DeliveryRow {
    pub id: Uuid,
    pub stream_id: Uuid,
    pub attempted_at: OffsetDateTime,
    pub events: i32,
    pub first_seq: i64,
    pub last_seq: i64,
    /// `delivered` or `failed`.
    pub status: String,
    pub response_code: Option<i32>,
    pub latency_ms: i64,
    pub error: Option<String>,
    pub next_retry_at: Option<OffsetDateTime>,
}
