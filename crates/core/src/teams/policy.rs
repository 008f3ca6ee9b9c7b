//! The team policy (docs/teams.md "Policies"): what the desktop app does in the team's calls,
//! read and replaced by the owner and admins (or an operator), each change one command taking the
//! [`Actor`], audited in its transaction with who, before and after; how many active devices obey
//! it.
//!
//! `require_mfa` is the team's "require a second factor" switch: `teams.require_mfa` is its one
//! source of truth (also set by `PUT /api/team/mfa-policy`), and only the owner may change it here
//! too. `require_sso` is "Require SSO" the same way: `team_sso.required` is its one source of truth
//! (also set by `PUT /api/team/sso`), the owner's to change, and only once the team has single
//! sign-on; turned on here it ends the members' password sessions as the SSO settings do.

use closewise_domain::policy::{adoption, Adoption, Policy, ACTIVE_DEVICE_DAYS};
use closewise_domain::teams::{may, Action, Role};
use serde_json::json;
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

use super::acting::acting_on;
use super::{Teams, TeamsError};
use crate::actor::Actor;
use crate::store::teams::policy::TeamPolicyRow;

/// The team policy as its owner and admins see it.
#[derive(Clone, Debug)]
pub struct TeamPolicyView {
    pub policy: Policy,
    pub policy_version: String,
    /// None while the team has the default (nobody saved one).
    pub updated_at: Option<OffsetDateTime>,
    pub updated_by: Option<String>,
    /// The caller may change `require_mfa` (the owner).
    pub may_change_require_mfa: bool,
    pub adoption: Adoption,
}

impl Teams {
    /// The team `actor` may set the policy of, and whether they may switch the sign-in rules.
    async fn policy_team(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
    ) -> Result<(Uuid, Role), TeamsError> {
        let (team_id, role) = acting_on(&self.store, actor, team, Action::SetPolicy)
            .await?
            .ok_or(TeamsError::TeamNotFound)?;
        if !may(role, Action::SetPolicy) {
            return Err(TeamsError::ForbiddenRole);
        }
        Ok((team_id, role))
    }

    /// The team policy (owner and admins; a member's own team: `team` None).
    pub async fn team_policy(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
    ) -> Result<TeamPolicyView, TeamsError> {
        let (team_id, role) = self.policy_team(actor, team).await?;
        let row = self.policy_row(team_id).await?;
        self.policy_view(team_id, row, may(role, Action::RequireMfa))
            .await
    }

    /// Replaces the team policy (owner and admins) with `policy`, whole. A wrong field is
    /// `InvalidPolicy` naming it; changing `require_mfa` or `require_sso` is the owner's
    /// (`ForbiddenRole`) and needs a recent step-up on the member's session (`stepped_up`, from
    /// `crate::reauth`; `StepUpRequired` without it; an operator has no session to step up).
    /// Audited as `team.policy` in the change's transaction, with the policy before and after.
    pub async fn set_team_policy(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        policy: Policy,
        stepped_up: bool,
    ) -> Result<TeamPolicyView, TeamsError> {
        let (team_id, role) = self.policy_team(actor, team).await?;
        let stepped_up = stepped_up || !matches!(actor, Actor::Member { .. });
        let policy = policy.validate().map_err(TeamsError::InvalidPolicy)?;
        let row = self.policy_row(team_id).await?;
        let before = row.policy();
        let owner = may(role, Action::RequireMfa);
        let switched =
            policy.require_mfa != before.require_mfa || policy.require_sso != before.require_sso;
        if switched && !owner {
            return Err(TeamsError::ForbiddenRole);
        }
        if switched && !stepped_up {
            return Err(TeamsError::StepUpRequired);
        }
        if policy.require_sso && !row.sso_configured {
            return Err(TeamsError::SsoNotConfigured);
        }
        let details = json!({
            "team_id": team_id,
            "before": before,
            "after": policy,
            "policy_version": policy.version(),
        });
        let audit = actor.audit("team.policy", None, None, details, self.clock.now());
        self.store
            .save_team_policy(team_id, &policy, actor.user_id(), &audit)
            .await?;
        if policy.require_sso && !before.require_sso {
            self.store
                .end_password_sessions(team_id, self.clock.now())
                .await?;
        }
        let row = self.policy_row(team_id).await?;
        self.policy_view(team_id, row, owner).await
    }

    /// The policy a user's app obeys: their team's, or the default (notice off) in no team.
    pub async fn policy_of_member(&self, user_id: Uuid) -> Result<Policy, TeamsError> {
        Ok(self
            .store
            .policy_of_member(user_id)
            .await?
            .map(|row| row.policy())
            .unwrap_or_default())
    }

    async fn policy_row(&self, team_id: Uuid) -> Result<TeamPolicyRow, TeamsError> {
        self.store
            .team_policy(team_id)
            .await?
            .ok_or(TeamsError::TeamNotFound)
    }

    async fn policy_view(
        &self,
        team_id: Uuid,
        row: TeamPolicyRow,
        may_change_require_mfa: bool,
    ) -> Result<TeamPolicyView, TeamsError> {
        let policy = row.policy();
        let version = policy.version();
        let since = self.clock.now() - Duration::days(ACTIVE_DEVICE_DAYS);
        let devices = self.store.team_device_policies(team_id, since).await?;
        let adoption = adoption(
            &version,
            devices
                .iter()
                .filter_map(|d| Some((d.policy_version.as_deref(), d.last_seen_at?))),
        );
        Ok(TeamPolicyView {
            policy,
            policy_version: version,
            updated_at: row.updated_at,
            updated_by: row.updated_by,
            may_change_require_mfa,
            adoption,
        })
    }
}
