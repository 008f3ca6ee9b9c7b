//! The invitations addressed to the signed-in user, for their `/team` before they are in a team:
//! which teams invited them and who sent each, and accepting one from there. Only a verified
//! address is shown its invitations (an unverified account could hold anyone's address), and
//! accepting one follows the link's rules (`invites::accept`): the invited address, once, with
//! a free seat.

use closewise_domain::teams::{invite_matches, Role};
use serde_json::json;
use time::OffsetDateTime;
use uuid::Uuid;

use super::{TeamView, Teams, TeamsError};
use crate::actor::Actor;

/// An open invitation to the caller's address.
#[derive(Clone, Debug)]
pub struct AddressedInvite {
    pub id: Uuid,
    pub team_name: String,
    pub role: Role,
    /// The inviter's address; None once their account is gone.
    pub invited_by: Option<String>,
    pub expires_at: OffsetDateTime,
}

impl Teams {
    /// The open invitations (neither used, withdrawn nor expired) to the caller's verified
    /// address, oldest first; none for an unverified address.
    pub async fn invites_to_me(&self, user_id: Uuid) -> Result<Vec<AddressedInvite>, TeamsError> {
        let Some(user) = self.store.user_by_id(user_id).await? else {
            return Ok(Vec::new());
        };
        if user.email_confirmed_at.is_none() {
            return Ok(Vec::new());
        }
        let rows = self
            .store
            .open_invites_to(&user.email, self.clock.now())
            .await?;
        Ok(rows
            .into_iter()
            .map(|r| AddressedInvite {
                id: r.id,
                role: Role::parse(&r.role).unwrap_or(Role::Member),
                team_name: r.team_name,
                invited_by: r.invited_by,
                expires_at: r.expires_at,
            })
            .collect())
    }

    /// Accepts the invitation `invite_id` to the caller's verified address, as its link would.
    /// Another address's invitation is not found, as an unknown one.
    pub async fn accept_invite_to_me(
        &self,
        actor: &Actor,
        invite_id: Uuid,
    ) -> Result<TeamView, TeamsError> {
        let user_id = Self::member(actor)?;
        let user = self
            .store
            .user_by_id(user_id)
            .await?
            .ok_or(TeamsError::InviteNotFound)?;
        let found = self
            .store
            .team_invite_with_hash(invite_id)
            .await?
            .filter(|i| {
                invite_matches(&i.invite.email, &user.email) && i.invite.revoked_at.is_none()
            })
            .ok_or(TeamsError::InviteNotFound)?;
        let invite = found.invite;
        if invite.accepted_at.is_some() || invite.declined_at.is_some() {
            return Err(TeamsError::InviteUsed);
        }
        if invite.expired(self.clock.now()) {
            return Err(TeamsError::InviteExpired);
        }
        if user.email_confirmed_at.is_none() {
            return Err(TeamsError::EmailNotVerified);
        }
        let details = json!({ "role": invite.role().as_str() });
        let audit = self.audit(actor, "team.invite_accept", None, invite.team_id, details);
        self.join_with(user_id, &invite, &found.token_hash, &audit)
            .await
    }
}
