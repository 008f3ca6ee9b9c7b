//! The browser sign-in's consent (RFC 8252 loopback + PKCE): `GET /api/auth/authorize` checks a
//! request for the `/authorize` page; `POST` records the signed-in user's decision and answers
//! where to send the browser. An invalid redirect URI is refused, never redirected to.

use axum::extract::State;
use closewise_domain::oauth::{AuthorizationRequest, AuthorizeParams, CLIENT_ID, CLIENT_NAME};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::error::{ApiError, ApiResult};
use crate::extract::{AppJson, AppQuery, AuthUser, ClientIp};
use crate::state::AppState;

/// The request the desktop app opens in the browser.
#[derive(Deserialize, IntoParams, ToSchema, Default)]
#[into_params(parameter_in = Query)]
pub struct AuthorizeQuery {
    /// `code`.
    pub response_type: Option<String>,
    /// `closewise-desktop`.
    pub client_id: Option<String>,
    /// `http://127.0.0.1:{port}/callback` or `http://[::1]:{port}/callback`.
    pub redirect_uri: Option<String>,
    /// 43 base64url characters: the SHA-256 of the verifier.
    pub code_challenge: Option<String>,
    /// `S256`.
    pub code_challenge_method: Option<String>,
    /// 1–512 characters, returned verbatim.
    pub state: Option<String>,
    /// 1–100 characters, no control, format (bidi, zero-width), line or paragraph separator
    /// characters (`invalid_device_name`); the same for `platform` (1–40).
    pub device_name: Option<String>,
    pub platform: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = AuthorizeInfo)]
pub struct AuthorizeInfo {
    pub client_id: String,
    pub client_name: String,
    pub redirect_uri: String,
    /// Chosen by the app that opened the page: anyone can name a request anything.
    pub device_name: Option<String>,
    pub platform: Option<String>,
    /// The address this page was opened from, as this server sees it. The code goes back only to
    /// `redirect_uri` on this same computer, so there is no other network to compare with.
    pub requested_from: String,
}

#[derive(Deserialize, ToSchema, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    Allow,
    Deny,
}

/// The same parameters as the GET, and the user's decision.
#[derive(Deserialize, ToSchema)]
#[schema(as = AuthorizeBody)]
pub struct AuthorizeRequest {
    #[serde(flatten)]
    #[schema(inline)]
    pub request: AuthorizeQuery,
    pub decision: Decision,
}

#[derive(Serialize, ToSchema)]
#[schema(as = AuthorizeRedirect)]
pub struct AuthorizeResponse {
    /// Where the page sends the browser: the app's loopback address with `code` and `state`, or
    /// `error=access_denied` and `state`.
    pub redirect_to: String,
}

fn check(q: &AuthorizeQuery) -> ApiResult<AuthorizationRequest> {
    AuthorizationRequest::parse(&AuthorizeParams {
        response_type: q.response_type.as_deref(),
        client_id: q.client_id.as_deref(),
        redirect_uri: q.redirect_uri.as_deref(),
        code_challenge: q.code_challenge.as_deref(),
        code_challenge_method: q.code_challenge_method.as_deref(),
        state: q.state.as_deref(),
        device_name: q.device_name.as_deref(),
        platform: q.platform.as_deref(),
    })
    .map_err(ApiError::from)
}

#[utoipa::path(get, path = "/api/auth/authorize", tag = "auth", params(AuthorizeQuery),
    responses((status = 200, body = AuthorizeInfo),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_client`, `invalid_redirect_uri`, `invalid_request`, `invalid_device_name`")))]
pub async fn authorize_info(
    ClientIp(ip): ClientIp,
    AppQuery(q): AppQuery<AuthorizeQuery>,
) -> ApiResult<AppJson<AuthorizeInfo>> {
    let req = check(&q)?;
    Ok(AppJson(AuthorizeInfo {
        client_id: CLIENT_ID.into(),
        client_name: CLIENT_NAME.into(),
        redirect_uri: req.redirect_uri,
        device_name: req.device_name,
        platform: req.platform,
        requested_from: ip.to_string(),
    }))
}

#[utoipa::path(post, path = "/api/auth/authorize", tag = "auth", request_body = AuthorizeRequest,
    responses((status = 200, body = AuthorizeResponse),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_client`, `invalid_redirect_uri`, `invalid_request`, `invalid_device_name`"),
        (status = 403, body = crate::error::ErrorBody, description = "`reauthentication_required` (to allow): the password (and a second factor, when enrolled) was not given on this session in the last 15 minutes; `mfa_setup_required` (to allow): the caller lacks the second factor a team of theirs requires; `sso_required` (to allow): the caller's address signs in by single sign-on (Require SSO) and this session was not started by it; `email_not_confirmed`")),
    security(("bearer" = [])))]
pub async fn authorize(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<AuthorizeRequest>,
) -> ApiResult<AppJson<AuthorizeResponse>> {
    let req = check(&body.request)?;
    let allow = body.decision == Decision::Allow;
    let redirect_to = state.desktop.authorize(&auth, &req, allow).await?;
    Ok(AppJson(AuthorizeResponse { redirect_to }))
}
