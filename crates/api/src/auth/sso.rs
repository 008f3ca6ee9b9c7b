//! Signing in with single sign-on (docs/api.md "Single sign-on"): `POST /api/auth/sso/discover`
//! tells the sign-in page whether an address signs in by SSO; `GET /api/auth/sso/start` sends the
//! browser to the team's provider; `GET /api/auth/sso/callback` finishes: the refresh cookie as
//! every web sign-in sets it, then `next`. The flow is `closewise_core::sso::Sso`'s.
//!
//! Start and callback are navigations, so they answer redirects, errors included (to `/signin`
//! with `sso_error`, or to `/team` for the owner's test). The state also goes into a cookie of
//! this browser that the callback must bring back: a callback URL made for someone else's
//! sign-in (login CSRF) does not sign this browser in.
//!
//! A browser already signed in to another account (its `cw_account` cookie) is not switched by
//! the callback: a page that sends a signed-in browser through an approve-at-once provider would
//! otherwise replace the session with its own. The new session waits in a cookie of this path and
//! the browser lands on `/sso/confirm`, which reads both accounts (`GET /api/auth/sso/switch`) and
//! switches (`POST`) or drops the new session (`DELETE`) only at the person's word, from our own
//! pages.

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};
use closewise_core::sessions::{Credential, SessionError};
use closewise_core::sso::{Failure, Finished, SsoError};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::common::{limit, parse_email};
use super::session;
use crate::error::{ApiError, ApiResult};
use crate::extract::{user_agent, AppJson, AppQuery, ClientIp};
use crate::ratelimit::Bucket;
use crate::state::AppState;

/// The cookie holding this browser's sign-in state until the callback.
pub const STATE_COOKIE: &str = "cw_sso_state";
const STATE_COOKIE_PATH: &str = "/api/auth/sso";
/// The cookie holding a session SSO started, while the person confirms leaving the account this
/// browser is signed in to: its refresh token and, after a `.`, where to land (URL-encoded).
pub const PENDING_COOKIE: &str = "cw_sso_pending";
/// The page that asks.
const CONFIRM_PAGE: &str = "/sso/confirm";

#[derive(Deserialize, ToSchema)]
#[schema(as = SsoDiscoverRequest)]
pub struct DiscoverRequest {
    pub email: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = SsoDiscovery)]
pub struct DiscoverResponse {
    /// The address's domain signs in by SSO.
    pub sso: bool,
    /// Where to send the browser to sign in (with the address), when `sso`.
    pub start_url: Option<String>,
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StartQuery {
    /// The address to sign in; its domain picks the team.
    pub email: Option<String>,
    /// A path of this site to land on (`/dashboard` otherwise).
    pub next: Option<String>,
    /// `true`: the owner's "Test connection" (checks everything, signs nobody in).
    pub test: Option<bool>,
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CallbackQuery {
    pub state: Option<String>,
    pub code: Option<String>,
    pub error: Option<String>,
}

fn encode(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

fn start_url(email: &str, next: Option<&str>) -> String {
    let mut url = format!("/api/auth/sso/start?email={}", encode(email));
    if let Some(next) = next {
        url.push_str(&format!("&next={}", encode(next)));
    }
    url
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DiscoverQuery {
    /// Carried into `start_url`.
    pub next: Option<String>,
}

#[utoipa::path(post, path = "/api/auth/sso/discover", tag = "auth", params(DiscoverQuery),
    request_body = DiscoverRequest,
    responses((status = 200, body = DiscoverResponse),
        (status = 400, body = crate::error::ErrorBody, description = "`invalid_email`"),
        (status = 422, body = crate::error::ErrorBody, description = "`invalid_email`: no address given"),
        (status = 429, body = crate::error::ErrorBody)))]
pub async fn discover(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppQuery(q): AppQuery<DiscoverQuery>,
    AppJson(body): AppJson<DiscoverRequest>,
) -> ApiResult<AppJson<DiscoverResponse>> {
    limit(&state, Bucket::TokenPerIp, &ip.to_string()).await?;
    let email = parse_email(&body.email)?;
    let sso = state.sso.discover(&email).await?;
    Ok(AppJson(DiscoverResponse {
        sso,
        start_url: sso.then(|| start_url(email.as_str(), q.next.as_deref())),
    }))
}

fn redirect(to: &str) -> Response {
    (StatusCode::FOUND, [(header::LOCATION, to.to_string())]).into_response()
}

/// Where a refused sign-in lands: the sign-in page (or the owner's team page for a test, the
/// setup page for a setup link's) with the refusal's code; `seats` for `seats_taken` so the page
/// can say how many.
pub(super) fn refused(error: &SsoError, test: bool, setup: bool) -> String {
    let page = match (setup, test) {
        (true, _) => "/setup?sso_test=failed&",
        (false, true) => "/team?sso_test=failed&",
        (false, false) => "/signin?sso=1&",
    };
    let mut to = format!("{page}sso_error={}", error.code());
    if let SsoError::NoFreeSeat { total } = error {
        to.push_str(&format!("&seats={total}"));
    }
    to
}

pub(crate) fn state_cookie(
    state: &AppState,
    value: String,
    max_age: time::Duration,
) -> Cookie<'static> {
    sso_cookie(state, STATE_COOKIE, value, max_age)
}

/// One of the SSO flow's own cookies (its state, the session waiting for the switch): httpOnly,
/// on the SSO paths only, and `Lax`, since the provider's redirect back is a cross-site
/// top-level GET that must carry it.
fn sso_cookie(
    state: &AppState,
    name: &'static str,
    value: String,
    max_age: time::Duration,
) -> Cookie<'static> {
    Cookie::build((name, value))
        .path(STATE_COOKIE_PATH)
        .http_only(true)
        .secure(!state.settings.insecure_cookies())
        .same_site(SameSite::Lax)
        .max_age(max_age)
        .build()
}

#[utoipa::path(get, path = "/api/auth/sso/start", tag = "auth", operation_id = "start_sso", params(StartQuery),
    responses((status = 302, description = "To the team's provider (authorization code + PKCE); to `/signin?sso=1&sso_error=…` when the address has no SSO"),
        (status = 400, body = crate::error::ErrorBody, description = "A malformed query (`test` not a boolean, say)")))]
pub async fn start(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    jar: CookieJar,
    AppQuery(q): AppQuery<StartQuery>,
) -> ApiResult<Response> {
    limit(&state, Bucket::TokenPerIp, &ip.to_string()).await?;
    let test = q.test.unwrap_or(false);
    let email = match q.email.as_deref().map(parse_email) {
        Some(Ok(email)) => email,
        _ => return Ok(redirect(&refused(&SsoError::NoSsoForDomain, test, false))),
    };
    match state.sso.start(&email, q.next.as_deref(), test).await {
        Ok(started) => {
            let cookie = state_cookie(
                &state,
                started.state.clone(),
                closewise_domain::sso::LOGIN_TTL,
            );
            Ok((jar.add(cookie), redirect(&started.authorization_url)).into_response())
        }
        Err(e @ (SsoError::NoSsoForDomain | SsoError::NotConfigured)) => {
            Ok(redirect(&refused(&e, test, false)))
        }
        Err(e) => Err(e.into()),
    }
}

#[utoipa::path(get, path = "/api/auth/sso/callback", tag = "auth", params(CallbackQuery),
    responses((status = 302, description = "Signed in: the refresh cookie is set and the browser goes to `next`; a browser signed in to another account (its `cw_account` cookie) goes to `/sso/confirm` instead, the new session kept aside until the person continues (`POST /api/auth/sso/switch`) or cancels (`DELETE`). Refused: to `/signin?sso=1&sso_error=…` (`seats_taken` with `seats`, `sso_login_expired`, `sso_denied`, `invalid_id_token`, `email_not_verified`, `domain_not_verified`, `already_in_team`, `deactivated_by_directory`); the owner's test to `/team?sso_test=passed` or `…failed&sso_error=…`; a setup link's test to `/setup?sso_test=passed` or `/setup?sso_test=failed&sso_error=…`")))]
pub async fn callback(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    jar: CookieJar,
    AppQuery(q): AppQuery<CallbackQuery>,
) -> ApiResult<Response> {
    limit(&state, Bucket::TokenPerIp, &ip.to_string()).await?;
    let ours = jar.get(STATE_COOKIE).map(|c| c.value().to_string());
    let jar = jar.add(state_cookie(&state, String::new(), time::Duration::ZERO));
    // Only this browser's own sign-in finishes here.
    let state_param = q.state.as_deref().filter(|s| ours.as_deref() == Some(*s));
    let ua = user_agent(&headers);
    let done = state
        .sso
        .callback(
            state_param,
            q.code.as_deref(),
            q.error.as_deref(),
            ua.as_deref(),
            Some(&ip.to_string()),
        )
        .await;
    match done {
        Ok(Finished::SignedIn { session, next }) => {
            let other = jar
                .get(session::ACCOUNT_COOKIE)
                .map(|c| c.value().to_string())
                .filter(|v| !v.is_empty() && *v != session.user.id.to_string());
            if other.is_some() {
                // Another account's browser: ask before switching.
                let value = format!("{}.{}", session.refresh_token, encode(&next));
                let jar = jar.add(state_cookie(&state, String::new(), time::Duration::ZERO));
                let jar = jar.add(pending_cookie(
                    &state,
                    value,
                    closewise_domain::sso::LOGIN_TTL,
                ));
                return Ok((jar, redirect(CONFIRM_PAGE)).into_response());
            }
            let jar = session::set_cookie(&state, jar, &session.refresh_token);
            let account = session::account_cookie(&state, Some(session.user.id));
            Ok((jar, account, redirect(&next)).into_response())
        }
        Ok(Finished::Tested) => Ok((jar, redirect("/team?sso_test=passed")).into_response()),
        Ok(Finished::SetupTested) => Ok((jar, redirect("/setup?sso_test=passed")).into_response()),
        Err(Failure { error, test, setup }) => match error {
            SsoError::Database(_) | SsoError::Internal(_) => Err(error.into()),
            error => Ok((jar, redirect(&refused(&error, test, setup))).into_response()),
        },
    }
}

fn pending_cookie(state: &AppState, value: String, max_age: time::Duration) -> Cookie<'static> {
    sso_cookie(state, PENDING_COOKIE, value, max_age)
}

/// The waiting session's refresh token and where to land, from the cookie.
fn pending(jar: &CookieJar) -> Option<(String, String)> {
    let value = jar.get(PENDING_COOKIE)?.value().to_string();
    let (token, next) = value.split_once('.')?;
    let next = url::form_urlencoded::parse(format!("n={next}").as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())?;
    let next = closewise_domain::limits::return_path(&next)
        .unwrap_or("/dashboard")
        .to_string();
    (!token.is_empty()).then(|| (token.to_string(), next))
}

#[derive(Serialize, ToSchema)]
#[schema(as = SsoSwitch)]
pub struct SwitchResponse {
    /// The account this browser is signed in to now; null when its session has ended (then
    /// nothing is replaced and the page may continue at once).
    pub current_email: Option<String>,
    /// The account single sign-on just signed in.
    pub email: String,
    /// Where to land after continuing.
    pub next: String,
}

#[derive(Serialize, ToSchema)]
#[schema(as = SsoSwitched)]
pub struct SwitchedResponse {
    /// Where to land, now signed in to the new account.
    pub next: String,
}

/// The session waiting in the cookie, and its account; `sso_login_expired` without one.
async fn waiting(
    state: &AppState,
    jar: &CookieJar,
) -> ApiResult<(String, String, closewise_core::store::UserRow)> {
    let expired = || ApiError::from(closewise_core::sso::SsoError::LoginExpired);
    let (token, next) = pending(jar).ok_or_else(expired)?;
    let user = state.sessions.holder(&token).await?.ok_or_else(expired)?;
    Ok((token, next, user))
}

#[utoipa::path(get, path = "/api/auth/sso/switch", tag = "auth", operation_id = "sso_switch",
    responses((status = 200, body = SwitchResponse, description = "The account this browser is signed in to and the one single sign-on signed in, for `/sso/confirm` to ask before switching"),
        (status = 403, body = crate::error::ErrorBody, description = "`sso_login_expired`: no single sign-on waits in this browser (or its session has ended); `cross_site_request`")))]
pub async fn switch_info(
    State(state): State<AppState>,
    headers: HeaderMap,
    jar: CookieJar,
) -> ApiResult<AppJson<SwitchResponse>> {
    session::caller(&state, &headers)?;
    let (_, next, user) = waiting(&state, &jar).await?;
    let current = match jar
        .get(session::REFRESH_COOKIE)
        .map(|c| c.value().to_string())
    {
        Some(token) if !token.is_empty() => state.sessions.holder(&token).await?,
        _ => None,
    };
    Ok(AppJson(SwitchResponse {
        current_email: current.map(|u| u.email),
        email: user.email,
        next,
    }))
}

#[utoipa::path(post, path = "/api/auth/sso/switch", tag = "auth", operation_id = "sso_switch_continue",
    responses((status = 200, body = SwitchedResponse, description = "Switched: the refresh cookie is the new account's session's; the page goes to `next`"),
        (status = 403, body = crate::error::ErrorBody, description = "`cross_site_request`: only our own pages may switch; `sso_login_expired`: nothing waits")))]
pub async fn switch_continue(
    State(state): State<AppState>,
    headers: HeaderMap,
    jar: CookieJar,
) -> ApiResult<Response> {
    if session::caller(&state, &headers)? != session::Caller::Site {
        return Err(ApiError::cross_site_request());
    }
    let (token, next, user) = waiting(&state, &jar).await?;
    let jar = jar.add(pending_cookie(&state, String::new(), time::Duration::ZERO));
    let jar = session::set_cookie(&state, jar, &token);
    let account = session::account_cookie(&state, Some(user.id));
    Ok((jar, account, AppJson(SwitchedResponse { next })).into_response())
}

#[utoipa::path(delete, path = "/api/auth/sso/switch", tag = "auth", operation_id = "sso_switch_cancel",
    responses((status = 204, description = "Cancelled: the session single sign-on started is ended; this browser stays signed in as it was"),
        (status = 403, body = crate::error::ErrorBody, description = "`cross_site_request`: only our own pages may cancel")))]
pub async fn switch_cancel(
    State(state): State<AppState>,
    headers: HeaderMap,
    jar: CookieJar,
) -> ApiResult<Response> {
    if session::caller(&state, &headers)? != session::Caller::Site {
        return Err(ApiError::cross_site_request());
    }
    if let Some((token, _)) = pending(&jar) {
        match state
            .sessions
            .sign_out(Credential::RefreshCookie(&token), None)
            .await
        {
            Ok(()) | Err(SessionError::NotSignedIn) => {}
            Err(e) => return Err(e.into()),
        }
    }
    let jar = jar.add(pending_cookie(&state, String::new(), time::Duration::ZERO));
    Ok((jar, StatusCode::NO_CONTENT).into_response())
}
