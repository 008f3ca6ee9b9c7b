//! Single sign-on as an operator sees it (`closewise teams sso show|disable TEAM`): any team's
//! connection without its secret, and turning it off, a command taking the operator as actor
//! and audited with their reason in the change's transaction (the team's members then sign in
//! with their passwords again, or reset them).

use closewise_domain::sso::redirect_uri;
use serde_json::json;
use time::OffsetDateTime;

use super::SsoError;
use crate::actor::Actor;
use crate::clock::Clock;
use crate::store::teams::TeamRow;
use crate::store::Store;

#[derive(Clone, Debug, serde::Serialize)]
pub struct SsoAdminView {
    pub team_id: uuid::Uuid,
    pub team: String,
    pub configured: bool,
    pub issuer: Option<String>,
    pub client_id: Option<String>,
    /// The claim that carries a person's address (`email` when not configured).
    pub email_claim: String,
    pub required: bool,
    pub redirect_uri: String,
    pub verified_domains: Vec<String>,
    #[serde(with = "time::serde::rfc3339::option")]
    pub updated_at: Option<OffsetDateTime>,
}

#[derive(Clone)]
pub struct SsoAdmin {
    store: Store,
    clock: Clock,
    base_url: String,
}

impl SsoAdmin {
    pub fn new(store: Store, clock: Clock, base_url: &str) -> Self {
        SsoAdmin {
            store,
            clock,
            base_url: base_url.to_string(),
        }
    }

    pub async fn show(&self, team: &TeamRow) -> Result<SsoAdminView, SsoError> {
        let row = self.store.team_sso(team.id).await?;
        Ok(SsoAdminView {
            team_id: team.id,
            team: team.name.clone(),
            configured: row.is_some(),
            issuer: row.as_ref().map(|r| r.issuer.clone()),
            client_id: row.as_ref().map(|r| r.client_id.clone()),
            email_claim: row
                .as_ref()
                .map_or_else(|| "email".to_string(), |r| r.email_claim.clone()),
            required: row.as_ref().is_some_and(|r| r.required),
            redirect_uri: redirect_uri(&self.base_url),
            verified_domains: self.store.team_verified_domains(team.id).await?,
            updated_at: row.map(|r| r.updated_at),
        })
    }

    /// Removes the team's connection; `NotConfigured` when it had none.
    pub async fn disable(&self, actor: &Actor, team: &TeamRow) -> Result<(), SsoError> {
        let before = self.store.team_sso(team.id).await?;
        let Some(before) = before else {
            return Err(SsoError::NotConfigured);
        };
        let details = json!({
            "team_id": team.id,
            "team": team.name,
            "issuer": before.issuer,
            "client_id": before.client_id,
            "required": before.required,
        });
        let audit = actor.audit("team.sso.disable", None, None, details, self.clock.now());
        if !self.store.delete_team_sso(team.id, &audit).await? {
            return Err(SsoError::NotConfigured);
        }
        tracing::info!(team_id = %team.id, actor = %audit.actor, "team SSO disabled");
        Ok(())
    }
}
