//! `GET /api/entitlements`: what the caller may do now, asked by the desktop app before each call,
//! with a signed entitlement token it can check offline (`closewise_core::sessions::tokens`).

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::ApiResult;
use crate::extract::{AppJson, AuthUser};
use crate::state::AppState;
use crate::team::policy::PolicyBody;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(entitlements))
}

/// The Free Trial's meter.
#[derive(Serialize, ToSchema)]
#[schema(as = CallsBody)]
pub struct CallsResponse {
    /// 5 plus the calls operators granted.
    pub limit: u32,
    /// Calls started under the Free Trial.
    pub used: u32,
    pub remaining: u32,
}

#[derive(Serialize, ToSchema)]
pub struct EntitlementsTeam {
    pub id: uuid::Uuid,
    pub name: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = EntitlementsBody)]
pub struct EntitlementsResponse {
    #[schema(schema_with = crate::schemas::plan_type)]
    pub plan_type: String,
    pub unlimited: bool,
    /// null on the paid plan.
    pub calls: Option<CallsResponse>,
    /// 300 on the Free Trial, null on the paid plan.
    pub max_call_seconds: Option<u32>,
    /// Calls started this calendar month (UTC), free or paid.
    pub calls_this_month: u32,
    #[schema(schema_with = crate::schemas::usage_warning)]
    pub warning: Option<String>,
    #[schema(schema_with = crate::schemas::entitlement_source)]
    pub source: Option<String>,
    /// The team whose seat the caller holds, paid or not.
    pub team: Option<EntitlementsTeam>,
    /// The team's policy the app obeys (the default, notice off, for members of no team); the
    /// token's `policy` claim.
    pub policy: PolicyBody,
    /// SHA-256 (hex) of the policy's canonical JSON; the token's `policy_version` claim, which the
    /// app reports in its heartbeats.
    pub policy_version: String,
    /// An EdDSA JWT (`typ: entitlement+jwt`, the `kid` of `/.well-known/jwks.json`, audience
    /// `closewise-desktop`) with these entitlements, `valid_until` (iat + 24 h), `grace_until`
    /// (valid_until + 7 days), `exp` (= grace_until), `policy`, `policy_version` and `sid`, the
    /// caller's session (a device's id is its session's): the app refuses a token of another
    /// session.
    pub entitlement_token: String,
}

#[utoipa::path(get, path = "/api/entitlements", tag = "usage",
    responses((status = 200, body = EntitlementsResponse), (status = 401, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
pub async fn entitlements(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<AppJson<EntitlementsResponse>> {
    let current = state
        .usage
        .entitlements(auth.user_id, Some(auth.session_id))
        .await?;
    let e = current.entitlements;
    let source = current.source.map(|s| s.as_str().to_owned());
    let mut claims = state.keys.entitlement_claims(
        auth.user_id,
        auth.session_id,
        &e,
        state.clock.now(),
        current.policy,
        current.policy_version,
    );
    claims.source = source.clone();
    let entitlement_token = state
        .minted
        .issue(&claims, || state.keys.issue_entitlement(&claims))?;
    Ok(AppJson(EntitlementsResponse {
        plan_type: e.plan_type.as_str().to_owned(),
        unlimited: e.unlimited,
        calls: e.calls.map(|c| CallsResponse {
            limit: c.limit,
            used: c.used,
            remaining: c.remaining,
        }),
        max_call_seconds: e.max_call_seconds,
        calls_this_month: current.calls_this_month,
        warning: e.warning.map(|w| w.as_str().to_owned()),
        source,
        team: current.team.map(|t| EntitlementsTeam {
            id: t.id,
            name: t.name,
        }),
        policy: claims.policy.into(),
        policy_version: claims.policy_version,
        entitlement_token,
    }))
}
