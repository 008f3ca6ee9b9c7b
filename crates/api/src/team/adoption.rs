//! Adoption and seats (docs/api.md "Team adoption and activity"): `GET /api/team/adoption` (and `.csv`),
//! the owner's and admins'; `POST /api/team/reclaim`, whoever may change seats (the owner). The
//! figures and rules are `closewise_core::teams::adoption`'s and `::billing::reclaim`'s.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::response::Response;
use closewise_core::teams::adoption::{Adoption, MemberAdoption};
use closewise_core::teams::billing::reclaim::{ReclaimOrder, Reclaimed};
use closewise_core::teams::pages::PageQuery;
use closewise_domain::idle_seats::{SeatUse, IDLE_DAYS};
use serde::{Deserialize, Serialize};
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;
use utoipa::ToSchema;
use uuid::Uuid;

use super::billing::SeatsPreviewResponse;
use super::export::{attachment, csv};
use super::{team_response, RoleBody, SeatsBody, TeamBody};
use crate::error::ApiResult;
use crate::extract::{AppJson, AuthUser};
use crate::state::AppState;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AdoptionQuery {
    /// `YYYY-MM` (UTC); default this month. "Last month" is the month before it.
    pub month: Option<String>,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AdoptionPageQuery {
    /// `YYYY-MM` (UTC); default this month. "Last month" is the month before it.
    pub month: Option<String>,
    /// `next_cursor` of the page before; none: the first page.
    pub cursor: Option<String>,
    /// Members per page, 1 to 500; default 100.
    pub limit: Option<i64>,
}

/// Where a member's seat stands (as of now, whatever month is shown): `new` while they joined
/// less than 30 days ago; else `active` with a call or a sign-in in the last 30 days; else `idle`.
#[derive(Serialize, ToSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "snake_case")]
#[schema(as = AdoptionMemberState)]
pub enum SeatUseBody {
    New,
    Active,
    Idle,
}

impl From<SeatUse> for SeatUseBody {
    fn from(s: SeatUse) -> Self {
        match s {
            SeatUse::New => SeatUseBody::New,
            SeatUse::Active => SeatUseBody::Active,
            SeatUse::Idle => SeatUseBody::Idle,
        }
    }
}

#[derive(Serialize, ToSchema)]
#[schema(as = AdoptionMember)]
pub struct AdoptionMemberBody {
    pub user_id: Uuid,
    pub email: String,
    pub role: RoleBody,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub joined_at: OffsetDateTime,
    /// The newest of their last call and their last use of the site or the app; null: never.
    #[serde(with = "time::serde::rfc3339::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub last_active_at: Option<OffsetDateTime>,
    /// When their newest call started; null: never.
    #[serde(with = "time::serde::rfc3339::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub last_call_at: Option<OffsetDateTime>,
    pub state: SeatUseBody,
    /// `state` is `idle`: 30 days in the team without a call and without a sign-in.
    pub idle: bool,
    pub calls_this_month: u64,
    /// Minutes of the month's ended calls, a started minute counting.
    pub minutes_this_month: u64,
    pub calls_last_month: u64,
    pub minutes_last_month: u64,
    /// Desktop apps signed in.
    pub devices: u64,
    /// An authenticator app or a passkey.
    pub second_factor: bool,
}

#[derive(Serialize, ToSchema)]
#[schema(as = AdoptionTotals)]
pub struct AdoptionTotalsBody {
    pub members: u64,
    /// Members whose `state` is `idle` (the owner too).
    pub idle: u64,
    /// Members whose `state` is `new`: they joined less than 30 days ago.
    pub new: u64,
    pub calls_this_month: u64,
    pub minutes_this_month: u64,
    pub calls_last_month: u64,
    pub minutes_last_month: u64,
    pub devices: u64,
    /// Members with a second factor.
    pub second_factor: u64,
}

/// What reclaiming the idle members (the owner aside) would do.
#[derive(Serialize, ToSchema)]
#[schema(as = TeamReclaimOffer)]
pub struct ReclaimOfferBody {
    pub idle_members: u32,
    /// The seats after it: those still used, at least 1.
    pub seats: u32,
    pub seats_freed: u32,
    /// Cents a month.
    pub monthly_saving: i64,
    pub currency: String,
    /// Those idle members (the whole team's, whichever page is shown), in the order they
    /// joined: what `POST /api/team/reclaim` takes as `user_ids`.
    pub user_ids: Vec<Uuid>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = AdoptionAnswer)]
pub struct AdoptionResponse {
    /// `YYYY-MM`.
    pub month: String,
    pub previous_month: String,
    /// A member is new for this many days after joining, and idle after this many days without
    /// a call and without a sign-in.
    pub idle_days: i64,
    /// A page of members, in the order they joined (the owner first).
    pub members: Vec<AdoptionMemberBody>,
    /// Pass it as `cursor` for the next page; null on the last page.
    pub next_cursor: Option<String>,
    /// The whole team's (one grouped query), not the page's.
    pub totals: AdoptionTotalsBody,
    pub seats: SeatsBody,
    pub reclaim: ReclaimOfferBody,
    /// The caller may reclaim seats (the owner, with a subscription).
    pub may_reclaim: bool,
}

fn member_body(m: MemberAdoption) -> AdoptionMemberBody {
    AdoptionMemberBody {
        user_id: m.user_id,
        email: m.email,
        role: m.role.into(),
        joined_at: m.joined_at,
        last_active_at: m.last_active_at,
        last_call_at: m.last_call_at,
        state: m.state.into(),
        idle: m.idle,
        calls_this_month: m.calls_this_month,
        minutes_this_month: m.minutes_this_month,
        calls_last_month: m.calls_last_month,
        minutes_last_month: m.minutes_last_month,
        devices: m.devices,
        second_factor: m.second_factor,
    }
}

impl From<Adoption> for AdoptionResponse {
    fn from(u: Adoption) -> Self {
        let t = u.totals;
        AdoptionResponse {
            month: u.month.to_string(),
            previous_month: u.month.previous().to_string(),
            idle_days: IDLE_DAYS,
            members: u.members.into_iter().map(member_body).collect(),
            next_cursor: u.next_cursor,
            totals: AdoptionTotalsBody {
                members: t.members,
                idle: t.idle,
                new: t.new,
                calls_this_month: t.calls_this_month,
                minutes_this_month: t.minutes_this_month,
                calls_last_month: t.calls_last_month,
                minutes_last_month: t.minutes_last_month,
                devices: t.devices,
                second_factor: t.second_factor,
            },
            seats: SeatsBody {
                total: u.seats.total,
                used: u.seats.used,
                free: u.seats.free,
            },
            reclaim: ReclaimOfferBody {
                idle_members: u.reclaim.idle_members,
                seats: u.reclaim.seats,
                seats_freed: u.reclaim.seats_freed,
                monthly_saving: u.reclaim.monthly_saving,
                currency: u.currency.to_owned(),
                user_ids: u.idle_user_ids,
            },
            may_reclaim: u.may_reclaim,
        }
    }
}

#[utoipa::path(get, path = "/api/team/adoption", operation_id = "team_adoption", tag = "teams", params(AdoptionPageQuery),
    responses(
        (status = 200, body = AdoptionResponse, description = "A page of members (in the order they joined, as `GET /api/team/members`) with their calls and minutes this month and last (from the call meter), last activity, devices and second factor; the whole team's totals; its idle members and what reclaiming them would save"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_month`, `invalid_cursor`, `invalid_limit`"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`: the owner's and admins'"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn adoption(
    State(state): State<AppState>,
    auth: AuthUser,
    query: Result<Query<AdoptionPageQuery>, QueryRejection>,
) -> ApiResult<AppJson<AdoptionResponse>> {
    let Query(q) = query?;
    let page = PageQuery {
        cursor: q.cursor.as_deref(),
        limit: q.limit,
    };
    let adoption = state
        .teams
        .adoption(auth.user_id, q.month.as_deref(), &page)
        .await?;
    Ok(AppJson(adoption.into()))
}

fn time_cell(t: Option<OffsetDateTime>) -> String {
    t.and_then(|t| t.format(&Rfc3339).ok()).unwrap_or_default()
}

/// The columns of the adoption CSV, in order.
pub const ADOPTION_CSV_HEADER: [&str; 13] = [
    "email",
    "role",
    "joined_at",
    "last_active_at",
    "last_call_at",
    "idle",
    "calls_this_month",
    "minutes_this_month",
    "calls_last_month",
    "minutes_last_month",
    "devices",
    "second_factor",
    "month",
];

#[utoipa::path(get, path = "/api/team/adoption.csv", operation_id = "team_adoption_csv", tag = "teams", params(AdoptionQuery),
    responses(
        (status = 200, content_type = "text/csv", body = String, description = "The adoption report as CSV: a header row, then one row per member (columns as the JSON's)"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_month`"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`: the owner's and admins'"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn adoption_csv(
    State(state): State<AppState>,
    auth: AuthUser,
    query: Result<Query<AdoptionQuery>, QueryRejection>,
) -> ApiResult<Response> {
    let Query(q) = query?;
    let (month, members) = state
        .teams
        .adoption_export(auth.user_id, q.month.as_deref())
        .await?;
    let month = month.to_string();
    let rows = members.into_iter().map(|m| {
        vec![
            m.email,
            m.role.as_str().to_owned(),
            time_cell(Some(m.joined_at)),
            time_cell(m.last_active_at),
            time_cell(m.last_call_at),
            m.idle.to_string(),
            m.calls_this_month.to_string(),
            m.minutes_this_month.to_string(),
            m.calls_last_month.to_string(),
            m.minutes_last_month.to_string(),
            m.devices.to_string(),
            m.second_factor.to_string(),
            month.clone(),
        ]
    });
    let body = csv(&ADOPTION_CSV_HEADER, rows);
    Ok(attachment(
        "text/csv; charset=utf-8",
        &format!("team-adoption-{month}.csv"),
        body,
    ))
}

#[derive(Deserialize, ToSchema)]
#[schema(as = TeamReclaimBody)]
pub struct ReclaimRequest {
    /// The members to remove (not the owner); may be empty to only lower free seats.
    pub user_ids: Vec<Uuid>,
    /// The seats after the reclaim: at most those the team has, at least those still used.
    pub seats: i64,
    /// Only price it: nothing changes, and `preview` says what the seat change costs.
    #[serde(default)]
    pub dry_run: bool,
    /// From the dry run's `preview`: charged what was shown. Default now.
    #[serde(default)]
    pub proration_date: Option<i64>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = TeamReclaimedMember)]
pub struct ReclaimedMemberBody {
    pub user_id: Uuid,
    pub email: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = TeamReclaimAnswer)]
pub struct ReclaimResponse {
    pub dry_run: bool,
    /// The members removed (to be removed, on a dry run).
    pub removed: Vec<ReclaimedMemberBody>,
    pub seats: u32,
    /// The dry run's price of the seat change, from Stripe's invoice preview; null otherwise.
    pub preview: Option<SeatsPreviewResponse>,
    /// The team after a confirmed reclaim; null on a dry run.
    pub team: Option<TeamBody>,
}

/// Seats as a client sent them: out of `u32` is simply out of range.
fn seats(n: i64) -> u32 {
    u32::try_from(n).unwrap_or(if n < 0 { 0 } else { u32::MAX })
}

#[utoipa::path(post, path = "/api/team/reclaim", operation_id = "team_reclaim", tag = "teams", request_body = ReclaimRequest,
    responses(
        (status = 200, body = ReclaimResponse, description = "Priced (`dry_run`), or done: the members removed and the seats lowered at Stripe, prorated on the next invoice"),
        (status = 400, body = crate::error::ErrorBody, description = "`not_a_member`, `invalid_seats` (more seats than the team has, or out of range), `invalid_proration_date`"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`: whoever may change seats (the owner); nobody removes the owner"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`no_team_subscription`, `seats_in_use`, `team_changed`"),
        (status = 502, body = crate::error::ErrorBody, description = "`stripe_unavailable`"),
    ),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all, fields(user_id = %auth.user_id))]
pub async fn reclaim(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<ReclaimRequest>,
) -> ApiResult<AppJson<ReclaimResponse>> {
    let order = ReclaimOrder {
        user_ids: &body.user_ids,
        seats: seats(body.seats),
        dry_run: body.dry_run,
        proration_date: body.proration_date,
    };
    let Reclaimed {
        removed,
        seats,
        preview,
        after,
    } = state
        .billing
        .reclaim(
            &closewise_core::actor::Actor::member(auth.user_id, &auth.email),
            None,
            &order,
        )
        .await?;
    let team = match after {
        Some(_) => Some(team_response(&state, auth.user_id).await?.team),
        None => None,
    };
    Ok(AppJson(ReclaimResponse {
        dry_run: body.dry_run,
        removed: removed
            .into_iter()
            .map(|(user_id, email)| ReclaimedMemberBody { user_id, email })
            .collect(),
        seats,
        preview: preview.map(|p| SeatsPreviewResponse {
            seats: p.seats,
            amount_due_now: p.amount_due_now,
            next_total: p.next_total,
            currency: p.currency,
            proration_date: p.proration_date,
        }),
        team,
    }))
}
