//! The members and invites lists a page at a time: `GET /api/team/members` and
//! `GET /api/team/invites`. `GET /api/team` answers their first page with the cursor of the
//! next (`members_next`, `invites_next`). The pages are `closewise_core::teams::pages`'.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use closewise_core::teams::pages::PageQuery;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{InviteBody, MemberBody};
use crate::error::ApiResult;
use crate::extract::{AppJson, AuthUser};
use crate::state::AppState;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// `next_cursor` of the page before; none: the first page.
    pub cursor: Option<String>,
    /// Rows per page, 1 to 500; default 100.
    pub limit: Option<i64>,
}

impl ListQuery {
    fn page(&self) -> PageQuery<'_> {
        PageQuery {
            cursor: self.cursor.as_deref(),
            limit: self.limit,
        }
    }
}

#[derive(Serialize, ToSchema)]
#[schema(as = TeamMembersPage)]
pub struct MembersPageResponse {
    /// In the order they joined (the owner first).
    pub members: Vec<MemberBody>,
    /// Pass it as `cursor` for the next page; null on the last page.
    pub next_cursor: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = TeamInvitesPage)]
pub struct InvitesPageResponse {
    /// Open invites (expired ones included), oldest first.
    pub invites: Vec<InviteBody>,
    /// Pass it as `cursor` for the next page; null on the last page.
    pub next_cursor: Option<String>,
}

#[utoipa::path(get, path = "/api/team/members", operation_id = "team_members", tag = "teams", params(ListQuery),
    responses(
        (status = 200, body = MembersPageResponse, description = "A page of the team's members, in the order they joined"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_cursor`, `invalid_limit`"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn members(
    State(state): State<AppState>,
    auth: AuthUser,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> ApiResult<AppJson<MembersPageResponse>> {
    let Query(q) = query?;
    let page = state.teams.members_page(auth.user_id, &q.page()).await?;
    Ok(AppJson(MembersPageResponse {
        members: page
            .members
            .into_iter()
            .map(|l| MemberBody {
                user_id: l.member.user_id,
                email: l.member.email,
                role: l.member.role.into(),
                joined_at: l.member.joined_at,
                calls_this_month: l.member.calls_this_month,
                may_remove: l.may_remove,
                may_change_role: l.may_change_role,
                mfa: l.member.mfa,
            })
            .collect(),
        next_cursor: page.next_cursor,
    }))
}

#[utoipa::path(get, path = "/api/team/invites", operation_id = "team_invites", tag = "teams", params(ListQuery),
    responses(
        (status = 200, body = InvitesPageResponse, description = "A page of the team's open invites, oldest first"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_cursor`, `invalid_limit`"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`: the owner's and admins'"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn invites(
    State(state): State<AppState>,
    auth: AuthUser,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> ApiResult<AppJson<InvitesPageResponse>> {
    let Query(q) = query?;
    let page = state.teams.invites_page(auth.user_id, &q.page()).await?;
    Ok(AppJson(InvitesPageResponse {
        invites: page.invites.into_iter().map(InviteBody::from).collect(),
        next_cursor: page.next_cursor,
    }))
}
