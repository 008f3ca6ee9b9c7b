//! The setup link's own endpoints (docs/api.md "Setup link for IT"): `/api/setup/{token}/…`,
//! where the link's token is the only credential (no account, no session; the token is no
//! bearer token anywhere else). Each is one command of `closewise_core::setup_links::SetupLinks`,
//! which acts as the link and lets it take only its steps. An unknown token answers
//! `404 setup_link_not_found`, a revoked, expired or finished one `410 setup_link_gone` with its
//! `reason`; every endpoint is rate-limited per address as the other unauthenticated ones are.

mod steps;

use axum::extract::{Path, State};
use closewise_core::setup_links::LinkPage;
use serde::Serialize;
use time::OffsetDateTime;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use uuid::Uuid;

use crate::auth::common::limit;
use crate::error::{GoneBody, SetupError};
use crate::extract::{AppJson, ClientIp};
use crate::ratelimit::Bucket;
use crate::state::AppState;
use crate::team::domains::DomainBody;
use crate::team::setup_links::{steps_body, SetupStepBody};
use crate::team::sso::{CertificateBody, SsoBody};

/// The link's endpoints, and the owner's (`team::setup_links`).
pub fn router() -> OpenApiRouter<AppState> {
    use crate::team::setup_links as owner;
    OpenApiRouter::new()
        .routes(routes!(owner::create_link, owner::list_links))
        .routes(routes!(owner::revoke_link))
        .routes(routes!(page))
        .routes(routes!(steps::add_domain))
        .routes(routes!(steps::verify_domain))
        .routes(routes!(steps::save_sso))
        .routes(routes!(steps::test_sso))
        .routes(routes!(steps::create_scim_token))
        .routes(routes!(steps::finish))
}

pub type SetupResult<T> = Result<T, SetupError>;

/// Every link endpoint's budget: as the other unauthenticated endpoints'.
pub(crate) async fn limited(state: &AppState, ip: &std::net::IpAddr) -> SetupResult<()> {
    limit(state, Bucket::TokenPerIp, &ip.to_string()).await?;
    Ok(())
}

/// The last test sign-in.
#[derive(Serialize, ToSchema)]
#[schema(as = SetupSsoTest)]
pub struct TestBody {
    /// `passed` or `failed`.
    pub result: String,
    /// Failed: the refusal's code (as `sso_error` in the page's URL).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Passed: the address the provider signed in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub at: OffsetDateTime,
}

/// The connection IT saved and has not yet tested (never the client secret).
#[derive(Serialize, ToSchema)]
#[schema(as = SetupSsoDraft)]
pub struct DraftBody {
    /// `saml` or `oidc`.
    pub protocol: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idp_entity_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sso_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificates: Option<Vec<CertificateBody>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email_attribute: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub issuer: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email_claim: Option<String>,
}

/// Single sign-on at the link: our values to paste into the provider, the team's connection,
/// IT's draft and its last test.
#[derive(Serialize, ToSchema)]
#[schema(as = SetupSso)]
pub struct SsoPartBody {
    /// Our SAML SP's entity ID (also its metadata's URL).
    pub sp_entity_id: String,
    /// Our SAML assertion consumer service URL.
    pub acs_url: String,
    /// Our SAML SP's metadata, to give the IdP in one go.
    pub metadata_url: String,
    /// The OpenID redirect URI to register at the provider.
    pub redirect_uri: String,
    /// The team's saved connection, as `GET /api/team/sso` shows it; null: none.
    pub connection: Option<SsoBody>,
    pub draft: Option<DraftBody>,
    pub test: Option<TestBody>,
}

/// A SCIM token made through this link (never its secret).
#[derive(Serialize, ToSchema)]
#[schema(as = SetupScimToken)]
pub struct ScimTokenBody {
    pub id: Uuid,
    pub name: String,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
}

#[derive(Serialize, ToSchema)]
#[schema(as = SetupScim)]
pub struct ScimPartBody {
    /// The SCIM base URL to give the identity provider.
    pub base_url: String,
    /// Only those made through this link.
    pub tokens: Vec<ScimTokenBody>,
}

/// What the link's page shows.
#[derive(Serialize, ToSchema)]
#[schema(as = SetupPage)]
pub struct PageBody {
    pub team_name: String,
    /// The steps this link allows, in order.
    pub steps: Vec<SetupStepBody>,
    /// The steps IT completed through it.
    pub done: Vec<SetupStepBody>,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub expires_at: OffsetDateTime,
    /// The team's domains with their TXT records, as `GET /api/team/domains` lists them.
    pub domains: Vec<DomainBody>,
    pub sso: SsoPartBody,
    pub scim: ScimPartBody,
}

impl From<LinkPage> for PageBody {
    fn from(p: LinkPage) -> Self {
        let sso = p.sso;
        PageBody {
            team_name: p.team_name,
            steps: steps_body(&p.steps),
            done: steps_body(&p.done),
            expires_at: p.expires_at,
            domains: p.domains.into_iter().map(DomainBody::from).collect(),
            sso: SsoPartBody {
                sp_entity_id: sso.urls.sp_entity_id,
                acs_url: sso.urls.acs_url,
                metadata_url: sso.urls.metadata_url,
                redirect_uri: sso.urls.redirect_uri,
                connection: sso.connection.map(SsoBody::from),
                draft: sso.draft.map(|d| DraftBody {
                    protocol: d.protocol.as_str().to_string(),
                    idp_entity_id: d.idp_entity_id,
                    sso_url: d.sso_url,
                    certificates: d
                        .certificates
                        .map(|c| c.into_iter().map(CertificateBody::from).collect()),
                    metadata_url: d.metadata_url,
                    email_attribute: d.email_attribute,
                    issuer: d.issuer,
                    client_id: d.client_id,
                    email_claim: d.email_claim,
                }),
                test: sso.test.map(|t| TestBody {
                    result: if t.passed { "passed" } else { "failed" }.into(),
                    error: t.error,
                    email: t.email,
                    at: t.at,
                }),
            },
            scim: ScimPartBody {
                base_url: p.scim_base_url,
                tokens: p
                    .scim_tokens
                    .into_iter()
                    .map(|t| ScimTokenBody {
                        id: t.id,
                        name: t.name,
                        created_at: t.created_at,
                    })
                    .collect(),
            },
        }
    }
}

#[utoipa::path(get, path = "/api/setup/{token}", tag = "setup", operation_id = "setup_page",
    params(("token" = String, Path, description = "The link's token (the last part of its URL)")),
    responses(
        (status = 200, body = PageBody),
        (status = 404, body = crate::error::ErrorBody, description = "`setup_link_not_found`"),
        (status = 410, body = GoneBody, description = "`setup_link_gone`: revoked, expired or finished (`reason`)"),
        (status = 429, body = crate::error::ErrorBody, description = "`rate_limited`"),
    ))]
pub async fn page(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(token): Path<String>,
) -> SetupResult<AppJson<PageBody>> {
    limited(&state, &ip).await?;
    let page = state.setup_links.page(&token).await?;
    Ok(AppJson(page.into()))
}
