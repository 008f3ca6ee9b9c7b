//! The owner's single sign-on (docs/teams.md "Single sign-on"): `GET`, `PUT`, `DELETE
//! /api/team/sso`. The client secret goes in and never comes out; the answer shows the redirect
//! URI to register at the provider. Each is one command of `closewise_core::sso::Sso` with the
//! caller as actor: it checks the role, reads the discovery document, seals the secret, audits the
//! change and applies "Require SSO".

use axum::extract::State;
use axum::http::StatusCode;
use closewise_core::actor::Actor;
use closewise_core::sso::{SsoSettings, SsoView};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

use crate::error::ApiResult;
use crate::extract::{AppJson, AuthUser};
use crate::state::AppState;

fn member(auth: &AuthUser) -> Actor {
    Actor::member(auth.user_id, &auth.email)
}

/// The team's SSO connection, without its secret.
#[derive(Serialize, ToSchema)]
#[schema(as = TeamSso)]
pub struct SsoBody {
    /// Whether the team has a connection.
    pub configured: bool,
    pub issuer: Option<String>,
    pub client_id: Option<String>,
    /// Password sign-in, reset and sign-up of the team's domains answer `403 sso_required` (the
    /// owner keeps the password).
    pub required: bool,
    /// The redirect URI to register at the provider.
    pub redirect_uri: String,
    /// The verified domains whose addresses sign in by SSO.
    pub domains: Vec<String>,
    #[serde(with = "time::serde::rfc3339::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub updated_at: Option<OffsetDateTime>,
}

impl From<SsoView> for SsoBody {
    fn from(v: SsoView) -> Self {
        SsoBody {
            configured: v.configured,
            issuer: v.issuer,
            client_id: v.client_id,
            required: v.required,
            redirect_uri: v.redirect_uri,
            domains: v.domains,
            updated_at: v.updated_at,
        }
    }
}

/// `{issuer, client_id, client_secret?, required}`.
#[derive(Deserialize, ToSchema)]
#[schema(as = TeamSsoRequest)]
pub struct SsoRequest {
    /// The provider's issuer URL (https); its discovery document is read on save.
    pub issuer: String,
    pub client_id: String,
    /// Required the first time; left out (or empty) keeps the stored one.
    #[serde(default)]
    pub client_secret: Option<String>,
    #[serde(default)]
    pub required: bool,
}

#[utoipa::path(get, path = "/api/team/sso", tag = "teams",
    responses(
        (status = 200, body = SsoBody),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (the owner's)"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
    ),
    security(("bearer" = [])))]
pub async fn get_sso(State(state): State<AppState>, auth: AuthUser) -> ApiResult<AppJson<SsoBody>> {
    Ok(AppJson(state.sso.show(&member(&auth), None).await?.into()))
}

#[utoipa::path(put, path = "/api/team/sso", tag = "teams", request_body = SsoRequest,
    responses(
        (status = 200, body = SsoBody),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_issuer`, `client_id_required`, `client_secret_required`"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (the owner's); `reauthentication_required`: the password (and a second factor, when enrolled) was not given on this session in the last 15 minutes"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`domain_not_verified`: verify a domain first"),
        (status = 422, body = crate::error::ErrorBody, description = "`sso_discovery_failed`: the issuer's discovery document could not be read or is wrong"),
    ),
    security(("bearer" = [])))]
pub async fn put_sso(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<SsoRequest>,
) -> ApiResult<AppJson<SsoBody>> {
    crate::auth::reauth::require_recent_password(&state, &auth).await?;
    let settings = SsoSettings {
        issuer: &body.issuer,
        client_id: &body.client_id,
        client_secret: body.client_secret.as_deref(),
        required: body.required,
    };
    Ok(AppJson(
        state
            .sso
            .save(&member(&auth), None, &settings)
            .await?
            .into(),
    ))
}

#[utoipa::path(delete, path = "/api/team/sso", tag = "teams",
    responses(
        (status = 204, description = "Removed: members sign in with their passwords again"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (the owner's); `reauthentication_required`: the password (and a second factor, when enrolled) was not given on this session in the last 15 minutes"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`, `sso_not_configured`"),
    ),
    security(("bearer" = [])))]
pub async fn delete_sso(State(state): State<AppState>, auth: AuthUser) -> ApiResult<StatusCode> {
    crate::auth::reauth::require_recent_password(&state, &auth).await?;
    state.sso.remove(&member(&auth), None).await?;
    Ok(StatusCode::NO_CONTENT)
}
