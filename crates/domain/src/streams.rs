//! Event streams: a team's audit events and webhook events delivered to its SIEM and its systems.
//! What a destination may be (kind, URL, events), which events an audit action raises, the retry
//! schedule, the Standard Webhooks signature, and the three wire formats (a signed JSON batch,
//! Splunk HEC's event protocol, Datadog's logs intake).

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use hmac::{Hmac, Mac};
use serde_json::{json, Value};
use sha2::Sha256;
use time::{Duration, OffsetDateTime};

use crate::sso::{provider_url, IssuerError, ProviderReach};

/// The most destinations a team may have.
pub const MAX_STREAMS: usize = 5;

/// How long a rotated-out signing secret keeps signing beside the new one.
pub const SECRET_OVERLAP: Duration = Duration::hours(24);

/// How long a destination may keep failing before it is paused and the owner mailed.
pub const GIVE_UP_AFTER: Duration = Duration::days(3);

/// The most events one request carries (Datadog's intake takes at most 1000 per array).
pub const BATCH_MAX: usize = 100;

/// The prefix of a signing secret (Standard Webhooks).
pub const SECRET_PREFIX: &str = "whsec_";

/// Where a stream's events go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamKind {
    /// A generic endpoint: JSON batches signed with the Standard Webhooks scheme.
    Https,
    /// Splunk's HTTP Event Collector (`Authorization: Splunk <token>`).
    SplunkHec,
    /// Datadog's logs intake (`DD-API-KEY`).
    Datadog,
}

impl StreamKind {
    pub fn parse(raw: &str) -> Result<Self, StreamRuleError> {
        match raw.trim() {
            "https" => Ok(StreamKind::Https),
            "splunk_hec" => Ok(StreamKind::SplunkHec),
            "datadog" => Ok(StreamKind::Datadog),
            _ => Err(StreamRuleError::InvalidKind),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            StreamKind::Https => "https",
            StreamKind::SplunkHec => "splunk_hec",
            StreamKind::Datadog => "datadog",
        }
    }

    /// Splunk and Datadog authenticate with the customer's token; an https stream is signed.
    pub fn needs_token(self) -> bool {
        self != StreamKind::Https
    }
}

/// Every audit event of the team.
pub const AUDIT: &str = "audit";

/// The events a stream may subscribe to: the audit trail and the webhook events.
pub const EVENT_TYPES: [&str; 7] = [
    AUDIT,
    "member.added",
    "member.removed",
    "seats.changed",
    "subscription.updated",
    "policy.updated",
    "sso.updated",
];

/// The event a "Send test event" action sends; every stream receives it whatever it subscribes to.
pub const TEST_EVENT: &str = "stream.test";

/// The webhook event an audit action raises, if any.
pub fn webhook_event_of(action: &str) -> Option<&'static str> {
    Some(match action {
        "team.invite_accept"
        | "team.join_approve"
        | "team.domain_join"
        | "team.scim.member_add" => "member.added",
        "team.member_remove" | "team.leave" | "team.scim.member_remove" => "member.removed",
        "team.seats" => "seats.changed",
        "team.interval" => "subscription.updated",
        "team.policy" | "team.mfa_policy" => "policy.updated",
        "team.sso.save" | "team.sso.disable" | "team.sso.delete" | "team.sso.metadata_refresh" => {
            "sso.updated"
        }
        _ => return None,
    })
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StreamRuleError {
    #[error("kind must be one of https, splunk_hec or datadog.")]
    InvalidKind,
    /// Not an https URL (or http on this machine, in development), or not a public address.
    #[error("The destination must be an https URL at a public address.")]
    InvalidUrl,
    #[error("Unknown event type: events are audit, member.added, member.removed, seats.changed, subscription.updated, policy.updated and sso.updated.")]
    InvalidEvents,
    #[error("Splunk HEC and Datadog destinations need their token.")]
    TokenRequired,
    #[error("An https destination is signed with its own secret: it takes no token.")]
    TokenNotAllowed,
}

/// The URL events may be posted to under `reach`: https (or http on a loopback host in
/// development), no credentials, an IP literal public in production. A host name's addresses are
/// checked at each delivery, once resolved (`ProviderReach::allows`).
pub fn stream_url(raw: &str, reach: ProviderReach) -> Result<String, StreamRuleError> {
    if raw.trim().len() > 2048 {
        return Err(StreamRuleError::InvalidUrl);
    }
    match provider_url(raw, reach) {
        Ok(url) if url.fragment().is_none() => Ok(url.to_string()),
        Ok(_) | Err(IssuerError::Invalid | IssuerError::NotHttps | IssuerError::NotPublic) => {
            Err(StreamRuleError::InvalidUrl)
        }
    }
}

/// The events a stream subscribes to: the listed ones, de-duplicated in [`EVENT_TYPES`]' order;
/// none listed (absent or empty): all of them.
pub fn parse_events(raw: Option<&[String]>) -> Result<Vec<String>, StreamRuleError> {
    let raw = raw.unwrap_or_default();
    if raw.iter().any(|e| !EVENT_TYPES.contains(&e.trim())) {
        return Err(StreamRuleError::InvalidEvents);
    }
    let chosen: Vec<String> = EVENT_TYPES
        .iter()
        .filter(|t| raw.is_empty() || raw.iter().any(|e| e.trim() == **t))
        .map(|t| (*t).to_owned())
        .collect();
    Ok(chosen)
}

/// Whether a token is given when the kind needs one (and only then).
pub fn check_token(kind: StreamKind, token: Option<&str>) -> Result<(), StreamRuleError> {
    let token = token.map(str::trim).filter(|t| !t.is_empty());
    match (kind.needs_token(), token) {
        (true, None) => Err(StreamRuleError::TokenRequired),
        (false, Some(_)) => Err(StreamRuleError::TokenNotAllowed),
        (true, Some(t)) if t.len() > 512 => Err(StreamRuleError::TokenRequired),
        _ => Ok(()),
    }
}

/// Svix's published schedule: the wait after the 1st, 2nd … failed attempt; the last one repeats
/// until the destination has failed for [`GIVE_UP_AFTER`].
pub const RETRY_SCHEDULE: [Duration; 7] = [
    Duration::seconds(5),
    Duration::minutes(5),
    Duration::minutes(30),
    Duration::hours(2),
    Duration::hours(5),
    Duration::hours(10),
    Duration::hours(10),
];

/// The wait after `failures` consecutive failed attempts (1 or more), spread by `jitter` in
/// [0, 1): between 80 % and 120 % of the schedule's step, so destinations that failed together do
/// not all come back at once.
pub fn retry_delay(failures: u32, jitter: f64) -> Duration {
    let step = RETRY_SCHEDULE[(failures.max(1) as usize - 1).min(RETRY_SCHEDULE.len() - 1)];
    let factor = 0.8 + 0.4 * jitter.clamp(0.0, 0.999_999);
    Duration::milliseconds((step.whole_milliseconds() as f64 * factor) as i64)
}

/// Whether a destination failing since `failing_since` is given up on (paused) at `now`.
pub fn gives_up(failing_since: OffsetDateTime, now: OffsetDateTime) -> bool {
    now - failing_since >= GIVE_UP_AFTER
}

/// `whsec_` and 24 random bytes in base64: the form Standard Webhooks libraries read.
pub fn format_secret(key: &[u8; 24]) -> String {
    format!("{SECRET_PREFIX}{}", STANDARD.encode(key))
}

/// One `v1,<base64>` signature of `id.timestamp.body` under a `whsec_` secret; None when the
/// secret is not one.
pub fn sign(secret: &str, id: &str, timestamp: i64, body: &str) -> Option<String> {
    let key = STANDARD.decode(secret.strip_prefix(SECRET_PREFIX)?).ok()?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).ok()?;
    mac.update(format!("{id}.{timestamp}.{body}").as_bytes());
    Some(format!(
        "v1,{}",
        STANDARD.encode(mac.finalize().into_bytes())
    ))
}

/// The `webhook-signature` header: one signature per live secret, space-delimited.
pub fn signature_header(secrets: &[&str], id: &str, timestamp: i64, body: &str) -> String {
    secrets
        .iter()
        .filter_map(|s| sign(s, id, timestamp, body))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One event as every format carries it.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// Stable across retries and replays: what a receiver de-duplicates by.
    pub id: String,
    pub event_type: String,
    pub timestamp: OffsetDateTime,
    pub data: Value,
}

impl Event {
    /// The Standard Webhooks payload shape: `{id, type, timestamp, data}`.
    pub fn to_json(&self) -> Value {
        json!({
            "id": self.id,
            "type": self.event_type,
            "timestamp": rfc3339(self.timestamp),
            "data": self.data,
        })
    }
}

impl Event {
    /// An event read back from its JSON ([`Event::to_json`]); None when it is not one.
    pub fn from_json(v: &Value) -> Option<Event> {
        let timestamp = OffsetDateTime::parse(
            v.get("timestamp")?.as_str()?,
            &time::format_description::well_known::Rfc3339,
        )
        .ok()?;
        Some(Event {
            id: v.get("id")?.as_str()?.to_owned(),
            event_type: v.get("type")?.as_str()?.to_owned(),
            timestamp,
            data: v.get("data").cloned().unwrap_or(Value::Null),
        })
    }
}

fn rfc3339(t: OffsetDateTime) -> String {
    t.format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

/// Where the events come from, as the SIEM formats name it.
pub const SOURCE: &str = "closewise";
/// Splunk's sourcetype and Datadog's service.
pub const SOURCETYPE: &str = "closewise:audit";

/// A request's body and content type for `kind`. `host`: our public host name (Splunk's `host`,
/// Datadog's `hostname`).
pub fn body(kind: StreamKind, events: &[Event], host: &str) -> (String, &'static str) {
    match kind {
        StreamKind::Https => {
            let batch: Vec<Value> = events.iter().map(Event::to_json).collect();
            (json!({ "events": batch }).to_string(), "application/json")
        }
        // HEC's JSON event protocol: one object per event, concatenated (no array, no commas).
        StreamKind::SplunkHec => {
            let body: String = events
                .iter()
                .map(|e| {
                    let time = e.timestamp.unix_timestamp_nanos() as f64 / 1e9;
                    json!({
                        "time": (time * 1000.0).round() / 1000.0,
                        "host": host,
                        "source": SOURCE,
                        "sourcetype": SOURCETYPE,
                        "event": e.to_json(),
                    })
                    .to_string()
                })
                .collect();
            (body, "application/json")
        }
        // Datadog's v2 logs intake: an array of log items; the message is the event's JSON.
        StreamKind::Datadog => {
            let items: Vec<Value> = events
                .iter()
                .map(|e| {
                    json!({
                        "ddsource": SOURCE,
                        "ddtags": format!("event_type:{}", e.event_type),
                        "hostname": host,
                        "message": e.to_json().to_string(),
                        "service": SOURCE,
                    })
                })
                .collect();
            (Value::Array(items).to_string(), "application/json")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(n: u8) -> Event {
        Event {
            id: format!("evt_{n}"),
            event_type: AUDIT.into(),
            timestamp: OffsetDateTime::from_unix_timestamp(1_700_000_000 + i64::from(n)).unwrap(),
            data: json!({ "action": "team.rename", "n": n }),
        }
    }

    #[test]
    fn signature_matches_the_standard_webhooks_test_vector() {
        // The specification's own example (standard-webhooks, spec/standard-webhooks.md).
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
        let body = r#"{"test": 2432232314}"#;
        assert_eq!(
            sign(secret, id, 1614265330, body).unwrap(),
            "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
        );
        let both = signature_header(&[secret, secret], id, 1614265330, body);
        assert_eq!(both.split(' ').count(), 2);
        assert!(sign("not-a-secret", id, 1, body).is_none());
    }

    #[test]
    fn retry_waits_follow_svix_schedule_within_the_jitter() {
        assert_eq!(retry_delay(1, 0.5), Duration::seconds(5));
        assert_eq!(retry_delay(2, 0.0), Duration::minutes(4));
        assert_eq!(retry_delay(3, 0.5), Duration::minutes(30));
        assert_eq!(retry_delay(7, 0.5), Duration::hours(10));
        assert_eq!(retry_delay(40, 0.5), Duration::hours(10));
        assert!(retry_delay(4, 0.999) < Duration::hours(2) * 1.2);
        assert!(!gives_up(
            OffsetDateTime::UNIX_EPOCH,
            OffsetDateTime::UNIX_EPOCH + Duration::days(3) - Duration::SECOND
        ));
        assert!(gives_up(
            OffsetDateTime::UNIX_EPOCH,
            OffsetDateTime::UNIX_EPOCH + Duration::days(3)
        ));
    }

    #[test]
    fn urls_are_https_at_public_addresses_and_loopback_http_only_in_development() {
        use ProviderReach::{Local, PublicOnly};
        assert!(stream_url("https://siem.example.com/hook", PublicOnly).is_ok());
        for bad in [
            "http://siem.example.com/hook",
            "http://127.0.0.1:9000/hook",
            "https://10.0.0.8/hook",
            "https://127.0.0.1/hook",
            "https://user:pw@siem.example.com/",
            "ftp://siem.example.com/",
            "not a url",
        ] {
            assert_eq!(
                stream_url(bad, PublicOnly),
                Err(StreamRuleError::InvalidUrl),
                "{bad}"
            );
        }
        assert!(stream_url("http://127.0.0.1:9000/hook", Local).is_ok());
        assert!(stream_url("http://localhost:9000/hook", Local).is_ok());
        assert!(stream_url("http://siem.example.com/hook", Local).is_err());
    }

    #[test]
    fn events_default_to_all_and_unknown_ones_are_refused() {
        assert_eq!(parse_events(None).unwrap().len(), EVENT_TYPES.len());
        let some = ["sso.updated".to_owned(), "audit".to_owned()];
        assert_eq!(parse_events(Some(&some)).unwrap(), ["audit", "sso.updated"]);
        let bad = ["user.created".to_owned()];
        assert_eq!(
            parse_events(Some(&bad)),
            Err(StreamRuleError::InvalidEvents)
        );
        assert_eq!(
            check_token(StreamKind::Datadog, None),
            Err(StreamRuleError::TokenRequired)
        );
        assert_eq!(
            check_token(StreamKind::Https, Some("x")),
            Err(StreamRuleError::TokenNotAllowed)
        );
    }

    #[test]
    fn audit_actions_raise_their_webhook_events() {
        assert_eq!(webhook_event_of("team.invite_accept"), Some("member.added"));
        assert_eq!(webhook_event_of("team.leave"), Some("member.removed"));
        assert_eq!(webhook_event_of("team.seats"), Some("seats.changed"));
        assert_eq!(webhook_event_of("team.sso.save"), Some("sso.updated"));
        assert_eq!(
            webhook_event_of("team.sso.metadata_refresh"),
            Some("sso.updated"),
            "the IdP's certificates changed"
        );
        assert_eq!(webhook_event_of("team.sso.metadata_failed"), None);
        assert_eq!(webhook_event_of("team.rename"), None);
    }

    #[test]
    fn splunk_hec_body_is_concatenated_event_objects() {
        let (body, _) = body(StreamKind::SplunkHec, &[event(1), event(2)], "app.test");
        let objects: Vec<Value> = serde_json::Deserializer::from_str(&body)
            .into_iter::<Value>()
            .map(Result::unwrap)
            .collect();
        assert_eq!(objects.len(), 2);
        assert!(!body.starts_with('['));
        for (o, n) in objects.iter().zip([1, 2]) {
            let mut keys: Vec<&str> = o.as_object().unwrap().keys().map(String::as_str).collect();
            keys.sort_unstable();
            assert_eq!(keys, ["event", "host", "source", "sourcetype", "time"]);
            assert_eq!(o["time"], json!(1_700_000_000.0 + f64::from(n)));
            assert_eq!(o["host"], "app.test");
            assert_eq!(o["event"]["id"], format!("evt_{n}"));
        }
    }

    #[test]
    fn datadog_body_is_an_array_of_log_items() {
        let (body, _) = body(StreamKind::Datadog, &[event(1)], "app.test");
        let items: Value = serde_json::from_str(&body).unwrap();
        let item = &items.as_array().unwrap()[0];
        let mut keys: Vec<&str> = item
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            ["ddsource", "ddtags", "hostname", "message", "service"]
        );
        let message: Value = serde_json::from_str(item["message"].as_str().unwrap()).unwrap();
        assert_eq!(message["id"], "evt_1");
        assert_eq!(item["ddtags"], "event_type:audit");
    }

    #[test]
    fn https_body_is_a_batch_of_standard_payloads() {
        let (body, kind) = body(StreamKind::Https, &[event(1), event(2)], "app.test");
        assert_eq!(kind, "application/json");
        let v: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(v["events"][1]["id"], "evt_2");
        assert_eq!(v["events"][0]["type"], "audit");
        assert_eq!(v["events"][0]["timestamp"], "2023-11-14T22:13:21Z");
        assert_eq!(Event::from_json(&v["events"][1]), Some(event(2)));
    }
}
