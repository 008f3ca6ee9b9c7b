//! The owner's single sign-on (docs/teams.md "Single sign-on"): `GET`, `PUT`, `DELETE
//! /api/team/sso`, OpenID Connect or SAML 2.0. The client secret goes in and never comes out; the
//! answer shows the redirect URI to register at an OpenID provider and our SAML SP's entity ID and
//! ACS URL. Each is one command of `closewise_core::sso::Sso` with the
//! caller as actor: it checks the role, reads the discovery document (sealing the secret) or the
//! SAML metadata, audits the change and applies "Require SSO".

use axum::extract::State;
use axum::http::StatusCode;
use closewise_core::actor::Actor;
use closewise_core::sso::{
    CertificateInfo, OidcSettings, SamlSettings, SamlView, SsoConnection, SsoError, SsoView,
};
use closewise_domain::sso::Protocol;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use utoipa::ToSchema;

use crate::error::ApiResult;
use crate::extract::{AppJson, AuthUser};
use crate::state::AppState;

fn member(auth: &AuthUser) -> Actor {
    Actor::member(auth.user_id, &auth.email)
}

/// One of a SAML IdP's signing certificates.
#[derive(Serialize, ToSchema)]
#[schema(as = SamlCertificate)]
pub struct CertificateBody {
    pub subject: String,
    /// When it expires.
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub not_after: OffsetDateTime,
    /// SHA-256 of the certificate (DER), hex pairs with colons.
    pub fingerprint: String,
}

impl From<CertificateInfo> for CertificateBody {
    fn from(c: CertificateInfo) -> Self {
        CertificateBody {
            subject: c.subject,
            not_after: c.not_after,
            fingerprint: c.fingerprint,
        }
    }
}

/// A SAML connection: what the IdP's metadata said, and how responses are read.
#[derive(Serialize, ToSchema)]
#[schema(as = TeamSaml)]
pub struct SamlBody {
    pub idp_entity_id: String,
    /// The IdP's single sign-on URL (HTTP-Redirect binding).
    pub sso_url: String,
    /// Its signing certificates (one, or two during a rotation).
    pub certificates: Vec<CertificateBody>,
    /// Where the metadata was read, when given as a URL.
    pub metadata_url: Option<String>,
    /// The attribute carrying the address; null: the NameID.
    pub email_attribute: Option<String>,
    /// Responses the IdP sends unasked (IdP-initiated) are accepted.
    pub allow_idp_initiated: bool,
}

impl From<SamlView> for SamlBody {
    fn from(v: SamlView) -> Self {
        SamlBody {
            idp_entity_id: v.idp_entity_id,
            sso_url: v.sso_url,
            certificates: v.certificates.into_iter().map(Into::into).collect(),
            metadata_url: v.metadata_url,
            email_attribute: v.email_attribute,
            allow_idp_initiated: v.allow_idp_initiated,
        }
    }
}

/// The team's SSO connection, without its secret.
#[derive(Serialize, ToSchema)]
#[schema(as = TeamSso)]
pub struct SsoBody {
    /// Whether the team has a connection.
    pub configured: bool,
    /// `oidc` or `saml` (`oidc` when there is no connection).
    pub protocol: String,
    /// The SAML connection, when `protocol` is `saml`.
    pub saml: Option<SamlBody>,
    /// Our SAML service provider's entity ID, to give the IdP.
    pub sp_entity_id: String,
    /// Our SAML assertion consumer service URL, to give the IdP.
    pub acs_url: String,
    pub issuer: Option<String>,
    pub client_id: Option<String>,
    /// The claim that carries a person's address: `email` (the default; the provider must say
    /// `email_verified`), `preferred_username` or `upn` (Microsoft Entra ID's sign-in name).
    pub email_claim: String,
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
            protocol: v.protocol.as_str().to_string(),
            saml: v.saml.map(Into::into),
            sp_entity_id: v.sp_entity_id,
            acs_url: v.acs_url,
            issuer: v.issuer,
            client_id: v.client_id,
            email_claim: v.email_claim.as_str().to_string(),
            required: v.required,
            redirect_uri: v.redirect_uri,
            domains: v.domains,
            updated_at: v.updated_at,
        }
    }
}

/// OpenID Connect: `{protocol?: "oidc", issuer, client_id, client_secret?, email_claim?,
/// required}`; SAML: `{protocol: "saml", metadata_url?, metadata_xml?, email_attribute?,
/// allow_idp_initiated?, required}`.
#[derive(Deserialize, ToSchema)]
#[schema(as = TeamSsoRequest)]
pub struct SsoRequest {
    /// `oidc` (left out: `oidc`) or `saml`.
    #[serde(default)]
    pub protocol: Option<String>,
    /// OpenID: the provider's issuer URL (https); its discovery document is read on save.
    #[serde(default)]
    pub issuer: Option<String>,
    /// OpenID.
    #[serde(default)]
    pub client_id: Option<String>,
    /// OpenID: required the first time; left out (or empty) keeps the stored one.
    #[serde(default)]
    pub client_secret: Option<String>,
    /// OpenID: the claim that carries a person's address: `email` (left out: `email`),
    /// `preferred_username` or `upn`.
    #[serde(default)]
    pub email_claim: Option<String>,
    /// SAML: the IdP's metadata URL (https), read on save; or give `metadata_xml`.
    #[serde(default)]
    pub metadata_url: Option<String>,
    /// SAML: the IdP's metadata document.
    #[serde(default)]
    pub metadata_xml: Option<String>,
    /// SAML: the attribute carrying the address (left out: the NameID).
    #[serde(default)]
    pub email_attribute: Option<String>,
    /// SAML: accept responses the IdP sends unasked (IdP-initiated); off unless given.
    #[serde(default)]
    pub allow_idp_initiated: bool,
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
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_protocol`; OpenID: `invalid_issuer`, `client_id_required`, `client_secret_required`, `invalid_email_claim`; SAML: `saml_metadata_required` (neither or both of `metadata_url` and `metadata_xml`)"),
        (status = 403, body = crate::error::ErrorBody, description = "`forbidden_role` (the owner's); `reauthentication_required`: the password (and a second factor, when enrolled) was not given on this session in the last 15 minutes"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`"),
        (status = 409, body = crate::error::ErrorBody, description = "`domain_not_verified`: verify a domain first"),
        (status = 422, body = crate::error::ErrorBody, description = "`sso_discovery_failed`: the issuer's discovery document could not be read or is wrong; `invalid_saml_metadata`: the SAML metadata could not be read or used (no entity ID, no HTTP-Redirect SSO URL, no or more than two signing certificates); `issuer_not_public`"),
    ),
    security(("bearer" = [])))]
pub async fn put_sso(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<SsoRequest>,
) -> ApiResult<AppJson<SsoBody>> {
    crate::auth::reauth::require_recent_password(&state, &auth).await?;
    let protocol =
        Protocol::requested(body.protocol.as_deref()).ok_or(SsoError::InvalidProtocol)?;
    let connection = match protocol {
        Protocol::Oidc => SsoConnection::Oidc(OidcSettings {
            issuer: body.issuer.as_deref().unwrap_or_default(),
            client_id: body.client_id.as_deref().unwrap_or_default(),
            client_secret: body.client_secret.as_deref(),
            email_claim: body.email_claim.as_deref(),
            required: body.required,
        }),
        Protocol::Saml => SsoConnection::Saml(SamlSettings {
            metadata_url: body.metadata_url.as_deref(),
            metadata_xml: body.metadata_xml.as_deref(),
            email_attribute: body.email_attribute.as_deref(),
            allow_idp_initiated: body.allow_idp_initiated,
            required: body.required,
        }),
    };
    let view = state.sso.save(&member(&auth), None, &connection).await?;
    Ok(AppJson(view.into()))
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
