//! The teams service (docs/teams.md): a team, its members and roles, invitations by e-mail and the
//! seats they hold. The rules are `closewise_domain::teams`'s (who may do what, who removes whom,
//! seat arithmetic, invite lifetime, a member's paid access); this service finds the caller's team
//! and role, applies them and stores the outcome. Every operation starts from the caller: another
//! team's member or invite is `team_not_found`, never "forbidden".
//!
//! Seats are bought and changed through Stripe ([`billing`]); an operator records those of a team
//! Stripe does not bill ([`admin`]).

use closewise_domain::email::EmailError;
use closewise_domain::policy::PolicyError;
use closewise_domain::subscription::SubscriptionStatus;
use closewise_domain::teams::{may, member_is_paid, team_name, Action, Role, SeatError};
use uuid::Uuid;

use crate::clock::Clock;
use crate::store::teams::seats::SeatOutcome;
use crate::store::teams::TeamRow;
use crate::store::Store;

pub mod admin;
pub mod adoption;
pub mod billing;
pub mod idle_mail;
mod invites;
mod join;
mod members;
pub mod pages;
mod policy;
mod view;

pub use join::JoinRequestView;
pub use policy::PolicyView;
pub use view::{
    Invitation, InviteLookup, InviteView, MemberView, SeatsView, TeamSubscription, TeamView,
};

/// Why a team operation did not happen. `code()` is the machine code; the message is the user's.
#[derive(Debug, thiserror::Error)]
pub enum TeamsError {
    #[error("There is no such team.")]
    TeamNotFound,
    #[error("Your role in the team does not allow this.")]
    ForbiddenRole,
    #[error("You are already in a team. Leave it before joining or creating another.")]
    AlreadyInTeam,
    #[error("{0}")]
    Seats(SeatError),
    /// The invited address is a member of the team already (the inviter sees the members anyway).
    #[error("{0} is already a member of this team.")]
    AlreadyMember(String),
    #[error("This invitation does not exist or was withdrawn.")]
    InviteNotFound,
    #[error("This invitation has expired. Ask the team for a new one.")]
    InviteExpired,
    #[error("This invitation has already been used.")]
    InviteUsed,
    #[error(
        "This invitation is for another e-mail address. Sign in with the address it was sent to."
    )]
    InviteOtherAddress,
    #[error("Please verify your e-mail address first.")]
    EmailNotVerified,
    #[error("{0}")]
    InvalidName(&'static str),
    #[error("{0}")]
    InvalidEmail(EmailError),
    #[error("An invitation makes someone an admin or a member.")]
    InvalidRole,
    #[error("Ownership goes to another member of the team.")]
    InvalidTransfer,
    /// Domain join needs one of the team's verified domains (never a public mail domain).
    #[error("Domain join works only for one of your team's verified domains. Add and verify it under Security first.")]
    DomainNotAllowed,
    /// A policy field is wrong; the message names it (`retention_days: must be 0, 7, 30 or 90.`).
    #[error("{0}")]
    InvalidPolicy(PolicyError),
    /// Require SSO without single sign-on set up.
    #[error("Set up single sign-on first: Require SSO signs your team in through it.")]
    SsoNotConfigured,
    /// The team's directory (SCIM) deactivated the address: no way into the team (SSO, an
    /// invitation, a join request) until it reactivates them.
    #[error("The team's directory has deactivated this account: it joins the team again once the directory reactivates it.")]
    DeactivatedByDirectory,
    /// Turning Require 2FA or Require SSO on or off without a recent step-up on the session.
    #[error("Please confirm your password to continue.")]
    StepUpRequired,
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

impl TeamsError {
    pub fn code(&self) -> &'static str {
        match self {
            TeamsError::TeamNotFound => "team_not_found",
            TeamsError::ForbiddenRole => "forbidden_role",
            TeamsError::AlreadyInTeam => "already_in_team",
            TeamsError::AlreadyMember(_) => "already_member",
            TeamsError::Seats(e) => e.code(),
            TeamsError::InviteNotFound => "invite_not_found",
            TeamsError::InviteExpired => "invite_expired",
            TeamsError::InviteUsed => "invite_used",
            TeamsError::InviteOtherAddress => "invite_other_address",
            TeamsError::EmailNotVerified => "email_not_verified",
            TeamsError::InvalidName(_) => "invalid_team_name",
            TeamsError::InvalidEmail(_) => "invalid_email",
            TeamsError::InvalidRole => "invalid_role",
            TeamsError::InvalidTransfer => "invalid_transfer",
            TeamsError::DomainNotAllowed => "domain_not_allowed",
            TeamsError::InvalidPolicy(_) => "invalid_policy",
            TeamsError::SsoNotConfigured => "sso_not_configured",
            TeamsError::DeactivatedByDirectory => "deactivated_by_directory",
            TeamsError::StepUpRequired => "reauthentication_required",
            TeamsError::Database(_) => "internal",
        }
    }
}

#[derive(Clone)]
pub struct Teams {
    store: Store,
    clock: Clock,
}

/// A row count as the views show it.
fn count(n: i64) -> u32 {
    u32::try_from(n.max(0)).unwrap_or(u32::MAX)
}

/// False from the store: nothing by that id in the caller's team.
fn found(done: bool) -> Result<(), TeamsError> {
    done.then_some(()).ok_or(TeamsError::TeamNotFound)
}

fn seats_result<T>(outcome: SeatOutcome<T>) -> Result<T, TeamsError> {
    match outcome {
        SeatOutcome::Done(t) => Ok(t),
        SeatOutcome::Refused(e) => Err(TeamsError::Seats(e)),
        SeatOutcome::NoTeam => Err(TeamsError::TeamNotFound),
    }
}

impl Teams {
    pub fn new(store: Store, clock: Clock) -> Self {
        Teams { store, clock }
    }

    /// The caller's team and role when their role allows `action`.
    /// The caller's team and role when the role allows `action` (`teams::may`); in no team: not
    /// found. No side effects: the API asks before it spends a rate limit on the caller's behalf.
    pub async fn caller(&self, user_id: Uuid, action: Action) -> Result<(Uuid, Role), TeamsError> {
        let (team_id, role) = self
            .store
            .membership_of(user_id)
            .await?
            .ok_or(TeamsError::TeamNotFound)?;
        if !may(role, action) {
            return Err(TeamsError::ForbiddenRole);
        }
        Ok((team_id, role))
    }

    /// The role of `user_id` in `team_id`; someone in another team (or none) is not found.
    async fn role_in(&self, team_id: Uuid, user_id: Uuid) -> Result<Role, TeamsError> {
        match self.store.membership_of(user_id).await? {
            Some((team, role)) if team == team_id => Ok(role),
            _ => Err(TeamsError::TeamNotFound),
        }
    }

    async fn team(&self, team_id: Uuid) -> Result<TeamRow, TeamsError> {
        self.store
            .team_by_id(team_id)
            .await?
            .ok_or(TeamsError::TeamNotFound)
    }

    /// Creates a team with the caller as its owner (holding its first seat; seats are 0 until
    /// bought). A user in a team already is refused.
    pub async fn create(&self, user_id: Uuid, name: &str) -> Result<TeamView, TeamsError> {
        let name = team_name(name).map_err(TeamsError::InvalidName)?;
        let created = self
            .store
            .create_team(Uuid::now_v7(), &name, user_id, self.clock.now())
            .await?;
        if !created {
            return Err(TeamsError::AlreadyInTeam);
        }
        self.view(user_id).await
    }

    /// The caller's team, seats, the counts of its members and open invites, and the first page of
    /// each list (issue 28: a team of a thousand is read a page at a time, `pages`): the members
    /// with their calls this month, and (for admins and the owner) the open invites.
    pub async fn view(&self, user_id: Uuid) -> Result<TeamView, TeamsError> {
        let (team_id, role) = self.caller(user_id, Action::View).await?;
        let team = self.team(team_id).await?;
        let now = self.clock.now();
        let seats = self.store.team_seats(&team, now).await?;
        let counts = self
            .store
            .team_counts(team_id)
            .await?
            .ok_or(TeamsError::TeamNotFound)?;
        let members = self
            .members_of(team_id, role, None, pages::LIST_PAGE)
            .await?;
        let invites = if may(role, Action::Invite) {
            self.invites_of(team_id, None, pages::LIST_PAGE).await?
        } else {
            pages::InvitesPage {
                invites: Vec::new(),
                next_cursor: None,
            }
        };
        let invites_count = if may(role, Action::Invite) {
            counts.open_invites
        } else {
            0
        };
        let status = team.subscription_status.as_deref();
        let paid = member_is_paid(status.and_then(|s| SubscriptionStatus::parse(s).ok()));
        let personal_subscription_overlap = paid
            && self
                .store
                .subscription_of(user_id)
                .await?
                .is_some_and(|s| s.counts_as_subscribed());
        Ok(TeamView {
            id: team.id,
            name: team.name,
            role,
            seats: seats.into(),
            subscription: status.map(|status| TeamSubscription {
                status: status.to_owned(),
                current_period_end: team.current_period_end,
                cancel_at_period_end: team.cancel_at_period_end,
            }),
            paid,
            personal_subscription_overlap,
            subscription_status: team.subscription_status,
            join_domain: team.join_domain,
            domain_join_offer: self.domain_join_offer(user_id, role).await?,
            members: members.members.into_iter().map(|l| l.member).collect(),
            members_next: members.next_cursor,
            members_count: count(counts.members),
            members_with_mfa: count(counts.with_mfa),
            invites: invites.invites,
            invites_next: invites.next_cursor,
            invites_count: count(invites_count),
            owner_email: counts.owner_email,
            mfa_required: counts.require_mfa,
        })
    }

    pub async fn rename(&self, user_id: Uuid, name: &str) -> Result<TeamView, TeamsError> {
        let (team_id, _) = self.caller(user_id, Action::Rename).await?;
        let name = team_name(name).map_err(TeamsError::InvalidName)?;
        found(
            self.store
                .rename_team(team_id, &name, self.clock.now())
                .await?,
        )?;
        self.view(user_id).await
    }

    /// The owner requires (or stops requiring) a second factor of every member, with a recent
    /// step-up on the session (`stepped_up`, from `crate::reauth`; `StepUpRequired` without it).
    pub async fn set_mfa_policy(
        &self,
        user_id: Uuid,
        required: bool,
        stepped_up: bool,
    ) -> Result<(), TeamsError> {
        let (team_id, _) = self.caller(user_id, Action::RequireMfa).await?;
        if !stepped_up {
            return Err(TeamsError::StepUpRequired);
        }
        self.store
            .set_team_require_mfa(team_id, required, self.clock.now())
            .await?;
        Ok(())
    }

    /// Whether the user gets paid access through a team: they hold a seat in a team whose
    /// subscription counts as subscribed (`teams::member_is_paid`). Computed at each call.
    pub async fn member_paid(&self, user_id: Uuid) -> Result<bool, TeamsError> {
        let status = self.store.team_subscription_of_member(user_id).await?;
        let status = status
            .flatten()
            .and_then(|s| SubscriptionStatus::parse(&s).ok());
        Ok(member_is_paid(status))
    }
}
