//! Delivers the event streams' outboxes. Each tick takes the streams that are due; for each it
//! first takes the stream's lease in the database (`Store::lease_stream`: one conditional UPDATE,
//! alike on SQLite and PostgreSQL), so however many API replicas run a worker, one stream is
//! delivered by one of them at a time and its events leave in order. It then posts the oldest
//! undelivered events in batches of up to 100 until none is left or a request fails. A failure
//! schedules the next attempt on Svix's schedule with jitter (`streams::retry_delay`); a stream
//! failing for 3 days is paused and its team's owner mailed. Nothing is marked delivered before
//! its destination answered 2xx, so a crash or restart only ever sends a batch again (receivers
//! de-duplicate by the event id).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context};
use closewise_domain::streams::{
    body, gives_up, retry_delay, signature_header, stream_url, Event, StreamKind, BATCH_MAX,
};
use rand::Rng;
use serde_json::json;
use time::OffsetDateTime;
use tokio::sync::watch;
use uuid::Uuid;

use super::{at_ms, Streams};
use crate::actor::Actor;
use crate::mail::templates::Template;
use crate::store::mail::unix_ms;
use crate::store::stream_worker::Failure;
use crate::store::streams::{DeliveryRow, OutboxRow, StreamRow};

/// How long a stream stays with the worker that leased it before another may take it over (the
/// worker died). Renewed after each delivered batch; far longer than a request's timeout.
pub const LEASE: time::Duration = time::Duration::seconds(60);

/// A request's timeout.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// The most batches one stream sends in one tick before the others get their turn.
const BATCHES_PER_TICK: usize = 20;

/// How a request ended when it did not end 2xx.
struct Refused {
    code: Option<u16>,
    error: String,
}

#[derive(Clone)]
pub struct StreamWorker {
    streams: Streams,
    /// This worker's name on the leases it takes: its replica's instance name, unique per replica
    /// (`APP_INSTANCE`, default the host name), so that a replica restarted after a crash takes
    /// back at once the streams it held instead of waiting for their leases to lapse.
    owner: Arc<str>,
    /// Splunk's `host` and Datadog's `hostname`: the site's host.
    host: Arc<str>,
}

impl StreamWorker {
    pub fn new(streams: Streams, instance: &str, host: &str) -> Self {
        StreamWorker {
            owner: instance.into(),
            host: host.into(),
            streams,
        }
    }

    pub async fn run(self, interval: Duration, mut shutdown: watch::Receiver<bool>) {
        loop {
            if let Err(e) = self.tick().await {
                tracing::warn!(error = ?e, "event stream worker tick failed");
            }
            tokio::select! {
                _ = tokio::time::sleep(interval) => {}
                _ = shutdown.changed() => break,
            }
        }
    }

    /// Delivers what is due now, the due streams side by side; how many events were delivered.
    pub async fn tick(&self) -> anyhow::Result<usize> {
        let due = self
            .streams
            .store
            .due_streams(self.streams.clock.now(), 50)
            .await?;
        let mut set = tokio::task::JoinSet::new();
        for id in due {
            let me = self.clone();
            set.spawn(async move { me.deliver_stream(id).await });
        }
        let mut delivered = 0;
        while let Some(done) = set.join_next().await {
            match done {
                Ok(Ok(n)) => delivered += n,
                Ok(Err(e)) => tracing::warn!(error = ?e, "event stream delivery failed"),
                Err(e) => tracing::warn!(error = ?e, "event stream task failed"),
            }
        }
        Ok(delivered)
    }

    /// Sends the stream's batches while it holds the lease: how many events were delivered.
    async fn deliver_stream(&self, id: Uuid) -> anyhow::Result<usize> {
        let store = &self.streams.store;
        let now = self.streams.clock.now();
        let Some(stream) = store
            .lease_stream(id, &self.owner, now, now + LEASE)
            .await?
        else {
            return Ok(0); // another worker has it, or it is no longer due
        };
        // The URL checked and its host resolved once per pass: every address public (in
        // production), the connection pinned to them.
        let target = self.client_for(&stream.url).await;
        let mut delivered = 0;
        for _ in 0..BATCHES_PER_TICK {
            let batch = store.pending_stream_events(id, BATCH_MAX as i64).await?;
            let (Some(first), Some(last)) = (batch.first(), batch.last()) else {
                break;
            };
            let (first_seq, last_seq) = (first.seq, last.seq);
            let started = Instant::now();
            let outcome = match &target {
                Ok((client, url)) => self.send(client, url, &stream, &batch).await,
                Err(e) => Err(Refused {
                    code: None,
                    error: format!("{e:#}"),
                }),
            };
            let latency_ms = i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX);
            let now = self.streams.clock.now();
            let mut delivery = DeliveryRow {
                id: Uuid::now_v7(),
                stream_id: id,
                attempted_at: now,
                events: i32::try_from(batch.len()).unwrap_or(i32::MAX),
                first_seq,
                last_seq,
                status: "delivered".into(),
                response_code: None,
                latency_ms,
                error: None,
                next_retry_at: None,
            };
            match outcome {
                Ok(code) => {
                    delivery.response_code = Some(i32::from(code));
                    if !store
                        .stream_delivered(&self.owner, &delivery, now + LEASE)
                        .await?
                    {
                        return Ok(delivered); // the lease ran out and another worker took it
                    }
                    delivered += batch.len();
                }
                Err(refused) => {
                    delivery.status = "failed".into();
                    delivery.response_code = refused.code.map(i32::from);
                    delivery.error = Some(refused.error.clone());
                    self.failed(&stream, &mut delivery, &refused.error, now)
                        .await?;
                    return Ok(delivered);
                }
            }
        }
        store.release_stream(id, &self.owner).await?;
        Ok(delivered)
    }

    /// Records a failed attempt: the next one on the schedule, or the stream paused (failing for
    /// 3 days), its owner mailed and the pause audited.
    async fn failed(
        &self,
        stream: &StreamRow,
        delivery: &mut DeliveryRow,
        error: &str,
        now: OffsetDateTime,
    ) -> anyhow::Result<()> {
        let store = &self.streams.store;
        let failures = stream.failures.saturating_add(1);
        let failing_since_ms = stream.failing_since_ms.unwrap_or(unix_ms(now));
        let failing_since = at_ms(failing_since_ms).unwrap_or(now);
        let give_up = gives_up(failing_since, now);
        let next = now + retry_delay(failures.unsigned_abs(), rand::thread_rng().gen::<f64>());
        let mut failure = Failure {
            failures,
            failing_since_ms,
            next_attempt_ms: unix_ms(next),
            pause: None,
        };
        if !give_up {
            delivery.next_retry_at = Some(next);
            store.stream_failed(&self.owner, delivery, &failure).await?;
            return Ok(());
        }
        let team = store.admin_team(stream.team_id).await?;
        let (team_name, owner_email) = team
            .map(|t| (t.team.name, t.owner_email))
            .unwrap_or_default();
        let mail = self.streams.mail.compose(
            &owner_email,
            Template::TeamStreamPaused {
                team: team_name,
                url: stream.url.clone(),
                error: error.to_owned(),
                link: self.streams.mail.page("/team#team-streams"),
            },
            now,
        );
        let details = json!({
            "team_id": stream.team_id, "stream_id": stream.id, "url": stream.url,
            "failing_since": failing_since.format(&time::format_description::well_known::Rfc3339)?,
            "error": error,
        });
        let audit = Actor::System {
            job: "event streams",
        }
        .audit("team.stream_pause", None, None, details, now);
        failure.pause = Some((now, &mail, &audit));
        store.stream_failed(&self.owner, delivery, &failure).await?;
        Ok(())
    }

    /// Posts one batch: the destination's status code when it is 2xx.
    async fn send(
        &self,
        client: &reqwest::Client,
        url: &url::Url,
        stream: &StreamRow,
        batch: &[OutboxRow],
    ) -> Result<u16, Refused> {
        let refused = |code: Option<u16>, error: String| Refused { code, error };
        let kind = StreamKind::parse(&stream.kind)
            .map_err(|_| refused(None, "unknown stream kind".into()))?;
        let events: Vec<Event> = batch
            .iter()
            .filter_map(|r| {
                serde_json::from_str(&r.payload)
                    .ok()
                    .and_then(|v| Event::from_json(&v))
            })
            .collect();
        let (payload, content_type) = body(kind, &events, &self.host);
        let mut request = client
            .post(url.clone())
            .header("content-type", content_type)
            .header("user-agent", "Closewise-Streams/1");
        let open = |sealed: &str| {
            self.streams
                .secrets
                .open(stream.id, sealed)
                .ok()
                .and_then(|b| String::from_utf8(b).ok())
        };
        match kind {
            StreamKind::Https => {
                let now = self.streams.clock.now();
                let mut secrets: Vec<String> = stream
                    .secret
                    .as_deref()
                    .and_then(open)
                    .into_iter()
                    .collect();
                if stream
                    .previous_secret_until_ms
                    .is_some_and(|until| until > unix_ms(now))
                {
                    secrets.extend(stream.previous_secret.as_deref().and_then(open));
                }
                let id = format!(
                    "msg_{}_{}_{}",
                    stream.id.simple(),
                    batch.first().map_or(0, |r| r.seq),
                    batch.last().map_or(0, |r| r.seq)
                );
                let timestamp = now.unix_timestamp();
                let refs: Vec<&str> = secrets.iter().map(String::as_str).collect();
                request = request
                    .header("webhook-id", &id)
                    .header("webhook-timestamp", timestamp.to_string())
                    .header(
                        "webhook-signature",
                        signature_header(&refs, &id, timestamp, &payload),
                    );
            }
            StreamKind::SplunkHec | StreamKind::Datadog => {
                let token = stream
                    .token
                    .as_deref()
                    .and_then(open)
                    .ok_or_else(|| refused(None, "the stream's token cannot be read".into()))?;
                request = if kind == StreamKind::SplunkHec {
                    request.header("authorization", format!("Splunk {token}"))
                } else {
                    request.header("dd-api-key", token)
                };
            }
        }
        let answer = request.body(payload).send().await.map_err(|e| {
            refused(
                None,
                format!("cannot reach the destination: {}", without_url(&e)),
            )
        })?;
        let code = answer.status().as_u16();
        if answer.status().is_success() {
            Ok(code)
        } else {
            Err(refused(
                Some(code),
                format!("the destination answered {code}"),
            ))
        }
    }

    /// A client for one request to `raw`: the URL checked under the reach, its host resolved now
    /// and every address checked, the connection pinned to those addresses; no redirects.
    async fn client_for(&self, raw: &str) -> anyhow::Result<(reqwest::Client, url::Url)> {
        let reach = self.streams.reach;
        let checked = stream_url(raw, reach).map_err(|e| anyhow!("{e}"))?;
        let url = url::Url::parse(&checked).context("the stream's URL")?;
        let mut builder = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .redirect(reqwest::redirect::Policy::none());
        if let Some(url::Host::Domain(name)) = url.host() {
            let port = url.port_or_known_default().unwrap_or(443);
            let addrs: Vec<SocketAddr> = tokio::net::lookup_host((name, port))
                .await
                .with_context(|| format!("cannot resolve {name}"))?
                .collect();
            if addrs.is_empty() {
                return Err(anyhow!("{name} resolves to no address"));
            }
            if addrs.iter().any(|a| !reach.allows(a.ip())) {
                return Err(anyhow!(
                    "{name} resolves to an address that is not public: nothing was sent"
                ));
            }
            builder = builder.resolve_to_addrs(name, &addrs);
        }
        let client = builder.build().context("a reqwest client with rustls")?;
        Ok((client, url))
    }
}

/// A reqwest error's cause without the URL (it may carry a token in its query).
fn without_url(e: &reqwest::Error) -> String {
    let kind = if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "connection failed"
    } else {
        "request failed"
    };
    kind.to_owned()
}
