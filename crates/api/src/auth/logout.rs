//! `POST /api/auth/logout`: ends this session, or every session with `scope=global`.

use super::opaque_tokens::hash_token;
use super::session::{self, Caller, REFRESH_COOKIE};
use crate::error::{ApiError, ApiResult};
use crate::extract::{bearer, AppQuery};
use crate::state::AppState;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum_extra::extract::CookieJar;
use serde::Deserialize;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LogoutQuery {
    /// `local` (default) or `global`.
    pub scope: Option<String>,
}

#[utoipa::path(post, path = "/api/auth/logout", tag = "auth", params(LogoutQuery),
    responses((status = 204, description = "Signed out; the cookie is cleared"), (status = 400, body = crate::error::ErrorBody, description = "scope is neither local nor global"), (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody, description = "`cross_site_request`")),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all)]
pub async fn logout(
    State(state): State<AppState>,
    AppQuery(query): AppQuery<LogoutQuery>,
    headers: HeaderMap,
    jar: CookieJar,
) -> ApiResult<Response> {
    // Clearing the cookie is the cookie's business: our own pages, or a client without one.
    let caller = session::caller(&state, &headers)?;
    let now = state.clock.now();
    // With an access token of an active session, sign out that session; with only the cookie (an
    // expired access token), the cookie's session — but only for a live refresh token (unspent,
    // unexpired). A dead credential signs nothing out.
    let from_bearer = match bearer(&headers) {
        Some(Ok(token)) => state.keys.verify(token, now).map(|c| (c.sid, c.sub)),
        _ => None,
    };
    let session = match from_bearer {
        Some((sid, uid)) => state
            .store
            .session_is_active(sid, uid)
            .await?
            .then_some((sid, uid)),
        None => match (
            caller,
            jar.get(REFRESH_COOKIE).map(|c| c.value().to_string()),
        ) {
            (Caller::Site, Some(t)) if !t.is_empty() => state
                .store
                .refresh_token_by_hash(&hash_token(&t))
                .await?
                .filter(|r| r.is_live(now))
                .map(|r| (r.session_id, r.user_id)),
            _ => None,
        },
    };
    let Some((session_id, user_id)) = session else {
        return Err(ApiError::not_signed_in());
    };
    // Who is asking comes first: without a session the answer is 401, whatever the scope.
    let global = match query.scope.as_deref() {
        None | Some("local") => false,
        Some("global") => true,
        Some(_) => {
            return Err(ApiError::bad_request(
                "invalid_scope",
                "scope must be local or global",
            ))
        }
    };
    if global {
        state
            .store
            .revoke_all_sessions(user_id, "signed_out_everywhere", now)
            .await?;
    } else {
        state
            .store
            .revoke_session(session_id, "signed_out", now)
            .await?;
    }
    match caller {
        Caller::Site => {
            let jar = session::clear_cookie(&state, jar);
            Ok((StatusCode::NO_CONTENT, jar).into_response())
        }
        Caller::Native => Ok(StatusCode::NO_CONTENT.into_response()),
    }
}
