//! The teams service (docs/teams.md): a team, its members and roles, invitations by e-mail and the
//! seats they hold. The rules are `closewise_domain::teams`'s (who may do what, who removes whom,
//! seat arithmetic, invite lifetime, a member's paid access); this service finds the caller's team
//! and role, applies them and stores the outcome. Every operation starts from the caller: another
//! team's member or invite is `team_not_found`, never "forbidden".
//!
//! Every change is one command taking the [`Actor`] who makes it: a member acts by their role in
//! their own team, an operator on any team by the rules that hold whoever acts ([`admin`]). The
//! command checks the rules, then writes the change with its audit row (and, for an invitation,
//! its mail) in one transaction, and answers what the caller shows.
//!
//! Seats are bought and changed through Stripe ([`billing`]); an operator records those of a team
//! Stripe does not bill ([`admin`]).

use closewise_domain::email::EmailError;
use closewise_domain::policy::PolicyError;
use closewise_domain::subscription::SubscriptionStatus;
use closewise_domain::teams::{may, member_is_paid, team_name, Action, Role, SeatError};
use serde_json::json;
use uuid::Uuid;

use crate::actor::Actor;
use crate::clock::Clock;
use crate::limits::{LimitError, Limits};
use crate::mail::Composer;
use crate::store::audit::NewAudit;
use crate::store::teams::seats::SeatOutcome;
use crate::store::teams::TeamRow;
use crate::store::Store;

pub mod acting;
pub mod addressed;
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
pub use policy::TeamPolicyView;
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
    /// A SCIM token's name (`scim::token_name`).
    #[error("{0}")]
    InvalidTokenName(&'static str),
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
    /// A budget the command spends on the actor's behalf is spent (`crate::limits`).
    #[error(transparent)]
    Limited(#[from] LimitError),
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
            TeamsError::InvalidTokenName(_) => "invalid_token_name",
            TeamsError::InvalidEmail(_) => "invalid_email",
            TeamsError::InvalidRole => "invalid_role",
            TeamsError::InvalidTransfer => "invalid_transfer",
            TeamsError::DomainNotAllowed => "domain_not_allowed",
            TeamsError::InvalidPolicy(_) => "invalid_policy",
            TeamsError::SsoNotConfigured => "sso_not_configured",
            TeamsError::DeactivatedByDirectory => "deactivated_by_directory",
            TeamsError::StepUpRequired => "reauthentication_required",
            TeamsError::Limited(LimitError::Limited { .. }) => "rate_limited",
            TeamsError::Limited(LimitError::Database(_)) | TeamsError::Database(_) => "internal",
        }
    }
}

#[derive(Clone)]
pub struct Teams {
    store: Store,
    clock: Clock,
    mail: Composer,
    limits: Limits,
}

/// Where a change is made and with what authority: the member's team and role, or for an
/// operator the team they named with the owner's authority, the most any member has (the rules
/// that hold whoever acts still hold: nobody removes the owner).
#[derive(Clone, Copy, Debug)]
struct Acting {
    team_id: Uuid,
    role: Role,
    /// The member acting; None for an operator.
    member: Option<Uuid>,
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
    /// `mail` composes the invitations; `limits` holds the budgets an invitation spends (the CLI's
    /// operators: `limits::unlimited()`).
    pub fn new(store: Store, clock: Clock, mail: Composer, limits: Limits) -> Self {
        Teams {
            store,
            clock,
            mail,
            limits,
        }
    }

    /// The team `actor` changes and their authority there, when it allows `action`: a member's
    /// own team (naming another is not found), an operator's named team. Anyone else acts on no
    /// team through this service.
    async fn acting(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        action: Action,
    ) -> Result<Acting, TeamsError> {
        match actor {
            Actor::Member { user_id, .. } => {
                let (team_id, role) = self.caller(*user_id, action).await?;
                if team.is_some_and(|t| t != team_id) {
                    return Err(TeamsError::TeamNotFound);
                }
                Ok(Acting {
                    team_id,
                    role,
                    member: Some(*user_id),
                })
            }
            Actor::Operator { .. } => {
                let team_id = self.team(team.ok_or(TeamsError::TeamNotFound)?).await?.id;
                Ok(Acting {
                    team_id,
                    role: Role::Owner,
                    member: None,
                })
            }
            Actor::Directory { .. } | Actor::System { .. } | Actor::SetupLink { .. } => {
                Err(TeamsError::ForbiddenRole)
            }
        }
    }

    /// The signed-in member making a change of their own (creating, joining, leaving).
    fn member(actor: &Actor) -> Result<Uuid, TeamsError> {
        actor.user_id().ok_or(TeamsError::ForbiddenRole)
    }

    /// The audit row of `actor`'s change to `team_id`: `details` name the team.
    fn audit(
        &self,
        actor: &Actor,
        action: &'static str,
        about: Option<(Uuid, String)>,
        team_id: Uuid,
        details: serde_json::Value,
    ) -> NewAudit {
        let mut all = serde_json::json!({ "team_id": team_id });
        if let (Some(all), serde_json::Value::Object(extra)) = (all.as_object_mut(), details) {
            all.extend(extra);
        }
        let (about, email) = about.map_or((None, None), |(id, e)| (Some(id), Some(e)));
        actor.audit(action, about, email, all, self.clock.now())
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

    /// Creates a team with the member as its owner (holding its first seat; seats are 0 until
    /// bought), for a verified address (read from the database, not the token). A user in a team
    /// already is refused.
    pub async fn create(&self, actor: &Actor, name: &str) -> Result<TeamView, TeamsError> {
        let user_id = Self::member(actor)?;
        let verified = self
            .store
            .user_by_id(user_id)
            .await?
            .is_some_and(|u| u.email_confirmed_at.is_some());
        if !verified {
            return Err(TeamsError::EmailNotVerified);
        }
        let name = team_name(name).map_err(TeamsError::InvalidName)?;
        let id = Uuid::now_v7();
        let audit = self.audit(actor, "team.create", None, id, json!({ "name": name }));
        let created = self
            .store
            .create_team(id, &name, user_id, self.clock.now(), Some(&audit))
            .await?;
        if !created {
            return Err(TeamsError::AlreadyInTeam);
        }
        self.view(user_id).await
    }

    /// The caller's team, seats, the counts of its members and open invites, and the first page of
    /// each list (a team of a thousand is read a page at a time, `pages`): the members
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
        let personal_subscription = self
            .store
            .subscription_of(user_id)
            .await?
            .is_some_and(|s| s.counts_as_subscribed());
        let personal_subscription_overlap = paid && personal_subscription;
        let payment_failure = match &team.subscription_id {
            Some(sub) => self.store.payment_failure(sub).await?,
            None => None,
        };
        let cancellation_reason = match &team.subscription_id {
            Some(id) if team.cancel_at_period_end => self.store.cancellation_reason(id).await?,
            _ => None,
        };
        Ok(TeamView {
            id: team.id,
            name: team.name,
            role,
            seats: seats.into(),
            subscription: status.map(|status| TeamSubscription {
                status: status.to_owned(),
                trial_end: (status == "trialing")
                    .then_some(team.current_period_end)
                    .flatten(),
                current_period_end: team.current_period_end,
                cancel_at_period_end: team.cancel_at_period_end,
                price_id: team.price_id.clone(),
                discount: crate::store::billing::discount_of(team.discount.as_deref()),
                payment_failure,
                cancellation_reason,
            }),
            paid,
            personal_subscription,
            personal_subscription_overlap,
            subscription_status: team.subscription_status,
            join_domain: team.join_domain,
            domain_join_offer: self.domain_join_offer(user_id, role).await?,
            members: members.members.into_iter().map(|l| l.member).collect(),
            members_next: members.next_cursor,
            members_count: count(counts.members),
            members_with_mfa: may(role, Action::ViewSecondFactors).then(|| count(counts.with_mfa)),
            invites: invites.invites,
            invites_next: invites.next_cursor,
            invites_count: count(invites_count),
            owner_email: counts.owner_email,
            mfa_required: counts.require_mfa,
            had_trial: may(role, Action::StartCheckout)
                && self
                    .store
                    .had_team_trial(team.id, team.owner_id, team.stripe_customer_id.as_deref())
                    .await?,
        })
    }

    pub async fn rename(&self, actor: &Actor, name: &str) -> Result<TeamView, TeamsError> {
        let at = self.acting(actor, None, Action::Rename).await?;
        let name = team_name(name).map_err(TeamsError::InvalidName)?;
        let audit = self.audit(
            actor,
            "team.rename",
            None,
            at.team_id,
            json!({ "name": name }),
        );
        let now = self.clock.now();
        found(
            self.store
                .rename_team(at.team_id, &name, now, Some(&audit))
                .await?,
        )?;
        self.view(Self::member(actor)?).await
    }

    /// The owner requires (or stops requiring) a second factor of every member, with a recent
    /// step-up on the session (`stepped_up`, from `crate::reauth`; `StepUpRequired` without it).
    pub async fn set_mfa_policy(
        &self,
        actor: &Actor,
        required: bool,
        stepped_up: bool,
    ) -> Result<(), TeamsError> {
        let at = self.acting(actor, None, Action::RequireMfa).await?;
        if !stepped_up {
            return Err(TeamsError::StepUpRequired);
        }
        let details = json!({ "required": required });
        let audit = self.audit(actor, "team.mfa_policy", None, at.team_id, details);
        self.store
            .require_team_mfa(at.team_id, required, self.clock.now(), Some(&audit))
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
