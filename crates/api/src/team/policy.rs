//! `GET`/`PUT /api/team/policy`: the team policy, what the desktop app does in the team's calls
//! (owner and admins), with how many of the team's active devices report the current version.
//! Each is one command of `closewise_core::teams::Teams` with the caller as actor.

use std::collections::BTreeMap;

use axum::extract::State;
use closewise_core::actor::Actor;
use closewise_core::teams::TeamPolicyView;
use closewise_domain::policy::{ConsentNotice, Policy};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

use crate::error::ApiResult;
use crate::extract::{AppJson, AuthUser};
use crate::state::AppState;

/// The recording-consent notice.
#[derive(Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = ConsentNotice)]
pub struct ConsentNoticeBody {
    /// `off`, `show` (shown at the start of every call) or `read_aloud`.
    #[schema(schema_with = crate::schemas::consent_mode)]
    pub mode: String,
    /// The default text, up to 1,000 characters; needed unless `off`.
    #[serde(default)]
    pub text: String,
    /// Variants by region: `EU`, a country (`DE`) or a US state (`US-CA`), up to 1,000 characters
    /// each. The most specific applies: the state, its country, `EU` for a member state, then
    /// `text`.
    #[serde(default)]
    pub regions: BTreeMap<String, String>,
}

/// A team's policy: what the desktop app does in calls. Members of no team get the default
/// (notice off, every app, every hint, 30 days' retention).
#[derive(Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = TeamPolicy)]
pub struct PolicyBody {
    pub consent_notice: ConsentNoticeBody,
    /// The meeting apps the assistant may attach to: of `zoom`, `meet`, `teams`, `phone`.
    #[schema(schema_with = crate::schemas::policy_apps)]
    pub allowed_apps: Vec<String>,
    /// `objections`, `replies`, `follow_ups`: each on or off (all three are needed).
    pub hint_categories: BTreeMap<String, bool>,
    /// How long transcripts stay on the laptop: 0 (not kept), 7, 30 or 90 days.
    #[schema(schema_with = crate::schemas::retention_days)]
    pub retention_days: u32,
    /// The team's "require a second factor" switch, the same as `PUT /api/team/mfa-policy`'s
    /// (the owner changes it).
    pub require_mfa: bool,
    /// The team's "require SSO" switch, the same as `PUT /api/team/sso`'s `required` (the owner
    /// changes it; turning it on needs single sign-on set up).
    pub require_sso: bool,
}

impl From<Policy> for PolicyBody {
    fn from(p: Policy) -> Self {
        PolicyBody {
            consent_notice: ConsentNoticeBody {
                mode: p.consent_notice.mode,
                text: p.consent_notice.text,
                regions: p.consent_notice.regions,
            },
            allowed_apps: p.allowed_apps,
            hint_categories: p.hint_categories,
            retention_days: p.retention_days,
            require_mfa: p.require_mfa,
            require_sso: p.require_sso,
        }
    }
}

impl From<PolicyBody> for Policy {
    fn from(p: PolicyBody) -> Self {
        Policy {
            consent_notice: ConsentNotice {
                mode: p.consent_notice.mode,
                text: p.consent_notice.text,
                regions: p.consent_notice.regions,
            },
            allowed_apps: p.allowed_apps,
            hint_categories: p.hint_categories,
            retention_days: p.retention_days,
            require_mfa: p.require_mfa,
            require_sso: p.require_sso,
        }
    }
}

/// How many of the team's active devices (desktop sessions seen in the last 30 days) reported the
/// current `policy_version` in their last heartbeat: "9 of 11 devices on the current policy; 2
/// last seen 3 days ago".
#[derive(Serialize, ToSchema)]
#[schema(as = PolicyAdoption)]
pub struct AdoptionBody {
    pub devices: u32,
    pub current: u32,
    /// `devices - current`.
    pub behind: u32,
    /// When the most recently seen of the others was last seen; null when none is behind.
    #[serde(with = "time::serde::rfc3339::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub behind_last_seen_at: Option<OffsetDateTime>,
}

/// `GET`/`PUT /api/team/policy`'s answer.
#[derive(Serialize, ToSchema)]
#[schema(as = TeamPolicyAnswer)]
pub struct PolicyResponse {
    pub policy: PolicyBody,
    /// SHA-256 (hex) of the policy's canonical JSON: what the entitlement token carries.
    pub policy_version: String,
    /// Null while the team has the default policy.
    #[serde(with = "time::serde::rfc3339::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub updated_at: Option<OffsetDateTime>,
    /// The address of whoever saved it last.
    pub updated_by: Option<String>,
    /// The caller may change `require_mfa` and `require_sso`, the team's sign-in switches (the
    /// owner).
    pub may_change_require_mfa: bool,
    pub adoption: AdoptionBody,
}

impl From<TeamPolicyView> for PolicyResponse {
    fn from(v: TeamPolicyView) -> Self {
        let a = v.adoption;
        PolicyResponse {
            policy: v.policy.into(),
            policy_version: v.policy_version,
            updated_at: v.updated_at,
            updated_by: v.updated_by,
            may_change_require_mfa: v.may_change_require_mfa,
            adoption: AdoptionBody {
                devices: a.devices,
                current: a.current,
                behind: a.devices - a.current,
                behind_last_seen_at: a.behind_last_seen_at,
            },
        }
    }
}

#[utoipa::path(get, path = "/api/team/policy", tag = "teams",
    responses(
        (status = 200, body = PolicyResponse),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (owner and admins)"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn get_policy(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<AppJson<PolicyResponse>> {
    let actor = Actor::member(auth.user_id, &auth.email);
    Ok(AppJson(state.teams.team_policy(&actor, None).await?.into()))
}

#[utoipa::path(put, path = "/api/team/policy", tag = "teams", request_body = PolicyBody,
    responses(
        (status = 200, body = PolicyResponse, description = "Saved and audited (`team.policy`, before and after); apps get it at their next entitlement refresh"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_policy`, the message naming the field (`consent_notice.regions.US-XX: ...`); `invalid_json` for a missing or unknown field"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role`: a member, or an admin changing `require_mfa` or `require_sso` (the owner's); `reauthentication_required`: changing `require_mfa` or `require_sso` when the password (and a second factor, when enrolled) was not given on this session in the last 15 minutes"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`sso_not_configured`: `require_sso` true while the team has no single sign-on"),
    ),
    security(("bearer" = [])))]
pub async fn put_policy(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<PolicyBody>,
) -> ApiResult<AppJson<PolicyResponse>> {
    let stepped_up = crate::auth::reauth::recently_stepped_up(&state, &auth).await?;
    let actor = Actor::member(auth.user_id, &auth.email);
    let view = state
        .teams
        .set_team_policy(&actor, None, body.into(), stepped_up)
        .await?;
    Ok(AppJson(view.into()))
}
