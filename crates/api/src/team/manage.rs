//! The team itself and its members: `GET`/`POST`/`PATCH /api/team`, transfer, leave, removing a
//! member and changing a role.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use closewise_core::teams::TeamsError;
use serde::Deserialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{
    member, no_content, parse_role, path_id, team_response, MaybeTeamResponse, TeamBody,
    TeamResponse,
};
use crate::error::ApiResult;
use crate::extract::{AppJson, AuthUser};
use crate::state::AppState;

#[derive(Deserialize, ToSchema)]
#[schema(as = TeamNameBody)]
pub struct NameRequest {
    /// 1 to 80 characters (trimmed), no control characters.
    pub name: String,
}

#[derive(Deserialize, ToSchema)]
#[schema(as = TransferBody)]
pub struct TransferRequest {
    /// The member who becomes the owner.
    pub user_id: Uuid,
}

#[derive(Deserialize, ToSchema)]
#[schema(as = TeamRoleBody)]
pub struct RoleRequest {
    #[schema(schema_with = crate::schemas::invitable_role)]
    pub role: String,
}

#[utoipa::path(get, path = "/api/team", tag = "teams",
    responses((status = 200, body = MaybeTeamResponse, description = "`team` is null when the caller is in no team. \
        The counts are the whole team's; `members` and `invites` are the first page of `GET /api/team/members` and \
        `GET /api/team/invites` (100 rows), `members_next` and `invites_next` the cursors of the pages after them \
        (null when the list is whole)")),
    security(("bearer" = [])))]
pub async fn get_team(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<AppJson<MaybeTeamResponse>> {
    let team = match state.teams.view(auth.user_id).await {
        Ok(t) => Some(TeamBody::new(
            t,
            state.settings.stripe.prices(),
            state.clock.now(),
        )),
        Err(TeamsError::TeamNotFound) => None,
        Err(e) => return Err(e.into()),
    };
    Ok(AppJson(MaybeTeamResponse { team }))
}

#[utoipa::path(post, path = "/api/team", tag = "teams", request_body = NameRequest,
    responses(
        (status = 201, body = TeamResponse, description = "Created: the caller is its owner, holding 1 seat of 0"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_team_name`"),
        (status = 403, body = crate::error::ErrorBody, description = "`email_not_verified`"),
        (status = 409, body = crate::error::ErrorBody, description = "`already_in_team`"),
    ),
    security(("bearer" = [])))]
pub async fn create_team(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<NameRequest>,
) -> ApiResult<(StatusCode, AppJson<TeamResponse>)> {
    let team = state.teams.create(&member(&auth), &body.name).await?;
    Ok((
        StatusCode::CREATED,
        AppJson(TeamResponse::new(team, &state)),
    ))
}

#[utoipa::path(patch, path = "/api/team", tag = "teams", request_body = NameRequest,
    responses(
        (status = 200, body = TeamResponse),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_team_name`"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (the owner renames)"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn rename_team(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<NameRequest>,
) -> ApiResult<AppJson<TeamResponse>> {
    let team = state.teams.rename(&member(&auth), &body.name).await?;
    Ok(AppJson(TeamResponse::new(team, &state)))
}

#[utoipa::path(post, path = "/api/team/transfer", tag = "teams", request_body = TransferRequest,
    responses(
        (status = 200, body = TeamResponse, description = "The target is the owner, the caller an admin"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_transfer` (to oneself)"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (the owner transfers); `reauthentication_required`: the password was not entered on this session in the last 15 minutes"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found` (also: the target is not a member)"),
    ),
    security(("bearer" = [])))]
pub async fn transfer(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<TransferRequest>,
) -> ApiResult<AppJson<TeamResponse>> {
    crate::auth::reauth::require_recent_password(&state, &auth).await?;
    let to = body.user_id;
    state.teams.transfer(&member(&auth), None, to).await?;
    Ok(AppJson(team_response(&state, auth.user_id).await?))
}

#[utoipa::path(post, path = "/api/team/leave", tag = "teams",
    responses(
        (status = 204, description = "Left; the seat is free"),
        (status = 400, body = crate::error::ErrorBody, description = "`owner_cannot_leave`: transfer the team first"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn leave(State(state): State<AppState>, auth: AuthUser) -> ApiResult<StatusCode> {
    match state.teams.leave(&member(&auth)).await {
        Err(TeamsError::ForbiddenRole) => Err(crate::error::ApiError::owner_cannot_leave()),
        other => Ok(other.map(|()| no_content())?),
    }
}

#[utoipa::path(delete, path = "/api/team/members/{user_id}", tag = "teams",
    params(("user_id" = Uuid, Path, description = "The member's user id")),
    responses(
        (status = 204, description = "Removed; their seat is free and their next entitlements follow"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (`teams::may_remove`)"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`: not a member of the caller's team"),
    ),
    security(("bearer" = [])))]
pub async fn remove_member(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(user_id): Path<String>,
) -> ApiResult<StatusCode> {
    let target = path_id(&user_id)?;
    state
        .teams
        .remove_member(&member(&auth), None, target)
        .await?;
    Ok(no_content())
}

#[utoipa::path(put, path = "/api/team/members/{user_id}/role", tag = "teams", request_body = RoleRequest,
    params(("user_id" = Uuid, Path, description = "The member's user id")),
    responses(
        (status = 200, body = TeamResponse),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_role` (only `admin` or `member`; ownership is transferred)"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (`teams::may_set_role`: the owner)"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn set_role(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(user_id): Path<String>,
    AppJson(body): AppJson<RoleRequest>,
) -> ApiResult<AppJson<TeamResponse>> {
    let target = path_id(&user_id)?;
    let role = parse_role(&body.role)?;
    let team = state.teams.set_role(&member(&auth), target, role).await?;
    Ok(AppJson(TeamResponse::new(team, &state)))
}

#[derive(serde::Deserialize, serde::Serialize, utoipa::ToSchema)]
#[schema(as = MfaPolicy)]
pub struct MfaPolicy {
    /// Every member must have a second factor: one without it cannot approve devices
    /// (`403 mfa_setup_required`) and is asked to set it up at the next web sign-in.
    pub required: bool,
}

#[utoipa::path(put, path = "/api/team/mfa-policy", tag = "teams", request_body = MfaPolicy,
    responses(
        (status = 200, body = MfaPolicy),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (the owner decides); `reauthentication_required`: the password (and a second factor, when enrolled) was not given on this session in the last 15 minutes"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn set_mfa_policy(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<MfaPolicy>,
) -> ApiResult<AppJson<MfaPolicy>> {
    let stepped_up = crate::auth::reauth::recently_stepped_up(&state, &auth).await?;
    state
        .teams
        .set_mfa_policy(&member(&auth), body.required, stepped_up)
        .await?;
    Ok(AppJson(body))
}
