//! Invitations by e-mail: sent when a seat is free, resent with a new link, revoked, looked up
//! before signing in, accepted or declined by the invited address only. An invitation and a
//! resend spend the inviter's budgets (`crate::limits`) once the inviter may send it, and write
//! the invite, its mail and its audit row in one transaction.

use closewise_domain::email::Email;
use closewise_domain::teams::{invite_expires_at, invite_matches, may_invite_as, Action, Role};
use serde_json::json;
use uuid::Uuid;

use super::{found, seats_result, Invitation, InviteLookup, TeamView, Teams, TeamsError};
use crate::actor::Actor;
use crate::limits::Limit;
use crate::mail::Template;
use crate::sessions::opaque_tokens::{hash_token, random_token};
use crate::store::audit::NewAudit;
use crate::store::mail::NewMail;
use crate::store::teams::seats::AcceptOutcome;
use crate::store::teams::{InviteRow, NewInvite};

fn role_phrase(role: Role) -> &'static str {
    match role {
        Role::Admin => "an admin",
        _ => "a member",
    }
}

impl Teams {
    /// Invites an address when a seat is free. The answer is the same whether or not the address
    /// has an account (nothing about it is told apart); an open invite of the same address is
    /// replaced. Who may invite is settled before any budget is spent, and an address's budget is
    /// kept per team: nobody outside a team spends that team's. The token goes only into the mail
    /// and is stored as its hash.
    pub async fn invite(
        &self,
        actor: &Actor,
        email: &str,
        role: Role,
    ) -> Result<Invitation, TeamsError> {
        let email = Email::parse(email).map_err(TeamsError::InvalidEmail)?;
        let user_id = Self::member(actor)?;
        let team_id = self.inviter(user_id, role).await?;
        self.spend(Limit::InvitePerInviter, &user_id.to_string())
            .await?;
        self.spend(
            Limit::InvitePerAddress,
            &format!("{team_id}:{}", email.as_str()),
        )
        .await?;
        // A member of this team needs no seat twice; someone in another team is not told apart
        // from anyone else (accepting says `already_in_team` to them, not to the inviter).
        if let Some(invitee) = self.store.user_by_email(email.as_str()).await? {
            if matches!(self.store.membership_of(invitee.id).await?, Some((t, _)) if t == team_id) {
                return Err(TeamsError::AlreadyMember(email.as_str().to_owned()));
            }
        }
        let (now, token) = (self.clock.now(), random_token());
        let new = NewInvite {
            id: Uuid::now_v7(),
            team_id,
            email: email.as_str(),
            role,
            token_hash: &hash_token(&token),
            invited_by: user_id,
            now,
            expires_at: invite_expires_at(now),
        };
        let inv = Invitation {
            invite_id: new.id,
            team_id,
            role,
            email: email.as_str().to_owned(),
            token,
            expires_at: new.expires_at,
        };
        let mail = self.invitation_mail(actor, &inv).await?;
        let details = json!({ "invite_id": inv.invite_id, "role": role.as_str() });
        let about = Some((user_id, inv.email.clone()));
        let audit = self.audit(actor, "team.invite", about, team_id, details);
        let outcome = self
            .store
            .invite_to_team_mailed(&new, Some(&mail), Some(&audit))
            .await?;
        seats_result(outcome)?;
        Ok(inv)
    }

    /// Spends one request of `limit` for `key` on the actor's behalf.
    async fn spend(&self, limit: Limit, key: &str) -> Result<(), TeamsError> {
        Ok(self.limits.spend(limit, key).await?)
    }

    /// The invitation's mail (`Template::TeamInvite`), its link carrying the token.
    async fn invitation_mail(
        &self,
        actor: &Actor,
        inv: &Invitation,
    ) -> Result<NewMail, TeamsError> {
        let team = self.team(inv.team_id).await?;
        let template = Template::TeamInvite {
            link: self.mail.link("/invite", &inv.token),
            team: team.name,
            role: role_phrase(inv.role).into(),
            inviter: actor.audit_name(),
        };
        Ok(self.mail.compose(&inv.email, template, self.clock.now()))
    }

    /// The team the caller may invite to as `role` (`teams::may_invite_as`). No side effects.
    pub async fn inviter(&self, user_id: Uuid, role: Role) -> Result<Uuid, TeamsError> {
        let (team_id, caller_role) = self.caller(user_id, Action::Invite).await?;
        if !role.invitable() {
            return Err(TeamsError::InvalidRole);
        }
        if !may_invite_as(caller_role, role) {
            return Err(TeamsError::ForbiddenRole);
        }
        Ok(team_id)
    }

    /// A new link for an open invite of the member's team: the old token stops working and the
    /// invite lives 7 days from now (an expired one needs a free seat again). The address is known
    /// before the new link is made, so the budgets are spent first.
    pub async fn resend(&self, actor: &Actor, invite_id: Uuid) -> Result<Invitation, TeamsError> {
        let user_id = Self::member(actor)?;
        let (team_id, _) = self.caller(user_id, Action::ResendInvite).await?;
        let address = self
            .store
            .team_invite(team_id, invite_id)
            .await?
            .map(|i| i.email)
            .ok_or(TeamsError::TeamNotFound)?;
        self.spend(Limit::InvitePerInviter, &user_id.to_string())
            .await?;
        self.spend(Limit::InviteResend, &format!("{team_id}:{address}"))
            .await?;
        let invite = self.open_invite(team_id, invite_id).await?;
        let (now, token) = (self.clock.now(), random_token());
        let inv = Invitation {
            invite_id,
            team_id,
            role: invite.role(),
            email: invite.email,
            token,
            expires_at: invite_expires_at(now),
        };
        let mail = self.invitation_mail(actor, &inv).await?;
        let about = Some((user_id, inv.email.clone()));
        let details = json!({ "invite_id": invite_id });
        let audit = self.audit(actor, "team.invite_resend", about, team_id, details);
        let resent = self
            .store
            .resend_team_invite(
                team_id,
                invite_id,
                &hash_token(&inv.token),
                now,
                inv.expires_at,
                Some(&mail),
                Some(&audit),
            )
            .await?;
        found(seats_result(resent)?)?;
        Ok(inv)
    }

    pub async fn revoke(&self, actor: &Actor, invite_id: Uuid) -> Result<(), TeamsError> {
        let at = self.acting(actor, None, Action::RevokeInvite).await?;
        let details = json!({ "invite_id": invite_id });
        let audit = self.audit(actor, "team.invite_revoke", None, at.team_id, details);
        let now = self.clock.now();
        let revoked = self
            .store
            .revoke_team_invite(at.team_id, invite_id, now, Some(&audit))
            .await?;
        found(revoked)
    }

    /// The team's open invite by id: another team's, or a spent one, is not found.
    async fn open_invite(&self, team_id: Uuid, invite_id: Uuid) -> Result<InviteRow, TeamsError> {
        match self.store.team_invite(team_id, invite_id).await? {
            Some(invite) if invite.open() => Ok(invite),
            _ => Err(TeamsError::TeamNotFound),
        }
    }

    /// The invite a link's token names, still usable.
    async fn usable_invite(&self, token: &str) -> Result<InviteRow, TeamsError> {
        let invite = self
            .store
            .team_invite_by_hash(&hash_token(token.trim()))
            .await?
            .ok_or(TeamsError::InviteNotFound)?;
        if invite.revoked_at.is_some() {
            return Err(TeamsError::InviteNotFound);
        }
        if invite.accepted_at.is_some() || invite.declined_at.is_some() {
            return Err(TeamsError::InviteUsed);
        }
        if invite.expired(self.clock.now()) {
            return Err(TeamsError::InviteExpired);
        }
        Ok(invite)
    }

    /// The usable invite of `token` when it is for the signed-in user's verified address.
    async fn invite_for(&self, user_id: Uuid, token: &str) -> Result<InviteRow, TeamsError> {
        let invite = self.usable_invite(token).await?;
        let user = self
            .store
            .user_by_id(user_id)
            .await?
            .ok_or(TeamsError::InviteOtherAddress)?;
        if !invite_matches(&invite.email, &user.email) {
            return Err(TeamsError::InviteOtherAddress);
        }
        if user.email_confirmed_at.is_none() {
            return Err(TeamsError::EmailNotVerified);
        }
        Ok(invite)
    }

    /// What an invitation link is for, shown before signing in (anyone holding the link).
    pub async fn lookup(&self, token: &str) -> Result<InviteLookup, TeamsError> {
        let invite = self.usable_invite(token).await?;
        let team = self.team(invite.team_id).await?;
        Ok(InviteLookup {
            team_id: team.id,
            team_name: team.name,
            role: invite.role(),
            email: invite.email,
        })
    }

    /// Joins the team with the invite's role: once, for the invited address only, when the user
    /// is in no team and a seat is free for them.
    pub async fn accept(&self, actor: &Actor, token: &str) -> Result<TeamView, TeamsError> {
        let user_id = Self::member(actor)?;
        let invite = self.invite_for(user_id, token).await?;
        let details = json!({ "role": invite.role().as_str() });
        let audit = self.audit(actor, "team.invite_accept", None, invite.team_id, details);
        self.join_with(user_id, &invite, &hash_token(token.trim()), &audit)
            .await
    }

    /// Joins `user_id` to the invite's team with its role, claiming the invite while its link's
    /// hash is still `token_hash`; `audit` is written in the joining transaction.
    pub(super) async fn join_with(
        &self,
        user_id: Uuid,
        invite: &InviteRow,
        token_hash: &str,
        audit: &NewAudit,
    ) -> Result<TeamView, TeamsError> {
        let outcome = self
            .store
            .accept_team_invite(invite, token_hash, user_id, self.clock.now(), Some(audit))
            .await?;
        match outcome {
            AcceptOutcome::Joined => self.view(user_id).await,
            AcceptOutcome::Spent => Err(TeamsError::InviteUsed),
            AcceptOutcome::AlreadyInTeam => Err(TeamsError::AlreadyInTeam),
            AcceptOutcome::Refused(e) => Err(TeamsError::Seats(e)),
            AcceptOutcome::NoTeam => Err(TeamsError::InviteNotFound),
            AcceptOutcome::Deactivated => Err(TeamsError::DeactivatedByDirectory),
        }
    }

    /// Declines the invite, once; its seat frees.
    pub async fn decline(&self, actor: &Actor, token: &str) -> Result<(), TeamsError> {
        let user_id = Self::member(actor)?;
        let invite = self.invite_for(user_id, token).await?;
        let team_name = self.team(invite.team_id).await.ok().map(|t| t.name);
        let details = json!({ "team_name": team_name });
        let audit = self.audit(actor, "team.invite_decline", None, invite.team_id, details);
        let now = self.clock.now();
        let declined = self
            .store
            .decline_team_invite(invite.id, now, Some(&audit))
            .await?;
        declined.then_some(()).ok_or(TeamsError::InviteUsed)
    }
}
