//! The desktop app's calls and the Free Trial's meter: what the caller may do now, when a call
//! counts, and when it ends.
//!
//! - A call **counts** against the Free Trial when it is started under it: once, however long it
//!   lasts, even if it ends at once. The same `client_call_id` again is the same call. Calls
//!   started on the paid plan never count, also after a downgrade.
//! - The Free Trial allows [`FREE_TRIAL`]`.calls` calls plus what operators granted, each at most
//!   [`FREE_CALL_MAX_SECONDS`] long. Paid calls are not metered, but end after
//!   [`PAID_CALL_MAX_SECONDS`]: a client that never ends a call (or a copied token heartbeating)
//!   cannot hold one open for ever.
//! - A paid call lives on its plan: the heartbeat that finds the plan lapsed (subscription ended,
//!   team seat gone) ends it, [`EndReason::PlanLapsed`] ([`heartbeat_ending`]).
//! - The client sends a heartbeat every [`HEARTBEAT_INTERVAL_SECONDS`]; a call without one for
//!   [`STALE_AFTER_SECONDS`] has been abandoned and ends at its last heartbeat.
//! - **Paid** is the plan row on monthly and active (what a subscription that counts as subscribed
//!   gives, or an operator set by hand), and also a subscription whose payment failed but that has
//!   not ended — past due, or unpaid before the end of its current period: the app then warns
//!   (`payment_failed`) and does not lock.

use std::fmt;

use time::{Duration, OffsetDateTime};

use crate::plan::{PlanStatus, PlanType, FREE_TRIAL};
use crate::subscription::SubscriptionStatus;

/// The longest a free call runs: the Free Trial's minutes per call.
pub const FREE_CALL_MAX_SECONDS: u32 = FREE_TRIAL.minutes_per_call * 60;
/// The longest a paid call runs (4 hours): longer than any sales call, short enough that an
/// abandoned-but-heartbeating client does not keep a call open for days.
pub const PAID_CALL_MAX_SECONDS: u32 = 4 * 3600;
/// How often the client reports that a call is still going.
pub const HEARTBEAT_INTERVAL_SECONDS: i64 = 30;
/// A call with no heartbeat for this long has been abandoned.
pub const STALE_AFTER_SECONDS: i64 = 120;
/// Operators grant at most this many calls at once (a typo guard, not a policy).
pub const MAX_GRANT: u32 = 1000;
/// Calls one user may start in an hour, paid or free (retries of a started call count too): far
/// above any rep's day, low enough that a runaway client cannot fill the calls table.
pub const CALL_STARTS_PER_HOUR: u32 = 60;

/// An entitlement token answers for a day, then for a week more while the API cannot be reached.
pub const ENTITLEMENT_VALID_FOR: Duration = Duration::hours(24);
pub const ENTITLEMENT_GRACE: Duration = Duration::days(7);

pub const CALL_TIME_LIMIT_MESSAGE: &str = "Your free call has reached its 5-minute limit.";
pub const PAID_CALL_TIME_LIMIT_MESSAGE: &str =
    "This call has reached its 4-hour limit. Start a new call to keep getting live hints.";
pub const PLAN_LAPSED_MESSAGE: &str =
    "Your paid plan is no longer active, so this call has ended. Renew to keep getting live hints.";
pub const CALL_ENDED_MESSAGE: &str = "This call has already ended.";
pub const CALL_NOT_FOUND_MESSAGE: &str = "There is no such call.";

/// "You have used your 5 free calls. Upgrade to keep getting live hints." (the number is the
/// limit, grants included).
pub fn free_calls_used_up_message(limit: u32) -> String {
    format!("You have used your {limit} free calls. Upgrade to keep getting live hints.")
}

/// The client's own id for a call, which makes starting it idempotent: 1 to 64 of
/// `[A-Za-z0-9_-]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClientCallId(String);

#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
#[error("client_call_id must be 1 to 64 letters, digits, '-' or '_'.")]
pub struct InvalidClientCallId;

impl ClientCallId {
    pub fn parse(raw: &str) -> Result<Self, InvalidClientCallId> {
        let ok = (1..=64).contains(&raw.len())
            && raw
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if ok {
            Ok(ClientCallId(raw.to_owned()))
        } else {
            Err(InvalidClientCallId)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// What an operator grants: a positive number of calls, at most [`MAX_GRANT`].
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
#[error("a grant is 1 to {MAX_GRANT} calls")]
pub struct InvalidGrant;

pub fn parse_grant(calls: i64) -> Result<u32, InvalidGrant> {
    u32::try_from(calls)
        .ok()
        .filter(|n| (1..=MAX_GRANT).contains(n))
        .ok_or(InvalidGrant)
}

/// The billing state entitlements are decided from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BillingFacts {
    pub plan_type: PlanType,
    pub plan_status: PlanStatus,
    pub subscription: Option<SubscriptionStatus>,
    pub current_period_end: Option<OffsetDateTime>,
}

/// Something the app shows without locking anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Warning {
    PaymentFailed,
}

impl Warning {
    pub fn as_str(&self) -> &'static str {
        match self {
            Warning::PaymentFailed => "payment_failed",
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which plan's rules apply to calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Paid { warning: Option<Warning> },
    Free,
}

/// A subscription whose payment failed and that has not ended: past due, or unpaid before the end
/// of its current period (a period we do not know has not ended).
pub fn payment_failing(facts: &BillingFacts, now: OffsetDateTime) -> bool {
    match facts.subscription {
        Some(SubscriptionStatus::PastDue) => true,
        Some(SubscriptionStatus::Unpaid) => facts.current_period_end.is_none_or(|end| now < end),
        _ => false,
    }
}

pub fn access(facts: &BillingFacts, now: OffsetDateTime) -> Access {
    let failing = payment_failing(facts, now);
    let plan_paid = facts.plan_type.is_paid() && facts.plan_status == PlanStatus::Active;
    let subscribed = facts.subscription.is_some_and(|s| s.counts_as_subscribed());
    if plan_paid || subscribed || failing {
        Access::Paid {
            warning: failing.then_some(Warning::PaymentFailed),
        }
    } else {
        Access::Free
    }
}

/// The Free Trial's meter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallAllowance {
    pub limit: u32,
    pub used: u32,
    pub remaining: u32,
}

/// What the caller may do now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entitlements {
    pub plan_type: PlanType,
    pub unlimited: bool,
    /// None on the paid plan.
    pub calls: Option<CallAllowance>,
    /// None on the paid plan.
    pub max_call_seconds: Option<u32>,
    pub warning: Option<Warning>,
}

/// `free_calls_used`: calls started under the Free Trial; `granted`: calls operators added.
pub fn entitlements(access: Access, free_calls_used: u32, granted: u32) -> Entitlements {
    match access {
        Access::Paid { warning } => Entitlements {
            plan_type: PlanType::Monthly,
            unlimited: true,
            calls: None,
            max_call_seconds: None,
            warning,
        },
        Access::Free => {
            let limit = FREE_TRIAL.calls.saturating_add(granted);
            Entitlements {
                plan_type: PlanType::Free,
                unlimited: false,
                calls: Some(CallAllowance {
                    limit,
                    used: free_calls_used,
                    remaining: limit.saturating_sub(free_calls_used),
                }),
                max_call_seconds: Some(FREE_CALL_MAX_SECONDS),
                warning: None,
            }
        }
    }
}

/// Whether a new call may start, and on which terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartDecision {
    Start {
        /// Counts against the Free Trial.
        free: bool,
        max_seconds: Option<u32>,
    },
    /// Every free call is used; the limit is in the message.
    FreeCallsUsedUp { limit: u32 },
}

pub fn start_decision(e: &Entitlements) -> StartDecision {
    match e.calls {
        None => StartDecision::Start {
            free: false,
            max_seconds: e.max_call_seconds,
        },
        Some(c) if c.remaining == 0 => StartDecision::FreeCallsUsedUp { limit: c.limit },
        Some(_) => StartDecision::Start {
            free: true,
            max_seconds: e.max_call_seconds,
        },
    }
}

/// Why a call ended. Stored as `as_str()`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The client ended it.
    Ended,
    /// A free call reached its cap.
    TimeLimit,
    /// No heartbeat for [`STALE_AFTER_SECONDS`].
    Stale,
    /// A paid call whose plan had lapsed at a heartbeat.
    PlanLapsed,
}

impl EndReason {
    pub fn as_str(&self) -> &'static str {
        match self {
            EndReason::Ended => "ended",
            EndReason::TimeLimit => "time_limit",
            EndReason::Stale => "stale",
            EndReason::PlanLapsed => "plan_lapsed",
        }
    }

    /// Unknown stored names read as a plain end.
    pub fn parse(s: &str) -> EndReason {
        match s {
            "time_limit" => EndReason::TimeLimit,
            "stale" => EndReason::Stale,
            "plan_lapsed" => EndReason::PlanLapsed,
            _ => EndReason::Ended,
        }
    }
}

/// The times of a call still going.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenCall {
    pub started_at: OffsetDateTime,
    pub last_heartbeat_at: OffsetDateTime,
    pub max_seconds: Option<u32>,
}

/// When and why a call ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    pub at: OffsetDateTime,
    pub reason: EndReason,
    pub duration_seconds: i64,
}

impl OpenCall {
    /// The instant the call reaches its cap: its own `max_seconds` (a free call's), else
    /// [`PAID_CALL_MAX_SECONDS`] (a paid call's, also one stored before paid calls had a cap).
    pub fn cap(&self) -> OffsetDateTime {
        let max = self.max_seconds.unwrap_or(PAID_CALL_MAX_SECONDS);
        self.started_at + Duration::seconds(i64::from(max))
    }

    fn capped(&self, t: OffsetDateTime) -> OffsetDateTime {
        t.min(self.cap())
    }

    fn ending(&self, at: OffsetDateTime, reason: EndReason) -> Ending {
        let at = self.capped(at).max(self.started_at);
        Ending {
            at,
            reason,
            duration_seconds: (at - self.started_at).whole_seconds(),
        }
    }

    /// Whole seconds since the start, never past the cap.
    pub fn elapsed_seconds(&self, now: OffsetDateTime) -> i64 {
        (self.capped(now) - self.started_at).whole_seconds().max(0)
    }

    /// How the call has ended by itself at `now`, if it has: abandoned (no heartbeat for
    /// [`STALE_AFTER_SECONDS`]; it ends at its last heartbeat), else at its cap.
    pub fn lapse(&self, now: OffsetDateTime) -> Option<Ending> {
        if now - self.last_heartbeat_at >= Duration::seconds(STALE_AFTER_SECONDS) {
            return Some(self.ending(self.last_heartbeat_at, EndReason::Stale));
        }
        let cap = self.cap();
        (now >= cap).then(|| self.ending(cap, EndReason::TimeLimit))
    }

    /// The first instant the call has ended by itself (`lapse` answers from then on): its
    /// abandonment (no heartbeat for [`STALE_AFTER_SECONDS`]) or its cap, whichever comes first.
    pub fn lapses_at(&self) -> OffsetDateTime {
        (self.last_heartbeat_at + Duration::seconds(STALE_AFTER_SECONDS)).min(self.cap())
    }

    /// The client ends the call at `now` (unless it had already ended by itself).
    pub fn end(&self, now: OffsetDateTime) -> Ending {
        self.lapse(now)
            .unwrap_or_else(|| self.ending(now, EndReason::Ended))
    }
}

/// What a heartbeat at `now` finds: the call ended by itself (`OpenCall::lapse`), or, for a call
/// started on the paid plan (`free` false), ended now because `access` (the plan as it stands) is
/// no longer paid. A call started free keeps its own terms whatever the plan does. None: it goes
/// on. A paid plan whose payment is failing but has not ended is still paid (`access`).
pub fn heartbeat_ending(
    call: &OpenCall,
    free: bool,
    access: Access,
    now: OffsetDateTime,
) -> Option<Ending> {
    call.lapse(now).or_else(|| {
        (!free && access == Access::Free).then(|| call.ending(now, EndReason::PlanLapsed))
    })
}

/// The message of a call that reached its cap: `max_seconds` is the call's own (None: paid).
pub fn time_limit_message(max_seconds: Option<u32>) -> &'static str {
    match max_seconds {
        Some(_) => CALL_TIME_LIMIT_MESSAGE,
        None => PAID_CALL_TIME_LIMIT_MESSAGE,
    }
}

/// An entitlement token's times, Unix seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntitlementTimes {
    pub iat: i64,
    /// The client answers from the token until then...
    pub valid_until: i64,
    /// ...and until then when the API cannot be reached.
    pub grace_until: i64,
    pub exp: i64,
}

pub fn entitlement_times(now: OffsetDateTime) -> EntitlementTimes {
    let iat = now.unix_timestamp();
    let valid_until = iat + ENTITLEMENT_VALID_FOR.whole_seconds();
    let grace_until = valid_until + ENTITLEMENT_GRACE.whole_seconds();
    EntitlementTimes {
        iat,
        valid_until,
        grace_until,
        exp: grace_until,
    }
}

/// Midnight UTC on the first of `now`'s month: "calls this month" count from there.
pub fn month_start(now: OffsetDateTime) -> OffsetDateTime {
    let now = now.to_offset(time::UtcOffset::UTC);
    now.date()
        .replace_day(1)
        .expect("every month has a first day")
        .midnight()
        .assume_utc()
}

#[cfg(test)]
#[path = "usage_tests.rs"]
mod tests;
