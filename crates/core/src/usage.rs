//! The usage service: what a signed-in user may do now (entitlements), and their calls — start
//! (idempotent by `client_call_id`, exact under concurrency), heartbeat, end — with the Free
//! Trial's meter and the calls operators grant. The rules are `closewise_domain::usage`'s; this
//! service reads the facts, applies them and stores the outcome.
//!
//! Calls end lazily: nothing runs in the background. A call that lapsed (abandoned or over its cap,
//! 5 minutes free, 4 hours paid) is ended when its user next asks for entitlements, starts a call,
//! or touches that call; a heartbeat also ends a paid call whose plan has lapsed since it started.

use closewise_domain::plan::FREE_TRIAL;
use closewise_domain::policy::{is_policy_version, Policy};
use closewise_domain::team_billing::{access_with_team, Source};
use closewise_domain::usage::{
    self, entitlements, free_calls_used_up_message, heartbeat_ending, start_decision, ClientCallId,
    EndReason, Entitlements, StartDecision,
};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::clock::Clock;
use crate::sessions::read_cache::ReadCache;
use crate::store::usage::{CallRow, CallTerms, GrantRow, NewCall, StartOutcome, UsageFacts};
use crate::store::Store;

/// Why a usage step did not happen. `code()` is the machine code; the message is the user's.
#[derive(Debug, thiserror::Error)]
pub enum UsageError {
    #[error("{}", usage::InvalidClientCallId)]
    InvalidClientCallId,
    #[error("{}", free_calls_used_up_message(*limit))]
    FreeCallsUsedUp { limit: u32 },
    #[error("{}", usage::CALL_NOT_FOUND_MESSAGE)]
    CallNotFound,
    #[error("{}", usage::CALL_ENDED_MESSAGE)]
    CallEnded,
    /// The call reached its cap; the message says which (`time_limit_message`).
    #[error("{}", usage::time_limit_message(*max_seconds))]
    CallTimeLimitReached { max_seconds: Option<u32> },
    #[error("{}", usage::PLAN_LAPSED_MESSAGE)]
    PlanLapsed,
    #[error("{}", usage::InvalidGrant)]
    InvalidGrant,
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

impl UsageError {
    pub fn code(&self) -> &'static str {
        match self {
            UsageError::InvalidClientCallId => "invalid_client_call_id",
            UsageError::FreeCallsUsedUp { .. } => "free_calls_used_up",
            UsageError::CallNotFound => "call_not_found",
            UsageError::CallEnded => "call_ended",
            UsageError::CallTimeLimitReached { .. } => "call_time_limit_reached",
            UsageError::PlanLapsed => "plan_lapsed",
            UsageError::InvalidGrant => "invalid_grant",
            UsageError::Database(_) => "internal",
        }
    }
}

/// Entitlements as they stand, with the calls started this calendar month (UTC).
#[derive(Clone, Debug)]
pub struct Current {
    pub entitlements: Entitlements,
    pub calls_this_month: u32,
    /// Where paid access comes from; None on the Free Trial.
    pub source: Option<Source>,
    /// The team whose seat the user holds, paid or not.
    pub team: Option<TeamRef>,
    /// The policy the user's app obeys: their team's, or the default (notice off) in no team.
    pub policy: Policy,
    /// Its version (`Policy::version`), computed once when the facts are read, not per answer.
    pub policy_version: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamRef {
    pub id: Uuid,
    pub name: String,
}

/// A call start: the call, and whether this request created it.
#[derive(Clone, Debug)]
pub struct Started {
    pub call: CallRow,
    pub created: bool,
}

/// A call still going after a heartbeat.
#[derive(Clone, Debug)]
pub struct Alive {
    pub call: CallRow,
    pub elapsed_seconds: i64,
}

/// One account's usage for operators.
#[derive(Clone, Debug)]
pub struct Summary {
    pub current: Current,
    pub grants: Vec<GrantRow>,
    /// Newest first; a call that lapsed shows how it ended (stored at its user's next request).
    pub recent_calls: Vec<CallRow>,
}

/// What a user's entitlements are decided from, read together and kept per user by the API
/// (`Usage::caching_reads`): the decision itself is made afresh from them at every request, with
/// the clock (a subscription's period end, the month, a call's cap).
#[derive(Clone, Debug)]
pub struct Facts {
    usage: UsageFacts,
    /// The month `calls_this_month` counts from (UTC): a new month needs a new count.
    month_start: OffsetDateTime,
    calls_this_month: u32,
    policy: Policy,
    /// `policy`'s version, kept with it (a SHA-256 of its canonical JSON: too dear per request).
    policy_version: String,
    /// The first instant one of the user's open calls lapses (`OpenCall::lapses_at`); None with
    /// no open call. Until then no call can need ending, so the open calls are not read.
    lapses_at: Option<OffsetDateTime>,
}

impl Facts {
    /// Still answers at `now`: the same month, and no open call lapsed since.
    fn fresh(&self, now: OffsetDateTime) -> bool {
        self.month_start == usage::month_start(now) && self.lapses_at.is_none_or(|t| now < t)
    }
}

/// A device is noted as seen (`sessions.last_seen_at`) at most once per this many seconds per
/// session by this process; the store itself writes it at most once a minute. What shows it (the
/// devices list, the team's usage and policy pages) is right to the minute.
pub const SEEN_EVERY_SECONDS: i64 = 60;
/// Sessions remembered as seen at most; past it, those noted over a minute ago are forgotten.
const SEEN_CAPACITY: usize = 16_384;

/// When this process last noted each session as seen.
#[derive(Default)]
struct Seen(Mutex<HashMap<Uuid, OffsetDateTime>>);

impl Seen {
    /// True when the session should be noted as seen at `now` (and remembers it as noted).
    fn due(&self, session_id: Uuid, now: OffsetDateTime) -> bool {
        let every = time::Duration::seconds(SEEN_EVERY_SECONDS);
        let mut seen = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(at) = seen.get(&session_id) {
            if *at <= now && now - *at < every {
                return false;
            }
        }
        if seen.len() >= SEEN_CAPACITY {
            seen.retain(|_, at| *at <= now && now - *at < every);
            if seen.len() >= SEEN_CAPACITY {
                seen.clear();
            }
        }
        seen.insert(session_id, now);
        true
    }
}

#[derive(Clone)]
pub struct Usage {
    store: Store,
    clock: Clock,
    /// The entitlements' facts, cached per user (`caching_reads`; none from the CLI).
    facts: Option<Arc<ReadCache<Facts>>>,
    seen: Arc<Seen>,
}

impl Usage {
    pub fn new(store: Store, clock: Clock) -> Self {
        Usage {
            store,
            clock,
            facts: None,
            seen: Arc::default(),
        }
    }

    /// Keeps each user's entitlement facts until a write announces they changed
    /// (`crate::sessions::read_cache`): the API's. The CLI reads afresh.
    pub fn caching_reads(mut self) -> Self {
        self.facts = Some(ReadCache::for_store(&self.store));
        self
    }

    /// Notes the device as seen, at most once per `SEEN_EVERY_SECONDS` from this process.
    async fn touch(&self, session_id: Option<Uuid>, now: OffsetDateTime) -> Result<(), UsageError> {
        if let Some(session) = session_id.filter(|s| self.seen.due(*s, now)) {
            self.store.touch_session(session, now).await?;
        }
        Ok(())
    }

    /// Paid through the personal plan or a seat of a paid team (`access_with_team`).
    fn access(&self, facts: &UsageFacts) -> (usage::Access, Option<Source>) {
        let team = facts.team.as_ref().map(|t| &t.subscription);
        access_with_team(&facts.billing, team, self.clock.now())
    }

    fn decide(&self, facts: &UsageFacts) -> (Entitlements, Option<Source>) {
        let (access, source) = self.access(facts);
        (entitlements(access, facts.free_used, facts.granted), source)
    }

    /// Decided afresh at each call from the user's facts, so a plan change shows at once; the
    /// facts come from the cache while no write changed them, the month is the same and none of
    /// the user's open calls can have lapsed (else the lapsed ones are ended first). `session_id`:
    /// the device asking, noted as seen.
    pub async fn entitlements(
        &self,
        user_id: Uuid,
        session_id: Option<Uuid>,
    ) -> Result<Current, UsageError> {
        let now = self.clock.now();
        self.touch(session_id, now).await?;
        if let Some(facts) = self.facts.as_ref().and_then(|c| c.get(user_id)) {
            if facts.fresh(now) {
                return Ok(self.current_of(facts));
            }
        }
        // Read before anything the entry is made of (`ReadCache::insert`).
        let mut generation = self.facts.as_ref().map(|c| c.generation());
        let (ended, mut lapses_at) = self.end_lapsed(user_id).await?;
        if ended > 0 {
            // Its own announcement changed the generation: read again after it.
            generation = self.facts.as_ref().map(|c| c.generation());
            lapses_at = self.end_lapsed(user_id).await?.1;
        }
        let facts = self.load(user_id, lapses_at).await?;
        if let (Some(cache), Some(generation)) = (&self.facts, generation) {
            cache.insert(user_id, facts.clone(), generation);
        }
        Ok(self.current_of(facts))
    }

    /// The user's facts, read now; `lapses_at` from their open calls.
    async fn load(
        &self,
        user_id: Uuid,
        lapses_at: Option<OffsetDateTime>,
    ) -> Result<Facts, UsageError> {
        let month_start = usage::month_start(self.clock.now());
        let usage = self.store.usage_facts(user_id).await?;
        let calls_this_month = self.store.calls_since(user_id, month_start).await?;
        let policy = self
            .store
            .policy_of_member(user_id)
            .await?
            .map(|row| row.policy())
            .unwrap_or_default();
        Ok(Facts {
            usage,
            month_start,
            calls_this_month,
            policy_version: policy.version(),
            policy,
            lapses_at,
        })
    }

    fn current_of(&self, facts: Facts) -> Current {
        let (entitlements, source) = self.decide(&facts.usage);
        Current {
            policy: facts.policy,
            policy_version: facts.policy_version,
            entitlements,
            calls_this_month: facts.calls_this_month,
            source,
            team: facts.usage.team.map(|t| TeamRef {
                id: t.id,
                name: t.name,
            }),
        }
    }

    async fn current(&self, user_id: Uuid) -> Result<Current, UsageError> {
        Ok(self.current_of(self.load(user_id, None).await?))
    }

    /// Starts a call, or answers the one this `client_call_id` started before.
    pub async fn start_call(
        &self,
        user_id: Uuid,
        session_id: Option<Uuid>,
        client_call_id: &str,
    ) -> Result<Started, UsageError> {
        let client_call_id =
            ClientCallId::parse(client_call_id).map_err(|_| UsageError::InvalidClientCallId)?;
        let now = self.clock.now();
        self.touch(session_id, now).await?;
        self.end_lapsed_calls(user_id).await?;
        let new = NewCall {
            user_id,
            client_call_id: client_call_id.as_str(),
            session_id,
            now,
        };
        let mut refused = None;
        let outcome = self
            .store
            .start_call(&new, |facts| match start_decision(&self.decide(facts).0) {
                StartDecision::Start { free, max_seconds } => Some(CallTerms { free, max_seconds }),
                StartDecision::FreeCallsUsedUp { limit } => {
                    refused = Some(limit);
                    None
                }
            })
            .await?;
        match outcome {
            StartOutcome::Started(call) => {
                tracing::info!(%user_id, call = %call.id, free = call.free, "call started");
                Ok(Started {
                    call,
                    created: true,
                })
            }
            StartOutcome::Existing(call) => Ok(Started {
                call,
                created: false,
            }),
            // `refused` is set whenever the decision refuses.
            StartOutcome::Refused(facts) => Err(UsageError::FreeCallsUsedUp {
                limit: refused.unwrap_or(FREE_TRIAL.calls.saturating_add(facts.granted)),
            }),
        }
    }

    /// The client says the call is still going. A call that lapsed is ended now, and says how; so
    /// is a paid call whose plan lapsed since it started (subscription ended, seat removed).
    pub async fn heartbeat(
        &self,
        user_id: Uuid,
        session_id: Option<Uuid>,
        call_id: Uuid,
        policy_version: Option<&str>,
    ) -> Result<Alive, UsageError> {
        let now = self.clock.now();
        self.touch(session_id, now).await?;
        let call = self.settled(user_id, call_id).await?;
        if call.end_reason().is_some() {
            return Err(ended_error(&call));
        }
        if !call.free {
            let (access, _) = self.access(&self.store.usage_facts(user_id).await?);
            if let Some(ending) = heartbeat_ending(&call.open(), call.free, access, now) {
                let call = if self.store.end_call(call.id, &ending).await? {
                    tracing::info!(%user_id, call = %call.id, reason = ending.reason.as_str(), "call ended");
                    call.ended(&ending)
                } else {
                    self.find(user_id, call_id).await?
                };
                return Err(ended_error(&call));
            }
        }
        if !self.store.heartbeat_call(call.id, now).await? {
            // Ended by a concurrent request in between.
            let call = self.settled(user_id, call_id).await?;
            return Err(ended_error(&call));
        }
        // The policy the app reports it obeys (a version is 64 hex digits; anything else is not
        // one and is not recorded).
        if let Some(version) = policy_version.filter(|v| is_policy_version(v)) {
            self.store
                .record_policy_version(session_id, call.id, version, now)
                .await?;
        }
        let elapsed_seconds = call.open().elapsed_seconds(now);
        Ok(Alive {
            call: CallRow {
                last_heartbeat_at: now,
                ..call
            },
            elapsed_seconds,
        })
    }

    /// Ends the call (idempotent: an ended call answers as it ended).
    pub async fn end_call(&self, user_id: Uuid, call_id: Uuid) -> Result<CallRow, UsageError> {
        let call = self.settled(user_id, call_id).await?;
        if call.ended_at.is_some() {
            return Ok(call);
        }
        let ending = call.open().end(self.clock.now());
        if self.store.end_call(call.id, &ending).await? {
            tracing::info!(%user_id, call = %call.id, reason = ending.reason.as_str(), "call ended");
            return Ok(call.ended(&ending));
        }
        self.find(user_id, call_id).await
    }

    /// The user's call, ended first if it lapsed.
    async fn settled(&self, user_id: Uuid, call_id: Uuid) -> Result<CallRow, UsageError> {
        let call = self.find(user_id, call_id).await?;
        if call.ended_at.is_some() {
            return Ok(call);
        }
        match call.open().lapse(self.clock.now()) {
            None => Ok(call),
            Some(ending) => {
                if self.store.end_call(call.id, &ending).await? {
                    Ok(call.ended(&ending))
                } else {
                    self.find(user_id, call_id).await
                }
            }
        }
    }

    async fn find(&self, user_id: Uuid, call_id: Uuid) -> Result<CallRow, UsageError> {
        self.store
            .call_of(user_id, call_id)
            .await?
            .ok_or(UsageError::CallNotFound)
    }

    /// Ends the user's calls that lapsed; returns how many.
    pub async fn end_lapsed_calls(&self, user_id: Uuid) -> Result<usize, UsageError> {
        Ok(self.end_lapsed(user_id).await?.0)
    }

    /// Ends the user's calls that lapsed: how many, and when the first of the others lapses.
    async fn end_lapsed(
        &self,
        user_id: Uuid,
    ) -> Result<(usize, Option<OffsetDateTime>), UsageError> {
        let now = self.clock.now();
        let mut ended = 0;
        let mut lapses_at: Option<OffsetDateTime> = None;
        for call in self.store.open_calls_of(user_id).await? {
            match call.open().lapse(now) {
                Some(ending) => {
                    if self.store.end_call(call.id, &ending).await? {
                        ended += 1;
                    }
                }
                None => {
                    let at = call.open().lapses_at();
                    lapses_at = Some(lapses_at.map_or(at, |t| t.min(at)));
                }
            }
        }
        Ok((ended, lapses_at))
    }

    /// What operators see: entitlements, grants and the newest calls. Reads only: a lapsed call
    /// shows how it ended without being stored.
    pub async fn summary(&self, user_id: Uuid, recent: i64) -> Result<Summary, UsageError> {
        let now = self.clock.now();
        let current = self.current(user_id).await?;
        let grants = self.store.grants_of(user_id).await?;
        let recent_calls = self
            .store
            .recent_calls(user_id, recent)
            .await?
            .into_iter()
            .map(|c| match (c.ended_at, c.open().lapse(now)) {
                (None, Some(ending)) => c.ended(&ending),
                _ => c,
            })
            .collect();
        Ok(Summary {
            current,
            grants,
            recent_calls,
        })
    }

    /// `actor` grants the user (`email`) more free calls, recorded in the same transaction.
    pub async fn grant(
        &self,
        actor: &crate::actor::Actor,
        (user_id, email): (Uuid, &str),
        calls: i64,
    ) -> Result<GrantRow, UsageError> {
        let calls = usage::parse_grant(calls).map_err(|_| UsageError::InvalidGrant)?;
        let (about, details) = (Some(user_id), serde_json::json!({ "calls": calls }));
        let now = self.clock.now();
        let audit = actor.audit("usage.grant", about, Some(email.into()), details, now);
        let row = self.store.grant_calls(user_id, calls, &audit).await?;
        tracing::info!(%user_id, calls, actor = %audit.actor, "calls granted");
        Ok(row)
    }
}

/// What touching an ended call answers: how it ended.
fn ended_error(call: &CallRow) -> UsageError {
    match call.end_reason().unwrap_or(EndReason::Ended) {
        EndReason::TimeLimit => UsageError::CallTimeLimitReached {
            max_seconds: call.max_seconds(),
        },
        EndReason::PlanLapsed => UsageError::PlanLapsed,
        EndReason::Ended | EndReason::Stale => UsageError::CallEnded,
    }
}
