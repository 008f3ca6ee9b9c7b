//! SCIM 2.0 provisioning (docs/teams.md): the team owner's SCIM tokens, and the Users a
//! team's identity provider creates, changes, deactivates and deletes with one of them. The
//! resource rules (filter, attributes, PATCH) are `closewise_domain::scim`'s; this service decides
//! what each change does to the team: an active user at one of the team's verified domains holds a
//! seat (a member; while no account has that address, an account without a password made at once
//! when the team has single sign-on, else a pending invitation); a deactivated or
//! deleted one is removed, their seat frees and every session they have ends, the desktop app's
//! included, so its next call is refused.

use closewise_domain::scim::{token_name, ScimRuleError};
use closewise_domain::teams::{may, Action, SeatError};
use serde_json::{json, Map, Value};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::actor::Actor;
use crate::clock::Clock;
use crate::mail::Composer;
use crate::password::Hasher;
use crate::sessions::opaque_tokens::{hash_token, random_token};
use crate::store::teams::scim::{ScimTokenInsert, ScimTokenRow, ScimUserFilter, ScimUserRow};
use crate::store::Store;
use crate::teams::acting::acting_on;
use crate::teams::TeamsError;

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
    /// The owner's name for it; empty for tokens made before tokens had names.
    pub name: String,
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
    pub name: String,
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
        name: t.name,
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
}

impl Scim {
    pub fn new(store: Store, clock: Clock, mail: Composer, hasher: Hasher) -> Self {
        Scim {
            store,
            clock,
            mail,
            hasher,
        }
    }

    /// The team whose SCIM tokens `actor` manages (a member: their own, when their role may;
    /// anyone else: `team`).
    async fn token_team(&self, actor: &Actor, team: Option<Uuid>) -> Result<Uuid, TeamsError> {
        let (team_id, role) = acting_on(&self.store, actor, team, Action::ManageScim)
            .await?
            .ok_or(TeamsError::TeamNotFound)?;
        if !may(role, Action::ManageScim) {
            return Err(TeamsError::ForbiddenRole);
        }
        Ok(team_id)
    }

    /// A new token for the team named `name` (`scim::token_name`), stored as its hash only,
    /// audited in the same transaction.
    pub async fn create_token(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        name: &str,
    ) -> Result<NewScimToken, TeamsError> {
        let name = token_name(name).map_err(TeamsError::InvalidTokenName)?;
        let team_id = self.token_team(actor, team).await?;
        let token = format!("{TOKEN_PREFIX}{}", random_token());
        let id = Uuid::now_v7();
        let now = self.clock.now();
        let details = json!({ "team_id": team_id, "token_id": id, "name": name });
        let audit = actor.audit("team.scim.token_create", None, None, details, now);
        let token_hash = hash_token(&token);
        let row = ScimTokenInsert {
            id,
            team_id,
            name: &name,
            token_hash: &token_hash,
            created_by: actor.user_id(),
            created_at: now,
            setup_link_id: actor.setup_link_id(),
        };
        self.store.insert_scim_token(&row, Some(&audit)).await?;
        Ok(NewScimToken {
            id,
            team_id,
            name,
            token,
        })
    }

    /// The team's tokens, revoked ones included, newest first.
    pub async fn tokens(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
    ) -> Result<Vec<ScimTokenView>, TeamsError> {
        let team_id = self.token_team(actor, team).await?;
        Ok(self
            .store
            .scim_tokens(team_id)
            .await?
            .into_iter()
            .map(token_view)
            .collect())
    }

    /// Revokes one of the team's live tokens, audited in the same transaction; another team's,
    /// or a revoked one, is `team_not_found`.
    pub async fn revoke_token(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        id: Uuid,
    ) -> Result<(), TeamsError> {
        let team_id = self.token_team(actor, team).await?;
        let now = self.clock.now();
        let details = json!({ "team_id": team_id, "token_id": id });
        let audit = actor.audit("team.scim.token_revoke", None, None, details, now);
        if !self
            .store
            .revoke_scim_token(team_id, id, now, Some(&audit))
            .await?
        {
            return Err(TeamsError::TeamNotFound);
        }
        Ok(())
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

    /// Turns SCIM off for a team (an operator's): every live token is revoked (the users and
    /// members stay), audited in the same transaction with how many. How many were revoked.
    pub async fn disable(&self, actor: &Actor, team: Option<Uuid>) -> Result<u64, TeamsError> {
        let team_id = self.token_team(actor, team).await?;
        let owner = self.store.team_by_id(team_id).await?.map(|t| t.owner_id);
        let now = self.clock.now();
        let audit = actor.audit(
            "team.scim.disable",
            owner,
            None,
            json!({ "team_id": team_id }),
            now,
        );
        Ok(self
            .store
            .revoke_all_scim_tokens(team_id, now, Some(&audit))
            .await?)
    }
}
