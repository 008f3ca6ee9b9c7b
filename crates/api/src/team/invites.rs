//! Invitations: create and resend (a mail with `APP_BASE_URL/invite?token=…`, rate limited like the
//! other mail), revoke, and the link's lookup (no sign-in), accept and decline.
//!
//! Creating answers `202 {}` whatever the address: nothing about its account is told apart, so the
//! answer cannot tell whether it has one. The core writes the invite, its mail and its audit row
//! in one transaction, after spending the inviter's budgets.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use closewise_core::teams::TeamsError;
use closewise_domain::email::Email;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{member, no_content, parse_role, path_id, RoleBody, TeamResponse};
use crate::auth::{limit, EmptyResponse};
use crate::error::ApiResult;
use crate::extract::{AppJson, AuthUser, ClientIp};
use crate::ratelimit::Bucket;
use crate::state::AppState;

#[derive(Deserialize, ToSchema)]
#[schema(as = TeamInviteBody)]
pub struct InviteRequest {
    pub email: String,
    #[schema(schema_with = crate::schemas::invitable_role)]
    pub role: String,
}

#[derive(Deserialize, ToSchema)]
#[schema(as = InviteTokenBody)]
pub struct TokenRequest {
    /// The token of the invitation link (`/invite?token=…`).
    pub token: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = InviteLookupAnswer)]
pub struct LookupResponse {
    pub team_name: String,
    pub role: RoleBody,
    /// The invited address: sign in or sign up with it to accept.
    pub email: String,
}

#[utoipa::path(post, path = "/api/team/invites", tag = "teams", request_body = InviteRequest,
    responses(
        (status = 202, body = EmptyResponse, description = "Invited (the same answer whether or not the address has an account); the mail is on its way"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_email`, `invalid_role`"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`: owner and admins invite members; only the owner invites admins"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`seats_taken`, `team_over_seats` (fewer seats than members), `already_member` (a member of this team)"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`"),
    ),
    security(("bearer" = [])))]
pub async fn invite(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<InviteRequest>,
) -> ApiResult<(StatusCode, AppJson<EmptyResponse>)> {
    // The address and the role are read first: a malformed one is refused before anything else.
    let email = Email::parse(&body.email).map_err(TeamsError::InvalidEmail)?;
    let role = parse_role(&body.role)?;
    state
        .teams
        .invite(&member(&auth), email.as_str(), role)
        .await?;
    Ok((StatusCode::ACCEPTED, AppJson(EmptyResponse {})))
}

#[utoipa::path(post, path = "/api/team/invites/{id}/resend", operation_id = "resend_invite", tag = "teams",
    params(("id" = Uuid, Path, description = "The invite's id")),
    responses(
        (status = 202, body = EmptyResponse, description = "A new link (the old one stops working), valid 7 more days"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found` (another team's, used or revoked invite)"),
        (status = 409, body = crate::error::ErrorBody, description = "`seats_taken`, `team_over_seats` (reviving an expired invite)"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`: one resend a minute per address"),
    ),
    security(("bearer" = [])))]
pub async fn resend(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<(StatusCode, AppJson<EmptyResponse>)> {
    let id = path_id(&id)?;
    state.teams.resend(&member(&auth), id).await?;
    Ok((StatusCode::ACCEPTED, AppJson(EmptyResponse {})))
}

#[utoipa::path(delete, path = "/api/team/invites/{id}", tag = "teams",
    params(("id" = Uuid, Path, description = "The invite's id")),
    responses(
        (status = 204, description = "Revoked; its link stops working and its seat is free"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn revoke(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let id = path_id(&id)?;
    state.teams.revoke(&member(&auth), id).await?;
    Ok(no_content())
}

#[utoipa::path(post, path = "/api/team/invites/lookup", operation_id = "lookup_invite", tag = "teams", request_body = TokenRequest,
    responses(
        (status = 200, body = LookupResponse),
        (status = 400, body = crate::error::ErrorBody, description = "`invite_expired`"),
        (status = 404, body = crate::error::ErrorBody, description = "`invite_not_found` (unknown, used, declined or revoked)"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`"),
    ))]
pub async fn lookup(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppJson(body): AppJson<TokenRequest>,
) -> ApiResult<AppJson<LookupResponse>> {
    limit(&state, Bucket::MailPerIp, &ip.to_string()).await?;
    // The link's page shows a used invite as it shows an unknown one.
    let found = match state.teams.lookup(&body.token).await {
        Err(TeamsError::InviteUsed) => Err(TeamsError::InviteNotFound),
        other => other,
    }?;
    Ok(AppJson(LookupResponse {
        team_name: found.team_name,
        role: found.role.into(),
        email: found.email,
    }))
}

#[utoipa::path(post, path = "/api/team/invites/accept", tag = "teams", request_body = TokenRequest,
    responses(
        (status = 200, body = TeamResponse, description = "Joined with the invite's role"),
        (status = 400, body = crate::error::ErrorBody, description = "`invite_expired`"),
        (status = 403, body = crate::error::ErrorBody, description = "`email_not_verified`; `deactivated_by_directory` (the team's directory deactivated the address)"),
        (status = 404, body = crate::error::ErrorBody, description = "`invite_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`invite_used`, `invite_other_address`, `already_in_team`, `seats_taken`, `team_over_seats`"),
    ),
    security(("bearer" = [])))]
pub async fn accept(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<TokenRequest>,
) -> ApiResult<AppJson<TeamResponse>> {
    let team = state.teams.accept(&member(&auth), &body.token).await?;
    Ok(AppJson(TeamResponse::new(team, &state)))
}

#[utoipa::path(post, path = "/api/team/invites/decline", tag = "teams", request_body = TokenRequest,
    responses(
        (status = 204, description = "Declined; the link stops working"),
        (status = 400, body = crate::error::ErrorBody, description = "`invite_expired`"),
        (status = 403, body = crate::error::ErrorBody, description = "`email_not_verified`"),
        (status = 404, body = crate::error::ErrorBody, description = "`invite_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`invite_used`, `invite_other_address`"),
    ),
    security(("bearer" = [])))]
pub async fn decline(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<TokenRequest>,
) -> ApiResult<StatusCode> {
    state.teams.decline(&member(&auth), &body.token).await?;
    Ok(no_content())
}
