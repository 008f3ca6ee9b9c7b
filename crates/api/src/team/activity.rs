//! The team's activity (docs/api.md "Team activity"): its audit trail, newest first,
//! for the owner and admins: `GET /api/team/audit` a page at a time (cursor), and whole as
//! `.csv` or `.jsonl` (JSON lines, for a SIEM), filtered by action. The trail is
//! `closewise_core::teams::adoption`'s: every team row whose details name the team.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::response::Response;
use closewise_core::store::audit::AuditRow;
use closewise_core::teams::adoption::ActivityQuery;
use serde::{Deserialize, Serialize};
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;
use utoipa::ToSchema;
use uuid::Uuid;

use super::export::{attachment, csv};
use crate::error::ApiResult;
use crate::extract::{AppJson, AuthUser};
use crate::state::AppState;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AuditQuery {
    /// `next_cursor` of the page before; none: the newest page.
    pub cursor: Option<String>,
    /// Rows per page, 1 to 500; default 50.
    pub limit: Option<i64>,
    /// Only these actions, comma-separated (`team.seats,team.member_remove`).
    pub action: Option<String>,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AuditExportQuery {
    /// Only these actions, comma-separated.
    pub action: Option<String>,
}

/// One change: who made it, when, and what changed.
#[derive(Serialize, ToSchema)]
#[schema(as = TeamAuditEntry)]
pub struct AuditEntryBody {
    pub id: Uuid,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
    /// The address of who made it (`stripe` for Stripe's own changes, an operator's name for the
    /// CLI's).
    pub actor: String,
    /// A dotted verb: `team.member_remove`, `team.member_role`, `team.seats`, `team.invite`…
    pub action: String,
    /// The account it is about.
    pub user_id: Option<Uuid>,
    pub target_email: Option<String>,
    /// What changed (before and after, when it says).
    #[schema(value_type = Object)]
    pub details: serde_json::Value,
}

#[derive(Serialize, ToSchema)]
#[schema(as = TeamAuditAnswer)]
pub struct AuditResponse {
    pub entries: Vec<AuditEntryBody>,
    /// Pass it as `cursor` for the next page; null on the last page.
    pub next_cursor: Option<String>,
}

fn entry(row: AuditRow) -> AuditEntryBody {
    AuditEntryBody {
        details: serde_json::from_str(&row.details).unwrap_or(serde_json::Value::Null),
        id: row.id,
        created_at: row.created_at,
        actor: row.actor,
        action: row.action,
        user_id: row.user_id,
        target_email: row.target_email,
    }
}

#[utoipa::path(get, path = "/api/team/audit", operation_id = "team_audit", tag = "teams", params(AuditQuery),
    responses(
        (status = 200, body = AuditResponse, description = "A page of the team's activity, newest first"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_cursor`, `invalid_limit`, `invalid_action`"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`: the owner's and admins'"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn audit(
    State(state): State<AppState>,
    auth: AuthUser,
    query: Result<Query<AuditQuery>, QueryRejection>,
) -> ApiResult<AppJson<AuditResponse>> {
    let Query(q) = query?;
    let page = state
        .teams
        .activity(
            auth.user_id,
            &ActivityQuery {
                cursor: q.cursor.as_deref(),
                limit: q.limit,
                action: q.action.as_deref(),
            },
        )
        .await?;
    Ok(AppJson(AuditResponse {
        entries: page.entries.into_iter().map(entry).collect(),
        next_cursor: page.next_cursor,
    }))
}

/// The columns of the activity CSV, in order.
pub const AUDIT_CSV_HEADER: [&str; 7] = [
    "created_at",
    "actor",
    "action",
    "user_id",
    "target_email",
    "details",
    "id",
];

#[utoipa::path(get, path = "/api/team/audit.csv", operation_id = "team_audit_csv", tag = "teams", params(AuditExportQuery),
    responses(
        (status = 200, content_type = "text/csv", body = String, description = "The team's whole activity (up to 50,000 rows), newest first, as CSV; `details` is its JSON"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_action`"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`: the owner's and admins'"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn audit_csv(
    State(state): State<AppState>,
    auth: AuthUser,
    query: Result<Query<AuditExportQuery>, QueryRejection>,
) -> ApiResult<Response> {
    let Query(q) = query?;
    let rows = state
        .teams
        .activity_export(auth.user_id, q.action.as_deref())
        .await?;
    let rows = rows.into_iter().map(|r| {
        vec![
            r.created_at.format(&Rfc3339).unwrap_or_default(),
            r.actor,
            r.action,
            r.user_id.map(|u| u.to_string()).unwrap_or_default(),
            r.target_email.unwrap_or_default(),
            r.details,
            r.id.to_string(),
        ]
    });
    let body = csv(&AUDIT_CSV_HEADER, rows);
    Ok(attachment(
        "text/csv; charset=utf-8",
        "team-activity.csv",
        body,
    ))
}

#[utoipa::path(get, path = "/api/team/audit.jsonl", operation_id = "team_audit_jsonl", tag = "teams", params(AuditExportQuery),
    responses(
        (status = 200, content_type = "application/x-ndjson", body = String, description = "The team's whole activity (up to 50,000 rows), newest first, as JSON lines: one `TeamAuditEntry` a line"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_action`"),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`: the owner's and admins'"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn audit_jsonl(
    State(state): State<AppState>,
    auth: AuthUser,
    query: Result<Query<AuditExportQuery>, QueryRejection>,
) -> ApiResult<Response> {
    let Query(q) = query?;
    let rows = state
        .teams
        .activity_export(auth.user_id, q.action.as_deref())
        .await?;
    let mut body = String::new();
    for row in rows {
        let line = serde_json::to_string(&entry(row)).map_err(anyhow::Error::from)?;
        body.push_str(&line);
        body.push('\n');
    }
    Ok(attachment(
        "application/x-ndjson",
        "team-activity.jsonl",
        body,
    ))
}
