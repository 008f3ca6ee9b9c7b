//! The members and invites lists a page at a time (docs/api.md "Teams"): `GET /api/team`
//! carries the first page of each with the cursor of the next, these the rest; and the adoption report
//! a page of members at a time with the whole team's totals. Same rules, same order (members as
//! they joined, invites as they were sent); the cursor is the last row's time (Unix nanoseconds)
//! and id.

use closewise_domain::catalogue::PRICE_CENTS;
use closewise_domain::idle_seats::{idle_cutoff, reclaim_offer};
use closewise_domain::team_billing::has_live_subscription;
use closewise_domain::teams::{may, Action, Role};
use closewise_domain::usage::month_start;
use time::OffsetDateTime;
use uuid::Uuid;

use super::admin::invite_view;
use super::adoption::{self, member_adoption, Adoption, AdoptionError, MemberAdoption};
use super::view::{member_permissions, InviteView, MemberView};
use super::Teams;
use crate::store::teams::pages::PageAfter;

/// Rows in a page unless the caller asks otherwise, and the most they may ask
/// (`AdoptionError::InvalidLimit` names the same bound).
pub const LIST_PAGE: i64 = 100;
pub const LIST_PAGE_MAX: i64 = super::adoption::ACTIVITY_PAGE_MAX;

/// Which page: after `cursor` (none: the first), `limit` rows.
#[derive(Clone, Copy, Debug, Default)]
pub struct PageQuery<'a> {
    pub cursor: Option<&'a str>,
    pub limit: Option<i64>,
}

/// A member of a page and what the caller may do to them.
#[derive(Clone, Debug)]
pub struct MemberLine {
    pub member: MemberView,
    pub may_remove: bool,
    pub may_change_role: bool,
}

#[derive(Clone, Debug)]
pub struct MembersPage {
    pub members: Vec<MemberLine>,
    /// Pass it back as `cursor` for the next page; None on the last one.
    pub next_cursor: Option<String>,
}

#[derive(Clone, Debug)]
pub struct InvitesPage {
    pub invites: Vec<InviteView>,
    pub next_cursor: Option<String>,
}

fn cursor(at: OffsetDateTime, id: Uuid) -> String {
    format!("{}.{}", at.unix_timestamp_nanos(), id.simple())
}

pub(super) fn parse_cursor(raw: Option<&str>) -> Result<Option<PageAfter>, AdoptionError> {
    let Some(raw) = raw.map(str::trim).filter(|c| !c.is_empty()) else {
        return Ok(None);
    };
    let (nanos, id) = raw.split_once('.').ok_or(AdoptionError::InvalidCursor)?;
    let nanos: i128 = nanos.parse().map_err(|_| AdoptionError::InvalidCursor)?;
    Ok(Some(PageAfter {
        at: OffsetDateTime::from_unix_timestamp_nanos(nanos)
            .map_err(|_| AdoptionError::InvalidCursor)?,
        id: Uuid::try_parse(id).map_err(|_| AdoptionError::InvalidCursor)?,
    }))
}

pub(super) fn limit(q: &PageQuery<'_>) -> Result<i64, AdoptionError> {
    let limit = q.limit.unwrap_or(LIST_PAGE);
    if !(1..=LIST_PAGE_MAX).contains(&limit) {
        return Err(AdoptionError::InvalidLimit);
    }
    Ok(limit)
}

/// Cuts the one row read beyond `limit` and answers the cursor after the page when it existed.
pub(super) fn page<T>(
    mut rows: Vec<T>,
    limit: i64,
    key: impl Fn(&T) -> (OffsetDateTime, Uuid),
) -> (Vec<T>, Option<String>) {
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    let more = rows.len() > limit;
    rows.truncate(limit);
    let next = if more {
        rows.last().map(|r| {
            let (at, id) = key(r);
            cursor(at, id)
        })
    } else {
        None
    };
    (rows, next)
}

impl Teams {
    /// A page of the caller's team's members, each with their calls this month; any member may
    /// read it, as `GET /api/team`'s list.
    pub async fn members_page(
        &self,
        user_id: Uuid,
        q: &PageQuery<'_>,
    ) -> Result<MembersPage, AdoptionError> {
        let limit = limit(q)?;
        let after = parse_cursor(q.cursor)?;
        let (team_id, role) = self.caller(user_id, Action::View).await?;
        Ok(self.members_of(team_id, role, after, limit).await?)
    }

    /// The page of `team_id`'s members after `after` as a caller with `role` sees them (also
    /// `GET /api/team`'s first page).
    pub(super) async fn members_of(
        &self,
        team_id: Uuid,
        role: Role,
        after: Option<PageAfter>,
        limit: i64,
    ) -> Result<MembersPage, sqlx::Error> {
        let since = month_start(self.clock.now());
        let rows = self
            .store
            .team_members_page(team_id, since, after, limit + 1)
            .await?;
        let (rows, next_cursor) = page(rows, limit, |r| (r.member.joined_at, r.member.user_id));
        let members = rows
            .into_iter()
            .map(|r| {
                let mfa = may(role, Action::ViewSecondFactors).then_some(r.mfa);
                let member = super::admin::member_view(r.member, &[]);
                let (may_remove, may_change_role) = member_permissions(role, member.role);
                MemberLine {
                    member: MemberView { mfa, ..member },
                    may_remove,
                    may_change_role,
                }
            })
            .collect();
        Ok(MembersPage {
            members,
            next_cursor,
        })
    }

    /// A page of the caller's team's open invites (expired ones included), oldest first: the
    /// owner's and admins' (`forbidden_role` for members, whose `GET /api/team` shows none).
    pub async fn invites_page(
        &self,
        user_id: Uuid,
        q: &PageQuery<'_>,
    ) -> Result<InvitesPage, AdoptionError> {
        let limit = limit(q)?;
        let after = parse_cursor(q.cursor)?;
        let (team_id, _) = self.caller(user_id, Action::Invite).await?;
        Ok(self.invites_of(team_id, after, limit).await?)
    }

    /// The page of `team_id`'s open invites after `after` (also `GET /api/team`'s first page).
    pub(super) async fn invites_of(
        &self,
        team_id: Uuid,
        after: Option<PageAfter>,
        limit: i64,
    ) -> Result<InvitesPage, sqlx::Error> {
        let now = self.clock.now();
        let rows = self
            .store
            .team_invites_page(team_id, after, limit + 1)
            .await?;
        let (rows, next_cursor) = page(rows, limit, |r| (r.created_at, r.id));
        Ok(InvitesPage {
            invites: rows.into_iter().map(|i| invite_view(i, now)).collect(),
            next_cursor,
        })
    }

    /// A page of the adoption report of `month` (`YYYY-MM`; default this month) and the month
    /// before it: the page's members (`q`, as the members list's pages), and the whole team's
    /// totals, seats and reclaim offer, whatever the page.
    pub async fn adoption(
        &self,
        user_id: Uuid,
        month: Option<&str>,
        q: &PageQuery<'_>,
    ) -> Result<Adoption, AdoptionError> {
        let limit = limit(q)?;
        let after = parse_cursor(q.cursor)?;
        let now = self.clock.now();
        let (month, window) = Self::adoption_window(month, now)?;
        let (team_id, role) = self.caller(user_id, Action::ViewAdoption).await?;
        let team = self.team(team_id).await?;
        let rows = self
            .store
            .team_adoption_page(team_id, &window, after, limit + 1)
            .await?;
        let (rows, next_cursor) = page(rows, limit, |r| (r.joined_at, r.user_id));
        let members: Vec<MemberAdoption> =
            rows.into_iter().map(|r| member_adoption(r, now)).collect();
        let cutoff = idle_cutoff(now);
        let totals = adoption::totals(
            self.store
                .team_adoption_totals(team_id, &window, cutoff)
                .await?,
        );
        let idle_user_ids = self.store.team_idle_members(team_id, cutoff).await?;
        let seats = self.store.team_seats(&team, now).await?;
        let reclaim = reclaim_offer(
            &seats,
            u32::try_from(idle_user_ids.len()).unwrap_or(u32::MAX),
            PRICE_CENTS,
        );
        let status = team
            .subscription_status
            .as_deref()
            .and_then(|s| closewise_domain::subscription::SubscriptionStatus::parse(s).ok());
        Ok(Adoption {
            month,
            members,
            next_cursor,
            totals,
            seats: seats.into(),
            reclaim,
            idle_user_ids,
            currency: "usd",
            may_reclaim: may(role, Action::ChangeSeats)
                && team.subscription_id.is_some()
                && has_live_subscription(status),
        })
    }
}
