//! Invitations: create and resend (a mail with `APP_BASE_URL/invite?token=…`, rate limited like the
//! other mail), revoke, and the link's lookup (no sign-in), accept and decline.
//!
//! Creating answers `202 {}` whatever the address: nothing about its account is looked up, so the
//! answer cannot tell whether it has one. The mail is written to the outbox right after the
//! invite; when that write fails the invite stands and a resend sends a new link.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use closewise_core::mail::Template;
use closewise_core::teams::Invitation;
use closewise_domain::email::Email;
use closewise_domain::teams::{Action, Role};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;

use super::{audit, no_content, parse_role, path_id, RoleBody, TeamResponse};
use crate::auth::{limit, EmptyResponse};
use crate::error::ApiResult;
use crate::extract::{AppJson, AuthUser, ClientIp};
use crate::ratelimit::Bucket;
use crate::state::AppState;
use closewise_core::teams::TeamsError;

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

fn role_phrase(role: Role) -> &'static str {
    match role {
        Role::Admin => "an admin",
        _ => "a member",
    }
}

/// Writes the invitation mail to the outbox.
async fn mail_invitation(state: &AppState, auth: &AuthUser, inv: &Invitation) -> ApiResult<()> {
    let team = state
        .store
        .team_by_id(inv.team_id)
        .await?
        .ok_or_else(super::not_found)?;
    let template = Template::TeamInvite {
        link: state.mail.link("/invite", &inv.token),
        team: team.name,
        role: role_phrase(inv.role).into(),
        inviter: auth.email.clone(),
    };
    let mail = state.mail.compose(&inv.email, template, state.clock.now());
    state.store.enqueue_mail(&mail).await?;
    Ok(())
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
    let email = Email::parse(&body.email).map_err(TeamsError::InvalidEmail)?;
    let role = parse_role(&body.role)?;
    // Who may invite is settled before any limit is spent, and an address's budget is kept per
    // team: nobody outside a team (nor a team of their own making) spends that team's.
    let team_id = state.teams.inviter(auth.user_id, role).await?;
    limit(&state, Bucket::InvitePerInviter, &auth.user_id.to_string()).await?;
    limit(
        &state,
        Bucket::InvitePerAddress,
        &format!("{team_id}:{}", email.as_str()),
    )
    .await?;
    let inv = state
        .teams
        .invite(auth.user_id, email.as_str(), role)
        .await?;
    mail_invitation(&state, &auth, &inv).await?;
    let details =
        json!({ "team_id": inv.team_id, "invite_id": inv.invite_id, "role": role.as_str() });
    audit(&state, &auth, "team.invite", None, Some(inv.email), details).await?;
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
    let (team_id, _) = state
        .teams
        .caller(auth.user_id, Action::ResendInvite)
        .await?;
    // The address is known before the new link is made, so the limit comes first.
    let address = state
        .store
        .team_invite(team_id, id)
        .await?
        .map(|i| i.email)
        .ok_or_else(super::not_found)?;
    limit(&state, Bucket::InvitePerInviter, &auth.user_id.to_string()).await?;
    limit(
        &state,
        Bucket::InviteResend,
        &format!("{team_id}:{address}"),
    )
    .await?;
    let inv = state.teams.resend(auth.user_id, id).await?;
    mail_invitation(&state, &auth, &inv).await?;
    let details = json!({ "team_id": inv.team_id, "invite_id": inv.invite_id });
    audit(
        &state,
        &auth,
        "team.invite_resend",
        None,
        Some(inv.email),
        details,
    )
    .await?;
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
    state.teams.revoke(auth.user_id, id).await?;
    let team = state.store.membership_of(auth.user_id).await?.map(|t| t.0);
    let details = json!({ "team_id": team, "invite_id": id });
    audit(&state, &auth, "team.invite_revoke", None, None, details).await?;
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
    let team = state.teams.accept(auth.user_id, &body.token).await?;
    let details = json!({ "team_id": team.id, "role": team.role.as_str() });
    audit(&state, &auth, "team.invite_accept", None, None, details).await?;
    Ok(AppJson(team.into()))
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
    // The team's id goes on the audit row (`closewise teams show` finds a team's rows by it).
    let team = state.teams.lookup(&body.token).await.ok();
    state.teams.decline(auth.user_id, &body.token).await?;
    let details = json!({
        "team_id": team.as_ref().map(|t| t.team_id),
        "team_name": team.map(|t| t.team_name),
    });
    audit(&state, &auth, "team.invite_decline", None, None, details).await?;
    Ok(no_content())
}
