//! Membership changes: removing a member, changing a role, leaving, transferring ownership. Each
//! is decided on the roles read (`closewise_domain::teams`'s rules) and made only while those
//! roles still hold (`CheckedRoles`); when one changed in between, it is decided again.

use closewise_domain::teams::{may_remove, may_set_role, Action, Role};
use uuid::Uuid;

use super::{found, Teams, TeamsError};
use crate::store::teams::removal::Removal;
use crate::store::teams::CheckedRoles;

/// How often a membership change is decided again when a role changed under it.
const RACE_RETRIES: usize = 3;

impl Teams {
    /// Removes `target` from the caller's team (`teams::may_remove`); their seat frees and every
    /// session of theirs ends (`Removal::ByTeam`).
    /// The roles are read, checked and then held by the change itself: when one changed in
    /// between, it is read and checked again.
    pub async fn remove_member(&self, user_id: Uuid, target: Uuid) -> Result<(), TeamsError> {
        for _ in 0..RACE_RETRIES {
            let (team_id, checked) = self.checked(user_id, target).await?;
            if !may_remove(checked.actor_role, checked.target_role) {
                return Err(TeamsError::ForbiddenRole);
            }
            let now = self.clock.now();
            let how = Removal::ByTeam(&checked);
            if self
                .store
                .remove_from_team(team_id, target, how, None, now)
                .await?
            {
                return Ok(());
            }
        }
        Err(TeamsError::TeamNotFound)
    }

    /// The caller's team and the roles of the caller and `target` in it.
    async fn checked(
        &self,
        user_id: Uuid,
        target: Uuid,
    ) -> Result<(Uuid, CheckedRoles), TeamsError> {
        let (team_id, actor_role) = self.caller(user_id, Action::View).await?;
        let target_role = self.role_in(team_id, target).await?;
        let checked = CheckedRoles {
            actor: user_id,
            actor_role,
            target_role,
        };
        Ok((team_id, checked))
    }

    /// Gives `target` another role (`teams::may_set_role`: the owner, between admin and member).
    pub async fn set_role(
        &self,
        user_id: Uuid,
        target: Uuid,
        new_role: Role,
    ) -> Result<(), TeamsError> {
        for _ in 0..RACE_RETRIES {
            let (team_id, checked) = self.checked(user_id, target).await?;
            if !may_set_role(checked.actor_role, checked.target_role, new_role) {
                return Err(TeamsError::ForbiddenRole);
            }
            if self
                .store
                .set_team_member_role(team_id, target, new_role, &checked)
                .await?
            {
                return Ok(());
            }
        }
        Err(TeamsError::TeamNotFound)
    }

    /// Leaves the team (not the owner: they transfer ownership first), keeping one's sessions.
    pub async fn leave(&self, user_id: Uuid) -> Result<(), TeamsError> {
        for _ in 0..RACE_RETRIES {
            let (team_id, role) = self.caller(user_id, Action::Leave).await?;
            let checked = CheckedRoles {
                actor: user_id,
                actor_role: role,
                target_role: role,
            };
            let now = self.clock.now();
            let how = Removal::Leaving(&checked);
            if self
                .store
                .remove_from_team(team_id, user_id, how, None, now)
                .await?
            {
                return Ok(());
            }
        }
        Err(TeamsError::TeamNotFound)
    }

    /// Makes another member the owner; the caller becomes an admin.
    pub async fn transfer(&self, user_id: Uuid, target: Uuid) -> Result<(), TeamsError> {
        let (team_id, _) = self.caller(user_id, Action::TransferOwnership).await?;
        self.role_in(team_id, target).await?;
        if target == user_id {
            return Err(TeamsError::InvalidTransfer);
        }
        found(
            self.store
                .transfer_team(team_id, user_id, target, self.clock.now(), None)
                .await?,
        )?;
        Ok(())
    }
}
