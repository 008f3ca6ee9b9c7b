//! Adoption and seats (docs/teams.md "Usage"): which month a usage report covers, who is new,
//! active or idle (30 days in the team without a call and without a sign-in), how call seconds
//! read as minutes, what a reclaim may remove and lower, and what reclaiming idle seats would
//! save. Pure: the clock is an argument.

use time::{Date, Duration, Month as CalendarMonth, OffsetDateTime, UtcOffset};
use uuid::Uuid;

use crate::teams::{may_remove, Role, SeatError, Seats};

/// A member in the team this many days without a call and without a sign-in is idle; one who
/// joined fewer days ago is new.
pub const IDLE_DAYS: i64 = 30;

/// Calls started, sessions used and joins at or after this instant count as recent.
pub fn idle_cutoff(now: OffsetDateTime) -> OffsetDateTime {
    now - Duration::days(IDLE_DAYS)
}

/// Where a member's seat stands in the adoption report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatUse {
    /// Joined fewer than [`IDLE_DAYS`] days ago: too early to call them idle.
    New,
    /// A call started or a sign-in (a session used) in the last [`IDLE_DAYS`] days.
    Active,
    /// In the team [`IDLE_DAYS`] days or more, with neither a call nor a sign-in in that time.
    Idle,
}

impl SeatUse {
    pub fn as_str(&self) -> &'static str {
        match self {
            SeatUse::New => "new",
            SeatUse::Active => "active",
            SeatUse::Idle => "idle",
        }
    }
}

/// A member's seat as of `now`: new while they joined less than [`IDLE_DAYS`] days ago, else
/// active with a call started or a session used since then, else idle.
pub fn seat_use(
    joined_at: OffsetDateTime,
    last_call_at: Option<OffsetDateTime>,
    last_seen_at: Option<OffsetDateTime>,
    now: OffsetDateTime,
) -> SeatUse {
    let cutoff = idle_cutoff(now);
    let recent = |at: Option<OffsetDateTime>| at.is_some_and(|at| at >= cutoff);
    if joined_at >= cutoff {
        SeatUse::New
    } else if recent(last_call_at) || recent(last_seen_at) {
        SeatUse::Active
    } else {
        SeatUse::Idle
    }
}

/// An amount in cents written for people: `40.00 USD`.
pub fn money(cents: i64, currency: &str) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let abs = cents.unsigned_abs();
    format!(
        "{sign}{}.{:02} {}",
        abs / 100,
        abs % 100,
        currency.to_uppercase()
    )
}

/// Call seconds as the minutes the report shows: whole minutes, a started minute counting.
pub fn minutes(seconds: i64) -> u64 {
    u64::try_from(seconds.max(0)).unwrap_or(0).div_ceil(60)
}

/// A calendar month (UTC), as `YYYY-MM` in the usage report's query.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Month {
    year: i32,
    month: CalendarMonth,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("month must be YYYY-MM, for example 2026-11")]
pub struct InvalidMonth;

impl InvalidMonth {
    pub fn code(&self) -> &'static str {
        "invalid_month"
    }
}

impl Month {
    /// The month `now` falls in (UTC).
    pub fn of(now: OffsetDateTime) -> Month {
        let d = now.to_offset(UtcOffset::UTC).date();
        Month {
            year: d.year(),
            month: d.month(),
        }
    }

    /// `YYYY-MM`, years 2000 to 9999.
    pub fn parse(raw: &str) -> Result<Month, InvalidMonth> {
        let raw = raw.trim();
        let (y, m) = raw.split_once('-').ok_or(InvalidMonth)?;
        if y.len() != 4 || m.len() != 2 || !(y.bytes().chain(m.bytes())).all(|b| b.is_ascii_digit())
        {
            return Err(InvalidMonth);
        }
        let year: i32 = y.parse().map_err(|_| InvalidMonth)?;
        let month: u8 = m.parse().map_err(|_| InvalidMonth)?;
        if year < 2000 {
            return Err(InvalidMonth);
        }
        let month = CalendarMonth::try_from(month).map_err(|_| InvalidMonth)?;
        Ok(Month { year, month })
    }

    /// Midnight UTC on its first day.
    pub fn start(&self) -> OffsetDateTime {
        Date::from_calendar_date(self.year, self.month, 1)
            .expect("every month has a first day")
            .midnight()
            .assume_utc()
    }

    pub fn next(&self) -> Month {
        match self.month {
            CalendarMonth::December => Month {
                year: self.year + 1,
                month: CalendarMonth::January,
            },
            m => Month {
                year: self.year,
                month: m.next(),
            },
        }
    }

    pub fn previous(&self) -> Month {
        match self.month {
            CalendarMonth::January => Month {
                year: self.year - 1,
                month: CalendarMonth::December,
            },
            m => Month {
                year: self.year,
                month: m.previous(),
            },
        }
    }

    /// Whether `at` falls in this month.
    pub fn contains(&self, at: OffsetDateTime) -> bool {
        at >= self.start() && at < self.next().start()
    }
}

impl std::fmt::Display for Month {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:04}-{:02}", self.year, u8::from(self.month))
    }
}

/// The ISO week `now` falls in, as `2026-W48`: the weekly idle-seats mail goes once per team and
/// week.
pub fn week_of(now: OffsetDateTime) -> String {
    let (year, week, _) = now.to_offset(UtcOffset::UTC).date().to_iso_week_date();
    format!("{year:04}-W{week:02}")
}

/// What reclaiming the idle seats would do: remove the idle members who may be removed (not the
/// owner), and lower the seats to those still used (at least one), free seats included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReclaimOffer {
    /// Idle members a reclaim may remove.
    pub idle_members: u32,
    /// The seats after the reclaim.
    pub seats: u32,
    /// Seats dropped: `total - seats`.
    pub seats_freed: u32,
    /// In cents a month: the seats dropped at `seat_price_cents`.
    pub monthly_saving: i64,
}

/// The offer for a team with `seats` whose removable idle members are `idle_removable`.
pub fn reclaim_offer(seats: &Seats, idle_removable: u32, seat_price_cents: i64) -> ReclaimOffer {
    let idle = idle_removable.min(seats.members);
    let after = seats.used().saturating_sub(idle).max(1);
    let seats_after = after.min(seats.total.max(1));
    let freed = seats.total.saturating_sub(seats_after);
    ReclaimOffer {
        idle_members: idle,
        seats: seats_after,
        seats_freed: freed,
        monthly_saving: i64::from(freed) * seat_price_cents.max(0),
    }
}

/// Why a reclaim was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReclaimRefusal {
    /// Someone chosen is not a member of the team (or was named twice).
    #[error("{0} is not a member of this team.")]
    NotAMember(Uuid),
    /// The caller's role may not remove someone chosen (nobody removes the owner).
    #[error("Your role in the team does not allow removing {0}.")]
    MayNotRemove(Uuid),
    /// A reclaim lowers seats (or keeps them): it never buys more.
    #[error("A reclaim lowers the seats: choose at most the {total} seats the team has.")]
    SeatsNotLower { total: u32 },
    /// The seats left must hold everyone still seated, as for any seat change.
    #[error("{0}")]
    Seats(SeatError),
}

impl ReclaimRefusal {
    pub fn code(&self) -> &'static str {
        match self {
            ReclaimRefusal::NotAMember(_) => "not_a_member",
            ReclaimRefusal::MayNotRemove(_) => "forbidden_role",
            ReclaimRefusal::SeatsNotLower { .. } => "invalid_seats",
            ReclaimRefusal::Seats(e) => e.code(),
        }
    }
}

/// Checks a reclaim of `chosen` members and the seats lowered to `new_total`, for `actor` with
/// `actor_role`, against the team's members (id, role) and seats now. Answers the seats as they
/// will be once the chosen members are gone.
pub fn check_reclaim(
    actor_role: Role,
    members: &[(Uuid, Role)],
    chosen: &[Uuid],
    seats: &Seats,
    new_total: u32,
) -> Result<Seats, ReclaimRefusal> {
    let mut seen = Vec::with_capacity(chosen.len());
    for id in chosen {
        if seen.contains(id) {
            return Err(ReclaimRefusal::NotAMember(*id));
        }
        let Some((_, role)) = members.iter().find(|(m, _)| m == id) else {
            return Err(ReclaimRefusal::NotAMember(*id));
        };
        if !may_remove(actor_role, *role) {
            return Err(ReclaimRefusal::MayNotRemove(*id));
        }
        seen.push(*id);
    }
    if new_total > seats.total {
        return Err(ReclaimRefusal::SeatsNotLower { total: seats.total });
    }
    let removed = u32::try_from(seen.len()).unwrap_or(u32::MAX);
    let after = Seats {
        total: seats.total,
        members: seats.members.saturating_sub(removed),
        pending_invites: seats.pending_invites,
    };
    after
        .check_resize(new_total)
        .map_err(ReclaimRefusal::Seats)?;
    Ok(Seats {
        total: new_total,
        ..after
    })
}

#[cfg(test)]
#[path = "idle_seats_tests.rs"]
mod tests;
