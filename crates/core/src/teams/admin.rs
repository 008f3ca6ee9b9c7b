//! Teams as an operator sees them (the CLI's `closewise teams ...`): any team, found by id or
//! name, changed by someone who is none of its members. The member-facing [`crate::teams::Teams`]
//! starts from the caller's role; this service has no caller in the team, so it applies the rules
//! that hold whoever acts: nobody removes the owner (`teams::may_remove`, with the owner's own
//! authority, the most any member has), ownership goes to another member, and seats never go
//! below members plus pending invites (`Seats::check_resize`, under the team's lock).
//!
//! Every change is audited with the operator as actor; the row's details name the team
//! (`team_id`, `team`), which is how `team_audit` finds them.

use closewise_domain::subscription::SubscriptionStatus;
use closewise_domain::team_billing::has_live_subscription;
use closewise_domain::teams::{may_remove, Role, SeatError};
use closewise_domain::usage::month_start;
use serde_json::{json, Value};
use uuid::Uuid;

use super::{InviteView, MemberView, SeatsView};
use crate::clock::Clock;
use crate::store::audit::{AuditRow, NewAudit};
use crate::store::teams::admin::TeamListRow;
use crate::store::teams::removal::{Removal, SESSIONS_ENDED_REASON};
use crate::store::teams::seats::SeatOutcome;
use crate::store::teams::{InviteRow, MemberRow, TeamRow};
use crate::store::{Store, UserRow};

/// How many audit rows `detail` reads.
const AUDIT_ROWS: i64 = 20;

#[derive(Debug, thiserror::Error)]
pub enum TeamsAdminError {
    #[error("there is no team named or with the id {0:?}")]
    TeamNotFound(String),
    #[error("{} teams are named {name:?} ({}); name one by its id", ids.len(), list(ids))]
    AmbiguousName { name: String, ids: Vec<Uuid> },
    #[error("{email} is not a member of {team}")]
    NotAMember { email: String, team: String },
    #[error(
        "{email} owns {team} and cannot be removed: transfer the team to another member first"
    )]
    OwnerCannotBeRemoved { email: String, team: String },
    #[error("{email} already owns {team}")]
    AlreadyOwner { email: String, team: String },
    #[error("{0} changed meanwhile and nothing was done; look at it again")]
    Changed(String),
    #[error("{0}")]
    Seats(SeatError),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

fn list(ids: &[Uuid]) -> String {
    ids.iter()
        .map(Uuid::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl TeamsAdminError {
    pub fn code(&self) -> &'static str {
        match self {
            TeamsAdminError::TeamNotFound(_) => "team_not_found",
            TeamsAdminError::AmbiguousName { .. } => "ambiguous_team_name",
            TeamsAdminError::NotAMember { .. } => "not_a_member",
            TeamsAdminError::OwnerCannotBeRemoved { .. } => "owner_cannot_be_removed",
            TeamsAdminError::AlreadyOwner { .. } => "invalid_transfer",
            TeamsAdminError::Changed(_) => "team_changed",
            TeamsAdminError::Seats(e) => e.code(),
            TeamsAdminError::Database(_) => "internal",
        }
    }
}

/// A team in the list: its row, its owner's address and its seats now.
#[derive(Clone, Debug)]
pub struct TeamSummary {
    pub team: TeamRow,
    pub owner_email: String,
    pub seats: SeatsView,
}

/// Everything about one team: members with their calls this month, open invites (expired ones
/// flagged), seats, the subscription fields of its row, and its recent audit rows.
#[derive(Clone, Debug)]
pub struct TeamDetail {
    pub team: TeamRow,
    pub owner_email: String,
    pub seats: SeatsView,
    pub members: Vec<MemberView>,
    pub invites: Vec<InviteView>,
    pub audit: Vec<AuditRow>,
}

/// How a team's seats change: recorded here, or through its Stripe subscription (whose quantity
/// they are) when it has one that has not ended (`team_billing::has_live_subscription`), by
/// `Billing::set_team_seats`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatsRoute {
    Record,
    Stripe { subscription_id: String },
}

pub fn seats_route(team: &TeamRow) -> SeatsRoute {
    let status = team
        .subscription_status
        .as_deref()
        .and_then(|s| SubscriptionStatus::parse(s).ok());
    match &team.subscription_id {
        Some(id) if has_live_subscription(status) => SeatsRoute::Stripe {
            subscription_id: id.clone(),
        },
        _ => SeatsRoute::Record,
    }
}

#[derive(Clone)]
pub struct TeamsAdmin {
    store: Store,
    clock: Clock,
}

/// The audit row's details with the team named in them.
fn team_details(team: &TeamRow, mut audit: NewAudit, extra: Value) -> NewAudit {
    let mut details = json!({ "team_id": team.id, "team": team.name });
    if let (Some(d), Value::Object(extra)) = (details.as_object_mut(), extra) {
        d.extend(extra);
    }
    audit.details = details;
    audit
}

/// A member as the views show them; `with_factor`: the team's members who have a second factor.
pub(super) fn member_view(m: MemberRow, with_factor: &[Uuid]) -> MemberView {
    MemberView {
        mfa: with_factor.contains(&m.user_id),
        user_id: m.user_id,
        role: m.role(),
        email: m.email,
        joined_at: m.joined_at,
        calls_this_month: u32::try_from(m.calls_since.max(0)).unwrap_or(u32::MAX),
    }
}

pub(super) fn invite_view(i: InviteRow, now: time::OffsetDateTime) -> InviteView {
    InviteView {
        id: i.id,
        role: i.role(),
        expired: i.expired(now),
        email: i.email,
        created_at: i.created_at,
        expires_at: i.expires_at,
        last_sent_at: i.last_sent_at,
    }
}

impl TeamsAdmin {
    pub fn new(store: Store, clock: Clock) -> Self {
        TeamsAdmin { store, clock }
    }

    /// Teams, newest first, each with its seats now.
    pub async fn list(&self, limit: i64) -> Result<Vec<TeamSummary>, TeamsAdminError> {
        let now = self.clock.now();
        let mut out = Vec::new();
        for row in self.store.admin_teams(limit).await? {
            let seats = self.store.team_seats(&row.team, now).await?.into();
            out.push(TeamSummary {
                team: row.team,
                owner_email: row.owner_email,
                seats,
            });
        }
        Ok(out)
    }

    /// The team `raw` names: its id, else its name (case aside). Two teams of that name are
    /// ambiguous: the error lists their ids.
    pub async fn find(&self, raw: &str) -> Result<TeamListRow, TeamsAdminError> {
        if let Ok(id) = Uuid::parse_str(raw.trim()) {
            if let Some(team) = self.store.admin_team(id).await? {
                return Ok(team);
            }
        }
        let mut named = self.store.teams_named(raw).await?;
        match named.len() {
            0 => Err(TeamsAdminError::TeamNotFound(raw.trim().to_owned())),
            1 => Ok(named.remove(0)),
            _ => Err(TeamsAdminError::AmbiguousName {
                name: raw.trim().to_owned(),
                ids: named.iter().map(|t| t.team.id).collect(),
            }),
        }
    }

    /// The team's seats now (members and pending invites counted without a lock).
    pub async fn seats(&self, team: &TeamRow) -> Result<SeatsView, TeamsAdminError> {
        Ok(self.store.team_seats(team, self.clock.now()).await?.into())
    }

    pub async fn detail(&self, found: TeamListRow) -> Result<TeamDetail, TeamsAdminError> {
        let (team, now) = (found.team, self.clock.now());
        let seats = self.store.team_seats(&team, now).await?.into();
        let members = self.store.team_members(team.id, month_start(now)).await?;
        let (_, with_factor) = self.store.team_mfa(team.id).await?;
        let invites = self.store.open_team_invites(team.id).await?;
        let audit = self.store.team_audit(team.id, AUDIT_ROWS).await?;
        Ok(TeamDetail {
            owner_email: found.owner_email,
            seats,
            members: members
                .into_iter()
                .map(|m| member_view(m, &with_factor))
                .collect(),
            invites: invites.into_iter().map(|i| invite_view(i, now)).collect(),
            audit,
            team,
        })
    }

    /// The user's role in the team; someone in another team, or in none, is not a member.
    pub async fn role_of(&self, team: &TeamRow, user: &UserRow) -> Result<Role, TeamsAdminError> {
        match self.store.membership_of(user.id).await? {
            Some((id, role)) if id == team.id => Ok(role),
            _ => Err(TeamsAdminError::NotAMember {
                email: user.email.clone(),
                team: team.name.clone(),
            }),
        }
    }

    /// The member's role when they may be removed (anyone but the owner), to ask before it.
    pub async fn check_removal(
        &self,
        team: &TeamRow,
        user: &UserRow,
    ) -> Result<Role, TeamsAdminError> {
        let role = self.role_of(team, user).await?;
        if !may_remove(Role::Owner, role) {
            return Err(TeamsAdminError::OwnerCannotBeRemoved {
                email: user.email.clone(),
                team: team.name.clone(),
            });
        }
        Ok(role)
    }

    /// Removes a member (not the owner); their seat frees and every session of theirs ends.
    /// Returns the role they had.
    pub async fn remove_member(
        &self,
        team: &TeamRow,
        user: &UserRow,
        audit: NewAudit,
    ) -> Result<Role, TeamsAdminError> {
        let role = self.check_removal(team, user).await?;
        let audit = team_details(team, audit, json!({ "role": role.as_str() }));
        let how = Removal::ByOperator {
            reason: SESSIONS_ENDED_REASON,
        };
        if !self
            .store
            .remove_from_team(team.id, user.id, how, Some(&audit), self.clock.now())
            .await?
        {
            // Gone or made the owner meanwhile.
            return Err(TeamsAdminError::Changed(team.name.clone()));
        }
        tracing::info!(team_id = %team.id, user_id = %user.id, actor = %audit.actor, "team member removed");
        Ok(role)
    }

    /// The role of `to` when the team may be transferred to them: another of its members.
    pub async fn check_transfer(
        &self,
        team: &TeamRow,
        to: &UserRow,
    ) -> Result<Role, TeamsAdminError> {
        let role = self.role_of(team, to).await?;
        if role == Role::Owner || team.owner_id == to.id {
            return Err(TeamsAdminError::AlreadyOwner {
                email: to.email.clone(),
                team: team.name.clone(),
            });
        }
        Ok(role)
    }

    /// Makes `to`, a member of the team, its owner; the owner becomes an admin.
    pub async fn transfer(
        &self,
        team: &TeamRow,
        owner_email: &str,
        to: &UserRow,
        audit: NewAudit,
    ) -> Result<(), TeamsAdminError> {
        let role = self.check_transfer(team, to).await?;
        let audit = team_details(
            team,
            audit,
            json!({ "from": owner_email, "from_user_id": team.owner_id, "to": to.email, "to_role": role.as_str() }),
        );
        let now = self.clock.now();
        if !self
            .store
            .transfer_team(team.id, team.owner_id, to.id, now, Some(&audit))
            .await?
        {
            // Another transfer or a removal came first: nothing was written.
            return Err(TeamsAdminError::Changed(team.name.clone()));
        }
        tracing::info!(team_id = %team.id, to = %to.id, actor = %audit.actor, "team transferred");
        Ok(())
    }

    /// Records the team's seats (a team without a live Stripe subscription; see [`seats_route`])
    /// under its lock, never below members plus pending invites, then the audit row.
    pub async fn record_seats(
        &self,
        team: &TeamRow,
        seats: u32,
        audit: NewAudit,
    ) -> Result<SeatsView, TeamsAdminError> {
        let now = self.clock.now();
        match self.store.set_team_seats(team.id, seats, now).await? {
            SeatOutcome::Done(true) => {}
            // Paid for meanwhile: its seats are Stripe's now.
            SeatOutcome::Done(false) => return Err(TeamsAdminError::Changed(team.name.clone())),
            SeatOutcome::Refused(e) => return Err(TeamsAdminError::Seats(e)),
            SeatOutcome::NoTeam => return Err(TeamsAdminError::TeamNotFound(team.id.to_string())),
        }
        self.seats_changed(team, seats, false, audit).await
    }

    /// Writes the `team.seats` audit row of a change made (recorded, or through Stripe by the
    /// billing service) and answers the seats now.
    pub async fn seats_changed(
        &self,
        team: &TeamRow,
        seats: u32,
        stripe: bool,
        audit: NewAudit,
    ) -> Result<SeatsView, TeamsAdminError> {
        let audit = team_details(
            team,
            audit,
            json!({ "before": team.seats(), "after": seats, "stripe": stripe }),
        );
        self.store.record_audit(&audit).await?;
        tracing::info!(team_id = %team.id, seats, actor = %audit.actor, "team seats set");
        let now = self.clock.now();
        let row = self
            .store
            .team_by_id(team.id)
            .await?
            .ok_or_else(|| TeamsAdminError::TeamNotFound(team.id.to_string()))?;
        Ok(self.store.team_seats(&row, now).await?.into())
    }
}
