//! SAML 2.0 single sign-on's own endpoints (docs/api.md "Single sign-on"): our service provider's
//! metadata for a team, and its assertion consumer service, where the IdP's page posts the
//! response (HTTP-POST binding). Both are `closewise_core::sso::Sso`'s; the sign-in starts at
//! `/api/auth/sso/start` and ends at `/api/auth/sso/callback` as OpenID's does.
//!
//! The ACS is a cross-site form post, which brings none of our `Lax` cookies: it checks the
//! response, records the address on the sign-in, and sends the browser on (`303`) to the callback,
//! a top-level GET that brings the state cookie, so only the browser that started the sign-in
//! finishes it. A refusal goes to the same pages as the callback's.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum_extra::extract::cookie::CookieJar;
use closewise_core::sso::{AcsOutcome, Failure, SsoError};
use closewise_core::teams::TeamsError;
use serde::Deserialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::common::limit;
use super::sso::{refused, state_cookie};
use crate::error::ApiResult;
use crate::extract::ClientIp;
use crate::ratelimit::Bucket;
use crate::state::AppState;

#[utoipa::path(get, path = "/api/auth/saml/{team_id}/metadata", tag = "auth", operation_id = "saml_sp_metadata",
    params(("team_id" = Uuid, Path, description = "The team")),
    responses((status = 200, content_type = "application/samlmetadata+xml", body = String, description = "Our SP's metadata for the team: entity ID (this URL), the ACS (HTTP-POST), NameID formats, `WantAssertionsSigned`"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`")))]
pub async fn metadata(
    State(state): State<AppState>,
    Path(team_id): Path<String>,
) -> ApiResult<Response> {
    let xml = state.sso.sp_metadata(team_of(&team_id)?).await?;
    Ok((
        [(header::CONTENT_TYPE, "application/samlmetadata+xml")],
        xml,
    )
        .into_response())
}

/// A team id in the path; one that is not a UUID names no team.
fn team_of(raw: &str) -> Result<Uuid, SsoError> {
    Uuid::parse_str(raw).map_err(|_| SsoError::from(TeamsError::TeamNotFound))
}

/// The HTTP-POST binding's form.
#[derive(Deserialize, Default, ToSchema)]
#[schema(as = SamlAcsForm)]
pub struct AcsForm {
    #[serde(rename = "SAMLResponse")]
    pub saml_response: Option<String>,
    #[serde(rename = "RelayState")]
    pub relay_state: Option<String>,
}

#[utoipa::path(post, path = "/api/auth/saml/{team_id}/acs", tag = "auth", operation_id = "saml_acs",
    params(("team_id" = Uuid, Path, description = "The team")),
    request_body(content = AcsForm, content_type = "application/x-www-form-urlencoded"),
    responses((status = 400, body = crate::error::ErrorBody, description = "`invalid_saml_response`: nothing was posted"),
        (status = 404, body = crate::error::ErrorBody, description = "`team_not_found`: the path's team id is not a UUID"),
        (status = 303, description = "Verified: to `/api/auth/sso/callback?state=…` (the sign-in's RelayState), which signs in the browser that started it. Refused: to `/signin?sso=1&sso_error=…` — `invalid_saml_response` (signature, certificate, wrapping, audience, destination, recipient or request not ours), `saml_assertion_expired`, `saml_assertion_replayed`, `saml_idp_initiated_off`, `email_claim_missing`, `domain_not_verified`, `sso_login_expired`, `sso_not_configured`; the owner's test to `/team?sso_test=failed&sso_error=…`, a setup link's to `/setup?sso_test=failed&sso_error=…`")))]
pub async fn acs(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(team_id): Path<String>,
    jar: CookieJar,
    body: Bytes,
) -> ApiResult<Response> {
    limit(&state, Bucket::TokenPerIp, &ip.to_string()).await?;
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(crate::error::ApiError::empty_saml_post());
    }
    // Whatever was posted is read as the binding's form: a body that is not one carries no
    // response, which the core refuses as it refuses a bad one (a redirect to the refusal page).
    let form: AcsForm = serde_urlencoded::from_bytes(&body).unwrap_or_default();
    let team_id = team_of(&team_id)?;
    let done = state
        .sso
        .acs(
            team_id,
            form.saml_response.as_deref(),
            form.relay_state.as_deref(),
        )
        .await;
    let see_other = |to: String| (StatusCode::SEE_OTHER, [(header::LOCATION, to)]);
    match done {
        Ok(AcsOutcome::Callback {
            state: sign_in,
            set_state_cookie,
        }) => {
            let to = format!(
                "/api/auth/sso/callback?state={}&code=saml",
                url::form_urlencoded::byte_serialize(sign_in.as_bytes()).collect::<String>()
            );
            if set_state_cookie {
                let cookie = state_cookie(&state, sign_in, closewise_domain::sso::LOGIN_TTL);
                return Ok((jar.add(cookie), see_other(to)).into_response());
            }
            Ok(see_other(to).into_response())
        }
        Err(Failure { error, test, setup }) => match error {
            SsoError::Database(_) | SsoError::Internal(_) => Err(error.into()),
            error => Ok(see_other(refused(&error, test, setup)).into_response()),
        },
    }
}
