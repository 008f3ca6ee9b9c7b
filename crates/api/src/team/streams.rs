//! The team's event streams (docs/api.md, "Event streams"), the owner's: add one (an https
//! stream's signing secret shown once), list them, remove one, send a test event, rotate the
//! secret, see the last 100 deliveries, retry now, replay from a date. Each is one command of
//! `closewise_core::streams::Streams` with the caller as actor, which checks the role and audits
//! the change; adding, removing, rotating and replaying also need a recent password (step-up).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use closewise_core::actor::Actor;
use closewise_core::store::streams::DeliveryRow;
use closewise_core::streams::{StreamInput, StreamView};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;
use uuid::Uuid;

use super::no_content;
use crate::error::ApiResult;
use crate::extract::{AppJson, AuthUser};
use crate::state::AppState;

fn member(auth: &AuthUser) -> Actor {
    Actor::member(auth.user_id, &auth.email)
}

#[derive(Deserialize, ToSchema)]
#[schema(as = EventStreamRequest)]
pub struct CreateRequest {
    /// `https` (signed JSON batches), `splunk_hec` or `datadog`.
    pub kind: String,
    /// https; in development also http on this machine.
    pub url: String,
    /// The Splunk HEC token or the Datadog API key (not for `https`).
    #[serde(default)]
    pub token: Option<String>,
    /// The events to send: `audit` and the webhook events; none: all of them.
    #[serde(default)]
    pub events: Option<Vec<String>>,
}

/// A stream just added: `secret` (an https stream's `whsec_…` signing secret) is shown this once.
#[derive(Serialize, ToSchema)]
#[schema(as = EventStreamCreated)]
pub struct CreatedBody {
    pub id: Uuid,
    pub kind: String,
    pub url: String,
    pub events: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = EventStream)]
pub struct StreamBody {
    pub id: Uuid,
    pub kind: String,
    pub url: String,
    pub events: Vec<String>,
    /// `active`, `failing` (retrying on the schedule) or `paused` (failed for 3 days).
    pub status: String,
    /// Events waiting to be delivered.
    pub pending: i64,
    /// Failed attempts in a row.
    pub failures: i32,
    #[serde(with = "time::serde::rfc3339::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub next_attempt_at: Option<OffsetDateTime>,
    #[serde(with = "time::serde::rfc3339::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub paused_at: Option<OffsetDateTime>,
    /// Until when the rotated-out secret still signs beside the current one.
    #[serde(with = "time::serde::rfc3339::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub previous_secret_expires_at: Option<OffsetDateTime>,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
}

impl From<StreamView> for StreamBody {
    fn from(s: StreamView) -> Self {
        StreamBody {
            id: s.id,
            kind: s.kind,
            url: s.url,
            events: s.events,
            status: s.status.to_owned(),
            pending: s.pending,
            failures: s.failures,
            next_attempt_at: s.next_attempt_at,
            paused_at: s.paused_at,
            previous_secret_expires_at: s.previous_secret_expires_at,
            created_at: s.created_at,
        }
    }
}

#[derive(Serialize, ToSchema)]
#[schema(as = EventStreamList)]
pub struct StreamsBody {
    pub streams: Vec<StreamBody>,
}

/// One request to the destination.
#[derive(Serialize, ToSchema)]
#[schema(as = EventStreamDelivery)]
pub struct DeliveryBody {
    pub id: Uuid,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub attempted_at: OffsetDateTime,
    /// `delivered` or `failed`.
    pub status: String,
    /// How many events the request carried.
    pub events: i32,
    pub latency_ms: i64,
    /// The destination's status code; null when no answer came (or nothing was sent).
    pub response_code: Option<i32>,
    pub error: Option<String>,
    /// When a failed delivery is tried again; null once delivered or paused.
    #[serde(with = "time::serde::rfc3339::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub next_retry_at: Option<OffsetDateTime>,
}

impl From<DeliveryRow> for DeliveryBody {
    fn from(d: DeliveryRow) -> Self {
        DeliveryBody {
            id: d.id,
            attempted_at: d.attempted_at,
            status: d.status,
            events: d.events,
            latency_ms: d.latency_ms,
            response_code: d.response_code,
            error: d.error,
            next_retry_at: d.next_retry_at,
        }
    }
}

#[derive(Serialize, ToSchema)]
#[schema(as = EventStreamDeliveries)]
pub struct DeliveriesBody {
    /// The last 100, newest first.
    pub deliveries: Vec<DeliveryBody>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = EventStreamTestSent)]
pub struct TestBody {
    /// The test event's id, as the destination receives it.
    pub event_id: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = EventStreamSecret)]
pub struct SecretBody {
    /// The new `whsec_…` secret, shown this once; the previous one signs beside it for 24 hours.
    pub secret: String,
}

#[derive(Deserialize, ToSchema)]
#[schema(as = EventStreamReplayRequest)]
pub struct ReplayRequest {
    /// `YYYY-MM-DD` (midnight UTC) or an RFC 3339 time.
    pub since: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = EventStreamReplayed)]
pub struct ReplayBody {
    /// How many events were queued again.
    pub events: i64,
}

const OWNER: &str = "`forbidden_role` (the owner manages event streams)";

#[utoipa::path(post, path = "/api/team/streams", tag = "teams",
    request_body = CreateRequest,
    responses(
        (status = 201, body = CreatedBody, description = "Added; an https stream's `secret` is shown only in this answer"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (the owner manages event streams); `reauthentication_required`: the password (and a second factor, when enrolled) was not given on this session in the last 15 minutes"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`too_many_streams`: the team has 5"),
        (status = 422, body = crate::error::ErrorBody, description = "`invalid_stream_url` (not https, or not at a public address; in development http on this machine is allowed), `invalid_stream_kind`, `invalid_stream_events`, `stream_token_required`, `stream_token_not_allowed`"),
    ),
    security(("bearer" = [])))]
pub async fn create_stream(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<CreateRequest>,
) -> ApiResult<(StatusCode, AppJson<CreatedBody>)> {
    crate::auth::reauth::require_recent_password(&state, &auth).await?;
    let input = StreamInput {
        kind: body.kind,
        url: body.url,
        token: body.token,
        events: body.events,
    };
    let created = state.streams.create(&member(&auth), &input).await?;
    Ok((
        StatusCode::CREATED,
        AppJson(CreatedBody {
            id: created.stream.id,
            kind: created.stream.kind,
            url: created.stream.url,
            events: created.stream.events,
            secret: created.secret,
        }),
    ))
}

#[utoipa::path(get, path = "/api/team/streams", tag = "teams",
    responses(
        (status = 200, body = StreamsBody),
        (status = 403, body = crate::error::ErrorBody, description = OWNER),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn list_streams(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<AppJson<StreamsBody>> {
    let streams = state.streams.list(&member(&auth)).await?;
    Ok(AppJson(StreamsBody {
        streams: streams.into_iter().map(StreamBody::from).collect(),
    }))
}

#[utoipa::path(delete, path = "/api/team/streams/{id}", tag = "teams",
    params(("id" = Uuid, Path, description = "The stream's id")),
    responses(
        (status = 204, description = "Removed, with the events it was still owed"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (the owner manages event streams); `reauthentication_required`"),
        (status = 404, body = crate::error::ErrorBody, description = "`stream_not_found`, `team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn delete_stream(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let id = stream_id(&id)?;
    crate::auth::reauth::require_recent_password(&state, &auth).await?;
    state.streams.delete(&member(&auth), id).await?;
    Ok(no_content())
}

#[utoipa::path(post, path = "/api/team/streams/{id}/test", tag = "teams",
    params(("id" = Uuid, Path, description = "The stream's id")),
    responses(
        (status = 202, body = TestBody, description = "A `stream.test` event is queued for this stream, due now; its delivery shows in the deliveries"),
        (status = 403, body = crate::error::ErrorBody, description = OWNER),
        (status = 404, body = crate::error::ErrorBody, description = "`stream_not_found`, `team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn test_stream(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<(StatusCode, AppJson<TestBody>)> {
    let id = stream_id(&id)?;
    let event_id = state.streams.send_test(&member(&auth), id).await?;
    Ok((StatusCode::ACCEPTED, AppJson(TestBody { event_id })))
}

#[utoipa::path(post, path = "/api/team/streams/{id}/secret", tag = "teams",
    params(("id" = Uuid, Path, description = "The stream's id")),
    responses(
        (status = 200, body = SecretBody, description = "The new secret, shown only in this answer; the old one keeps signing beside it for 24 hours"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (the owner manages event streams); `reauthentication_required`"),
        (status = 404, body = crate::error::ErrorBody, description = "`stream_not_found`, `team_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`stream_not_signed`: a Splunk HEC or Datadog stream has no secret"),
    ),
    security(("bearer" = [])))]
pub async fn rotate_secret(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<AppJson<SecretBody>> {
    let id = stream_id(&id)?;
    crate::auth::reauth::require_recent_password(&state, &auth).await?;
    let secret = state.streams.rotate_secret(&member(&auth), id).await?;
    Ok(AppJson(SecretBody { secret }))
}

#[utoipa::path(get, path = "/api/team/streams/{id}/deliveries", tag = "teams",
    params(("id" = Uuid, Path, description = "The stream's id")),
    responses(
        (status = 200, body = DeliveriesBody),
        (status = 403, body = crate::error::ErrorBody, description = OWNER),
        (status = 404, body = crate::error::ErrorBody, description = "`stream_not_found`, `team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn deliveries(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<AppJson<DeliveriesBody>> {
    let id = stream_id(&id)?;
    let rows = state.streams.deliveries(&member(&auth), id).await?;
    Ok(AppJson(DeliveriesBody {
        deliveries: rows.into_iter().map(DeliveryBody::from).collect(),
    }))
}

#[utoipa::path(post, path = "/api/team/streams/{id}/retry", tag = "teams",
    params(("id" = Uuid, Path, description = "The stream's id")),
    responses(
        (status = 200, body = StreamBody, description = "Due now; a paused stream is resumed"),
        (status = 403, body = crate::error::ErrorBody, description = OWNER),
        (status = 404, body = crate::error::ErrorBody, description = "`stream_not_found`, `team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn retry_now(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<AppJson<StreamBody>> {
    let id = stream_id(&id)?;
    let stream = state.streams.retry_now(&member(&auth), id).await?;
    Ok(AppJson(stream.into()))
}

#[utoipa::path(post, path = "/api/team/streams/{id}/replay", tag = "teams",
    params(("id" = Uuid, Path, description = "The stream's id")),
    request_body = ReplayRequest,
    responses(
        (status = 202, body = ReplayBody, description = "The team's audit events since then (and the webhook events they raise) that the stream subscribes to, read from the audit trail, are queued again in order with their ids; Stripe's subscription.updated and test events are not replayed"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (the owner manages event streams); `reauthentication_required`"),
        (status = 404, body = crate::error::ErrorBody, description = "`stream_not_found`, `team_not_found`"),
        (status = 422, body = crate::error::ErrorBody, description = "`invalid_since`"),
    ),
    security(("bearer" = [])))]
pub async fn replay(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<String>,
    AppJson(body): AppJson<ReplayRequest>,
) -> ApiResult<(StatusCode, AppJson<ReplayBody>)> {
    let id = stream_id(&id)?;
    crate::auth::reauth::require_recent_password(&state, &auth).await?;
    let events = state
        .streams
        .replay(&member(&auth), id, &body.since)
        .await?;
    Ok((StatusCode::ACCEPTED, AppJson(ReplayBody { events })))
}

/// A stream id from the path; anything else is no such stream.
fn stream_id(raw: &str) -> ApiResult<Uuid> {
    Uuid::parse_str(raw).map_err(|_| closewise_core::streams::StreamsError::NotFound.into())
}
