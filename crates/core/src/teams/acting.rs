//! The team an actor acts on, and with what authority. A member acts on their own team with their
//! role (another team's anything is not found); an operator, a team's directory or one of the
//! system's jobs acts on the team it names, with the owner's authority: the most any member has,
//! so the rules that hold whoever acts (nobody removes the owner, seats never below those in use)
//! still hold. Each command then asks the domain's rule (`teams::may`) of that role. A setup link
//! acts on its own team, with the owner's authority for its steps' actions only
//! (`setup_links::setup_link_may`): for anything else, and once it was revoked or finished, there
//! is no team for it.

use closewise_domain::setup_links::{setup_link_may, stored_steps};
use closewise_domain::teams::{Action, Role};
use uuid::Uuid;

use crate::actor::Actor;
use crate::store::Store;

/// The team `actor` acts on and the role it acts with; None when there is no such team for them.
/// `team` names the team for anyone but a member (a member's own team is theirs; naming another
/// is not found). `action` is what the command does (a setup link may take only its steps').
pub async fn acting_on(
    store: &Store,
    actor: &Actor,
    team: Option<Uuid>,
    action: Action,
) -> Result<Option<(Uuid, Role)>, sqlx::Error> {
    let named = match actor {
        Actor::Member { user_id, .. } => {
            return Ok(store
                .membership_of(*user_id)
                .await?
                .filter(|(own, _)| team.is_none_or(|t| t == *own)));
        }
        Actor::Directory { team_id, .. } => team
            .filter(|t| t != team_id)
            .map_or(Some(*team_id), |_| None),
        Actor::Operator { .. } | Actor::System { .. } => team,
        Actor::SetupLink { team_id, link_id } => {
            let link = store.setup_link(*link_id).await?.filter(|l| {
                l.team_id == *team_id
                    && team.is_none_or(|t| t == *team_id)
                    && l.revoked_at.is_none()
                    && l.finished_at.is_none()
                    && setup_link_may(action, &stored_steps(&l.steps))
            });
            link.map(|l| l.team_id)
        }
    };
    let Some(team_id) = named else {
        return Ok(None);
    };
    Ok(store
        .team_by_id(team_id)
        .await?
        .map(|t| (t.id, Role::Owner)))
}
