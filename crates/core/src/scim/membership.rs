//! What a SCIM user's state does to the team: active holds a seat, inactive or deleted frees it
//! and ends the person's sessions. Each change is one store call that writes its audit row (the
//! token that made it) and, for an invitation, its mail in the change's transaction.

use closewise_domain::email::Email;
use closewise_domain::teams::{invite_expires_at, Role};
use time::OffsetDateTime;
use uuid::Uuid;

use super::{Scim, ScimCaller, ScimError};
use crate::actor::Actor;
use crate::mail::Template;
use crate::sessions::opaque_tokens::{hash_token, random_token};
use crate::store::audit::NewAudit;
use crate::store::teams::removal::Removal;
use crate::store::teams::seats::{AcceptOutcome, SeatOutcome};
use crate::store::teams::sso::NewSsoUser;
use crate::store::teams::NewInvite;

/// A user's address and whether they are active: what decides their seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Standing {
    pub email: String,
    pub active: bool,
}

/// The reason recorded on the sessions a deprovisioning ends.
pub const SESSIONS_ENDED_REASON: &str = "scim_deprovisioned";

impl Scim {
    /// The normalised address of a `userName` at one of the caller's team's verified domains.
    pub(super) async fn team_address(
        &self,
        caller: &ScimCaller,
        user_name: &str,
    ) -> Result<Email, ScimError> {
        let email = Email::parse(user_name).map_err(|_| ScimError::DomainNotVerified)?;
        let holder = self.store.team_for_verified_domain(email.domain()).await?;
        if holder != Some(caller.team_id) {
            return Err(ScimError::DomainNotVerified);
        }
        Ok(email)
    }

    /// Moves the team from `old` to `new` (None: no such user): frees the seat of a user who
    /// stops being active (or changes address), then seats one who becomes active.
    pub(super) async fn transition(
        &self,
        caller: &ScimCaller,
        old: Option<&Standing>,
        new: Option<&Standing>,
    ) -> Result<(), ScimError> {
        let same = |a: &Standing, b: &Standing| a.email == b.email && a.active && b.active;
        if let Some(o) = old.filter(|o| o.active) {
            if !new.is_some_and(|n| same(o, n)) {
                self.deprovision(caller, &o.email).await?;
            }
        }
        if let Some(n) = new.filter(|n| n.active) {
            if !old.is_some_and(|o| same(o, n)) {
                self.provision(caller, &n.email).await?;
            }
        }
        Ok(())
    }

    /// Seats `email` in the team: the account with that address joins (when it is in no other
    /// team); without an account, one without a password that signs in by SSO is made a member
    /// at once when the team has single sign-on, else an invitation mail holds the seat until it
    /// is accepted.
    async fn provision(&self, caller: &ScimCaller, email: &str) -> Result<(), ScimError> {
        let Some(user) = self.store.user_by_email(email).await? else {
            if self.store.team_sso(caller.team_id).await?.is_some() {
                return self.sso_account(caller, email).await;
            }
            return self.invite(caller, email).await;
        };
        self.seat_account(caller, email, user.id).await
    }

    /// The account `user_id` of `email` joins the team; an unconfirmed one is confirmed, with no
    /// password anyone knows (`Store::scim_join_team`).
    async fn seat_account(
        &self,
        caller: &ScimCaller,
        email: &str,
        user_id: Uuid,
    ) -> Result<(), ScimError> {
        let now = self.clock.now();
        let unusable = self.hasher.unusable_hash()?;
        match self.store.membership_of(user_id).await? {
            Some((team, _)) if team == caller.team_id => return Ok(()),
            Some(_) => {
                return Err(ScimError::Uniqueness(format!(
                    "{email} is a member of another team."
                )))
            }
            None => {}
        }
        let audit = caller.audit("team.scim.member_add", Some(user_id), email, now);
        match self
            .store
            .scim_join_team(caller.team_id, user_id, email, &unusable, now, Some(&audit))
            .await?
        {
            AcceptOutcome::Joined | AcceptOutcome::Spent => {}
            AcceptOutcome::AlreadyInTeam => {
                return Err(ScimError::Uniqueness(format!(
                    "{email} is a member of another team."
                )))
            }
            AcceptOutcome::Refused(e) => return Err(ScimError::Seats(e)),
            AcceptOutcome::NoTeam => return Err(ScimError::NotFound),
            // Not asked: the directory's own join is its reactivation.
            AcceptOutcome::Deactivated => {
                return Err(anyhow::anyhow!("refused as deactivated").into())
            }
        }
        Ok(())
    }

    /// A member at once, with an account the directory vouched for (its address confirmed) and no
    /// password anyone knows: they sign in by the team's SSO, as the first SSO sign-in would have
    /// made them (`Store::sso_join`, under the team's lock; an open invitation of the address is
    /// withdrawn, its seat is this one), its audit row in the same transaction. No mail.
    async fn sso_account(&self, caller: &ScimCaller, email: &str) -> Result<(), ScimError> {
        let now = self.clock.now();
        // The store names the account that joined.
        let audit = caller.audit("team.scim.member_add", None, email, now);
        let new = NewSsoUser {
            id: Uuid::now_v7(),
            email,
            password_hash: &self.hasher.unusable_hash()?,
            plan_id: Uuid::now_v7(),
            by_directory: true,
        };
        match self
            .store
            .sso_join(caller.team_id, &new, now, Some(&audit))
            .await?
        {
            AcceptOutcome::Joined => {}
            // An account with the address was made meanwhile: it joins as any account does.
            AcceptOutcome::Spent => {
                let user = self.store.user_by_email(email).await?;
                let user = user.ok_or_else(|| anyhow::anyhow!("the new account is gone"))?;
                return self.seat_account(caller, email, user.id).await;
            }
            AcceptOutcome::AlreadyInTeam => {
                return Err(ScimError::Uniqueness(format!(
                    "{email} is a member of another team."
                )))
            }
            AcceptOutcome::Refused(e) => return Err(ScimError::Seats(e)),
            AcceptOutcome::NoTeam => return Err(ScimError::NotFound),
            // Not asked: the directory's own join is its reactivation.
            AcceptOutcome::Deactivated => {
                return Err(anyhow::anyhow!("refused as deactivated").into())
            }
        }
        Ok(())
    }

    /// An invitation (holding a seat) with its mail and its audit row, in one transaction, for an
    /// address without an account.
    async fn invite(&self, caller: &ScimCaller, email: &str) -> Result<(), ScimError> {
        let team = self
            .store
            .team_by_id(caller.team_id)
            .await?
            .ok_or(ScimError::NotFound)?;
        let (now, token) = (self.clock.now(), random_token());
        let new = NewInvite {
            id: Uuid::now_v7(),
            team_id: team.id,
            email,
            role: Role::Member,
            token_hash: &hash_token(&token),
            invited_by: team.owner_id,
            now,
            expires_at: invite_expires_at(now),
        };
        let template = Template::TeamInvite {
            link: self.mail.link("/invite", &token),
            team: team.name,
            role: "a member".into(),
            inviter: "Your company's directory".into(),
        };
        let mail = self.mail.compose(email, template, now);
        let audit = caller.audit("team.scim.invite", None, email, now);
        match self
            .store
            .invite_to_team_mailed(&new, Some(&mail), Some(&audit))
            .await?
        {
            SeatOutcome::Done(()) => Ok(()),
            SeatOutcome::Refused(e) => Err(ScimError::Seats(e)),
            SeatOutcome::NoTeam => Err(ScimError::NotFound),
        }
    }

    /// Frees the seat of `email`: the member leaves (never the owner), the team's open
    /// invitations of the address are withdrawn, and every session of the person ends, in one
    /// transaction with the audit row.
    async fn deprovision(&self, caller: &ScimCaller, email: &str) -> Result<(), ScimError> {
        let now = self.clock.now();
        let user = self.store.user_by_email(email).await?;
        let mut member = None;
        if let Some(u) = &user {
            if let Some((team, role)) = self.store.membership_of(u.id).await? {
                if team == caller.team_id {
                    if role == Role::Owner {
                        return Err(ScimError::Owner);
                    }
                    member = Some(u.id);
                }
            }
        }
        let audit = caller.audit("team.scim.member_remove", member, email, now);
        if let Some(user_id) = member {
            let how = Removal::ByDirectory {
                reason: SESSIONS_ENDED_REASON,
                email,
            };
            let removed = self
                .store
                .remove_from_team(caller.team_id, user_id, how, Some(&audit), now)
                .await?;
            if removed {
                return Ok(());
            }
        }
        // Not a member (or no longer): only the address's invitations hold a seat.
        self.store
            .withdraw_team_invites_of(caller.team_id, email, now, Some(&audit))
            .await?;
        Ok(())
    }
}

impl ScimCaller {
    /// The directory acting through this caller's token.
    pub fn actor(&self) -> Actor {
        Actor::Directory {
            team_id: self.team_id,
            token_id: self.token_id,
        }
    }

    /// The audit row of a change the directory makes to `email`'s place in the team.
    fn audit(
        &self,
        action: &'static str,
        user_id: Option<Uuid>,
        email: &str,
        now: OffsetDateTime,
    ) -> NewAudit {
        let details = serde_json::json!({ "team_id": self.team_id });
        self.actor()
            .audit(action, user_id, Some(email.to_owned()), details, now)
    }
}
