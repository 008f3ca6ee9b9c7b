//! The owner's setup links for IT (docs/teams.md "Setup link for IT"): make one for some of the
//! steps domain, sso and scim (its URL shown once), list them with what IT did, revoke one. Each
//! is one command of `closewise_core::setup_links::SetupLinks` with the caller as actor; making
//! and revoking need a recent password, as the other owner-only changes do.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use closewise_core::actor::Actor;
use closewise_core::setup_links::{SetupLinkView, SetupLinksError};
use closewise_domain::setup_links::SetupStep;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;
use uuid::Uuid;

use super::no_content;
use crate::error::ApiResult;
use crate::extract::{AppJson, AuthUser};
use crate::state::AppState;

fn member(auth: &AuthUser) -> Actor {
    Actor::member(auth.user_id, &auth.email)
}

/// A step of a setup link, in the order the page walks them.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "snake_case")]
#[schema(as = SetupStep)]
pub enum SetupStepBody {
    /// Add and verify a company domain.
    Domain,
    /// Connect single sign-on, saved once a test sign-in passes.
    Sso,
    /// Create a SCIM token.
    Scim,
}

impl From<SetupStep> for SetupStepBody {
    fn from(s: SetupStep) -> Self {
        match s {
            SetupStep::Domain => SetupStepBody::Domain,
            SetupStep::Sso => SetupStepBody::Sso,
            SetupStep::Scim => SetupStepBody::Scim,
        }
    }
}

pub(crate) fn steps_body(steps: &[SetupStep]) -> Vec<SetupStepBody> {
    steps.iter().map(|s| (*s).into()).collect()
}

/// `POST /api/team/setup-links`'s body.
#[derive(Deserialize, ToSchema)]
#[schema(as = SetupLinkCreateBody)]
pub struct CreateBody {
    /// Some of `domain`, `sso`, `scim`: at least one, each once, in any order.
    #[schema(value_type = Vec<SetupStepBody>)]
    pub steps: Vec<String>,
}

/// A link just made: `url` is shown this once (only its token's hash is kept).
#[derive(Serialize, ToSchema)]
#[schema(as = SetupLinkCreated)]
pub struct CreatedBody {
    pub id: Uuid,
    /// `APP_BASE_URL/setup/<token>`: whoever holds it can do the link's steps until it ends.
    pub url: String,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub expires_at: OffsetDateTime,
    /// In the order domain, sso, scim.
    pub steps: Vec<SetupStepBody>,
}

/// Where a link stands.
#[derive(Serialize, ToSchema, Clone, Copy)]
#[serde(rename_all = "snake_case")]
#[schema(as = SetupLinkState)]
pub enum StateBody {
    Open,
    Finished,
    Revoked,
    Expired,
}

/// One of the team's setup links, without its token or URL.
#[derive(Serialize, ToSchema)]
#[schema(as = SetupLink)]
pub struct LinkBody {
    pub id: Uuid,
    pub steps: Vec<SetupStepBody>,
    pub state: StateBody,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub expires_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub finished_at: Option<OffsetDateTime>,
    #[serde(with = "time::serde::rfc3339::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub revoked_at: Option<OffsetDateTime>,
    /// The owner's address when they made it.
    pub created_by: String,
    /// The steps IT completed through it: a domain verified, a connection saved after a passed
    /// test sign-in, a SCIM token created.
    pub done: Vec<SetupStepBody>,
}

impl From<SetupLinkView> for LinkBody {
    fn from(v: SetupLinkView) -> Self {
        use closewise_domain::setup_links::SetupLinkState as S;
        LinkBody {
            id: v.id,
            steps: steps_body(&v.steps),
            state: match v.state {
                S::Open => StateBody::Open,
                S::Finished => StateBody::Finished,
                S::Revoked => StateBody::Revoked,
                S::Expired => StateBody::Expired,
            },
            created_at: v.created_at,
            expires_at: v.expires_at,
            finished_at: v.finished_at,
            revoked_at: v.revoked_at,
            created_by: v.created_by,
            done: steps_body(&v.done),
        }
    }
}

/// `{"links": [SetupLink]}`: the last 20, newest first.
#[derive(Serialize, ToSchema)]
#[schema(as = SetupLinkList)]
pub struct LinksBody {
    pub links: Vec<LinkBody>,
}

#[utoipa::path(post, path = "/api/team/setup-links", tag = "teams", request_body = CreateBody,
    responses(
        (status = 201, body = CreatedBody, description = "Made, valid 24 hours and until IT finishes; the URL is shown only in this answer"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_setup_steps` (none, a repeat, or not one of domain, sso, scim); `invalid_json`"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (the owner's); `reauthentication_required`: the password (and a second factor, when enrolled) was not given on this session in the last 15 minutes"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn create_link(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<CreateBody>,
) -> ApiResult<(StatusCode, AppJson<CreatedBody>)> {
    crate::auth::reauth::require_recent_password(&state, &auth).await?;
    let made = state
        .setup_links
        .create(&member(&auth), None, &body.steps)
        .await?;
    Ok((
        StatusCode::CREATED,
        AppJson(CreatedBody {
            id: made.id,
            url: made.url,
            expires_at: made.expires_at,
            steps: steps_body(&made.steps),
        }),
    ))
}

#[utoipa::path(get, path = "/api/team/setup-links", tag = "teams",
    responses(
        (status = 200, body = LinksBody),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (the owner's)"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn list_links(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<AppJson<LinksBody>> {
    let links = state.setup_links.list(&member(&auth), None).await?;
    Ok(AppJson(LinksBody {
        links: links.into_iter().map(LinkBody::from).collect(),
    }))
}

#[utoipa::path(delete, path = "/api/team/setup-links/{id}", tag = "teams", operation_id = "revoke_setup_link",
    params(("id" = Uuid, Path, description = "The link's id")),
    responses(
        (status = 204, description = "Revoked (its page and endpoints answer 410 from now on); a link that already ended stays as it is"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (the owner's); `reauthentication_required`: the password (and a second factor, when enrolled) was not given on this session in the last 15 minutes"),
        (status = 404, body = crate::error::ErrorBody, description = "`setup_link_not_found`: no link by that id in the caller's team; `team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn revoke_link(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    crate::auth::reauth::require_recent_password(&state, &auth).await?;
    let id = Uuid::parse_str(&id).map_err(|_| SetupLinksError::NotFound)?;
    state.setup_links.revoke(&member(&auth), None, id).await?;
    Ok(no_content())
}
