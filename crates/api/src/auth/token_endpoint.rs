//! `POST /api/auth/token`: the password and refresh-token grants, and the refresh cookie; the
//! desktop app's `authorization_code` and device-code grants are in `grants.rs`, the passkey
//! grant in `passkeys.rs`.

use super::account::SigninBudget;
use super::common::*;
use super::grants;
use super::passkeys;
use super::session::{self, Caller, SessionResponse, REFRESH_COOKIE};
use super::signup::CredentialsRequest;
use crate::error::{ApiError, ApiResult};
use crate::extract::{user_agent, AppQuery, ClientIp};
use crate::ratelimit::Bucket;
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum_extra::extract::CookieJar;
use closewise_core::mfa::Client;
use closewise_core::sessions::SessionError;
use closewise_domain::email::Email;
use serde::Deserialize;
use utoipa::ToSchema;

#[derive(Deserialize, ToSchema, Default)]
#[schema(as = RefreshBody)]
pub struct RefreshRequest {
    #[serde(default)]
    pub refresh_token: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[schema(as = MfaGrantBody)]
pub struct MfaGrantRequest {
    /// From the password grant's `401 mfa_required` (5 minutes, single use, this client only).
    #[serde(default)]
    pub mfa_token: String,
    /// A 6-digit code from the authenticator app, or a recovery code.
    #[serde(default)]
    pub code: String,
}

/// The request body of each grant (for the OpenAPI document: the endpoint parses the body of the
/// grant `grant_type` names).
#[derive(Deserialize, ToSchema)]
#[serde(untagged)]
#[schema(as = TokenRequestBody)]
#[allow(dead_code)]
pub enum TokenRequestBody {
    Credentials(CredentialsRequest),
    Refresh(RefreshRequest),
    AuthorizationCode(grants::CodeGrantRequest),
    DeviceCode(grants::DeviceGrantRequest),
    Mfa(MfaGrantRequest),
    Passkey(passkeys::PasskeyGrantRequest),
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GrantQuery {
    /// `password`, `mfa`, `refresh_token`, `passkey`, `authorization_code` or
    /// `urn:ietf:params:oauth:grant-type:device_code`.
    pub grant_type: Option<String>,
}

#[utoipa::path(post, path = "/api/auth/token", tag = "auth", params(GrantQuery),
    request_body(content = TokenRequestBody, description = "`Credentials` (`{email, password}`) for the password grant; `MfaGrantBody` (`{mfa_token, code}`) for the mfa grant; `PasskeyGrantBody` for `passkey`; `RefreshBody` (`{refresh_token}`, or the cookie) for the refresh grant; `AuthorizationCodeGrantBody` for `authorization_code`; `DeviceCodeGrantBody` for the device-code grant"),
    responses((status = 200, body = SessionResponse), (status = 400, body = grants::TokenErrorBody, description = "`ErrorBody` for the password and refresh grants; `OAuthErrorBody` (RFC 6749 §5.2, RFC 8628 §3.5) for `authorization_code` and the device-code grant"),
        (status = 401, body = crate::error::ErrorBody, description = "`mfa_required` (password grant, an account with a second factor: `mfa_token` and `methods` in the error); `invalid_code`, `invalid_mfa_token` (mfa grant, and the passkey grant with an `mfa_token`); `invalid_refresh_token`, `refresh_token_reused`, `no_session` (refresh grant)"), (status = 403, body = crate::error::ErrorBody, description = "`cross_site_request`: a browser request from a page that is not ours; `sso_required`: the account's address is at a domain whose team requires single sign-on (Require SSO), on every grant — password, mfa, passkey, `authorization_code` and device code allowed by a session SSO did not start, and refresh of a session SSO did not start (which ends it)"), (status = 429, body = crate::error::ErrorBody)))]
#[tracing::instrument(skip_all)]
pub async fn token(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppQuery(query): AppQuery<GrantQuery>,
    headers: HeaderMap,
    jar: CookieJar,
    body: Bytes,
) -> ApiResult<Response> {
    limit(&state, Bucket::TokenPerIp, &ip.to_string()).await?;
    let grant = query.grant_type.as_deref();
    if matches!(
        grant,
        Some("password" | "mfa" | "refresh_token" | "passkey")
    ) {
        session::caller(&state, &headers)?;
        // A cross-site form can post `text/plain` without a preflight; JSON it cannot.
        require_json(&headers)?;
    }
    match grant {
        Some("password") => {
            let caller = session::caller(&state, &headers)?;
            let creds: CredentialsRequest = json_body(&body)?;
            let session = password_grant(&state, ip, caller, &headers, creds).await?;
            Ok(session::respond(&state, jar, caller, session))
        }
        Some("mfa") => {
            let caller = session::caller(&state, &headers)?;
            let body: MfaGrantRequest = json_body(&body)?;
            let session = mfa_grant(&state, ip, caller, &headers, body).await?;
            Ok(session::respond(&state, jar, caller, session))
        }
        Some("passkey") => {
            let caller = session::caller(&state, &headers)?;
            let req = json_body(&body)?;
            passkeys::passkey_grant(&state, &ip.to_string(), &headers, jar, caller, req).await
        }
        Some("refresh_token") => {
            let caller = session::caller(&state, &headers)?;
            let body: RefreshRequest = if body.iter().all(u8::is_ascii_whitespace) {
                RefreshRequest::default()
            } else {
                json_body(&body)?
            };
            refresh_grant(&state, caller, jar, body).await
        }
        Some("authorization_code") => grants::authorization_code(&state, ip, &headers, &body).await,
        Some(grants::DEVICE_CODE_GRANT) => grants::device_code(&state, ip, &headers, &body).await,
        _ => Err(ApiError::invalid_grant_type()),
    }
}

/// 415 unless the request says its body is JSON (`application/json`, any parameters).
pub(super) fn require_json(headers: &HeaderMap) -> ApiResult<()> {
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"));
    if json {
        Ok(())
    } else {
        Err(ApiError::unsupported_media_type())
    }
}

pub(super) fn json_body<T: serde::de::DeserializeOwned>(body: &Bytes) -> ApiResult<T> {
    crate::extract::json_object(body)
}

/// The password grant, one core call: a session, or `401 mfa_required` with an `mfa_token` for
/// an account with a second factor.
pub(super) async fn password_grant(
    state: &AppState,
    ip: std::net::IpAddr,
    caller: Caller,
    headers: &HeaderMap,
    creds: CredentialsRequest,
) -> ApiResult<SessionResponse> {
    // A malformed e-mail is just another unknown account: same answer, same work.
    let email = Email::parse(&creds.email).ok();
    let key = email
        .as_ref()
        .map(|e| e.as_str().to_string())
        .unwrap_or_else(|| creds.email.trim().to_lowercase());
    let ua = user_agent(headers);
    let session = state
        .sessions
        .sign_in(
            email.as_ref(),
            &key,
            &creds.password,
            client(caller),
            ua.as_deref(),
            &ip.to_string(),
            &SigninBudget::new(state, ip),
        )
        .await??;
    session::session_body(state, session)
}

/// The mfa grant: the password grant's `mfa_token` and a code finish the sign-in.
async fn mfa_grant(
    state: &AppState,
    ip: std::net::IpAddr,
    caller: Caller,
    headers: &HeaderMap,
    body: MfaGrantRequest,
) -> ApiResult<SessionResponse> {
    let ua = user_agent(headers);
    let session = state
        .sessions
        .mfa_sign_in(
            &body.mfa_token,
            &body.code,
            client(caller),
            ua.as_deref(),
            &ip.to_string(),
            &SigninBudget::new(state, ip),
        )
        .await??;
    session::session_body(state, session)
}

fn client(caller: Caller) -> Client {
    match caller {
        Caller::Site => Client::Site,
        Caller::Native => Client::Native,
    }
}

pub(super) async fn refresh_grant(
    state: &AppState,
    caller: Caller,
    jar: CookieJar,
    body: RefreshRequest,
) -> ApiResult<Response> {
    let from_body = body.refresh_token.filter(|t| !t.trim().is_empty());
    let presented = match (from_body, caller) {
        (Some(t), _) => Some(t),
        // The cookie rides along automatically: only our own pages may use it.
        (None, Caller::Native) => None,
        (None, Caller::Site) => jar
            .get(REFRESH_COOKIE)
            .map(|c| c.value().to_string())
            .filter(|v| !v.is_empty()),
    };
    let Some(presented) = presented else {
        return Err(SessionError::NoSession.into());
    };
    match state.sessions.refresh(&presented).await {
        Ok(session) => {
            let body = session::session_body(state, session)?;
            Ok(session::respond(state, jar, caller, body))
        }
        // An ended session's cookie goes with it.
        Err(e) if e.session_ended() => Ok(match caller {
            Caller::Site => {
                let jar = session::clear_cookie(state, jar);
                let account = session::account_cookie(state, None);
                (jar, account, ApiError::from(e)).into_response()
            }
            Caller::Native => (jar, ApiError::from(e)).into_response(),
        }),
        Err(e) => Err(e.into()),
    }
}
