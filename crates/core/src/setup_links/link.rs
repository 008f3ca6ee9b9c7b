//! What IT does at the link (`/api/setup/{token}`): the token names the link, which must be open;
//! each step is allowed by the link or refused (`setup_step_not_allowed`) before the service
//! that owns the change runs it with the link as actor.

use closewise_domain::email::Email;
use closewise_domain::setup_links::{may_setup, stored_steps, SetupLinkState, SetupStep};
use closewise_domain::sso::SsoConnection;
use serde_json::json;
use time::OffsetDateTime;
use uuid::Uuid;

use super::{state_of, SetupLinks, SetupLinksError};
use crate::actor::Actor;
use crate::mail::Template;
use crate::scim::NewScimToken;
use crate::sessions::opaque_tokens::hash_token;
use crate::sso::{Draft, DraftView, SetupSsoUrls, SsoView, Started};
use crate::store::teams::setup_links::SetupLinkRow;
use crate::verified_domains::VerifiedDomainView;

/// The last test sign-in.
#[derive(Clone, Debug)]
pub struct SetupTestView {
    pub passed: bool,
    /// Its refusal's code, when it failed.
    pub error: Option<String>,
    /// The address it signed in, when it passed.
    pub email: Option<String>,
    pub at: OffsetDateTime,
}

#[derive(Clone, Debug)]
pub struct SetupSsoView {
    pub urls: SetupSsoUrls,
    /// The team's saved connection.
    pub connection: Option<SsoView>,
    pub draft: Option<DraftView>,
    pub test: Option<SetupTestView>,
}

/// A SCIM token made through the link (never its secret).
#[derive(Clone, Debug)]
pub struct SetupScimToken {
    pub id: Uuid,
    pub name: String,
    pub created_at: OffsetDateTime,
}

/// What the link's page shows.
#[derive(Clone, Debug)]
pub struct LinkPage {
    pub team_name: String,
    pub steps: Vec<SetupStep>,
    pub done: Vec<SetupStep>,
    pub expires_at: OffsetDateTime,
    pub domains: Vec<VerifiedDomainView>,
    pub sso: SetupSsoView,
    pub scim_base_url: String,
    pub scim_tokens: Vec<SetupScimToken>,
}

fn actor(link: &SetupLinkRow) -> Actor {
    Actor::SetupLink {
        team_id: link.team_id,
        link_id: link.id,
    }
}

impl SetupLinks {
    /// Where the link of `token` stands; `NotFound` when no link has it.
    pub async fn state(&self, token: &str) -> Result<SetupLinkState, SetupLinksError> {
        let link = self
            .store
            .setup_link_by_token(&hash_token(token))
            .await?
            .ok_or(SetupLinksError::NotFound)?;
        Ok(state_of(&link, self.clock.now()))
    }

    /// The open link of `token`.
    async fn open(&self, token: &str) -> Result<SetupLinkRow, SetupLinksError> {
        let link = self
            .store
            .setup_link_by_token(&hash_token(token))
            .await?
            .ok_or(SetupLinksError::NotFound)?;
        match state_of(&link, self.clock.now()) {
            SetupLinkState::Open => Ok(link),
            gone => Err(SetupLinksError::Gone(gone)),
        }
    }

    /// The open link of `token`, when it allows `step`.
    async fn open_for(
        &self,
        token: &str,
        step: SetupStep,
    ) -> Result<SetupLinkRow, SetupLinksError> {
        let link = self.open(token).await?;
        if !may_setup(step, &stored_steps(&link.steps)) {
            return Err(SetupLinksError::StepNotAllowed);
        }
        Ok(link)
    }

    /// `GET /api/setup/{token}`.
    pub async fn page(&self, token: &str) -> Result<LinkPage, SetupLinksError> {
        let link = self.open(token).await?;
        self.page_of(&link).await
    }

    async fn page_of(&self, link: &SetupLinkRow) -> Result<LinkPage, SetupLinksError> {
        let team = self
            .store
            .team_by_id(link.team_id)
            .await?
            .ok_or(SetupLinksError::NotFound)?;
        let domains = self.store.team_domains(link.team_id).await?;
        let draft = match &link.draft {
            Some(json) => Some(self.sso.draft_view(&Draft::parse(json)?)?),
            None => None,
        };
        let test = match (&link.test_result, link.test_at) {
            (Some(result), Some(at)) => Some(SetupTestView {
                passed: result == "passed",
                error: link.test_error.clone(),
                email: link.test_email.clone(),
                at,
            }),
            _ => None,
        };
        let tokens = self.store.setup_link_scim_tokens(link.id).await?;
        Ok(LinkPage {
            team_name: team.name,
            steps: stored_steps(&link.steps),
            done: stored_steps(&link.done),
            expires_at: link.expires_at,
            domains: domains.into_iter().map(VerifiedDomainView::from).collect(),
            sso: SetupSsoView {
                urls: self.sso.setup_urls(link.team_id),
                connection: self.sso.connection_view(link.team_id).await?,
                draft,
                test,
            },
            scim_base_url: format!("{}/scim/v2", self.mail.base_url()),
            scim_tokens: tokens
                .into_iter()
                .map(|t| SetupScimToken {
                    id: t.id,
                    name: t.name,
                    created_at: t.created_at,
                })
                .collect(),
        })
    }

    /// `POST /api/setup/{token}/domains`.
    pub async fn add_domain(
        &self,
        token: &str,
        domain: &str,
    ) -> Result<VerifiedDomainView, SetupLinksError> {
        let link = self.open_for(token, SetupStep::Domain).await?;
        let team = Some(link.team_id);
        Ok(self.domains.add(&actor(&link), team, domain).await?)
    }

    /// `POST /api/setup/{token}/domains/{id}/verify` ("Check now").
    pub async fn verify_domain(
        &self,
        token: &str,
        id: Uuid,
    ) -> Result<VerifiedDomainView, SetupLinksError> {
        let link = self.open_for(token, SetupStep::Domain).await?;
        let team = Some(link.team_id);
        let view = self.domains.verify(&actor(&link), team, id).await?;
        if view.status == "verified" {
            self.store
                .mark_setup_link_done(link.id, SetupStep::Domain)
                .await?;
        }
        Ok(view)
    }

    /// `PUT /api/setup/{token}/sso`: checks and reads the settings as the owner's save does and
    /// keeps them as the link's draft (any earlier test result is cleared).
    pub async fn save_draft(
        &self,
        token: &str,
        connection: &SsoConnection<'_>,
    ) -> Result<LinkPage, SetupLinksError> {
        let link = self.open_for(token, SetupStep::Sso).await?;
        let draft = self.sso.draft(link.team_id, connection).await?;
        self.store
            .set_setup_link_draft(link.id, &draft.to_json())
            .await?;
        let link = self.open(token).await?;
        self.page_of(&link).await
    }

    /// `POST /api/setup/{token}/sso/test`: a real sign-in through the draft for `email`, at one
    /// of the team's verified domains.
    pub async fn start_test(&self, token: &str, email: &Email) -> Result<Started, SetupLinksError> {
        let link = self.open_for(token, SetupStep::Sso).await?;
        let draft = link.draft.as_deref().ok_or(SetupLinksError::NoDraft)?;
        let domains = self.store.team_verified_domains(link.team_id).await?;
        if !domains.iter().any(|d| d == email.domain()) {
            return Err(SetupLinksError::NotAtVerifiedDomain);
        }
        let draft = Draft::parse(draft)?;
        Ok(self
            .sso
            .start_setup_test(link.team_id, link.id, &draft, email)
            .await?)
    }

    /// `POST /api/setup/{token}/scim-tokens`: the token (shown once) and when it was made.
    pub async fn create_scim_token(
        &self,
        token: &str,
        name: &str,
    ) -> Result<(NewScimToken, OffsetDateTime), SetupLinksError> {
        let link = self.open_for(token, SetupStep::Scim).await?;
        let now = self.clock.now();
        let made = self
            .scim
            .create_token(&actor(&link), Some(link.team_id), name)
            .await?;
        self.store
            .mark_setup_link_done(link.id, SetupStep::Scim)
            .await?;
        Ok((made, now))
    }

    /// `POST /api/setup/{token}/finish`: the link ends (answers 410 from now on) and the owner is
    /// mailed what was done, both with the audit row in one transaction.
    pub async fn finish(&self, token: &str) -> Result<Vec<SetupStep>, SetupLinksError> {
        let link = self.open(token).await?;
        let now = self.clock.now();
        let done = stored_steps(&link.done);
        let team = self
            .store
            .admin_team(link.team_id)
            .await?
            .ok_or(SetupLinksError::NotFound)?;
        let mail = self.mail.compose(
            &team.owner_email,
            Template::SetupLinkFinished {
                team: team.team.name.clone(),
                done: done.iter().map(|s| done_label(*s).to_string()).collect(),
                link: self.mail.page("/team/security#team-setup-links"),
            },
            now,
        );
        let details = json!({
            "team_id": link.team_id,
            "setup_link_id": link.id,
            "done": done.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
        });
        let audit = actor(&link).audit("team.setup_link_finished", None, None, details, now);
        if !self
            .store
            .finish_setup_link(link.id, now, &audit, Some(&mail))
            .await?
        {
            let again = self.open(token).await;
            return Err(again
                .err()
                .unwrap_or(SetupLinksError::Gone(SetupLinkState::Finished)));
        }
        tracing::info!(team_id = %link.team_id, link_id = %link.id, "setup link finished");
        Ok(done)
    }
}

/// How the owner's mail names a step IT completed.
fn done_label(step: SetupStep) -> &'static str {
    match step {
        SetupStep::Domain => "verified the company domain",
        SetupStep::Sso => "connected single sign-on (a test sign-in passed)",
        SetupStep::Scim => "created a SCIM token",
    }
}
