//! Event streams on both databases: a team's audit events and webhook events reach each
//! subscribed stream's outbox in the change's transaction and leave in order, signed (both
//! secrets during a rotation's overlap), in Splunk HEC's and Datadog's shapes; failures retry on
//! Svix's schedule with the clock and pause the stream after 3 days, mailing the owner; one
//! worker at a time holds a stream; the URL policy holds at creation and at each delivery.

use closewise_core::actor::Actor;
use closewise_core::limits::unlimited;
use closewise_core::mail::Composer;
use closewise_core::mfa::SecretBox;
use closewise_core::store::mail::MailFilter;
use closewise_core::store::Store;
use closewise_core::streams::worker::{StreamWorker, LEASE};
use closewise_core::streams::{StreamInput, Streams};
use closewise_core::teams::Teams;
use closewise_domain::sso::ProviderReach;
use closewise_domain::streams::{sign, RETRY_SCHEDULE};
use closewise_domain::teams::Role;
use closewise_testkit::services::{core_fixture, CoreFixture};
use closewise_testkit::{both, Backend};
use serde_json::Value;
use uuid::Uuid;

mod limits;
mod receiver;
mod upkeep;
use receiver::{Receiver, Request};

struct Fx {
    core: CoreFixture,
    streams: Streams,
    teams: Teams,
    key: [u8; 32],
    owner: Actor,
    receiver: Receiver,
}

fn m(id: Uuid, email: &str) -> Actor {
    Actor::member(id, email)
}

impl Fx {
    fn store(&self) -> &Store {
        &self.core.store
    }

    fn streams_with(&self, reach: ProviderReach) -> Streams {
        Streams::new(
            self.core.store.clone(),
            self.core.clock.clone(),
            Composer::new("http://app.test"),
            SecretBox::new(&self.key),
            reach,
        )
    }

    fn worker(&self, name: &str) -> StreamWorker {
        StreamWorker::new(self.streams.clone(), name, "app.test")
    }

    async fn user(&self, email: &str) -> Uuid {
        let (id, now) = (Uuid::now_v7(), self.core.clock.now());
        let sql = "INSERT INTO users (id, email, password_hash, email_confirmed_at, created_at, \
                   updated_at) VALUES ($1, $2, 'x', $3, $3, $3)";
        if self.core.url.starts_with("postgres") {
            let p = sqlx::PgPool::connect(&self.core.url).await.unwrap();
            sqlx::query(sql)
                .bind(id)
                .bind(email)
                .bind(now)
                .execute(&p)
                .await
                .unwrap();
        } else {
            let p = sqlx::SqlitePool::connect(&self.core.url).await.unwrap();
            sqlx::query(sql)
                .bind(id)
                .bind(email)
                .bind(now)
                .execute(&p)
                .await
                .unwrap();
        }
        id
    }

    async fn https(&self, events: Option<Vec<&str>>) -> (Uuid, String) {
        let created = self
            .streams
            .create(
                &self.owner,
                &StreamInput {
                    kind: "https".into(),
                    url: self.receiver.url(),
                    token: None,
                    events: events.map(|e| e.into_iter().map(String::from).collect()),
                },
            )
            .await
            .unwrap();
        (
            created.stream.id,
            created.secret.expect("an https stream's secret"),
        )
    }

    /// Ticks until nothing more is delivered now.
    async fn drain(&self, worker: &StreamWorker) -> usize {
        let mut total = 0;
        loop {
            let n = worker.tick().await.unwrap();
            if n == 0 {
                return total;
            }
            total += n;
        }
    }
}

async fn fixture(backend: Backend) -> Fx {
    let core = core_fixture(backend, "streams").await;
    let mut key = [0u8; 32];
    key[0] = 7;
    let receiver = Receiver::start().await;
    let streams = Streams::new(
        core.store.clone(),
        core.clock.clone(),
        Composer::new("http://app.test"),
        SecretBox::new(&key),
        ProviderReach::Local,
    );
    let teams = Teams::new(
        core.store.clone(),
        core.clock.clone(),
        Composer::new("http://app.test"),
        unlimited(),
    );
    let mut fx = Fx {
        core,
        streams,
        teams,
        key,
        owner: Actor::System { job: "unset" },
        receiver,
    };
    let owner = fx.user("owner@northwind.test").await;
    fx.owner = m(owner, "owner@northwind.test");
    fx.teams.create(&fx.owner, "Northwind").await.unwrap();
    let (team, _) = fx.store().membership_of(owner).await.unwrap().unwrap();
    fx.store()
        .set_team_seats(team, 10, fx.core.clock.now())
        .await
        .unwrap();
    fx
}

/// Every event of every request, in the order received.
fn events_of(requests: &[Request]) -> Vec<Value> {
    requests
        .iter()
        .flat_map(|r| {
            let v: Value = serde_json::from_str(&r.body).unwrap();
            v["events"].as_array().cloned().unwrap_or_default()
        })
        .collect()
}

fn verify(r: &Request, secret: &str) -> bool {
    let id = r.header("webhook-id").unwrap();
    let ts: i64 = r.header("webhook-timestamp").unwrap().parse().unwrap();
    let expected = sign(secret, id, ts, &r.body).unwrap();
    r.header("webhook-signature")
        .unwrap()
        .split(' ')
        .any(|s| s == expected)
}

both!(
    /// The stream's own creation, then each change's audit event and the webhook events they
    /// raise, in the order they were written, signed, each with a stable id.
    async fn changes_leave_in_order_signed_with_their_webhook_events(fx: Fx) from fixture {
        let (_, secret) = fx.https(None).await;
        for name in ["One", "Two", "Three"] {
            fx.teams.rename(&fx.owner, name).await.unwrap();
        }
        let invite = fx
            .teams
            .invite(&fx.owner, "new@northwind.test", Role::Member)
            .await
            .unwrap();
        let new = fx.user("new@northwind.test").await;
        fx.teams.accept(&m(new, "new@northwind.test"), &invite.token).await.unwrap();
        let worker = fx.worker("a");
        assert!(fx.drain(&worker).await >= 7);
        let requests = fx.receiver.requests();
        assert!(requests.iter().all(|r| verify(r, &secret)), "every request is signed");
        let events = events_of(&requests);
        let kinds: Vec<String> = events
            .iter()
            .map(|e| format!("{} {}", e["type"].as_str().unwrap(), e["data"]["action"].as_str().unwrap_or("")))
            .collect();
        assert_eq!(
            kinds,
            [
                "audit team.stream_create",
                "audit team.rename",
                "audit team.rename",
                "audit team.rename",
                "audit team.invite",
                "audit team.invite_accept",
                "member.added team.invite_accept",
            ]
        );
        assert_eq!(events[1]["data"]["details"]["name"], "One", "{}", events[1]);
        let mut ids: Vec<&str> = events.iter().map(|e| e["id"].as_str().unwrap()).collect();
        ids.dedup();
        assert_eq!(ids.len(), events.len(), "ids are unique");
        // Delivered: nothing more goes out.
        assert_eq!(fx.drain(&worker).await, 0);
        assert_eq!(fx.receiver.requests().len(), requests.len());
        let deliveries = fx.streams.deliveries(&fx.owner, fx.streams.list(&fx.owner).await.unwrap()[0].id).await.unwrap();
        assert!(deliveries.iter().all(|d| d.status == "delivered" && d.response_code == Some(200)));
    }
);

both!(
    /// A stream subscribed to webhook events only gets those; another team's changes go nowhere.
    async fn a_stream_gets_only_what_it_subscribed_to(fx: Fx) from fixture {
        fx.https(Some(vec!["member.added", "member.removed"])).await;
        fx.teams.rename(&fx.owner, "Renamed").await.unwrap();
        let invite = fx.teams.invite(&fx.owner, "x@northwind.test", Role::Member).await.unwrap();
        let x = fx.user("x@northwind.test").await;
        fx.teams.accept(&m(x, "x@northwind.test"), &invite.token).await.unwrap();
        fx.teams.leave(&m(x, "x@northwind.test")).await.unwrap();
        let other = fx.user("other@elsewhere.test").await;
        fx.teams.create(&m(other, "other@elsewhere.test"), "Elsewhere").await.unwrap();
        fx.drain(&fx.worker("a")).await;
        let types: Vec<String> = events_of(&fx.receiver.requests())
            .iter()
            .map(|e| e["type"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(types, ["member.added", "member.removed"]);
    }
);

both!(
    /// Failures wait 5 s, 5 min, 30 min… (with jitter) on the clock, then 10 h until the stream
    /// has failed for 3 days: paused, its owner mailed, the pause audited. "Retry now" resumes it
    /// and everything queued meanwhile leaves in order.
    async fn failures_follow_the_schedule_and_pause_after_three_days(fx: Fx) from fixture {
        let (id, _) = fx.https(None).await;
        fx.receiver.fail_all(true);
        let worker = fx.worker("a");
        let clock = &fx.core.clock;
        let start = clock.now();
        assert_eq!(worker.tick().await.unwrap(), 0);
        let mut waits = Vec::new();
        loop {
            let d = &fx.store().stream_deliveries(id, 1).await.unwrap()[0];
            assert_eq!((d.status.as_str(), d.response_code), ("failed", Some(500)));
            let Some(next) = d.next_retry_at else { break };
            let wait = next - clock.now();
            waits.push(wait);
            // Not before it is due…
            clock.advance(wait - time::Duration::milliseconds(10));
            let before = fx.receiver.requests().len();
            worker.tick().await.unwrap();
            assert_eq!(fx.receiver.requests().len(), before, "nothing before the retry is due");
            // …and then at once.
            clock.advance(time::Duration::milliseconds(10));
            worker.tick().await.unwrap();
            assert_eq!(fx.receiver.requests().len(), before + 1, "retried when due");
            assert!(waits.len() < 20, "gives up in the end");
        }
        for (wait, step) in waits.iter().zip(RETRY_SCHEDULE) {
            assert!(*wait >= step * 0.8 && *wait <= step * 1.2, "{wait} for {step}");
        }
        assert!(clock.now() - start >= time::Duration::days(3));
        assert!(clock.now() - start < time::Duration::days(3) + time::Duration::hours(13));
        let stream = &fx.streams.list(&fx.owner).await.unwrap()[0];
        assert_eq!(stream.status, "paused");
        let mails = fx.store().list_mail(Some("owner@northwind.test"), MailFilter::All, 10).await.unwrap();
        assert!(mails.iter().any(|m| m.kind == "team_stream_paused"), "the owner is mailed");
        // Paused: nothing is tried, whatever the clock.
        fx.teams.rename(&fx.owner, "While paused").await.unwrap();
        clock.advance(time::Duration::days(1));
        let before = fx.receiver.requests().len();
        worker.tick().await.unwrap();
        assert_eq!(fx.receiver.requests().len(), before);
        fx.receiver.fail_all(false);
        fx.streams.retry_now(&fx.owner, id).await.unwrap();
        fx.drain(&worker).await;
        let events = events_of(&fx.receiver.requests()[before..]);
        let actions: Vec<&str> = events.iter().filter_map(|e| e["data"]["action"].as_str()).collect();
        assert_eq!(actions.first(), Some(&"team.stream_create"));
        assert!(actions.ends_with(&["team.stream_pause", "team.rename", "team.stream_retry"]), "{actions:?}");
        assert_eq!(fx.streams.list(&fx.owner).await.unwrap()[0].status, "active");
    }
);

both!(
    /// The lease: while one worker holds a stream no other takes it; once it lapses another may,
    /// and the first can no longer mark anything delivered. Two workers ticking side by side
    /// deliver each event once.
    async fn one_worker_holds_a_stream_at_a_time(fx: Fx) from fixture {
        let (id, _) = fx.https(None).await;
        let now = fx.core.clock.now();
        let a = fx.store().lease_stream(id, "a", now, now + LEASE).await.unwrap();
        assert!(a.is_some());
        assert!(fx.store().lease_stream(id, "b", now, now + LEASE).await.unwrap().is_none());
        fx.core.clock.advance(LEASE);
        let later = fx.core.clock.now();
        assert!(fx.store().lease_stream(id, "b", later, later + LEASE).await.unwrap().is_some());
        fx.store().release_stream(id, "b").await.unwrap();
        for n in 0..30 {
            fx.teams.rename(&fx.owner, &format!("Name {n}")).await.unwrap();
        }
        let (w1, w2) = (fx.worker("one"), fx.worker("two"));
        let (r1, r2) = tokio::join!(w1.tick(), w2.tick());
        assert_eq!(r1.unwrap() + r2.unwrap(), 31);
        let events = events_of(&fx.receiver.requests());
        assert_eq!(events.len(), 31, "each event once");
    }
);

both!(
    /// Rotating: the new secret is answered once; for 24 hours requests carry signatures under
    /// both, then under the new one only.
    async fn rotation_signs_with_both_secrets_during_the_overlap(fx: Fx) from fixture {
        let (id, old) = fx.https(None).await;
        let new = fx.streams.rotate_secret(&fx.owner, id).await.unwrap();
        assert!(new.starts_with("whsec_") && new != old);
        let worker = fx.worker("a");
        fx.drain(&worker).await;
        let first = fx.receiver.requests().pop().unwrap();
        assert_eq!(first.header("webhook-signature").unwrap().split(' ').count(), 2);
        assert!(verify(&first, &old) && verify(&first, &new));
        let listed = &fx.streams.list(&fx.owner).await.unwrap()[0];
        assert!(listed.previous_secret_expires_at.is_some());
        fx.core.clock.advance(time::Duration::hours(24) + time::Duration::seconds(1));
        fx.teams.rename(&fx.owner, "Later").await.unwrap();
        fx.drain(&worker).await;
        let later = fx.receiver.requests().pop().unwrap();
        assert!(verify(&later, &new) && !verify(&later, &old));
        assert!(fx.streams.list(&fx.owner).await.unwrap()[0].previous_secret_expires_at.is_none());
    }
);

both!(
    /// Splunk HEC gets `Authorization: Splunk <token>` and concatenated event objects; Datadog
    /// `DD-API-KEY` and an array of log items; neither is signed.
    async fn splunk_and_datadog_get_their_formats_and_headers(fx: Fx) from fixture {
        for (kind, token) in [("splunk_hec", "hec-token"), ("datadog", "dd-key")] {
            fx.streams
                .create(&fx.owner, &StreamInput {
                    kind: kind.into(),
                    url: fx.receiver.url(),
                    token: Some(token.into()),
                    events: Some(vec!["audit".into()]),
                })
                .await
                .unwrap();
        }
        fx.teams.rename(&fx.owner, "Renamed").await.unwrap();
        fx.drain(&fx.worker("a")).await;
        let requests = fx.receiver.requests();
        let splunk: Vec<&Request> = requests.iter().filter(|r| r.header("authorization").is_some()).collect();
        let datadog: Vec<&Request> = requests.iter().filter(|r| r.header("dd-api-key").is_some()).collect();
        assert!(!splunk.is_empty() && !datadog.is_empty());
        assert!(splunk.iter().all(|r| r.header("authorization") == Some("Splunk hec-token") && r.header("webhook-signature").is_none()));
        assert!(datadog.iter().all(|r| r.header("dd-api-key") == Some("dd-key")));
        let hec: Vec<Value> = splunk
            .iter()
            .flat_map(|r| serde_json::Deserializer::from_str(&r.body).into_iter::<Value>().map(Result::unwrap).collect::<Vec<_>>())
            .collect();
        assert!(hec.iter().all(|e| e["sourcetype"] == "closewise:audit" && e["host"] == "app.test" && e["time"].is_f64()));
        assert!(hec.iter().any(|e| e["event"]["data"]["action"] == "team.rename"));
        let logs: Vec<Value> = datadog
            .iter()
            .flat_map(|r| serde_json::from_str::<Vec<Value>>(&r.body).unwrap())
            .collect();
        assert!(logs.iter().all(|l| l["ddsource"] == "closewise" && l["message"].is_string()));
        // The tokens are sealed at rest.
        let rows = fx.store().team_streams(fx.store().membership_of(fx.owner.user_id().unwrap()).await.unwrap().unwrap().0).await.unwrap();
        assert!(rows.iter().all(|r| r.stream.token.as_deref().is_some_and(|t| !t.contains("hec-token") && !t.contains("dd-key"))));
    }
);

both!(
    /// At creation: https only (http on loopback in development), never at a private address in
    /// production; at each delivery, a name resolving to a non-public address is not posted to.
    async fn the_url_policy_holds_at_creation_and_at_each_delivery(fx: Fx) from fixture {
        let production = fx.streams_with(ProviderReach::PublicOnly);
        let input = |url: &str| StreamInput { kind: "https".into(), url: url.into(), token: None, events: None };
        for bad in [fx.receiver.url(), "https://10.1.2.3/hook".into(), "ftp://siem.example/".into()] {
            let e = production.create(&fx.owner, &input(&bad)).await.unwrap_err();
            assert_eq!(e.code(), "invalid_stream_url", "{bad}");
        }
        let e = fx.streams.create(&fx.owner, &input("http://siem.example.com/")).await.unwrap_err();
        assert_eq!(e.code(), "invalid_stream_url");
        // A name is resolved at delivery: localhost is not public.
        let port = fx.receiver.port();
        let created = production.create(&fx.owner, &input(&format!("https://localhost:{port}/hook"))).await.unwrap();
        StreamWorker::new(production.clone(), "p", "app.test").tick().await.unwrap();
        assert!(fx.receiver.requests().is_empty(), "nothing is posted");
        let d = &fx.store().stream_deliveries(created.stream.id, 1).await.unwrap()[0];
        assert_eq!((d.status.as_str(), d.response_code), ("failed", None));
        assert!(d.error.as_deref().unwrap().contains("not public"), "{:?}", d.error);
    }
);

both!(
    /// At most 5 streams; the owner's alone; replay queues the team's events since a date again
    /// from the audit trail, each once, with their ids.
    async fn limits_roles_and_replay(fx: Fx) from fixture {
        let (first, _) = fx.https(None).await;
        for _ in 0..4 {
            fx.https(None).await;
        }
        let e = fx.streams.create(&fx.owner, &StreamInput { kind: "https".into(), url: fx.receiver.url(), token: None, events: None }).await.unwrap_err();
        assert_eq!(e.code(), "too_many_streams");
        let invite = fx.teams.invite(&fx.owner, "admin@northwind.test", Role::Admin).await.unwrap();
        let admin = fx.user("admin@northwind.test").await;
        let admin = m(admin, "admin@northwind.test");
        fx.teams.accept(&admin, &invite.token).await.unwrap();
        assert_eq!(fx.streams.list(&admin).await.unwrap_err().code(), "forbidden_role");
        assert_eq!(fx.streams.delete(&fx.owner, Uuid::now_v7()).await.unwrap_err().code(), "stream_not_found");
        for id in fx.streams.list(&fx.owner).await.unwrap().iter().map(|s| s.id).filter(|id| *id != first) {
            fx.streams.delete(&fx.owner, id).await.unwrap();
        }
        let worker = fx.worker("a");
        fx.drain(&worker).await;
        let sent = events_of(&fx.receiver.requests());
        let yesterday = (fx.core.clock.now() - time::Duration::days(1)).date().to_string();
        let replayed = fx.streams.replay(&fx.owner, first, &yesterday).await.unwrap();
        assert_eq!(fx.streams.replay(&fx.owner, first, "2999-01-01").await.unwrap_err().code(), "invalid_since");
        fx.drain(&worker).await;
        let all = events_of(&fx.receiver.requests());
        let again: Vec<&Value> = all[sent.len()..].iter().filter(|e| e["data"]["action"] != "team.stream_replay").collect();
        assert_eq!(replayed as usize, again.len());
        let ids = |v: &[&Value]| v.iter().map(|e| e["id"].as_str().unwrap().to_owned()).collect::<Vec<_>>();
        // Read from the audit trail: the team's events from before the stream was added (its
        // creation), then what the stream was sent, in order, with the same ids.
        let again = ids(&again);
        assert_eq!(again[again.len() - sent.len()..], ids(&sent.iter().collect::<Vec<_>>())[..]);
        assert!(again.len() > sent.len(), "the team's creation is replayed too");
        // The test event goes to this stream whatever it subscribes to.
        let test_id = fx.streams.send_test(&fx.owner, first).await.unwrap();
        fx.drain(&worker).await;
        let last = events_of(&fx.receiver.requests()).pop().unwrap();
        assert_eq!((last["id"].as_str().unwrap(), last["type"].as_str().unwrap()), (test_id.as_str(), "stream.test"));
    }
);
