//! SCIM 2.0 provisioning (issue 25, docs/teams.md): the team owner's SCIM tokens, and the Users a
//! team's identity provider creates, changes, deactivates and deletes with one of them. The
//! resource rules (filter, attributes, PATCH) are `closewise_domain::scim`'s; this service decides
//! what each change does to the team: an active user at one of the team's verified domains holds a
//! seat (a member; while no account has that address, an account without a password made at once
//! when the team has single sign-on, else a pending invitation); a deactivated or
//! deleted one is removed, their seat frees and every session they have ends, the desktop app's
//! included, so its next call is refused.

use closewise_domain::scim::ScimRuleError;
use closewise_domain::teams::{Action, SeatError};
use serde_json::{Map, Value};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::clock::Clock;
use crate::mail::Composer;
use crate::password::Hasher;
use crate::sessions::opaque_tokens::{hash_token, random_token};
use crate::store::audit::NewAudit;
use crate::store::teams::scim::{ScimTokenRow, ScimUserFilter, ScimUserRow};
use crate::store::Store;
use crate::teams::{Teams, TeamsError};

mod membership;
mod users;

pub use membership::SESSIONS_ENDED_REASON;
pub use users::MAX_RESULTS;

/// The prefix of every SCIM token, so a leaked one is recognisable.
pub const TOKEN_PREFIX: &str = "cws_scim_";

/// Why a SCIM request did not happen; each maps to SCIM's error schema once, in the API.
#[derive(Debug, thiserror::Error)]
pub enum ScimError {
    #[error("The SCIM token is missing, unknown or revoked.")]
    InvalidToken,
    #[error("There is no such user.")]
    NotFound,
    #[error("{0}")]
    Uniqueness(String),
    #[error("{0}")]
    Seats(SeatError),
    #[error("{0}")]
    Rule(#[from] ScimRuleError),
    #[error("userName must be an e-mail address at one of the team's verified domains.")]
    DomainNotVerified,
    #[error("The team's owner is managed in Closewise, not through SCIM.")]
    Owner,
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

/// The team a SCIM token is of, and the token (named in the audit trail).
#[derive(Clone, Copy, Debug)]
pub struct ScimCaller {
    pub token_id: Uuid,
    pub team_id: Uuid,
}

/// A token as listed: never its secret.
#[derive(Clone, Debug)]
pub struct ScimTokenView {
    pub id: Uuid,
    pub created_by: Option<Uuid>,
    pub created_at: OffsetDateTime,
    pub last_used_at: Option<OffsetDateTime>,
    pub revoked_at: Option<OffsetDateTime>,
}

/// A token just created: its secret is shown this once.
#[derive(Clone, Debug)]
pub struct NewScimToken {
    pub id: Uuid,
    pub team_id: Uuid,
    pub token: String,
}

/// A provider's user as stored.
#[derive(Clone, Debug)]
pub struct ScimUser {
    pub id: Uuid,
    pub user_name: String,
    pub external_id: Option<String>,
    pub active: bool,
    /// The attributes the provider sent (`name`, `emails`, `displayName`...).
    pub attributes: Map<String, Value>,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

impl From<ScimUserRow> for ScimUser {
    fn from(r: ScimUserRow) -> Self {
        let attributes = match serde_json::from_str(&r.resource) {
            Ok(Value::Object(m)) => m,
            _ => Map::new(),
        };
        ScimUser {
            id: r.id,
            user_name: r.user_name,
            external_id: r.external_id,
            active: r.active,
            attributes,
            created_at: r.created_at,
            updated_at: r.updated_at,
        }
    }
}

/// One page of a list: 1-based `start_index`, `total` matching.
#[derive(Clone, Debug)]
pub struct ScimPage {
    pub total: u32,
    pub start_index: u32,
    pub users: Vec<ScimUser>,
}

fn token_view(t: ScimTokenRow) -> ScimTokenView {
    ScimTokenView {
        id: t.id,
        created_by: t.created_by,
        created_at: t.created_at,
        last_used_at: t.last_used_at,
        revoked_at: t.revoked_at,
    }
}

#[derive(Clone)]
pub struct Scim {
    store: Store,
    clock: Clock,
    mail: Composer,
    /// For the unusable password of an account made for single sign-on.
    hasher: Hasher,
    teams: Teams,
}

impl Scim {
    pub fn new(store: Store, clock: Clock, mail: Composer, hasher: Hasher) -> Self {
        let teams = Teams::new(
            store.clone(),
            clock.clone(),
            mail.clone(),
            crate::limits::unlimited(),
        );
        Scim {
            store,
            clock,
            mail,
            hasher,
            teams,
        }
    }

    /// A new token for the caller's team (the owner's). Stored as its hash only.
    pub async fn create_token(&self, user_id: Uuid) -> Result<NewScimToken, TeamsError> {
        let (team_id, _) = self.teams.caller(user_id, Action::ManageScim).await?;
        let token = format!("{TOKEN_PREFIX}{}", random_token());
        let id = Uuid::now_v7();
        self.store
            .insert_scim_token(id, team_id, &hash_token(&token), user_id, self.clock.now())
            .await?;
        Ok(NewScimToken { id, team_id, token })
    }

    /// The caller's team's tokens, revoked ones included, newest first (the owner's).
    pub async fn tokens(&self, user_id: Uuid) -> Result<Vec<ScimTokenView>, TeamsError> {
        let (team_id, _) = self.teams.caller(user_id, Action::ManageScim).await?;
        Ok(self
            .store
            .scim_tokens(team_id)
            .await?
            .into_iter()
            .map(token_view)
            .collect())
    }

    /// Revokes one of the caller's team's live tokens; another team's, or a revoked one, is
    /// `team_not_found`. Answers the team's id (for the audit row).
    pub async fn revoke_token(&self, user_id: Uuid, id: Uuid) -> Result<Uuid, TeamsError> {
        let (team_id, _) = self.teams.caller(user_id, Action::ManageScim).await?;
        if !self
            .store
            .revoke_scim_token(team_id, id, self.clock.now())
            .await?
        {
            return Err(TeamsError::TeamNotFound);
        }
        Ok(team_id)
    }

    /// The team of a presented bearer token, its use recorded.
    pub async fn authenticate(&self, bearer: &str) -> Result<ScimCaller, ScimError> {
        let bearer = bearer.trim();
        if !bearer.starts_with(TOKEN_PREFIX) {
            return Err(ScimError::InvalidToken);
        }
        let (token_id, team_id) = self
            .store
            .use_scim_token(&hash_token(bearer), self.clock.now())
            .await?
            .ok_or(ScimError::InvalidToken)?;
        Ok(ScimCaller { token_id, team_id })
    }

    /// An operator's view of a team's SCIM: its tokens and how many users it manages.
    pub async fn operator_view(
        &self,
        team_id: Uuid,
    ) -> Result<(Vec<ScimTokenView>, u32), ScimError> {
        let tokens = self
            .store
            .scim_tokens(team_id)
            .await?
            .into_iter()
            .map(token_view)
            .collect();
        let (_, users) = self
            .store
            .scim_users(team_id, ScimUserFilter::All, 0, 0)
            .await?;
        Ok((tokens, users))
    }

    /// An operator turns SCIM off for a team: every live token is revoked (the users and members
    /// stay), and `audit` is written with how many. How many were revoked.
    pub async fn disable(&self, team_id: Uuid, mut audit: NewAudit) -> Result<u64, ScimError> {
        let revoked = self
            .store
            .revoke_all_scim_tokens(team_id, self.clock.now())
            .await?;
        audit.details = serde_json::json!({ "team_id": team_id, "tokens_revoked": revoked });
        self.store.record_audit(&audit).await?;
        Ok(revoked)
    }
}
