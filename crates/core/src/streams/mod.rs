//! Event streams (docs/api.md, "Event streams"): the team owner's destinations for the team's
//! audit events and webhook events — a signed https endpoint, Splunk HEC or Datadog — at most 5
//! per team. Events reach a stream's outbox in the transaction of the change that raised them
//! (`store::audit::write_audit!`); [`worker::StreamWorker`] delivers them in order, in batches,
//! retrying on Svix's schedule for up to 3 days before it pauses the stream and mails the owner.

use closewise_domain::sso::ProviderReach;
use closewise_domain::streams::{
    check_token, format_secret, parse_events, stream_url, StreamKind, StreamRuleError, MAX_STREAMS,
    SECRET_OVERLAP,
};
use closewise_domain::teams::{may, Action};
use rand::RngCore;
use serde_json::json;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::actor::Actor;
use crate::clock::Clock;
use crate::mail::Composer;
use crate::mfa::SecretBox;
use crate::store::audit::NewStreamEvent;
use crate::store::mail::unix_ms;
use crate::store::streams::{DeliveryRow, NewStream, StreamRow, DELIVERIES_KEPT};
use crate::store::Store;
use crate::teams::acting::acting_on;
use crate::teams::TeamsError;

pub mod worker;

#[derive(Debug, thiserror::Error)]
pub enum StreamsError {
    #[error(transparent)]
    Teams(#[from] TeamsError),
    #[error("{0}")]
    Rule(#[from] StreamRuleError),
    #[error("A team has at most 5 event streams. Delete one first.")]
    TooMany,
    #[error("There is no such event stream.")]
    NotFound,
    #[error("Only an https stream is signed: it alone has a secret to rotate.")]
    NotSigned,
    #[error("since must be a date (YYYY-MM-DD) or an RFC 3339 time, not in the future.")]
    InvalidSince,
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

impl StreamsError {
    pub fn code(&self) -> &'static str {
        match self {
            StreamsError::Teams(t) => t.code(),
            StreamsError::Rule(StreamRuleError::InvalidKind) => "invalid_stream_kind",
            StreamsError::Rule(StreamRuleError::InvalidUrl) => "invalid_stream_url",
            StreamsError::Rule(StreamRuleError::InvalidEvents) => "invalid_stream_events",
            StreamsError::Rule(StreamRuleError::TokenRequired) => "stream_token_required",
            StreamsError::Rule(StreamRuleError::TokenNotAllowed) => "stream_token_not_allowed",
            StreamsError::TooMany => "too_many_streams",
            StreamsError::NotFound => "stream_not_found",
            StreamsError::NotSigned => "stream_not_signed",
            StreamsError::InvalidSince => "invalid_since",
            StreamsError::Database(_) => "internal",
        }
    }
}

/// What the owner asks for.
#[derive(Clone, Debug, Default)]
pub struct StreamInput {
    pub kind: String,
    pub url: String,
    pub token: Option<String>,
    pub events: Option<Vec<String>>,
}

/// A stream's state: `active`, `failing` (retrying), `paused` (failed for 3 days).
#[derive(Clone, Debug)]
pub struct StreamView {
    pub id: Uuid,
    pub kind: String,
    pub url: String,
    pub events: Vec<String>,
    pub status: &'static str,
    /// Events waiting for it.
    pub pending: i64,
    /// Failed attempts in a row.
    pub failures: i32,
    pub next_attempt_at: Option<OffsetDateTime>,
    pub paused_at: Option<OffsetDateTime>,
    /// Until when the rotated-out secret still signs beside the current one.
    pub previous_secret_expires_at: Option<OffsetDateTime>,
    pub created_at: OffsetDateTime,
}

/// A stream just added: an https stream's signing secret is shown this once.
#[derive(Clone, Debug)]
pub struct CreatedStream {
    pub stream: StreamView,
    pub secret: Option<String>,
}

fn at_ms(ms: i64) -> Option<OffsetDateTime> {
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000).ok()
}

fn view(s: StreamRow, pending: i64, now: OffsetDateTime) -> StreamView {
    let status = if s.paused_at.is_some() {
        "paused"
    } else if s.failures > 0 {
        "failing"
    } else {
        "active"
    };
    StreamView {
        id: s.id,
        kind: s.kind,
        url: s.url,
        events: serde_json::from_str(&s.events).unwrap_or_default(),
        status,
        pending,
        failures: s.failures,
        next_attempt_at: (s.failures > 0 && s.paused_at.is_none())
            .then(|| at_ms(s.next_attempt_ms))
            .flatten(),
        paused_at: s.paused_at,
        previous_secret_expires_at: s
            .previous_secret_until_ms
            .filter(|&until| until > unix_ms(now))
            .and_then(at_ms),
        created_at: s.created_at,
    }
}

/// A new signing secret (`whsec_…`).
fn new_secret() -> String {
    let mut key = [0u8; 24];
    rand::thread_rng().fill_bytes(&mut key);
    format_secret(&key)
}

/// `YYYY-MM-DD` (midnight UTC) or an RFC 3339 time, not after `now`.
pub fn parse_since(raw: &str, now: OffsetDateTime) -> Result<OffsetDateTime, StreamsError> {
    let raw = raw.trim();
    let at = OffsetDateTime::parse(raw, &time::format_description::well_known::Rfc3339)
        .ok()
        .or_else(|| {
            let fmt = time::macros::format_description!("[year]-[month]-[day]");
            time::Date::parse(raw, &fmt)
                .ok()
                .map(|d| d.midnight().assume_utc())
        })
        .ok_or(StreamsError::InvalidSince)?;
    if at > now {
        return Err(StreamsError::InvalidSince);
    }
    Ok(at)
}

#[derive(Clone)]
pub struct Streams {
    pub(crate) store: Store,
    pub(crate) clock: Clock,
    pub(crate) mail: Composer,
    /// Seals tokens and signing secrets at rest (the stream's id as associated data).
    pub(crate) secrets: SecretBox,
    /// Which addresses events may be posted to.
    pub(crate) reach: ProviderReach,
}

impl Streams {
    pub fn new(
        store: Store,
        clock: Clock,
        mail: Composer,
        secrets: SecretBox,
        reach: ProviderReach,
    ) -> Self {
        Streams {
            store,
            clock,
            mail,
            secrets,
            reach,
        }
    }

    /// The team whose streams `actor` manages (the owner's).
    async fn team(&self, actor: &Actor) -> Result<Uuid, StreamsError> {
        let (team_id, role) = acting_on(&self.store, actor, None, Action::ManageStreams)
            .await?
            .ok_or(TeamsError::TeamNotFound)?;
        if !may(role, Action::ManageStreams) {
            return Err(TeamsError::ForbiddenRole.into());
        }
        Ok(team_id)
    }

    async fn stream(&self, team_id: Uuid, id: Uuid) -> Result<StreamRow, StreamsError> {
        self.store
            .team_stream(team_id, id)
            .await?
            .ok_or(StreamsError::NotFound)
    }

    /// Adds a stream; an https one gets its signing secret, answered this once.
    pub async fn create(
        &self,
        actor: &Actor,
        input: &StreamInput,
    ) -> Result<CreatedStream, StreamsError> {
        let kind = StreamKind::parse(&input.kind)?;
        let url = stream_url(&input.url, self.reach)?;
        let events = parse_events(input.events.as_deref())?;
        let token = input
            .token
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty());
        check_token(kind, token)?;
        let team_id = self.team(actor).await?;
        let id = Uuid::now_v7();
        let now = self.clock.now();
        let secret = (kind == StreamKind::Https).then(new_secret);
        let sealed_secret = secret.as_ref().map(|s| self.secrets.seal(id, s.as_bytes()));
        let sealed_token = token.map(|t| self.secrets.seal(id, t.as_bytes()));
        let events_json = serde_json::to_string(&events).unwrap_or_else(|_| "[]".into());
        let details = json!({
            "team_id": team_id, "stream_id": id, "kind": kind.as_str(), "url": url,
            "events": events,
        });
        let audit = actor.audit("team.stream_create", None, None, details, now);
        let added = self
            .store
            .insert_stream(
                &NewStream {
                    id,
                    team_id,
                    kind: kind.as_str(),
                    url: &url,
                    token: sealed_token.as_deref(),
                    secret: sealed_secret.as_deref(),
                    events: &events_json,
                    created_by: actor.user_id(),
                    now,
                },
                MAX_STREAMS as i64,
                &audit,
            )
            .await?;
        if !added {
            return Err(StreamsError::TooMany);
        }
        let row = self.stream(team_id, id).await?;
        Ok(CreatedStream {
            stream: view(row, 0, now),
            secret,
        })
    }

    /// The team's streams, oldest first.
    pub async fn list(&self, actor: &Actor) -> Result<Vec<StreamView>, StreamsError> {
        self.operator_view(self.team(actor).await?).await
    }

    /// Team `team_id`'s streams, oldest first, as an operator sees them (the CLI's `teams
    /// streams list`): never a secret or token.
    pub async fn operator_view(&self, team_id: Uuid) -> Result<Vec<StreamView>, StreamsError> {
        let now = self.clock.now();
        Ok(self
            .store
            .team_streams(team_id)
            .await?
            .into_iter()
            .map(|r| view(r.stream, r.pending, now))
            .collect())
    }

    /// Removes a stream and what it was still owed.
    pub async fn delete(&self, actor: &Actor, id: Uuid) -> Result<(), StreamsError> {
        let team_id = self.team(actor).await?;
        let details = json!({ "team_id": team_id, "stream_id": id });
        let audit = actor.audit("team.stream_delete", None, None, details, self.clock.now());
        if !self.store.delete_stream(team_id, id, &audit).await? {
            return Err(StreamsError::NotFound);
        }
        Ok(())
    }

    /// "Send test event": a `stream.test` event queued for this stream only, due now; its id.
    pub async fn send_test(&self, actor: &Actor, id: Uuid) -> Result<String, StreamsError> {
        let team_id = self.team(actor).await?;
        self.stream(team_id, id).await?;
        let event = NewStreamEvent::test(team_id, id, self.clock.now());
        self.store
            .enqueue_stream_events(team_id, Some(id), std::slice::from_ref(&event))
            .await?;
        Ok(event.id)
    }

    /// A new signing secret, answered this once; the current one keeps signing beside it for
    /// 24 hours (`SECRET_OVERLAP`).
    pub async fn rotate_secret(&self, actor: &Actor, id: Uuid) -> Result<String, StreamsError> {
        let team_id = self.team(actor).await?;
        let stream = self.stream(team_id, id).await?;
        if stream.kind != StreamKind::Https.as_str() {
            return Err(StreamsError::NotSigned);
        }
        let now = self.clock.now();
        let secret = new_secret();
        let sealed = self.secrets.seal(id, secret.as_bytes());
        let details = json!({ "team_id": team_id, "stream_id": id });
        let audit = actor.audit("team.stream_secret_rotate", None, None, details, now);
        if !self
            .store
            .rotate_stream_secret(team_id, id, &sealed, now + SECRET_OVERLAP, &audit)
            .await?
        {
            return Err(StreamsError::NotFound);
        }
        Ok(secret)
    }

    /// The stream's last 100 deliveries, newest first.
    pub async fn deliveries(
        &self,
        actor: &Actor,
        id: Uuid,
    ) -> Result<Vec<DeliveryRow>, StreamsError> {
        self.operator_deliveries(self.team(actor).await?, id).await
    }

    /// The last 100 deliveries of team `team_id`'s stream `id`, newest first (the CLI's `teams
    /// streams deliveries`).
    pub async fn operator_deliveries(
        &self,
        team_id: Uuid,
        id: Uuid,
    ) -> Result<Vec<DeliveryRow>, StreamsError> {
        self.stream(team_id, id).await?;
        Ok(self.store.stream_deliveries(id, DELIVERIES_KEPT).await?)
    }

    /// "Retry now": the stream is due at once, resumed when it was paused.
    pub async fn retry_now(&self, actor: &Actor, id: Uuid) -> Result<StreamView, StreamsError> {
        let team_id = self.team(actor).await?;
        let now = self.clock.now();
        let details = json!({ "team_id": team_id, "stream_id": id });
        let audit = actor.audit("team.stream_retry", None, None, details, now);
        if !self
            .store
            .retry_stream_now(team_id, id, now, &audit)
            .await?
        {
            return Err(StreamsError::NotFound);
        }
        let row = self.stream(team_id, id).await?;
        let pending = self
            .store
            .team_streams(team_id)
            .await?
            .into_iter()
            .find(|r| r.stream.id == id)
            .map_or(0, |r| r.pending);
        Ok(view(row, pending, now))
    }

    /// Queues again the stream's events raised since `since`, in their order: how many.
    pub async fn replay(&self, actor: &Actor, id: Uuid, since: &str) -> Result<i64, StreamsError> {
        let now = self.clock.now();
        let since = parse_since(since, now)?;
        let team_id = self.team(actor).await?;
        let details = json!({
            "team_id": team_id, "stream_id": id,
            "since": since.format(&time::format_description::well_known::Rfc3339).unwrap_or_default(),
        });
        let audit = actor.audit("team.stream_replay", None, None, details, now);
        self.store
            .replay_stream(team_id, id, since, &audit)
            .await?
            .ok_or(StreamsError::NotFound)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn since_is_a_date_or_a_time_not_in_the_future() {
        let now = OffsetDateTime::from_unix_timestamp(1_800_000_000).unwrap();
        assert_eq!(
            parse_since("2026-01-02", now).unwrap(),
            time::macros::datetime!(2026-01-02 0:00 UTC)
        );
        assert!(parse_since("2026-01-02T03:04:05Z", now).is_ok());
        assert!(parse_since("2099-01-01", now).is_err());
        assert!(parse_since("yesterday", now).is_err());
    }
}
