//! Domain join: the owner turns it on for one of the team's verified domains (verified by its DNS
//! TXT record, docs/teams.md; never a public mail domain); verified users at that domain in no
//! team ask to join; an admin approves (a free seat needed) or denies. The rules are `closewise_domain::teams`'s.

use closewise_domain::teams::{
    domain_join_offer, is_public_mail_domain, mail_domain, may, may_enable_domain_join,
    may_request_join, Action, Role,
};
use serde_json::json;
use time::OffsetDateTime;
use uuid::Uuid;

use super::{found, TeamView, Teams, TeamsError};
use crate::actor::Actor;
use crate::store::audit::NewAudit;
use crate::store::teams::seats::AcceptOutcome;

/// An undecided request to join the caller's team.
#[derive(Clone, Debug)]
pub struct JoinRequestView {
    pub id: Uuid,
    pub user_id: Uuid,
    pub email: String,
    pub created_at: OffsetDateTime,
}

impl Teams {
    /// What the owner's screen offers for domain join, so the web needs no list of providers.
    pub(super) async fn domain_join_offer(
        &self,
        user_id: Uuid,
        role: Role,
    ) -> Result<Option<String>, TeamsError> {
        if !may(role, Action::ConfigureDomainJoin) {
            return Ok(None);
        }
        let Some(user) = self.store.user_by_id(user_id).await? else {
            return Ok(None);
        };
        let Some((team_id, _)) = self.store.membership_of(user_id).await? else {
            return Ok(None);
        };
        let verified = self.verified_domains(team_id).await?;
        Ok(domain_join_offer(&user.email, &verified))
    }

    /// The team's verified domains, by name.
    pub(super) async fn verified_domains(&self, team_id: Uuid) -> Result<Vec<String>, TeamsError> {
        Ok(self
            .store
            .team_domains(team_id)
            .await?
            .into_iter()
            .filter(|d| d.status == "verified")
            .map(|d| d.domain)
            .collect())
    }

    /// Turns domain join on for `domain` (one of the team's verified domains) or off (None).
    pub async fn set_join_domain(
        &self,
        actor: &Actor,
        domain: Option<&str>,
    ) -> Result<TeamView, TeamsError> {
        let user_id = Self::member(actor)?;
        let (team_id, _) = self.caller(user_id, Action::ConfigureDomainJoin).await?;
        let domain = match domain.map(|d| d.trim().trim_end_matches('.').to_ascii_lowercase()) {
            None => None,
            Some(d) => {
                if !may_enable_domain_join(&d, &self.verified_domains(team_id).await?) {
                    return Err(TeamsError::DomainNotAllowed);
                }
                Some(d)
            }
        };
        let details = json!({ "domain": domain });
        let audit = self.audit(actor, "team.domain_join", None, team_id, details);
        let now = self.clock.now();
        found(
            self.store
                .set_team_join_domain(team_id, domain.as_deref(), now, Some(&audit))
                .await?,
        )?;
        self.view(user_id).await
    }

    /// The teams the caller may ask to join: those whose domain join is on for their verified
    /// address's domain. Empty for an unverified user, one in a team, or a public mail domain.
    pub async fn joinable(&self, user_id: Uuid) -> Result<Vec<(Uuid, String)>, TeamsError> {
        let Some(user) = self.store.user_by_id(user_id).await? else {
            return Ok(Vec::new());
        };
        let domain = mail_domain(&user.email).filter(|d| !is_public_mail_domain(d));
        let eligible =
            user.email_confirmed_at.is_some() && self.store.membership_of(user_id).await?.is_none();
        match domain {
            Some(domain) if eligible => Ok(self.store.teams_joinable_at(&domain).await?),
            _ => Ok(Vec::new()),
        }
    }

    /// Asks to join `team_id` (once while undecided). A team the caller may not ask (no domain
    /// join for their domain, or no such team) is not found.
    pub async fn request_join(&self, actor: &Actor, team_id: Uuid) -> Result<(), TeamsError> {
        let user_id = Self::member(actor)?;
        let user = self
            .store
            .user_by_id(user_id)
            .await?
            .ok_or(TeamsError::TeamNotFound)?;
        if user.email_confirmed_at.is_none() {
            return Err(TeamsError::EmailNotVerified);
        }
        if self.store.membership_of(user_id).await?.is_some() {
            return Err(TeamsError::AlreadyInTeam);
        }
        let team = self.team(team_id).await?;
        if !may_request_join(&user.email, true, team.join_domain.as_deref()) {
            return Err(TeamsError::TeamNotFound);
        }
        let now = self.clock.now();
        self.store
            .request_team_join(Uuid::now_v7(), team_id, user_id, now)
            .await?;
        Ok(())
    }

    /// The undecided requests to join the caller's team (admins and the owner).
    pub async fn join_requests(&self, user_id: Uuid) -> Result<Vec<JoinRequestView>, TeamsError> {
        let (team_id, _) = self.caller(user_id, Action::ApproveJoin).await?;
        Ok(self
            .store
            .team_join_requests(team_id)
            .await?
            .into_iter()
            .map(|r| JoinRequestView {
                id: r.id,
                user_id: r.user_id,
                email: r.email,
                created_at: r.created_at,
            })
            .collect())
    }

    /// Approves a request of the member's team: its user becomes a member when a seat is free.
    pub async fn approve_join(&self, actor: &Actor, request_id: Uuid) -> Result<(), TeamsError> {
        let (team_id, audit) = self
            .decision(actor, request_id, "team.join_approve")
            .await?;
        let now = self.clock.now();
        let outcome = self
            .store
            .approve_team_join(team_id, request_id, now, Some(&audit))
            .await?;
        match outcome {
            AcceptOutcome::Joined => Ok(()),
            AcceptOutcome::Spent | AcceptOutcome::NoTeam => Err(TeamsError::TeamNotFound),
            AcceptOutcome::AlreadyInTeam => Err(TeamsError::AlreadyInTeam),
            AcceptOutcome::Refused(e) => Err(TeamsError::Seats(e)),
            AcceptOutcome::Deactivated => Err(TeamsError::DeactivatedByDirectory),
        }
    }

    /// Denies a request of the member's team.
    pub async fn deny_join(&self, actor: &Actor, request_id: Uuid) -> Result<(), TeamsError> {
        let (team_id, audit) = self.decision(actor, request_id, "team.join_deny").await?;
        let now = self.clock.now();
        found(
            self.store
                .deny_team_join(team_id, request_id, now, Some(&audit))
                .await?,
        )
    }

    /// The team whose request the actor decides, and the decision's audit row about who asked
    /// (read before the request leaves the undecided list).
    async fn decision(
        &self,
        actor: &Actor,
        request_id: Uuid,
        action: &'static str,
    ) -> Result<(Uuid, NewAudit), TeamsError> {
        let at = self.acting(actor, None, Action::ApproveJoin).await?;
        let asker = self
            .store
            .team_join_requests(at.team_id)
            .await?
            .into_iter()
            .find(|r| r.id == request_id)
            .map(|r| (r.user_id, r.email));
        let details = json!({ "request_id": request_id });
        Ok((
            at.team_id,
            self.audit(actor, action, asker, at.team_id, details),
        ))
    }
}
