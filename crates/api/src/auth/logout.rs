//! `POST /api/auth/logout`: ends this session, or every session with `scope=global`.

use super::session::{self, Caller, REFRESH_COOKIE};
use crate::error::ApiResult;
use crate::extract::{bearer, AppQuery};
use crate::state::AppState;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum_extra::extract::CookieJar;
use closewise_core::sessions::Credential;
use serde::Deserialize;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LogoutQuery {
    #[param(schema_with = crate::schemas::sign_out_scope)]
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
    // With an access token (its session may have ended since), that session; without a valid
    // one, the cookie's session, for our own pages only.
    let from_bearer = match bearer(&headers) {
        Some(Ok(token)) => state.keys.verify(token, state.clock.now()),
        _ => None,
    };
    let cookie = jar.get(REFRESH_COOKIE).map(|c| c.value().to_string());
    let credential = match (from_bearer, caller, cookie.as_deref()) {
        (Some(claims), _, _) => Credential::Access {
            session_id: claims.sid,
            user_id: claims.sub,
        },
        (None, Caller::Site, Some(token)) if !token.is_empty() => Credential::RefreshCookie(token),
        _ => Credential::None,
    };
    state
        .sessions
        .sign_out(credential, query.scope.as_deref())
        .await?;
    match caller {
        Caller::Site => {
            let jar = session::clear_cookie(&state, jar);
            let account = session::account_cookie(&state, None);
            Ok((StatusCode::NO_CONTENT, jar, account).into_response())
        }
        Caller::Native => Ok(StatusCode::NO_CONTENT.into_response()),
    }
}
