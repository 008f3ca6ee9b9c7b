//! Sign-up and revenue figures for `closewise stats`. One plain query reads each user's dates,
//! plan and subscription; the figures are computed in Rust (`Stats::compute`), so both databases
//! count alike and the arithmetic is tested without one.

use std::collections::BTreeMap;

use closewise_domain::cancellation::CancellationReason;
use closewise_domain::plan::{PlanStatus, PlanType};
use closewise_domain::stats::{churn_percent, has_churned, is_live, is_paying, mrr_cents, percent};
use closewise_domain::subscription::SubscriptionStatus;
use time::{Date, Duration, OffsetDateTime};

use super::{dispatch, Store};

/// What the figures are computed from: one row per user.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct StatsRow {
    pub created_at: OffsetDateTime,
    pub email_confirmed_at: Option<OffsetDateTime>,
    pub plan_type: Option<String>,
    pub plan_status: Option<String>,
    pub subscription_status: Option<String>,
    pub subscription_updated_at: Option<OffsetDateTime>,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct DayCount {
    /// `YYYY-MM-DD`, UTC.
    pub day: String,
    pub signups: u64,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Stats {
    pub days: u32,
    /// First day of the window, `YYYY-MM-DD`, UTC.
    pub since: String,
    /// Accounts created in the window.
    pub signups: u64,
    /// Of those, how many confirmed their address.
    pub verified: u64,
    /// Of those, how many are on the paid plan now.
    pub converted: u64,
    /// `converted / signups`, in percent (0 when there were no sign-ups).
    pub conversion_percent: f64,
    /// Everyone on the active paid plan now, whenever they signed up.
    pub paid: u64,
    /// Subscriptions that count as subscribed (active, trialing).
    pub active_subscriptions: u64,
    /// Monthly recurring revenue, in cents: live subscriptions at the catalogue price.
    pub mrr_cents: i64,
    /// Subscriptions that ended in the window.
    pub churned: u64,
    /// `churned / (active + churned)`, in percent.
    pub churn_percent: f64,
    pub total_users: u64,
    /// Every day of the window, oldest first, empty days included.
    pub per_day: Vec<DayCount>,
    /// Plans (personal and teams') set to end in the window here, by the reason given.
    pub cancellations: Cancellations,
}

/// Cancellations made in the window (`billing.cancel`, `team.cancel`) and how many were taken
/// back (`billing.resume`, `team.resume`). Those made in Stripe's portal give no reason and are
/// not counted here.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Cancellations {
    pub cancelled: u64,
    pub resumed: u64,
    /// Each reason of the list in its order, then those given none; reasons nobody gave are
    /// left out.
    pub reasons: Vec<ReasonCount>,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ReasonCount {
    /// The reason's code; null for none given.
    pub reason: Option<String>,
    pub label: String,
    pub count: u64,
}

/// An audit row of a cancellation or a resumption.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct CancellationRow {
    pub action: String,
    pub details: String,
    pub created_at: OffsetDateTime,
}

/// The audit actions a cancellation and a resumption write.
const CANCELLED: [&str; 2] = ["billing.cancel", "team.cancel"];
const RESUMED: [&str; 2] = ["billing.resume", "team.resume"];

impl Cancellations {
    /// The rows created from `start` to `now`, counted.
    pub fn compute(rows: &[CancellationRow], start: OffsetDateTime, now: OffsetDateTime) -> Self {
        let mut by_reason: BTreeMap<Option<CancellationReason>, u64> = BTreeMap::new();
        let mut c = Cancellations::default();
        for r in rows
            .iter()
            .filter(|r| r.created_at >= start && r.created_at <= now)
        {
            if RESUMED.contains(&r.action.as_str()) {
                c.resumed += 1;
            } else if CANCELLED.contains(&r.action.as_str()) {
                c.cancelled += 1;
                let reason = serde_json::from_str::<serde_json::Value>(&r.details)
                    .ok()
                    .and_then(|d| d["reason"].as_str().map(str::to_owned))
                    .and_then(|code| CancellationReason::parse(&code).ok());
                *by_reason.entry(reason).or_default() += 1;
            }
        }
        // `None` sorts first in the map; it is shown last.
        let given = by_reason.iter().filter(|(r, _)| r.is_some());
        let none = by_reason.iter().filter(|(r, _)| r.is_none());
        c.reasons = given
            .chain(none)
            .map(|(reason, count)| ReasonCount {
                reason: reason.map(|r| r.as_str().to_owned()),
                label: reason.map_or("No reason given", |r| r.label()).to_owned(),
                count: *count,
            })
            .collect();
        c
    }
}

/// The first day of the `days` days ending today (UTC), today included.
fn first_day(now: OffsetDateTime, days: u32) -> Date {
    let today = now.to_offset(time::UtcOffset::UTC).date();
    today - Duration::days(i64::from(days.max(1)) - 1)
}

fn day_string(d: Date) -> String {
    format!("{:04}-{:02}-{:02}", d.year(), u8::from(d.month()), d.day())
}

impl Stats {
    /// The figures for the `days` days ending today (UTC), today included.
    pub fn compute(rows: &[StatsRow], now: OffsetDateTime, days: u32) -> Stats {
        let days = days.max(1);
        let first = first_day(now, days);
        let start = first.midnight().assume_utc();
        let in_window = |t: OffsetDateTime| t >= start && t <= now;

        let mut per_day: Vec<DayCount> = (0..days)
            .map(|i| DayCount {
                day: day_string(first + Duration::days(i64::from(i))),
                signups: 0,
            })
            .collect();
        let mut s = Stats {
            days,
            since: day_string(first),
            signups: 0,
            verified: 0,
            converted: 0,
            conversion_percent: 0.0,
            paid: 0,
            active_subscriptions: 0,
            mrr_cents: 0,
            churned: 0,
            churn_percent: 0.0,
            total_users: rows.len() as u64,
            per_day: Vec::new(),
            cancellations: Cancellations::default(),
        };
        for r in rows {
            let paid = is_paying(
                r.plan_type.as_deref().and_then(|t| PlanType::parse(t).ok()),
                r.plan_status
                    .as_deref()
                    .and_then(|t| PlanStatus::parse(t).ok()),
            );
            let status = r
                .subscription_status
                .as_deref()
                .and_then(|st| SubscriptionStatus::parse(st).ok());
            if paid {
                s.paid += 1;
            }
            if is_live(status) {
                s.active_subscriptions += 1;
            }
            if has_churned(status, r.subscription_updated_at.is_some_and(in_window)) {
                s.churned += 1;
            }
            if in_window(r.created_at) {
                s.signups += 1;
                if r.email_confirmed_at.is_some() {
                    s.verified += 1;
                }
                if paid {
                    s.converted += 1;
                }
                let index = (r.created_at.to_offset(time::UtcOffset::UTC).date() - first)
                    .whole_days() as usize;
                if let Some(d) = per_day.get_mut(index) {
                    d.signups += 1;
                }
            }
        }
        s.per_day = per_day;
        s.conversion_percent = percent(s.converted, s.signups);
        s.mrr_cents = mrr_cents(s.active_subscriptions);
        s.churn_percent = churn_percent(s.churned, s.active_subscriptions);
        s
    }
}

impl Store {
    pub async fn stats_rows(&self) -> Result<Vec<StatsRow>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_as::<_, StatsRow>(
            "SELECT u.created_at, u.email_confirmed_at, p.plan_type, p.status AS plan_status, \
             s.status AS subscription_status, s.updated_at AS subscription_updated_at \
             FROM users u LEFT JOIN user_plans p ON p.user_id = u.id \
             LEFT JOIN subscriptions s ON s.user_id = u.id"
        )
        .fetch_all(p)
        .await)
    }

    /// The audit rows of every cancellation and resumption.
    pub async fn cancellation_rows(&self) -> Result<Vec<CancellationRow>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_as::<_, CancellationRow>(
            "SELECT action, details, created_at FROM audit_log \
             WHERE action IN ('billing.cancel', 'team.cancel', 'billing.resume', 'team.resume')"
        )
        .fetch_all(p)
        .await)
    }

    pub async fn stats(&self, now: OffsetDateTime, days: u32) -> Result<Stats, sqlx::Error> {
        let mut stats = Stats::compute(&self.stats_rows().await?, now, days);
        let start = first_day(now, days).midnight().assume_utc();
        stats.cancellations = Cancellations::compute(&self.cancellation_rows().await?, start, now);
        Ok(stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use closewise_domain::catalogue::PRICE_CENTS;
    use time::macros::datetime;

    fn row(created: OffsetDateTime) -> StatsRow {
        StatsRow {
            created_at: created,
            email_confirmed_at: None,
            plan_type: Some("free".into()),
            plan_status: Some("active".into()),
            subscription_status: None,
            subscription_updated_at: None,
        }
    }

    #[test]
    fn sign_ups_are_counted_per_day_inside_the_window_only() {
        let now = datetime!(2026-11-22 10:00 UTC);
        let rows = vec![
            row(datetime!(2026-11-22 09:00 UTC)),
            row(datetime!(2026-11-22 00:00 UTC)),
            row(datetime!(2026-11-20 23:59 UTC)),
            row(datetime!(2026-11-19 23:59 UTC)),
        ];
        let s = Stats::compute(&rows, now, 3);
        assert_eq!(s.since, "2026-11-20");
        assert_eq!(s.signups, 3);
        assert_eq!(s.total_users, 4);
        let counts: Vec<_> = s
            .per_day
            .iter()
            .map(|d| (d.day.as_str(), d.signups))
            .collect();
        assert_eq!(
            counts,
            [("2026-11-20", 1), ("2026-11-21", 0), ("2026-11-22", 2)]
        );
    }

    #[test]
    fn conversion_revenue_and_churn_follow_plans_and_subscriptions() {
        let now = datetime!(2026-11-22 10:00 UTC);
        let mut verified_paid = row(datetime!(2026-11-21 09:00 UTC));
        verified_paid.email_confirmed_at = Some(datetime!(2026-11-21 09:05 UTC));
        verified_paid.plan_type = Some("monthly".into());
        verified_paid.subscription_status = Some("active".into());
        let mut old_trial = row(datetime!(2026-01-01 09:00 UTC));
        old_trial.plan_type = Some("monthly".into());
        old_trial.subscription_status = Some("trialing".into());
        let mut churned = row(datetime!(2026-02-01 09:00 UTC));
        churned.subscription_status = Some("canceled".into());
        churned.subscription_updated_at = Some(datetime!(2026-11-21 12:00 UTC));
        let mut churned_long_ago = row(datetime!(2026-02-01 09:00 UTC));
        churned_long_ago.subscription_status = Some("canceled".into());
        churned_long_ago.subscription_updated_at = Some(datetime!(2026-03-01 12:00 UTC));
        let unverified = row(datetime!(2026-11-22 08:00 UTC));

        let s = Stats::compute(
            &[
                verified_paid,
                old_trial,
                churned,
                churned_long_ago,
                unverified,
            ],
            now,
            7,
        );
        assert_eq!((s.signups, s.verified, s.converted), (2, 1, 1));
        assert_eq!(s.conversion_percent, 50.0);
        assert_eq!(s.paid, 2);
        assert_eq!(s.active_subscriptions, 2);
        assert_eq!(s.mrr_cents, 2 * PRICE_CENTS);
        assert_eq!(s.churned, 1);
        assert_eq!(s.churn_percent, 33.3);
    }

    #[test]
    fn cancellations_in_the_window_are_counted_by_reason_none_last() {
        let now = datetime!(2026-11-22 10:00 UTC);
        let start = datetime!(2026-11-16 00:00 UTC);
        let row = |action: &str, reason: Option<&str>, at| CancellationRow {
            action: action.into(),
            details: serde_json::json!({ "reason": reason }).to_string(),
            created_at: at,
        };
        let rows = [
            row(
                "billing.cancel",
                Some("unused"),
                datetime!(2026-11-20 09:00 UTC),
            ),
            row(
                "team.cancel",
                Some("too_expensive"),
                datetime!(2026-11-21 09:00 UTC),
            ),
            row(
                "billing.cancel",
                Some("too_expensive"),
                datetime!(2026-11-22 09:00 UTC),
            ),
            row("billing.cancel", None, datetime!(2026-11-22 09:30 UTC)),
            row("billing.resume", None, datetime!(2026-11-22 09:40 UTC)),
            row(
                "billing.cancel",
                Some("unused"),
                datetime!(2026-11-01 09:00 UTC),
            ),
        ];
        let c = Cancellations::compute(&rows, start, now);
        assert_eq!((c.cancelled, c.resumed), (4, 1));
        let counts: Vec<_> = c
            .reasons
            .iter()
            .map(|r| (r.reason.as_deref(), r.label.as_str(), r.count))
            .collect();
        assert_eq!(
            counts,
            [
                (Some("too_expensive"), "It costs too much", 2),
                (Some("unused"), "I don't use it enough", 1),
                (None, "No reason given", 1),
            ]
        );
    }

    #[test]
    fn an_empty_database_gives_zeroes_not_a_division_by_zero() {
        let s = Stats::compute(&[], datetime!(2026-11-22 10:00 UTC), 30);
        assert_eq!(s.per_day.len(), 30);
        assert_eq!((s.conversion_percent, s.churn_percent), (0.0, 0.0));
    }
}
