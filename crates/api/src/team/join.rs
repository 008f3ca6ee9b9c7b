//! Domain join: the owner turns it on for the company's domain, verified users at that domain ask
//! to join, and the owner or an admin approves (a free seat needed) or denies.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{member, no_content, path_id, TeamResponse};
use crate::auth::EmptyResponse;
use crate::error::ApiResult;
use crate::extract::{AppJson, AuthUser};
use crate::state::AppState;

#[derive(Deserialize, ToSchema)]
#[schema(as = DomainJoinBody)]
pub struct DomainJoinRequest {
    /// The owner's own verified company domain (`northwind.example`), or null to turn it off.
    pub domain: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = JoinableTeam)]
pub struct JoinableTeam {
    pub id: Uuid,
    pub name: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = JoinableTeamsAnswer)]
pub struct JoinableResponse {
    pub teams: Vec<JoinableTeam>,
}

#[derive(Deserialize, ToSchema)]
#[schema(as = JoinRequestBody)]
pub struct JoinRequestRequest {
    pub team_id: Uuid,
}

#[derive(Serialize, ToSchema)]
#[schema(as = JoinRequest)]
pub struct JoinRequestBody {
    pub id: Uuid,
    pub user_id: Uuid,
    pub email: String,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
}

#[derive(Serialize, ToSchema)]
#[schema(as = JoinRequestsAnswer)]
pub struct JoinRequestsResponse {
    pub requests: Vec<JoinRequestBody>,
}

#[utoipa::path(put, path = "/api/team/domain-join", tag = "teams", request_body = DomainJoinRequest,
    responses(
        (status = 200, body = TeamResponse),
        (status = 400, body = crate::error::ErrorBody, description = "`domain_not_allowed`: not the owner's verified address's domain, or a public mail domain"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (the owner)"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn set_domain_join(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<DomainJoinRequest>,
) -> ApiResult<AppJson<TeamResponse>> {
    let domain = body.domain.as_deref();
    let team = state.teams.set_join_domain(&member(&auth), domain).await?;
    Ok(AppJson(TeamResponse::new(team, &state)))
}

#[utoipa::path(get, path = "/api/team/joinable", tag = "teams",
    responses((status = 200, body = JoinableResponse, description = "Teams with domain join on for the caller's verified address's domain; `[]` for an unverified caller or one in a team")),
    security(("bearer" = [])))]
pub async fn joinable(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<AppJson<JoinableResponse>> {
    let teams = state.teams.joinable(auth.user_id).await?;
    Ok(AppJson(JoinableResponse {
        teams: teams
            .into_iter()
            .map(|(id, name)| JoinableTeam { id, name })
            .collect(),
    }))
}

#[utoipa::path(post, path = "/api/team/join-requests", tag = "teams", request_body = JoinRequestRequest,
    responses(
        (status = 202, body = EmptyResponse, description = "Asked (asking again while undecided changes nothing)"),
        (status = 403, body = crate::error::ErrorBody, description = "`email_not_verified`"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found` (also: no domain join for the caller's domain)"),
        (status = 409, body = crate::error::ErrorBody, description = "`already_in_team`"),
    ),
    security(("bearer" = [])))]
pub async fn request_join(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<JoinRequestRequest>,
) -> ApiResult<(StatusCode, AppJson<EmptyResponse>)> {
    let team_id = body.team_id;
    state.teams.request_join(&member(&auth), team_id).await?;
    Ok((StatusCode::ACCEPTED, AppJson(EmptyResponse {})))
}

#[utoipa::path(get, path = "/api/team/join-requests", tag = "teams",
    responses(
        (status = 200, body = JoinRequestsResponse, description = "Undecided requests, oldest first"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (owner and admins)"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn join_requests(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<AppJson<JoinRequestsResponse>> {
    let requests = state.teams.join_requests(auth.user_id).await?;
    Ok(AppJson(JoinRequestsResponse {
        requests: requests
            .into_iter()
            .map(|r| JoinRequestBody {
                id: r.id,
                user_id: r.user_id,
                email: r.email,
                created_at: r.created_at,
            })
            .collect(),
    }))
}

#[utoipa::path(post, path = "/api/team/join-requests/{id}/approve", operation_id = "approve_join_request", tag = "teams",
    params(("id" = Uuid, Path, description = "The request's id")),
    responses(
        (status = 204, description = "Approved: the user is a member"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`; `deactivated_by_directory` (the team's directory deactivated the asker)"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found` (another team's, decided or unknown request)"),
        (status = 409, body = crate::error::ErrorBody, description = "`seats_taken`, `team_over_seats`, `already_in_team`"),
    ),
    security(("bearer" = [])))]
pub async fn approve(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let id = path_id(&id)?;
    state.teams.approve_join(&member(&auth), id).await?;
    Ok(no_content())
}

#[utoipa::path(post, path = "/api/team/join-requests/{id}/deny", operation_id = "deny_join_request", tag = "teams",
    params(("id" = Uuid, Path, description = "The request's id")),
    responses(
        (status = 204, description = "Denied"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn deny(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let id = path_id(&id)?;
    state.teams.deny_join(&member(&auth), id).await?;
    Ok(no_content())
}
