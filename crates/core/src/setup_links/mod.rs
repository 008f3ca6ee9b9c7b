//! The owner's setup link for IT (docs/teams.md "Setup link for IT"). The owner makes a link for
//! some of the steps domain, sso and scim (`create`, audited), sees them (`list`) and revokes one
//! (`revoke`). IT, holding the link's token and no account, acts as `Actor::SetupLink`: every
//! change goes through the service that owns it (verified domains, single sign-on, SCIM), which
//! lets the link take only its steps' actions (`teams::acting`). The single sign-on step keeps a
//! draft on the link and saves it only once a real test sign-in passed (`sso::draft`); `finish`
//! ends the link and mails the owner in the same transaction.

mod link;

use closewise_domain::setup_links::{
    parse_steps, setup_link_expires_at, setup_link_state, store_steps, stored_steps,
    InvalidSetupSteps, SetupLinkState, SetupStep, SETUP_LINKS_LISTED,
};
use closewise_domain::teams::{may, Action};
use serde_json::json;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::actor::Actor;
use crate::clock::Clock;
use crate::mail::Composer;
use crate::scim::Scim;
use crate::sessions::opaque_tokens::{hash_token, random_token};
use crate::sso::{Sso, SsoError};
use crate::store::teams::setup_links::{NewSetupLink, SetupLinkRow};
use crate::store::{DbError, Store};
use crate::teams::acting::acting_on;
use crate::teams::TeamsError;
use crate::verified_domains::{VerifiedDomains, VerifiedDomainsError};

pub use link::{LinkPage, SetupSsoView, SetupTestView};

#[derive(Debug, thiserror::Error)]
pub enum SetupLinksError {
    #[error("{0}")]
    InvalidSteps(InvalidSetupSteps),
    #[error("There is no such setup link.")]
    NotFound,
    /// The link was revoked, expired or finished.
    #[error("{}", .0.gone_message())]
    Gone(SetupLinkState),
    #[error("This setup link does not include this step.")]
    StepNotAllowed,
    #[error("Save the single sign-on settings before testing them.")]
    NoDraft,
    /// The test sign-in's address is not at one of the team's verified domains.
    #[error(
        "Use an address at one of the team's verified domains: single sign-on signs in only those."
    )]
    NotAtVerifiedDomain,
    #[error(transparent)]
    Team(#[from] TeamsError),
    #[error(transparent)]
    Domains(#[from] VerifiedDomainsError),
    #[error(transparent)]
    Sso(#[from] SsoError),
    #[error(transparent)]
    Database(#[from] DbError),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl SetupLinksError {
    pub fn code(&self) -> &'static str {
        match self {
            SetupLinksError::InvalidSteps(_) => "invalid_setup_steps",
            SetupLinksError::NotFound => "setup_link_not_found",
            SetupLinksError::Gone(_) => "setup_link_gone",
            SetupLinksError::StepNotAllowed => "setup_step_not_allowed",
            SetupLinksError::NoDraft => "setup_no_draft",
            SetupLinksError::NotAtVerifiedDomain => "domain_not_verified",
            SetupLinksError::Team(e) => e.code(),
            SetupLinksError::Domains(e) => e.code(),
            SetupLinksError::Sso(e) => e.code(),
            SetupLinksError::Database(_) | SetupLinksError::Internal(_) => "internal",
        }
    }
}

/// A link as its owner sees it (never its token).
#[derive(Clone, Debug, serde::Serialize)]
pub struct SetupLinkView {
    pub id: Uuid,
    #[serde(serialize_with = "steps_ser")]
    pub steps: Vec<SetupStep>,
    #[serde(serialize_with = "state_ser")]
    pub state: SetupLinkState,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub expires_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339::option")]
    pub finished_at: Option<OffsetDateTime>,
    #[serde(with = "time::serde::rfc3339::option")]
    pub revoked_at: Option<OffsetDateTime>,
    pub created_by: String,
    #[serde(serialize_with = "steps_ser")]
    pub done: Vec<SetupStep>,
}

fn steps_ser<S: serde::Serializer>(steps: &[SetupStep], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(steps.iter().map(|x| x.as_str()))
}

fn state_ser<S: serde::Serializer>(state: &SetupLinkState, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(state.as_str())
}

/// A link just made: its URL, shown once.
#[derive(Clone, Debug)]
pub struct CreatedLink {
    pub id: Uuid,
    pub url: String,
    pub expires_at: OffsetDateTime,
    pub steps: Vec<SetupStep>,
}

#[derive(Clone)]
pub struct SetupLinks {
    store: Store,
    clock: Clock,
    mail: Composer,
    sso: Sso,
    domains: VerifiedDomains,
    scim: Scim,
}

impl SetupLinks {
    pub fn new(
        store: Store,
        clock: Clock,
        mail: Composer,
        sso: Sso,
        domains: VerifiedDomains,
        scim: Scim,
    ) -> Self {
        SetupLinks {
            store,
            clock,
            mail,
            sso,
            domains,
            scim,
        }
    }

    fn view(&self, row: SetupLinkRow) -> SetupLinkView {
        SetupLinkView {
            id: row.id,
            steps: stored_steps(&row.steps),
            state: state_of(&row, self.clock.now()),
            created_at: row.created_at,
            expires_at: row.expires_at,
            finished_at: row.finished_at,
            revoked_at: row.revoked_at,
            created_by: row.created_by,
            done: stored_steps(&row.done),
        }
    }

    /// The team whose links `actor` manages, when its role may take every one of `actions`
    /// (the owner's: a link grants only what its maker may do).
    async fn owned_team(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        actions: &[Action],
    ) -> Result<Uuid, SetupLinksError> {
        if matches!(actor, Actor::SetupLink { .. } | Actor::Directory { .. }) {
            return Err(TeamsError::ForbiddenRole.into());
        }
        let (team_id, role) = acting_on(&self.store, actor, team, Action::ConfigureSso)
            .await?
            .ok_or(TeamsError::TeamNotFound)?;
        if !actions.iter().all(|a| may(role, *a)) {
            return Err(TeamsError::ForbiddenRole.into());
        }
        Ok(team_id)
    }

    /// `POST /api/team/setup-links`: a link for `steps` (any order, each once), valid 24 hours.
    pub async fn create<S: AsRef<str>>(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        steps: &[S],
    ) -> Result<CreatedLink, SetupLinksError> {
        let steps = parse_steps(steps).map_err(SetupLinksError::InvalidSteps)?;
        let actions: Vec<Action> = steps.iter().map(|s| s.action()).collect();
        let team_id = self.owned_team(actor, team, &actions).await?;
        let token = random_token();
        let id = Uuid::now_v7();
        let now = self.clock.now();
        let expires_at = setup_link_expires_at(now);
        let stored = store_steps(&steps);
        let details = json!({ "team_id": team_id, "setup_link_id": id, "steps": stored });
        let audit = actor.audit("team.setup_link_created", None, None, details, now);
        self.store
            .insert_setup_link(
                &NewSetupLink {
                    id,
                    team_id,
                    token_hash: &hash_token(&token),
                    steps: &stored,
                    created_by: &actor.audit_name(),
                    created_at: now,
                    expires_at,
                },
                &audit,
            )
            .await?;
        Ok(CreatedLink {
            id,
            url: self.mail.page(&format!("/setup/{token}")),
            expires_at,
            steps,
        })
    }

    /// `GET /api/team/setup-links`: the last 20, newest first.
    pub async fn list(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
    ) -> Result<Vec<SetupLinkView>, SetupLinksError> {
        let team_id = self
            .owned_team(actor, team, &[Action::ConfigureSso])
            .await?;
        let rows = self.store.setup_links(team_id, SETUP_LINKS_LISTED).await?;
        Ok(rows.into_iter().map(|r| self.view(r)).collect())
    }

    /// `DELETE /api/team/setup-links/{id}`: revokes an open link (audited); one that already
    /// ended stays as it is. Another team's is not found.
    pub async fn revoke(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        id: Uuid,
    ) -> Result<(), SetupLinksError> {
        let team_id = self
            .owned_team(actor, team, &[Action::ConfigureSso])
            .await?;
        let link = self
            .store
            .setup_link(id)
            .await?
            .filter(|l| l.team_id == team_id)
            .ok_or(SetupLinksError::NotFound)?;
        let now = self.clock.now();
        if state_of(&link, now) != SetupLinkState::Open {
            return Ok(());
        }
        let details = json!({ "team_id": team_id, "setup_link_id": id });
        let audit = actor.audit("team.setup_link_revoked", None, None, details, now);
        self.store
            .revoke_setup_link(team_id, id, now, &audit)
            .await?;
        Ok(())
    }
}

fn state_of(row: &SetupLinkRow, now: OffsetDateTime) -> SetupLinkState {
    setup_link_state(now, row.expires_at, row.revoked_at, row.finished_at)
}
