//! Issuing sessions: the access token, the refresh token and its cookie, and the JSON the web and
//! the desktop app read (Supabase-shaped).

use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};
use serde::Serialize;
use time::OffsetDateTime;
use utoipa::ToSchema;
use uuid::Uuid;

use closewise_domain::tokens::{ACCESS_TOKEN_TTL, REFRESH_TOKEN_TTL};

use super::tokens::{hash_token, random_token};
use crate::error::ApiResult;
use crate::jwt::{Claims, AUDIENCE};
use crate::state::AppState;
use closewise_core::store::sessions::NewSession;
use closewise_core::store::UserRow;

pub const REFRESH_COOKIE: &str = "cw_refresh";
pub const COOKIE_PATH: &str = "/api/auth";

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
pub struct UserEnvelope {
    pub user: UserBody,
}

/// A signed-in session.
#[derive(Serialize, ToSchema)]
pub struct SessionBody {
    pub access_token: String,
    /// Always `bearer`.
    pub token_type: String,
    /// Seconds the access token stays valid.
    pub expires_in: i64,
    /// Unix seconds when the access token expires.
    pub expires_at: i64,
    pub refresh_token: String,
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

pub fn session_body(
    state: &AppState,
    user: &UserRow,
    session_id: Uuid,
    refresh_token: String,
    now: OffsetDateTime,
) -> ApiResult<SessionBody> {
    let (access_token, expires_at) = access_token(state, user, session_id, now)?;
    Ok(SessionBody {
        access_token,
        token_type: "bearer".into(),
        expires_in: ACCESS_TOKEN_TTL.whole_seconds(),
        expires_at,
        refresh_token,
        user: user.into(),
    })
}

/// Starts a new session for `user`.
pub async fn start(
    state: &AppState,
    user: &UserRow,
    user_agent: Option<&str>,
    ip: Option<&str>,
) -> ApiResult<SessionBody> {
    let now = state.clock.now();
    let refresh = random_token();
    let session_id = Uuid::now_v7();
    state
        .store
        .create_session(&NewSession {
            id: session_id,
            user_id: user.id,
            refresh_id: Uuid::now_v7(),
            refresh_hash: &hash_token(&refresh),
            refresh_expires_at: now + REFRESH_TOKEN_TTL,
            user_agent,
            ip,
            now,
        })
        .await?;
    session_body(state, user, session_id, refresh, now)
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
