//! The team's SCIM tokens (the owner's): create one (its secret shown once, stored hashed), list
//! them without their secret, revoke one. Each is one command of `closewise_core::scim::Scim`
//! with the caller as actor, which checks the role and audits the change.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use closewise_core::actor::Actor;
use closewise_core::scim::ScimTokenView;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{no_content, path_id};
use crate::error::ApiResult;
use crate::extract::{AppJson, AuthUser};
use crate::state::AppState;

fn member(auth: &AuthUser) -> Actor {
    Actor::member(auth.user_id, &auth.email)
}

/// `POST /api/team/scim/tokens`'s body.
#[derive(Deserialize, ToSchema)]
#[schema(as = ScimTokenCreateBody)]
pub struct CreateBody {
    /// What the owner calls it (which identity provider holds it): 1 to 60 characters.
    pub name: String,
}

/// A token just created: `token` is shown this once.
#[derive(Serialize, ToSchema)]
#[schema(as = ScimTokenCreated)]
pub struct CreatedBody {
    pub id: Uuid,
    /// Its name, trimmed.
    pub name: String,
    /// The bearer token for the identity provider (`cws_scim_…`); never shown again.
    pub token: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = ScimToken)]
pub struct TokenBody {
    pub id: Uuid,
    /// The owner's name for it; "" for a token made before tokens had names.
    pub name: String,
    /// Who created it (null once their account is gone).
    pub created_by: Option<Uuid>,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub last_used_at: Option<OffsetDateTime>,
    /// Null while the token works.
    #[serde(with = "time::serde::rfc3339::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub revoked_at: Option<OffsetDateTime>,
}

impl From<ScimTokenView> for TokenBody {
    fn from(t: ScimTokenView) -> Self {
        TokenBody {
            id: t.id,
            name: t.name,
            created_by: t.created_by,
            created_at: t.created_at,
            last_used_at: t.last_used_at,
            revoked_at: t.revoked_at,
        }
    }
}

/// `{"tokens": [ScimToken]}`, newest first, revoked ones included.
#[derive(Serialize, ToSchema)]
#[schema(as = ScimTokenList)]
pub struct TokensBody {
    pub tokens: Vec<TokenBody>,
}

#[utoipa::path(post, path = "/api/team/scim/tokens", tag = "teams", request_body = CreateBody,
    responses(
        (status = 201, body = CreatedBody, description = "Created; the token is shown only in this answer"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_token_name` (empty, or over 60 characters), `invalid_json`"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (the owner manages SCIM tokens); `reauthentication_required`: the password (and a second factor, when enrolled) was not given on this session in the last 15 minutes"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn create_token(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<CreateBody>,
) -> ApiResult<(StatusCode, AppJson<CreatedBody>)> {
    crate::auth::reauth::require_recent_password(&state, &auth).await?;
    let created = state
        .scim
        .create_token(&member(&auth), None, &body.name)
        .await?;
    Ok((
        StatusCode::CREATED,
        AppJson(CreatedBody {
            id: created.id,
            name: created.name,
            token: created.token,
        }),
    ))
}

#[utoipa::path(get, path = "/api/team/scim/tokens", tag = "teams",
    responses(
        (status = 200, body = TokensBody),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (the owner manages SCIM tokens)"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn list_tokens(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<AppJson<TokensBody>> {
    let tokens = state.scim.tokens(&member(&auth), None).await?;
    Ok(AppJson(TokensBody {
        tokens: tokens.into_iter().map(TokenBody::from).collect(),
    }))
}

#[utoipa::path(delete, path = "/api/team/scim/tokens/{id}", tag = "teams",
    params(("id" = Uuid, Path, description = "The token's id")),
    responses(
        (status = 204, description = "Revoked: the identity provider's next request with it is refused"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (the owner manages SCIM tokens)"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`: no live token by that id in the caller's team"),
    ),
    security(("bearer" = [])))]
pub async fn revoke_token(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let id = path_id(&id)?;
    state.scim.revoke_token(&member(&auth), None, id).await?;
    Ok(no_content())
}
