//! Issuing sessions: the access token, the refresh token and its cookie, and the JSON the web and
//! the desktop app read (Supabase-shaped).

use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};
use serde::Serialize;
use time::OffsetDateTime;
use utoipa::ToSchema;
use uuid::Uuid;

use closewise_domain::tokens::{ACCESS_TOKEN_TTL, REFRESH_TOKEN_TTL};

use axum::http::{header, HeaderMap};
use axum::response::{AppendHeaders, IntoResponse, Response};

use crate::error::{ApiError, ApiResult};
use crate::extract::AppJson;
use crate::state::AppState;
use closewise_core::sessions::tokens::{AccessClaims as Claims, ACCESS_AUDIENCE as AUDIENCE};
use closewise_core::sessions::Session;
use closewise_core::store::UserRow;

pub const REFRESH_COOKIE: &str = "cw_refresh";
pub const COOKIE_PATH: &str = "/api/auth";
/// Which account this browser's refresh cookie is of (its id), beside it. The refresh cookie is
/// `SameSite=Strict`, so the single sign-on callback, reached through the provider's redirect,
/// never receives it; this `Lax` one it does, and a browser holding another account's session is
/// asked before SSO replaces it (`auth::sso`). Not a credential: it only decides whether to ask.
pub const ACCOUNT_COOKIE: &str = "cw_account";

#[derive(Serialize, ToSchema, Clone, Debug)]
pub struct UserBody {
    pub id: Uuid,
    pub email: String,
    #[serde(with = "time::serde::rfc3339::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub email_confirmed_at: Option<OffsetDateTime>,
    #[serde(with = "time::serde::rfc3339")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: OffsetDateTime,
}

impl From<&UserRow> for UserBody {
    fn from(u: &UserRow) -> Self {
        UserBody {
            id: u.id,
            email: u.email.clone(),
            email_confirmed_at: u.email_confirmed_at,
            created_at: u.created_at,
        }
    }
}

#[derive(Serialize, ToSchema)]
#[schema(as = UserEnvelope)]
pub struct UserResponse {
    pub user: UserBody,
}

/// A signed-in session.
#[derive(Serialize, ToSchema)]
#[schema(as = SessionBody)]
pub struct SessionResponse {
    pub access_token: String,
    /// Always `bearer`.
    pub token_type: String,
    /// Seconds the access token stays valid.
    pub expires_in: i64,
    /// Unix seconds when the access token expires.
    pub expires_at: i64,
    /// For native clients only (the desktop app: no `Origin`, no `Sec-Fetch-Site`). Browsers keep
    /// it in the httpOnly `cw_refresh` cookie and never see it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refresh_token: Option<String>,
    pub user: UserBody,
}

/// Signs an access token for `user` in session `session_id`.
pub fn access_token(
    state: &AppState,
    user: &UserRow,
    session_id: Uuid,
    now: OffsetDateTime,
) -> ApiResult<(String, i64)> {
    let exp = now + ACCESS_TOKEN_TTL;
    let claims = Claims {
        sub: user.id,
        sid: session_id,
        email: user.email.clone(),
        email_verified: user.email_confirmed_at.is_some(),
        iat: now.unix_timestamp(),
        exp: exp.unix_timestamp(),
        iss: state.keys.issuer().to_string(),
        aud: AUDIENCE.to_string(),
    };
    Ok((state.keys.issue(&claims)?, exp.unix_timestamp()))
}

/// The answer for a session core just started or refreshed: an access token signed for it, and
/// its refresh token.
pub fn session_body(state: &AppState, session: Session) -> ApiResult<SessionResponse> {
    let now = state.clock.now();
    let user = &session.user;
    let (access_token, expires_at) = access_token(state, user, session.session_id, now)?;
    Ok(SessionResponse {
        access_token,
        token_type: "bearer".into(),
        expires_in: ACCESS_TOKEN_TTL.whole_seconds(),
        expires_at,
        refresh_token: Some(session.refresh_token),
        user: user.into(),
    })
}

pub fn set_cookie(state: &AppState, jar: CookieJar, refresh_token: &str) -> CookieJar {
    let cookie = Cookie::build((REFRESH_COOKIE, refresh_token.to_string()))
        .path(COOKIE_PATH)
        .http_only(true)
        .secure(!state.settings.insecure_cookies())
        .same_site(SameSite::Strict)
        .max_age(REFRESH_TOKEN_TTL)
        .build();
    jar.add(cookie)
}

pub fn clear_cookie(state: &AppState, jar: CookieJar) -> CookieJar {
    let cookie = Cookie::build((REFRESH_COOKIE, ""))
        .path(COOKIE_PATH)
        .http_only(true)
        .secure(!state.settings.insecure_cookies())
        .same_site(SameSite::Strict)
        .max_age(time::Duration::ZERO)
        .build();
    jar.add(cookie)
}

/// The `Set-Cookie` of the account cookie, sent after the jar's (the refresh cookie comes first):
/// `Some(user)` beside a new refresh cookie, `None` to clear it with the refresh cookie.
pub type AccountCookie = AppendHeaders<[(header::HeaderName, String); 1]>;

pub fn account_cookie(state: &AppState, user_id: Option<Uuid>) -> AccountCookie {
    let value = user_id.map(|u| u.to_string()).unwrap_or_default();
    let max_age = if user_id.is_some() {
        REFRESH_TOKEN_TTL
    } else {
        time::Duration::ZERO
    };
    let cookie = Cookie::build((ACCOUNT_COOKIE, value))
        .path(COOKIE_PATH)
        .http_only(true)
        .secure(!state.settings.insecure_cookies())
        .same_site(SameSite::Lax)
        .max_age(max_age)
        .build();
    AppendHeaders([(header::SET_COOKIE, cookie.to_string())])
}

/// Who calls a session endpoint, as far as the refresh cookie is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Caller {
    /// One of our own pages (`Origin` is the configured base URL, `Sec-Fetch-Site` is
    /// `same-origin`, whichever of the two the browser sent): the refresh token lives in the
    /// cookie only.
    Site,
    /// A client that is not a browser (sends neither header): tokens in the body, no cookie.
    Native,
}

/// Classifies the request; a browser request from anywhere but our own pages is refused, so a
/// cross-site page can neither sign a visitor in (login CSRF) nor use or clear their cookie.
/// Browsers send `Origin` with every POST: when it is there it decides, and `Sec-Fetch-Site`
/// (same-origin for a rebound or tunnelled name too) only adds a refusal.
pub fn caller(state: &AppState, headers: &HeaderMap) -> ApiResult<Caller> {
    let origin = headers
        .get(header::ORIGIN)
        .map(|o| o.to_str().unwrap_or(""));
    let fetch_site = headers
        .get("sec-fetch-site")
        .map(|v| v.to_str().unwrap_or(""));
    if origin.is_none() && fetch_site.is_none() {
        return Ok(Caller::Native);
    }
    let same_site = origin.is_none_or(|o| same_site_origin(&state.settings.base_url, o))
        && fetch_site.is_none_or(|site| site == "same-origin");
    if same_site {
        Ok(Caller::Site)
    } else {
        Err(ApiError::cross_site_request())
    }
}

/// An `Origin` is ours when it is the configured public URL (`APP_BASE_URL`), and only then. Never
/// the `Host` the request names: a page under a DNS name rebound to this server, or a tunnel to
/// it, sends its own name as both `Host` and `Origin`.
pub fn same_site_origin(base_url: &str, origin: &str) -> bool {
    closewise_domain::limits::same_origin(base_url, origin)
}

/// The session answer for `caller`: our pages get the refresh token as the cookie and not in the
/// body; native clients get it in the body and no cookie.
pub fn respond(
    state: &AppState,
    jar: CookieJar,
    caller: Caller,
    mut body: SessionResponse,
) -> Response {
    match caller {
        Caller::Site => match body.refresh_token.take() {
            Some(token) => {
                let jar = set_cookie(state, jar, &token);
                let account = account_cookie(state, Some(body.user.id));
                (jar, account, AppJson(body)).into_response()
            }
            None => (jar, AppJson(body)).into_response(),
        },
        Caller::Native => AppJson(body).into_response(),
    }
}
