//! The team's verified domains (docs/api.md, "Verified domains"): the owner adds one and
//! publishes the TXT record it answers, verifies it, lists and removes them. Each is one command
//! of `closewise_core::verified_domains::VerifiedDomains` with the caller as actor (it checks the
//! role, spends the look-up budget and audits).

use axum::extract::{Path, State};
use axum::http::StatusCode;
use closewise_core::actor::Actor;
use closewise_core::verified_domains::{VerifiedDomainView, VerifiedDomainsError};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;
use uuid::Uuid;

use super::no_content;
use crate::error::ApiResult;
use crate::extract::{AppJson, AuthUser};
use crate::state::AppState;

#[derive(Deserialize, ToSchema)]
#[schema(as = TeamDomainBody)]
pub struct DomainRequest {
    /// The company's domain, e.g. `northwind.example` (no address, no scheme; any case; a
    /// trailing dot ignored). Public mail providers' domains are refused.
    pub domain: String,
}

/// Pending until its TXT record is seen; verified until it has been gone for 7 days.
#[derive(Serialize, ToSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "snake_case")]
#[schema(as = TeamDomainStatus)]
pub enum DomainStatus {
    Pending,
    Verified,
}

/// One of the team's domains and the DNS TXT record that verifies it.
#[derive(Serialize, ToSchema)]
#[schema(as = TeamDomain)]
pub struct DomainBody {
    pub id: Uuid,
    /// Lower case, without the trailing dot.
    pub domain: String,
    /// Where to publish the TXT record: `_closewise-challenge.<domain>`.
    pub txt_name: String,
    /// The TXT record's value: `closewise-domain-verification=<random>`.
    pub txt_value: String,
    pub status: DomainStatus,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub verified_at: Option<OffsetDateTime>,
    /// The last daily re-check's time (null before the first).
    #[serde(with = "time::serde::rfc3339::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub last_checked_at: Option<OffsetDateTime>,
    /// When the record was last seen.
    #[serde(with = "time::serde::rfc3339::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub last_seen_at: Option<OffsetDateTime>,
}

impl From<VerifiedDomainView> for DomainBody {
    fn from(d: VerifiedDomainView) -> Self {
        DomainBody {
            id: d.id,
            domain: d.domain,
            txt_name: d.txt_name,
            txt_value: d.txt_value,
            status: if d.status == "verified" {
                DomainStatus::Verified
            } else {
                DomainStatus::Pending
            },
            created_at: d.created_at,
            verified_at: d.verified_at,
            last_checked_at: d.last_checked_at,
            last_seen_at: d.last_seen_at,
        }
    }
}

#[derive(Serialize, ToSchema)]
#[schema(as = TeamDomainsAnswer)]
pub struct DomainsResponse {
    /// By name.
    pub domains: Vec<DomainBody>,
}

fn member(auth: &AuthUser) -> Actor {
    Actor::member(auth.user_id, &auth.email)
}

/// An id in a path that is not a UUID names none of the team's domains.
fn domain_id(raw: &str) -> ApiResult<Uuid> {
    Uuid::parse_str(raw).map_err(|_| VerifiedDomainsError::NotFound.into())
}

#[utoipa::path(get, path = "/api/team/domains", tag = "teams",
    responses(
        (status = 200, body = DomainsResponse),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (the owner)"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn list_domains(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<AppJson<DomainsResponse>> {
    let domains = state.verified_domains.list(&member(&auth), None).await?;
    Ok(AppJson(DomainsResponse {
        domains: domains.into_iter().map(DomainBody::from).collect(),
    }))
}

#[utoipa::path(post, path = "/api/team/domains", tag = "teams", request_body = DomainRequest,
    responses(
        (status = 201, body = DomainBody, description = "Added, pending: publish the TXT record `txt_name` with `txt_value`, then verify"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_domain`, `public_mail_domain`"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (the owner); `reauthentication_required`: the password (and a second factor, when enrolled) was not given on this session in the last 15 minutes"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`domain_exists` (the team has it), `domain_taken` (another team verified it)"),
        (status = 422, body = crate::error::ErrorBody, description = "`too_many_domains`: the team holds 100 domains already"),
    ),
    security(("bearer" = [])))]
pub async fn add_domain(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<DomainRequest>,
) -> ApiResult<(StatusCode, AppJson<DomainBody>)> {
    crate::auth::reauth::require_recent_password(&state, &auth).await?;
    let domain = state
        .verified_domains
        .add(&member(&auth), None, &body.domain)
        .await?;
    Ok((StatusCode::CREATED, AppJson(domain.into())))
}

#[utoipa::path(post, path = "/api/team/domains/{id}/verify", operation_id = "verify_team_domain", tag = "teams",
    params(("id" = Uuid, Path, description = "The domain's id")),
    responses(
        (status = 200, body = DomainBody, description = "Verified (`status` is `verified`)"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (the owner)"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`, `domain_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`domain_not_verified` (the record is not there yet, or the look-up failed), `domain_taken`"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`: `RATE_LIMIT_DOMAIN_CHECKS_PER_USER` verifications per `RATE_LIMIT_DOMAIN_CHECK_WINDOW_SECS`; `Retry-After` says when to try again"),
    ),
    security(("bearer" = [])))]
pub async fn verify_domain(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<AppJson<DomainBody>> {
    let id = domain_id(&id)?;
    let actor = member(&auth);
    let domain = state.verified_domains.verify(&actor, None, id).await?;
    Ok(AppJson(domain.into()))
}

#[utoipa::path(delete, path = "/api/team/domains/{id}", operation_id = "remove_team_domain", tag = "teams",
    params(("id" = Uuid, Path, description = "The domain's id")),
    responses(
        (status = 204, description = "Removed; domain join at it ends"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (the owner); `reauthentication_required`: the password (and a second factor, when enrolled) was not given on this session in the last 15 minutes"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`, `domain_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn remove_domain(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    crate::auth::reauth::require_recent_password(&state, &auth).await?;
    let id = domain_id(&id)?;
    state
        .verified_domains
        .remove(&member(&auth), None, id)
        .await?;
    Ok(no_content())
}
