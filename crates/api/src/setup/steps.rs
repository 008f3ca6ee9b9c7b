//! The link's steps: a domain added and checked, the single sign-on draft saved and tested with a
//! real sign-in, a SCIM token made, and the end of the link.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum_extra::extract::cookie::CookieJar;
use closewise_core::sso::{OidcSettings, SamlSettings, SsoConnection, SsoError};
use closewise_domain::email::Email;
use closewise_domain::sso::Protocol;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{limited, PageBody, SetupResult};
use crate::error::ApiError;
use crate::extract::{AppJson, ClientIp};
use crate::state::AppState;
use crate::team::domains::{DomainBody, DomainRequest};
use crate::team::setup_links::{steps_body, SetupStepBody};

/// The single sign-on settings IT gives: `PUT /api/team/sso`'s without `required` (Require SSO
/// stays the owner's; a body naming it is refused, `invalid_json`).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SetupSsoRequest)]
pub struct SsoRequest {
    /// `oidc` (left out: `oidc`) or `saml`.
    #[serde(default)]
    pub protocol: Option<String>,
    /// OpenID: the provider's issuer URL (https); its discovery document is read on save.
    #[serde(default)]
    pub issuer: Option<String>,
    #[serde(default)]
    pub client_id: Option<String>,
    /// OpenID: sealed on save, never shown again.
    #[serde(default)]
    pub client_secret: Option<String>,
    /// OpenID: `email` (left out), `preferred_username` or `upn`.
    #[serde(default)]
    pub email_claim: Option<String>,
    /// SAML: the IdP's metadata URL (https), read on save; or give `metadata_xml`.
    #[serde(default)]
    pub metadata_url: Option<String>,
    #[serde(default)]
    pub metadata_xml: Option<String>,
    /// SAML: the attribute carrying the address (left out: the NameID).
    #[serde(default)]
    pub email_attribute: Option<String>,
    #[serde(default)]
    pub allow_idp_initiated: bool,
}

#[derive(Deserialize, ToSchema)]
#[schema(as = SetupSsoTestRequest)]
pub struct TestRequest {
    /// The work address to sign in with, at one of the team's verified domains.
    pub email: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = SetupSsoTestStarted)]
pub struct TestStarted {
    /// Where to send the browser: the provider's sign-in. It comes back to
    /// `/setup?sso_test=passed` or `/setup?sso_test=failed&sso_error=…`.
    pub authorization_url: String,
}

#[derive(Deserialize, ToSchema)]
#[schema(as = SetupScimTokenRequest)]
pub struct ScimTokenRequest {
    /// Which identity provider holds it: 1 to 60 characters.
    pub name: String,
}

/// A SCIM token just made: `token` is shown this once.
#[derive(Serialize, ToSchema)]
#[schema(as = SetupScimTokenCreated)]
pub struct ScimTokenCreated {
    pub id: Uuid,
    pub name: String,
    /// The bearer token for the identity provider (`cws_scim_…`); never shown again.
    pub token: String,
    /// The SCIM base URL to give the identity provider with it.
    pub base_url: String,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
}

#[derive(Serialize, ToSchema)]
#[schema(as = SetupFinished)]
pub struct Finished {
    /// What IT completed through the link.
    pub done: Vec<SetupStepBody>,
}

#[utoipa::path(post, path = "/api/setup/{token}/domains", tag = "setup", operation_id = "setup_add_domain",
    params(("token" = String, Path, description = "The link's token")),
    request_body = DomainRequest,
    responses(
        (status = 201, body = DomainBody, description = "Added, pending: publish the TXT record `txt_name` with `txt_value`, then check"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_domain`, `public_mail_domain`"),
        (status = 403, body = crate::error::ErrorBody, description = "`setup_step_not_allowed`: the link does not include the domain step"),
        (status = 404, body = crate::error::ErrorBody, description = "`setup_link_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`domain_exists`, `domain_taken`"),
        (status = 410, body = super::GoneBody, description = "`setup_link_gone`"),
        (status = 422, body = crate::error::ErrorBody, description = "`too_many_domains`"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`"),
    ))]
pub async fn add_domain(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(token): Path<String>,
    AppJson(body): AppJson<DomainRequest>,
) -> SetupResult<(StatusCode, AppJson<DomainBody>)> {
    limited(&state, &ip).await?;
    let domain = state.setup_links.add_domain(&token, &body.domain).await?;
    Ok((StatusCode::CREATED, AppJson(domain.into())))
}

#[utoipa::path(post, path = "/api/setup/{token}/domains/{id}/verify", tag = "setup", operation_id = "setup_verify_domain",
    params(("token" = String, Path, description = "The link's token"), ("id" = Uuid, Path, description = "The domain's id")),
    responses(
        (status = 200, body = DomainBody, description = "Verified (`status` is `verified`)"),
        (status = 403, body = crate::error::ErrorBody, description = "`setup_step_not_allowed`"),
        (status = 404, body = crate::error::ErrorBody, description = "`setup_link_not_found`, `domain_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`domain_not_verified` (the record is not there yet, or the look-up failed), `domain_taken`"),
        (status = 410, body = super::GoneBody, description = "`setup_link_gone`"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`"),
    ))]
pub async fn verify_domain(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path((token, id)): Path<(String, String)>,
) -> SetupResult<AppJson<DomainBody>> {
    limited(&state, &ip).await?;
    // An id that is not a UUID names no domain (the link is checked first: a gone one is 410).
    let id = Uuid::parse_str(&id).unwrap_or_default();
    let domain = state.setup_links.verify_domain(&token, id).await?;
    Ok(AppJson(domain.into()))
}

#[utoipa::path(put, path = "/api/setup/{token}/sso", tag = "setup", operation_id = "setup_save_sso",
    params(("token" = String, Path, description = "The link's token")),
    request_body = SsoRequest,
    responses(
        (status = 200, body = PageBody, description = "Checked and kept as the link's draft (not the team's connection until a test sign-in passes)"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_json` (a field not listed, `required` among them); `invalid_protocol`; OpenID: `invalid_issuer`, `client_id_required`, `client_secret_required`, `invalid_email_claim`; SAML: `saml_metadata_required`"),
        (status = 403, body = crate::error::ErrorBody, description = "`setup_step_not_allowed`"),
        (status = 404, body = crate::error::ErrorBody, description = "`setup_link_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`domain_not_verified`: verify a domain first"),
        (status = 410, body = super::GoneBody, description = "`setup_link_gone`"),
        (status = 422, body = crate::error::ErrorBody, description = "`sso_discovery_failed`, `invalid_saml_metadata`, `issuer_not_public`"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`"),
    ))]
pub async fn save_sso(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(token): Path<String>,
    AppJson(body): AppJson<SsoRequest>,
) -> SetupResult<AppJson<PageBody>> {
    limited(&state, &ip).await?;
    let protocol = Protocol::requested(body.protocol.as_deref())
        .ok_or(ApiError::from(SsoError::InvalidProtocol))?;
    let connection = match protocol {
        Protocol::Oidc => SsoConnection::Oidc(OidcSettings {
            issuer: body.issuer.as_deref().unwrap_or_default(),
            client_id: body.client_id.as_deref().unwrap_or_default(),
            client_secret: body.client_secret.as_deref(),
            email_claim: body.email_claim.as_deref(),
            required: false,
        }),
        Protocol::Saml => SsoConnection::Saml(SamlSettings {
            metadata_url: body.metadata_url.as_deref(),
            metadata_xml: body.metadata_xml.as_deref(),
            email_attribute: body.email_attribute.as_deref(),
            allow_idp_initiated: body.allow_idp_initiated,
            required: false,
        }),
    };
    let page = state.setup_links.save_draft(&token, &connection).await?;
    Ok(AppJson(page.into()))
}

#[utoipa::path(post, path = "/api/setup/{token}/sso/test", tag = "setup", operation_id = "setup_test_sso",
    params(("token" = String, Path, description = "The link's token")),
    request_body = TestRequest,
    responses(
        (status = 200, body = TestStarted, description = "Send the browser to `authorization_url` (this answer also sets the sign-in's state cookie): a real sign-in through the draft, checked as any sign-in, signing nobody in. Passed: the draft becomes the team's connection"),
        (status = 400, body = crate::error::ErrorBody, description = "`domain_not_verified`: the address is not at one of the team's verified domains"),
        (status = 403, body = crate::error::ErrorBody, description = "`setup_step_not_allowed`"),
        (status = 404, body = crate::error::ErrorBody, description = "`setup_link_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`setup_no_draft`: save the settings first"),
        (status = 410, body = super::GoneBody, description = "`setup_link_gone`"),
        (status = 422, body = crate::error::ErrorBody, description = "`invalid_email`"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`"),
    ))]
pub async fn test_sso(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(token): Path<String>,
    jar: CookieJar,
    AppJson(body): AppJson<TestRequest>,
) -> SetupResult<Response> {
    limited(&state, &ip).await?;
    let email = Email::parse(&body.email).map_err(ApiError::invalid_email)?;
    let started = state.setup_links.start_test(&token, &email).await?;
    // The callback finishes only in the browser that started: this one.
    let cookie = crate::auth::sso_state_cookie(
        &state,
        started.state.clone(),
        closewise_domain::sso::LOGIN_TTL,
    );
    let body = TestStarted {
        authorization_url: started.authorization_url,
    };
    Ok((jar.add(cookie), AppJson(body)).into_response())
}

#[utoipa::path(post, path = "/api/setup/{token}/scim-tokens", tag = "setup", operation_id = "setup_create_scim_token",
    params(("token" = String, Path, description = "The link's token")),
    request_body = ScimTokenRequest,
    responses(
        (status = 201, body = ScimTokenCreated, description = "Created; the token is shown only in this answer"),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_token_name`"),
        (status = 403, body = crate::error::ErrorBody, description = "`setup_step_not_allowed`"),
        (status = 404, body = crate::error::ErrorBody, description = "`setup_link_not_found`"),
        (status = 410, body = super::GoneBody, description = "`setup_link_gone`"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`"),
    ))]
pub async fn create_scim_token(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(token): Path<String>,
    AppJson(body): AppJson<ScimTokenRequest>,
) -> SetupResult<(StatusCode, AppJson<ScimTokenCreated>)> {
    limited(&state, &ip).await?;
    let (made, created_at) = state
        .setup_links
        .create_scim_token(&token, &body.name)
        .await?;
    let base_url = format!("{}/scim/v2", state.settings.base_url.trim_end_matches('/'));
    Ok((
        StatusCode::CREATED,
        AppJson(ScimTokenCreated {
            id: made.id,
            name: made.name,
            token: made.token,
            base_url,
            created_at,
        }),
    ))
}

#[utoipa::path(post, path = "/api/setup/{token}/finish", tag = "setup", operation_id = "setup_finish",
    params(("token" = String, Path, description = "The link's token")),
    responses(
        (status = 200, body = Finished, description = "The link is finished (410 from now on) and the owner is mailed what was done"),
        (status = 404, body = crate::error::ErrorBody, description = "`setup_link_not_found`"),
        (status = 410, body = super::GoneBody, description = "`setup_link_gone`"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`"),
    ))]
pub async fn finish(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(token): Path<String>,
) -> SetupResult<AppJson<Finished>> {
    limited(&state, &ip).await?;
    let done = state.setup_links.finish(&token).await?;
    Ok(AppJson(Finished {
        done: steps_body(&done),
    }))
}
