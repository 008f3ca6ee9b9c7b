//! Membership changes: removing a member, changing a role, leaving, transferring ownership. Each
//! is decided on the roles read (`closewise_domain::teams`'s rules) and made only while those
//! roles still hold (`CheckedRoles`); when one changed in between, it is decided again. Each
//! writes its audit row in the change's transaction.

use closewise_domain::teams::{may_remove, may_set_role, Action, Role};
use serde_json::json;
use uuid::Uuid;

use super::{found, Acting, TeamView, Teams, TeamsError};
use crate::actor::Actor;
use crate::store::teams::removal::{Removal, SESSIONS_ENDED_REASON};
use crate::store::teams::CheckedRoles;

/// How often a membership change is decided again when a role changed under it.
const RACE_RETRIES: usize = 3;

impl Teams {
    /// Removes `target` from a team (`teams::may_remove`): a member from their own (`team` None
    /// or theirs), an operator from the team they name. Their seat frees and every session of
    /// theirs ends. Answers the role they had.
    pub async fn remove_member(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        target: Uuid,
    ) -> Result<Role, TeamsError> {
        for _ in 0..RACE_RETRIES {
            let (at, checked) = self.checked(actor, team, target).await?;
            if !may_remove(checked.actor_role, checked.target_role) {
                return Err(TeamsError::ForbiddenRole);
            }
            let team_row = self.team(at.team_id).await?;
            let email = self.email_of(target).await?;
            let details = json!({ "team": team_row.name, "role": checked.target_role.as_str() });
            let audit = self.audit(
                actor,
                "team.member_remove",
                Some((target, email)),
                at.team_id,
                details,
            );
            let how = match at.member {
                Some(_) => Removal::ByTeam(&checked),
                None => Removal::ByOperator {
                    reason: SESSIONS_ENDED_REASON,
                },
            };
            let now = self.clock.now();
            if self
                .store
                .remove_from_team(at.team_id, target, how, Some(&audit), now)
                .await?
            {
                tracing::info!(team_id = %at.team_id, user_id = %target, actor = %audit.actor, "team member removed");
                return Ok(checked.target_role);
            }
        }
        Err(TeamsError::TeamNotFound)
    }

    /// The team `actor` acts on and the roles of the actor and `target` in it (an operator acts
    /// with the owner's authority).
    async fn checked(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        target: Uuid,
    ) -> Result<(Acting, CheckedRoles), TeamsError> {
        let at = self.acting(actor, team, Action::View).await?;
        let target_role = self.role_in(at.team_id, target).await?;
        let checked = CheckedRoles {
            actor: at.member.unwrap_or(target),
            actor_role: at.role,
            target_role,
        };
        Ok((at, checked))
    }

    /// The address of a user, for the audit row ("" for an account gone meanwhile).
    async fn email_of(&self, user_id: Uuid) -> Result<String, TeamsError> {
        Ok(self
            .store
            .user_by_id(user_id)
            .await?
            .map(|u| u.email)
            .unwrap_or_default())
    }

    /// Gives `target` another role (`teams::may_set_role`: the owner, between admin and member),
    /// and answers the team as the member sees it now.
    pub async fn set_role(
        &self,
        actor: &Actor,
        target: Uuid,
        new_role: Role,
    ) -> Result<TeamView, TeamsError> {
        let user_id = Self::member(actor)?;
        for _ in 0..RACE_RETRIES {
            let (at, checked) = self.checked(actor, None, target).await?;
            if !may_set_role(checked.actor_role, checked.target_role, new_role) {
                return Err(TeamsError::ForbiddenRole);
            }
            let email = self.email_of(target).await?;
            let details =
                json!({ "role": new_role.as_str(), "from": checked.target_role.as_str() });
            let about = Some((target, email));
            let audit = self.audit(actor, "team.member_role", about, at.team_id, details);
            if self
                .store
                .set_team_member_role(at.team_id, target, new_role, &checked, Some(&audit))
                .await?
            {
                return self.view(user_id).await;
            }
        }
        Err(TeamsError::TeamNotFound)
    }

    /// Leaves the team (not the owner: they transfer ownership first), keeping one's sessions.
    pub async fn leave(&self, actor: &Actor) -> Result<(), TeamsError> {
        let user_id = Self::member(actor)?;
        for _ in 0..RACE_RETRIES {
            let (team_id, role) = self.caller(user_id, Action::Leave).await?;
            let checked = CheckedRoles {
                actor: user_id,
                actor_role: role,
                target_role: role,
            };
            let audit = self.audit(actor, "team.leave", None, team_id, json!({}));
            let now = self.clock.now();
            let how = Removal::Leaving(&checked);
            if self
                .store
                .remove_from_team(team_id, user_id, how, Some(&audit), now)
                .await?
            {
                return Ok(());
            }
        }
        Err(TeamsError::TeamNotFound)
    }

    /// Makes another member of the team its owner; the owner becomes an admin. A member transfers
    /// their own team (as its owner); an operator the team they name.
    pub async fn transfer(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        to: Uuid,
    ) -> Result<(), TeamsError> {
        let at = self.acting(actor, team, Action::TransferOwnership).await?;
        let team = self.team(at.team_id).await?;
        let to_role = self.role_in(team.id, to).await?;
        if to == team.owner_id || to_role == Role::Owner {
            return Err(TeamsError::InvalidTransfer);
        }
        let (from_email, to_email) = (
            self.email_of(team.owner_id).await?,
            self.email_of(to).await?,
        );
        let details = json!({
            "team": team.name, "from": from_email, "from_user_id": team.owner_id,
            "to": to_email, "to_role": to_role.as_str(),
        });
        let about = Some((to, to_email));
        let audit = self.audit(actor, "team.transfer", about, team.id, details);
        let now = self.clock.now();
        found(
            self.store
                .transfer_team(team.id, team.owner_id, to, now, Some(&audit))
                .await?,
        )?;
        tracing::info!(team_id = %team.id, to = %to, actor = %audit.actor, "team transferred");
        Ok(())
    }
}
