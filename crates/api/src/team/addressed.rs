//! The invitations addressed to the signed-in user (`GET /api/team/invites/mine`) and accepting
//! one of them from `/team` (`POST /api/team/invites/{id}/accept`), beside the link's token flow
//! (`invites`). The rules are `closewise_core::teams::addressed`'s.

use axum::extract::{Path, State};
use closewise_core::teams::addressed::AddressedInvite;
use closewise_core::teams::TeamsError;
use serde::Serialize;
use time::OffsetDateTime;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{member, RoleBody, TeamResponse};
use crate::error::ApiResult;
use crate::extract::{AppJson, AuthUser};
use crate::state::AppState;

#[derive(Serialize, ToSchema)]
#[schema(as = InviteToMe)]
pub struct InviteToMeBody {
    pub id: Uuid,
    pub team_name: String,
    /// The role joining gives.
    pub role: RoleBody,
    /// The address of whoever sent it; null once their account is gone.
    pub invited_by: Option<String>,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub expires_at: OffsetDateTime,
}

impl From<AddressedInvite> for InviteToMeBody {
    fn from(i: AddressedInvite) -> Self {
        InviteToMeBody {
            id: i.id,
            team_name: i.team_name,
            role: i.role.into(),
            invited_by: i.invited_by,
            expires_at: i.expires_at,
        }
    }
}

/// `{"invites": [InviteToMe]}`, oldest first.
#[derive(Serialize, ToSchema)]
#[schema(as = InvitesToMeAnswer)]
pub struct InvitesToMeResponse {
    pub invites: Vec<InviteToMeBody>,
}

#[utoipa::path(get, path = "/api/team/invites/mine", operation_id = "invites_to_me", tag = "teams",
    responses(
        (status = 200, body = InvitesToMeResponse, description = "The open invitations (neither used, withdrawn nor expired) to the caller's address, oldest first; none while the address is not verified"),
        (status = 401, body = crate::error::ErrorBody),
    ),
    security(("bearer" = [])))]
pub async fn invites_to_me(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<AppJson<InvitesToMeResponse>> {
    let invites = state.teams.invites_to_me(auth.user_id).await?;
    Ok(AppJson(InvitesToMeResponse {
        invites: invites.into_iter().map(InviteToMeBody::from).collect(),
    }))
}

#[utoipa::path(post, path = "/api/team/invites/{id}/accept", operation_id = "accept_invite_to_me", tag = "teams",
    params(("id" = Uuid, Path, description = "The invitation's id, from `GET /api/team/invites/mine`")),
    responses(
        (status = 200, body = TeamResponse, description = "Joined with the invitation's role"),
        (status = 400, body = crate::error::ErrorBody, description = "`invite_expired`"),
        (status = 403, body = crate::error::ErrorBody, description = "`email_not_verified`; `deactivated_by_directory`"),
        (status = 404, body = crate::error::ErrorBody, description = "`invite_not_found` (unknown, withdrawn, or to another address)"),
        (status = 409, body = crate::error::ErrorBody, description = "`invite_used`, `already_in_team`, `seats_taken`, `team_over_seats`"),
    ),
    security(("bearer" = [])))]
pub async fn accept_invite_to_me(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<AppJson<TeamResponse>> {
    let id = Uuid::parse_str(&id).map_err(|_| TeamsError::InviteNotFound)?;
    let team = state.teams.accept_invite_to_me(&member(&auth), id).await?;
    Ok(AppJson(TeamResponse::new(team, &state)))
}
