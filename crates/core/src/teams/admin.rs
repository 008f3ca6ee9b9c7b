//! Teams as an operator sees them (the CLI's `closewise teams ...`): any team, found by id or
//! name, read and changed by someone who is none of its members. An operator's removal and
//! transfer are the members' own commands taking `Actor::Operator` (with the owner's authority,
//! the most any member has: nobody removes the owner, ownership goes to another member); the
//! seats an operator records never go below members plus pending invites (`Seats::check_resize`,
//! under the team's lock). The checks here come first, to ask the operator before the change
//! with what the command would refuse.
//!
//! Every change is audited with the operator as actor and their reason; the row's details name
//! the team (`team_id`, `team`), which is how `team_audit` finds them.

use closewise_domain::subscription::SubscriptionStatus;
use closewise_domain::team_billing::has_live_subscription;
use closewise_domain::teams::{may_remove, Role, SeatError};
use closewise_domain::usage::month_start;
use serde_json::json;
use uuid::Uuid;

use super::{InviteView, MemberView, SeatsView, Teams};
use crate::actor::Actor;
use crate::store::audit::AuditRow;
use crate::store::teams::admin::TeamListRow;
use crate::store::teams::seats::SeatOutcome;
use crate::store::teams::{InviteRow, MemberRow, TeamRow};
use crate::store::UserRow;

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

/// A member as the views show them; `with_factor`: the team's members who have a second factor.
pub(super) fn member_view(m: MemberRow, with_factor: &[Uuid]) -> MemberView {
    MemberView {
        mfa: Some(with_factor.contains(&m.user_id)),
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

impl Teams {
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

    /// Records the team's seats (a team without a live Stripe subscription; see [`seats_route`])
    /// under its lock, never below members plus pending invites, with the audit row.
    pub async fn record_seats(
        &self,
        actor: &Actor,
        team: &TeamRow,
        seats: u32,
    ) -> Result<SeatsView, TeamsAdminError> {
        let details =
            json!({ "team": team.name, "before": team.seats(), "after": seats, "stripe": false });
        let audit = self.audit(actor, "team.seats", None, team.id, details);
        let now = self.clock.now();
        match self
            .store
            .set_team_seats_audited(team.id, seats, now, Some(&audit))
            .await?
        {
            SeatOutcome::Done(true) => {}
            // Paid for meanwhile: its seats are Stripe's now.
            SeatOutcome::Done(false) => return Err(TeamsAdminError::Changed(team.name.clone())),
            SeatOutcome::Refused(e) => return Err(TeamsAdminError::Seats(e)),
            SeatOutcome::NoTeam => return Err(TeamsAdminError::TeamNotFound(team.id.to_string())),
        }
        tracing::info!(team_id = %team.id, seats, actor = %audit.actor, "team seats set");
        self.seats_now(team.id).await
    }

    async fn seats_now(&self, team_id: Uuid) -> Result<SeatsView, TeamsAdminError> {
        let row = self
            .store
            .team_by_id(team_id)
            .await?
            .ok_or_else(|| TeamsAdminError::TeamNotFound(team_id.to_string()))?;
        Ok(self.store.team_seats(&row, self.clock.now()).await?.into())
    }
}
