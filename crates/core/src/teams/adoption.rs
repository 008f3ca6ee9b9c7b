//! Adoption and seats (docs/teams.md "Adoption, idle seats and activity"), for the team's owner
//! and admins (`teams::Action::ViewAdoption`, `ViewActivity`): each member's calls and minutes from
//! the call meter this month and last, last activity, devices and second factor, who is idle and
//! what reclaiming would save; and the team's activity, its audit trail, a page at a time or
//! whole for an export.

use closewise_domain::idle_seats::{minutes, seat_use, InvalidMonth, Month, ReclaimOffer, SeatUse};
use closewise_domain::teams::{Action, Role};
use time::OffsetDateTime;
use uuid::Uuid;

use super::{SeatsView, Teams, TeamsError};
use crate::store::audit::AuditRow;
use crate::store::teams::adoption::{AdoptionRow, AdoptionTotalsRow, AdoptionWindow, AuditCursor};

/// Rows in a page of activity unless the caller asks otherwise, and the most they may ask.
pub const ACTIVITY_PAGE: i64 = 50;
pub const ACTIVITY_PAGE_MAX: i64 = 500;
/// The most rows an export carries (newest first).
pub const ACTIVITY_EXPORT_MAX: usize = 50_000;
/// The most actions one filter names.
const MAX_ACTIONS: usize = 20;

#[derive(Debug, thiserror::Error)]
pub enum AdoptionError {
    #[error(transparent)]
    Teams(TeamsError),
    #[error("{0}")]
    InvalidMonth(InvalidMonth),
    #[error("This cursor did not come from this list. Start again from the first page.")]
    InvalidCursor,
    #[error("limit must be between 1 and {ACTIVITY_PAGE_MAX}")]
    InvalidLimit,
    #[error("action must be audit actions such as team.seats, separated by commas")]
    InvalidAction,
}

impl AdoptionError {
    pub fn code(&self) -> &'static str {
        match self {
            AdoptionError::Teams(e) => e.code(),
            AdoptionError::InvalidMonth(e) => e.code(),
            AdoptionError::InvalidCursor => "invalid_cursor",
            AdoptionError::InvalidLimit => "invalid_limit",
            AdoptionError::InvalidAction => "invalid_action",
        }
    }
}

impl From<TeamsError> for AdoptionError {
    fn from(e: TeamsError) -> Self {
        AdoptionError::Teams(e)
    }
}

impl From<sqlx::Error> for AdoptionError {
    fn from(e: sqlx::Error) -> Self {
        AdoptionError::Teams(TeamsError::Database(e))
    }
}

/// One member's line of the report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberAdoption {
    pub user_id: Uuid,
    pub email: String,
    pub role: Role,
    pub joined_at: OffsetDateTime,
    /// The newest of their last call and their last use of a session.
    pub last_active_at: Option<OffsetDateTime>,
    pub last_call_at: Option<OffsetDateTime>,
    /// New, active or idle as of now (`idle_seats::seat_use`), whatever month is shown.
    pub state: SeatUse,
    /// `state` is idle: 30 days in the team without a call and without a sign-in.
    pub idle: bool,
    pub calls_this_month: u64,
    pub minutes_this_month: u64,
    pub calls_last_month: u64,
    pub minutes_last_month: u64,
    pub devices: u64,
    pub second_factor: bool,
}

/// The sums of every member's lines, the whole team's (not a page's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AdoptionTotals {
    pub members: u64,
    pub idle: u64,
    /// Members who joined less than 30 days ago.
    pub new: u64,
    pub calls_this_month: u64,
    pub minutes_this_month: u64,
    pub calls_last_month: u64,
    pub minutes_last_month: u64,
    pub devices: u64,
    pub second_factor: u64,
}

/// A page of the adoption report: some members' lines, the whole team's totals and reclaim offer.
#[derive(Clone, Debug)]
pub struct Adoption {
    pub month: Month,
    /// This page's members, in the order they joined.
    pub members: Vec<MemberAdoption>,
    /// Pass it back as `cursor` for the next page; None on the last one.
    pub next_cursor: Option<String>,
    pub totals: AdoptionTotals,
    pub seats: SeatsView,
    /// Reclaiming the idle members who may be removed (not the owner), at the seat price.
    pub reclaim: ReclaimOffer,
    /// Those members, the whole team's, in the order they joined.
    pub idle_user_ids: Vec<Uuid>,
    pub currency: &'static str,
    /// The caller may reclaim: they may change seats and the team has a subscription.
    pub may_reclaim: bool,
}

/// What a page of activity shows: only `actions` (none: all), after `cursor`, `limit` rows.
#[derive(Clone, Debug, Default)]
pub struct ActivityQuery<'a> {
    pub cursor: Option<&'a str>,
    pub limit: Option<i64>,
    /// Comma-separated audit actions (`team.seats,team.member_remove`).
    pub action: Option<&'a str>,
}

#[derive(Clone, Debug)]
pub struct ActivityPage {
    pub entries: Vec<AuditRow>,
    /// Pass it back as `cursor` for the next page; None on the last one.
    pub next_cursor: Option<String>,
}

/// The adoption window of `month` (and the month before it) at `now`.
pub fn window(month: Month, now: OffsetDateTime) -> AdoptionWindow {
    AdoptionWindow {
        month: month.to_string(),
        previous_month: month.previous().to_string(),
        now,
    }
}

fn count(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

/// A member's line from their row, with idleness as of `now`.
pub fn member_adoption(row: AdoptionRow, now: OffsetDateTime) -> MemberAdoption {
    let last_active_at = match (row.last_call_at, row.last_seen_at) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    };
    let state = seat_use(row.joined_at, row.last_call_at, row.last_seen_at, now);
    MemberAdoption {
        role: Role::parse(&row.role).unwrap_or(Role::Member),
        state,
        idle: state == SeatUse::Idle,
        user_id: row.user_id,
        email: row.email,
        joined_at: row.joined_at,
        last_active_at,
        last_call_at: row.last_call_at,
        calls_this_month: count(row.calls_month),
        minutes_this_month: minutes(row.seconds_month),
        calls_last_month: count(row.calls_previous),
        minutes_last_month: minutes(row.seconds_previous),
        devices: count(row.devices),
        second_factor: row.factors > 0,
    }
}

pub(super) fn totals(t: AdoptionTotalsRow) -> AdoptionTotals {
    AdoptionTotals {
        members: count(t.members),
        idle: count(t.idle),
        new: count(t.new_members),
        calls_this_month: count(t.calls_month),
        minutes_this_month: count(t.minutes_month),
        calls_last_month: count(t.calls_previous),
        minutes_last_month: count(t.minutes_previous),
        devices: count(t.devices),
        second_factor: count(t.second_factor),
    }
}

/// The cursor after `row`: its time (Unix nanoseconds) and id.
pub fn cursor_of(row: &AuditRow) -> String {
    format!(
        "{}.{}",
        row.created_at.unix_timestamp_nanos(),
        row.id.simple()
    )
}

fn parse_cursor(raw: &str) -> Result<AuditCursor, AdoptionError> {
    let (nanos, id) = raw
        .trim()
        .split_once('.')
        .ok_or(AdoptionError::InvalidCursor)?;
    let nanos: i128 = nanos.parse().map_err(|_| AdoptionError::InvalidCursor)?;
    Ok(AuditCursor {
        created_at: OffsetDateTime::from_unix_timestamp_nanos(nanos)
            .map_err(|_| AdoptionError::InvalidCursor)?,
        id: Uuid::try_parse(id).map_err(|_| AdoptionError::InvalidCursor)?,
    })
}

/// `team.seats,team.member_remove`: dotted lower-case words, at most 20.
pub fn parse_actions(raw: Option<&str>) -> Result<Vec<String>, AdoptionError> {
    let Some(raw) = raw.map(str::trim).filter(|r| !r.is_empty()) else {
        return Ok(Vec::new());
    };
    let actions: Vec<String> = raw.split(',').map(|a| a.trim().to_owned()).collect();
    let valid = |a: &String| {
        !a.is_empty()
            && a.len() <= 64
            && a.split('.')
                .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'))
    };
    if actions.len() > MAX_ACTIONS || !actions.iter().all(valid) {
        return Err(AdoptionError::InvalidAction);
    }
    Ok(actions)
}

impl Teams {
    /// `month` (`YYYY-MM`; default this month) and its window at `now`.
    pub(super) fn adoption_window(
        month: Option<&str>,
        now: OffsetDateTime,
    ) -> Result<(Month, AdoptionWindow), AdoptionError> {
        let month = match month.map(str::trim).filter(|m| !m.is_empty()) {
            Some(raw) => Month::parse(raw).map_err(AdoptionError::InvalidMonth)?,
            None => Month::of(now),
        };
        Ok((month, window(month, now)))
    }

    /// Every member's line of `month`'s report, in the order they joined: the CSV export.
    pub async fn adoption_export(
        &self,
        user_id: Uuid,
        month: Option<&str>,
    ) -> Result<(Month, Vec<MemberAdoption>), AdoptionError> {
        let now = self.clock.now();
        let (month, window) = Self::adoption_window(month, now)?;
        let (team_id, _) = self.caller(user_id, Action::ViewAdoption).await?;
        let rows = self.store.team_adoption_all(team_id, &window).await?;
        Ok((
            month,
            rows.into_iter().map(|r| member_adoption(r, now)).collect(),
        ))
    }

    /// A page of the team's activity, newest first.
    pub async fn activity(
        &self,
        user_id: Uuid,
        query: &ActivityQuery<'_>,
    ) -> Result<ActivityPage, AdoptionError> {
        let limit = query.limit.unwrap_or(ACTIVITY_PAGE);
        if !(1..=ACTIVITY_PAGE_MAX).contains(&limit) {
            return Err(AdoptionError::InvalidLimit);
        }
        let actions = parse_actions(query.action)?;
        let cursor = match query.cursor.map(str::trim).filter(|c| !c.is_empty()) {
            Some(raw) => Some(parse_cursor(raw)?),
            None => None,
        };
        let (team_id, _) = self.caller(user_id, Action::ViewActivity).await?;
        // One more than asked: whether a next page exists.
        let mut entries = self
            .store
            .team_audit_page(team_id, &actions, cursor, limit + 1)
            .await?;
        let more = entries.len() > usize::try_from(limit).unwrap_or(usize::MAX);
        entries.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
        let next_cursor = more.then(|| entries.last().map(cursor_of)).flatten();
        Ok(ActivityPage {
            entries,
            next_cursor,
        })
    }

    /// The team's whole activity with `action` (none: all), newest first, up to
    /// [`ACTIVITY_EXPORT_MAX`] rows: what the CSV and JSON-lines exports carry.
    pub async fn activity_export(
        &self,
        user_id: Uuid,
        action: Option<&str>,
    ) -> Result<Vec<AuditRow>, AdoptionError> {
        let actions = parse_actions(action)?;
        let (team_id, _) = self.caller(user_id, Action::ViewActivity).await?;
        let mut out: Vec<AuditRow> = Vec::new();
        let mut cursor = None;
        while out.len() < ACTIVITY_EXPORT_MAX {
            let page = self
                .store
                .team_audit_page(team_id, &actions, cursor, ACTIVITY_PAGE_MAX)
                .await?;
            let last = page.len() < usize::try_from(ACTIVITY_PAGE_MAX).unwrap_or(usize::MAX);
            cursor = page.last().map(|r| AuditCursor {
                created_at: r.created_at,
                id: r.id,
            });
            out.extend(page);
            if last {
                break;
            }
        }
        out.truncate(ACTIVITY_EXPORT_MAX);
        Ok(out)
    }
}
