//! `/api/auth/*`: sign-up, verification, sign-in (token), refresh, sign-out, recovery.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::Router;
use axum_extra::extract::CookieJar;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use closewise_domain::email::Email;
use closewise_domain::password::Password;
use closewise_domain::tokens::{
    check_email_token, decide_refresh, expires_at, resend_wait_message, EmailTokenKind,
    RefreshDecision, RefreshTokenState, TokenCheck, REFRESH_TOKEN_TTL, RESEND_INTERVAL,
};

use super::session::{self, SessionBody, UserEnvelope, REFRESH_COOKIE};
use super::tokens::{hash_token, random_token, successor_token};
use crate::error::{ApiError, ApiResult};
use crate::extract::{bearer, user_agent, AppJson, AppQuery, AuthUser, ClientIp};
use crate::mail::Template;
use crate::ratelimit::Bucket;
use crate::state::AppState;
use crate::store::sessions::Rotation;
use crate::store::users::{NewEmailToken, NewUser, SignupOutcome};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/auth/signup", post(signup))
        .route("/api/auth/verify", post(verify))
        .route("/api/auth/resend", post(resend))
        .route("/api/auth/token", post(token))
        .route("/api/auth/logout", post(logout))
        .route("/api/auth/user", get(current_user))
        .route("/api/auth/recover", post(recover))
        .route("/api/auth/reset", post(reset))
        .route("/api/auth/password", post(change_password))
        .route("/api/account", delete(delete_account))
        .route("/.well-known/jwks.json", get(jwks))
}

#[derive(Deserialize, ToSchema)]
pub struct Credentials {
    pub email: String,
    pub password: String,
}

#[derive(Serialize, ToSchema)]
pub struct SignupAnswer {
    /// The e-mail as we store it (trimmed, lower case).
    pub email: String,
}

#[derive(Serialize, ToSchema, Default)]
pub struct Empty {}

#[derive(Deserialize, ToSchema)]
pub struct TokenBody {
    pub token: String,
}

#[derive(Deserialize, ToSchema)]
pub struct ResendBody {
    pub email: String,
    /// Only `signup`.
    #[serde(rename = "type")]
    pub kind: String,
}

#[derive(Deserialize, ToSchema)]
pub struct EmailBody {
    pub email: String,
}

#[derive(Deserialize, ToSchema)]
pub struct ResetBody {
    pub token: String,
    pub password: String,
}

#[derive(Deserialize, ToSchema)]
pub struct ChangePasswordBody {
    pub current_password: String,
    pub password: String,
}

#[derive(Deserialize, ToSchema)]
pub struct PasswordBody {
    pub password: String,
}

#[derive(Deserialize, ToSchema, Default)]
pub struct RefreshBody {
    #[serde(default)]
    pub refresh_token: Option<String>,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GrantQuery {
    /// `password` or `refresh_token`.
    pub grant_type: Option<String>,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LogoutQuery {
    /// `local` (default) or `global`.
    pub scope: Option<String>,
}

fn parse_email(raw: &str) -> ApiResult<Email> {
    Email::parse(raw).map_err(|e| ApiError::unprocessable("invalid_email", e.to_string()))
}

fn parse_password(raw: &str) -> ApiResult<Password> {
    Password::parse(raw).map_err(|e| ApiError::unprocessable("weak_password", e.to_string()))
}

fn limit(state: &AppState, bucket: Bucket, key: &str) -> ApiResult<()> {
    let l = &state.settings.limits;
    let (n, window) = match bucket {
        Bucket::MailPerIp => (l.mail_per_ip, l.mail_window),
        Bucket::MailPerEmail => (l.mail_per_email, l.mail_window),
        Bucket::TokenPerIp => (l.token_per_ip, l.token_window),
        Bucket::FailedSignin => (l.failed_signins_per_account, l.failed_signin_window),
        Bucket::Resend | Bucket::Recover => {
            let window = RESEND_INTERVAL
                .try_into()
                .unwrap_or(std::time::Duration::from_secs(60));
            return state
                .limiter
                .hit(bucket, key, 1, window, state.clock.now())
                .map_err(|secs| {
                    ApiError::too_many(
                        "over_email_send_rate_limit",
                        resend_wait_message(secs),
                        secs,
                    )
                });
        }
    };
    state
        .limiter
        .hit(bucket, key, n, window, state.clock.now())
        .map_err(ApiError::rate_limited)
}

/// How long sign-up (after hashing), resend and recover take at least. Their database work differs
/// between known and unknown e-mails (a mail written or not, a failed or a full insert); padding
/// the answer to a floor well above that work makes the two indistinguishable by timing
/// (resilience suite: `enumeration::timing_does_not_tell_known_from_unknown_emails_*`).
pub const EMAIL_WORK_FLOOR: std::time::Duration = std::time::Duration::from_millis(100);

/// Runs `work`, then waits until `EMAIL_WORK_FLOOR` has passed since it started.
async fn padded<T>(work: impl std::future::Future<Output = ApiResult<T>>) -> ApiResult<T> {
    let started = tokio::time::Instant::now();
    let outcome = work.await;
    tokio::time::sleep_until(started + EMAIL_WORK_FLOOR).await;
    outcome
}

fn new_email_token(kind: EmailTokenKind, now: time::OffsetDateTime) -> (String, NewEmailToken) {
    let token = random_token();
    let row = NewEmailToken {
        id: Uuid::now_v7(),
        kind: kind.as_str(),
        token_hash: hash_token(&token),
        expires_at: expires_at(kind, now),
    };
    (token, row)
}

#[utoipa::path(post, path = "/api/auth/signup", tag = "auth", request_body = Credentials,
    responses((status = 200, body = SignupAnswer, description = "Same answer for new and registered e-mails"),
        (status = 422, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
#[tracing::instrument(skip_all)]
pub async fn signup(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppJson(body): AppJson<Credentials>,
) -> ApiResult<AppJson<SignupAnswer>> {
    limit(&state, Bucket::MailPerIp, &ip.to_string())?;
    let email = parse_email(&body.email)?;
    let password = parse_password(&body.password)?;
    limit(&state, Bucket::MailPerEmail, email.as_str())?;
    // Hashed before we know whether the e-mail is taken, so both answers take as long.
    let hash = state.hasher.hash(password.expose()).await?;
    let now = state.clock.now();
    let (token, token_row) = new_email_token(EmailTokenKind::Verification, now);
    let link = state.mail.link("/verify", &token);
    let mail = state
        .mail
        .compose(email.as_str(), Template::Verification { link }, now);
    let user = NewUser {
        id: Uuid::now_v7(),
        email: email.as_str().to_string(),
        password_hash: hash,
        now,
    };
    padded(async {
        let outcome = state
            .store
            .create_user(&user, Uuid::now_v7(), &token_row, &mail)
            .await?;
        if outcome == SignupOutcome::AlreadyRegistered {
            notify_existing(&state, &email).await?;
        }
        Ok(())
    })
    .await?;
    Ok(AppJson(SignupAnswer {
        email: email.as_str().to_string(),
    }))
}

/// Someone signed up with a registered e-mail: its owner gets the verification again (if still
/// unconfirmed) or a notice — at most one a minute, so repeated sign-ups cannot flood an inbox.
async fn notify_existing(state: &AppState, email: &Email) -> ApiResult<()> {
    let Some(user) = state.store.user_by_email(email.as_str()).await? else {
        return Ok(());
    };
    if user.email_confirmed_at.is_none() {
        send_link(
            state,
            user.id,
            email.as_str(),
            EmailTokenKind::Verification,
            RESEND_INTERVAL,
        )
        .await?;
    } else {
        let mail = state.mail.compose(
            email.as_str(),
            Template::AlreadyRegistered,
            state.clock.now(),
        );
        state
            .store
            .mail_user_throttled(user.id, None, &mail, RESEND_INTERVAL)
            .await?;
    }
    Ok(())
}

/// Mails the user a fresh single-use link of `kind` (verification or reset), unless a mail of that
/// kind went to the address less than `min_interval` ago.
async fn send_link(
    state: &AppState,
    user_id: Uuid,
    email: &str,
    kind: EmailTokenKind,
    min_interval: time::Duration,
) -> ApiResult<()> {
    let now = state.clock.now();
    let (token, token_row) = new_email_token(kind, now);
    let template = match kind {
        EmailTokenKind::Verification => Template::Verification {
            link: state.mail.link("/verify", &token),
        },
        EmailTokenKind::Reset => Template::Reset {
            link: state.mail.link("/reset-password", &token),
        },
    };
    let mail = state.mail.compose(email, template, now);
    state
        .store
        .mail_user_throttled(user_id, Some(&token_row), &mail, min_interval)
        .await?;
    Ok(())
}

/// The errors of an e-mail link ("verification" or "reset"), worded for the page that shows them.
#[derive(Clone, Copy)]
struct LinkErrors(&'static str);

impl LinkErrors {
    fn invalid(self) -> ApiError {
        ApiError::bad_request("token_invalid", format!("This {} link is invalid.", self.0))
    }
    fn used(self) -> ApiError {
        ApiError::bad_request(
            "token_used",
            format!("This {} link has already been used.", self.0),
        )
    }
    fn expired(self) -> ApiError {
        ApiError::bad_request(
            "token_expired",
            format!("This {} link has expired. Request a new one.", self.0),
        )
    }
}

/// The stored row of an e-mail link's token, if it is known, unused and unexpired.
async fn live_email_token(
    state: &AppState,
    kind: EmailTokenKind,
    token: &str,
    link: LinkErrors,
) -> ApiResult<crate::store::EmailTokenRow> {
    let row = state
        .store
        .email_token_by_hash(kind.as_str(), &hash_token(token.trim()))
        .await?
        .ok_or_else(|| link.invalid())?;
    match check_email_token(row.expires_at, row.used_at, state.clock.now()) {
        TokenCheck::Used => Err(link.used()),
        TokenCheck::Expired => Err(link.expired()),
        TokenCheck::Valid => Ok(row),
    }
}

#[utoipa::path(post, path = "/api/auth/verify", tag = "auth", request_body = TokenBody,
    responses((status = 200, body = UserEnvelope), (status = 400, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
#[tracing::instrument(skip_all)]
pub async fn verify(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppJson(body): AppJson<TokenBody>,
) -> ApiResult<AppJson<UserEnvelope>> {
    limit(&state, Bucket::MailPerIp, &ip.to_string())?;
    let link = LinkErrors("verification");
    let row = live_email_token(&state, EmailTokenKind::Verification, &body.token, link).await?;
    let now = state.clock.now();
    let (invalid, used) = (|| link.invalid(), || link.used());
    if !state
        .store
        .consume_verification_token(row.id, row.user_id, now)
        .await?
    {
        return Err(used());
    }
    let user = state
        .store
        .user_by_id(row.user_id)
        .await?
        .ok_or_else(invalid)?;
    Ok(AppJson(UserEnvelope {
        user: (&user).into(),
    }))
}

#[utoipa::path(post, path = "/api/auth/resend", tag = "auth", request_body = ResendBody,
    responses((status = 200, body = Empty, description = "Same answer for known and unknown e-mails"),
        (status = 422, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
#[tracing::instrument(skip_all)]
pub async fn resend(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppJson(body): AppJson<ResendBody>,
) -> ApiResult<AppJson<Empty>> {
    limit(&state, Bucket::MailPerIp, &ip.to_string())?;
    if body.kind != "signup" {
        return Err(ApiError::unprocessable(
            "invalid_type",
            "type must be \"signup\"",
        ));
    }
    let email = parse_email(&body.email)?;
    limit(&state, Bucket::Resend, email.as_str())?;
    padded(async {
        if let Some(user) = state.store.user_by_email(email.as_str()).await? {
            if user.email_confirmed_at.is_none() {
                let kind = EmailTokenKind::Verification;
                send_link(&state, user.id, email.as_str(), kind, time::Duration::ZERO).await?;
            }
        }
        Ok(())
    })
    .await?;
    Ok(AppJson(Empty {}))
}

#[utoipa::path(post, path = "/api/auth/token", tag = "auth", params(GrantQuery),
    request_body(content = Credentials, description = "`{email, password}` for the password grant; `{refresh_token}` (or the cookie) for the refresh grant"),
    responses((status = 200, body = SessionBody), (status = 400, body = crate::error::ErrorBody),
        (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
#[tracing::instrument(skip_all)]
pub async fn token(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppQuery(query): AppQuery<GrantQuery>,
    headers: HeaderMap,
    jar: CookieJar,
    body: Bytes,
) -> ApiResult<Response> {
    limit(&state, Bucket::TokenPerIp, &ip.to_string())?;
    match query.grant_type.as_deref() {
        Some("password") => {
            let creds: Credentials = json_body(&body)?;
            password_grant(&state, &ip.to_string(), &headers, jar, creds).await
        }
        Some("refresh_token") => {
            let body: RefreshBody = if body.iter().all(u8::is_ascii_whitespace) {
                RefreshBody::default()
            } else {
                json_body(&body)?
            };
            refresh_grant(&state, &headers, jar, body).await
        }
        _ => Err(ApiError::bad_request(
            "invalid_grant_type",
            "grant_type must be password or refresh_token",
        )),
    }
}

fn json_body<T: serde::de::DeserializeOwned>(body: &Bytes) -> ApiResult<T> {
    serde_json::from_slice(body)
        .map_err(|e| ApiError::bad_request("invalid_json", format!("Invalid request: {e}")))
}

fn invalid_credentials() -> ApiError {
    ApiError::bad_request("invalid_credentials", "Invalid login credentials")
}

async fn password_grant(
    state: &AppState,
    ip: &str,
    headers: &HeaderMap,
    jar: CookieJar,
    creds: Credentials,
) -> ApiResult<Response> {
    // A malformed e-mail is just another unknown account: same answer, same work.
    let email = Email::parse(&creds.email).ok();
    let key = email
        .as_ref()
        .map(|e| e.as_str().to_string())
        .unwrap_or_else(|| creds.email.trim().to_lowercase());
    // Spent before verifying, so concurrent guesses cannot overrun the budget; refunded on success.
    limit(state, Bucket::FailedSignin, &key)?;
    let user = match &email {
        Some(e) => state.store.user_by_email(e.as_str()).await?,
        None => None,
    };
    let ok = state
        .hasher
        .verify(
            &creds.password,
            user.as_ref().map(|u| u.password_hash.as_str()),
        )
        .await?;
    let user = match (ok, user) {
        (true, Some(user)) => user,
        _ => return Err(invalid_credentials()),
    };
    state.limiter.refund(Bucket::FailedSignin, &key);
    if user.email_confirmed_at.is_none() && !state.settings.allow_unverified_signin {
        return Err(ApiError::bad_request(
            "email_not_confirmed",
            "Email not confirmed",
        ));
    }
    let ua = user_agent(headers);
    let body = session::start(state, &user, ua.as_deref(), Some(ip)).await?;
    let jar = session::set_cookie(state, jar, &body.refresh_token);
    Ok((jar, AppJson(body)).into_response())
}

/// An `Origin` is ours when it is the configured public URL, or the very host this request was
/// sent to (the site opened as 127.0.0.1 rather than localhost): a page of another site cannot
/// send its request with our Host and its own Origin.
fn same_site_origin(base_url: &str, headers: &HeaderMap, origin: &str) -> bool {
    if closewise_domain::limits::same_origin(base_url, origin) {
        return true;
    }
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    match (host, url::Url::parse(origin)) {
        (Some(host), Ok(o)) => {
            let origin_host = match o.port() {
                Some(port) => format!("{}:{port}", o.host_str().unwrap_or_default()),
                None => o.host_str().unwrap_or_default().to_string(),
            };
            matches!(o.scheme(), "http" | "https") && origin_host.eq_ignore_ascii_case(host)
        }
        _ => false,
    }
}

fn session_ended(state: &AppState, jar: CookieJar, code: &'static str) -> Response {
    let jar = session::clear_cookie(state, jar);
    (
        jar,
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            code,
            "Your session has ended. Please sign in again.",
        ),
    )
        .into_response()
}

async fn refresh_grant(
    state: &AppState,
    headers: &HeaderMap,
    jar: CookieJar,
    body: RefreshBody,
) -> ApiResult<Response> {
    let from_body = body.refresh_token.filter(|t| !t.trim().is_empty());
    let presented = match from_body {
        Some(t) => t,
        None => {
            // The cookie rides along automatically, so a cookie-only call must come from our own pages.
            if let Some(origin) = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) {
                if !same_site_origin(&state.settings.base_url, headers, origin) {
                    return Err(ApiError::new(
                        StatusCode::FORBIDDEN,
                        "cross_site",
                        "Cross-site requests cannot use the session cookie",
                    ));
                }
            }
            match jar
                .get(REFRESH_COOKIE)
                .map(|c| c.value().to_string())
                .filter(|v| !v.is_empty())
            {
                Some(t) => t,
                None => {
                    return Err(ApiError::new(
                        StatusCode::UNAUTHORIZED,
                        "no_session",
                        "Please sign in to continue",
                    ))
                }
            }
        }
    };
    let Some(row) = state
        .store
        .refresh_token_by_hash(&hash_token(&presented))
        .await?
    else {
        return Ok(session_ended(state, jar, "invalid_refresh_token"));
    };
    let now = state.clock.now();
    let decision = decide_refresh(
        &RefreshTokenState {
            expires_at: row.expires_at,
            revoked: row.session_revoked_at.is_some(),
            rotated_at: row.rotated_at,
        },
        now,
    );
    let successor = successor_token(state.keys.refresh_key(), &presented);
    match decision {
        RefreshDecision::Rotate => {
            let rotation = state
                .store
                .rotate_refresh_token(
                    row.id,
                    row.session_id,
                    Uuid::now_v7(),
                    &hash_token(&successor),
                    now + REFRESH_TOKEN_TTL,
                    now,
                )
                .await?;
            // Losing the race means another request rotated it a moment ago: the grace case.
            debug_assert!(matches!(
                rotation,
                Rotation::Rotated | Rotation::AlreadySpent
            ));
        }
        RefreshDecision::GraceReplay => {}
        RefreshDecision::ReuseDetected => {
            tracing::warn!(session_id = %row.session_id, "refresh token reused: revoking the session");
            state
                .store
                .revoke_session(row.session_id, "refresh_token_reused", now)
                .await?;
            return Ok(session_ended(state, jar, "refresh_token_reused"));
        }
        RefreshDecision::Expired | RefreshDecision::Revoked => {
            return Ok(session_ended(state, jar, "invalid_refresh_token"))
        }
    }
    let Some(user) = state.store.user_by_id(row.user_id).await? else {
        return Ok(session_ended(state, jar, "invalid_refresh_token"));
    };
    let body = session::session_body(state, &user, row.session_id, successor, now)?;
    let jar = session::set_cookie(state, jar, &body.refresh_token);
    Ok((jar, AppJson(body)).into_response())
}

#[utoipa::path(post, path = "/api/auth/logout", tag = "auth", params(LogoutQuery),
    responses((status = 204, description = "Signed out; the cookie is cleared"), (status = 400, body = crate::error::ErrorBody, description = "scope is neither local nor global"), (status = 401, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all)]
pub async fn logout(
    State(state): State<AppState>,
    AppQuery(query): AppQuery<LogoutQuery>,
    headers: HeaderMap,
    jar: CookieJar,
) -> ApiResult<Response> {
    let now = state.clock.now();
    // With an access token, sign out its session; with only the cookie (an expired access token),
    // sign out the cookie's session.
    let session = match bearer(&headers) {
        Some(Ok(token)) => state.keys.verify(token, now).map(|c| (c.sid, c.sub)),
        _ => None,
    };
    let session = match session {
        Some(s) => Some(s),
        None => match jar.get(REFRESH_COOKIE).map(|c| c.value().to_string()) {
            Some(t) if !t.is_empty() => state
                .store
                .refresh_token_by_hash(&hash_token(&t))
                .await?
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
    let jar = session::clear_cookie(&state, jar);
    Ok((StatusCode::NO_CONTENT, jar).into_response())
}

#[utoipa::path(get, path = "/api/auth/user", tag = "auth",
    responses((status = 200, body = UserEnvelope), (status = 401, body = crate::error::ErrorBody)), security(("bearer" = [])))]
pub async fn current_user(
    State(state): State<AppState>,
    auth: AuthUser,
) -> ApiResult<AppJson<UserEnvelope>> {
    let user = state
        .store
        .user_by_id(auth.user_id)
        .await?
        .ok_or_else(ApiError::invalid_token)?;
    Ok(AppJson(UserEnvelope {
        user: (&user).into(),
    }))
}

#[utoipa::path(post, path = "/api/auth/recover", tag = "auth", request_body = EmailBody,
    responses((status = 200, body = Empty, description = "Same answer for known and unknown e-mails"),
        (status = 422, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
#[tracing::instrument(skip_all)]
pub async fn recover(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppJson(body): AppJson<EmailBody>,
) -> ApiResult<AppJson<Empty>> {
    limit(&state, Bucket::MailPerIp, &ip.to_string())?;
    let email = parse_email(&body.email)?;
    limit(&state, Bucket::Recover, email.as_str())?;
    padded(async {
        if let Some(user) = state.store.user_by_email(email.as_str()).await? {
            let kind = EmailTokenKind::Reset;
            send_link(&state, user.id, email.as_str(), kind, time::Duration::ZERO).await?;
        }
        Ok(())
    })
    .await?;
    Ok(AppJson(Empty {}))
}

#[utoipa::path(post, path = "/api/auth/reset", tag = "auth", request_body = ResetBody,
    responses((status = 200, body = Empty), (status = 400, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
#[tracing::instrument(skip_all)]
pub async fn reset(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    AppJson(body): AppJson<ResetBody>,
) -> ApiResult<AppJson<Empty>> {
    limit(&state, Bucket::MailPerIp, &ip.to_string())?;
    let password = parse_password(&body.password)?;
    let link = LinkErrors("reset");
    let row = live_email_token(&state, EmailTokenKind::Reset, &body.token, link).await?;
    let now = state.clock.now();
    let (invalid, used) = (|| link.invalid(), || link.used());
    let user = state
        .store
        .user_by_id(row.user_id)
        .await?
        .ok_or_else(invalid)?;
    let hash = state.hasher.hash(password.expose()).await?;
    if !state.store.consume_token(row.id, now).await? {
        return Err(used());
    }
    let mail = state
        .mail
        .compose(&user.email, Template::PasswordChanged, now);
    state
        .store
        .change_password(user.id, &hash, None, true, &mail, now)
        .await?;
    Ok(AppJson(Empty {}))
}

/// The signed-in caller proves it knows the password again before a sensitive change. Attempts
/// count against the account's failed sign-in budget, like sign-in itself.
async fn reconfirm_password(
    state: &AppState,
    auth: &AuthUser,
    password: &str,
    wrong: &'static str,
) -> ApiResult<crate::store::UserRow> {
    let user = state
        .store
        .user_by_id(auth.user_id)
        .await?
        .ok_or_else(ApiError::invalid_token)?;
    limit(state, Bucket::FailedSignin, &user.email)?;
    if !state
        .hasher
        .verify(password, Some(&user.password_hash))
        .await?
    {
        return Err(ApiError::bad_request("invalid_credentials", wrong));
    }
    state.limiter.refund(Bucket::FailedSignin, &user.email);
    Ok(user)
}

#[utoipa::path(post, path = "/api/auth/password", tag = "auth", request_body = ChangePasswordBody,
    responses((status = 200, body = Empty), (status = 400, body = crate::error::ErrorBody), (status = 401, body = crate::error::ErrorBody),
        (status = 422, body = crate::error::ErrorBody)), security(("bearer" = [])))]
#[tracing::instrument(skip_all)]
pub async fn change_password(
    State(state): State<AppState>,
    auth: AuthUser,
    AppJson(body): AppJson<ChangePasswordBody>,
) -> ApiResult<AppJson<Empty>> {
    let password = parse_password(&body.password)?;
    let user = reconfirm_password(
        &state,
        &auth,
        &body.current_password,
        "Current password is incorrect",
    )
    .await?;
    let hash = state.hasher.hash(password.expose()).await?;
    let now = state.clock.now();
    let mail = state
        .mail
        .compose(&user.email, Template::PasswordChanged, now);
    state
        .store
        .change_password(user.id, &hash, Some(auth.session_id), false, &mail, now)
        .await?;
    Ok(AppJson(Empty {}))
}

#[utoipa::path(delete, path = "/api/account", tag = "auth", request_body = PasswordBody,
    responses((status = 204, description = "Account deleted"), (status = 400, body = crate::error::ErrorBody), (status = 401, body = crate::error::ErrorBody)),
    security(("bearer" = [])))]
#[tracing::instrument(skip_all)]
pub async fn delete_account(
    State(state): State<AppState>,
    auth: AuthUser,
    jar: CookieJar,
    AppJson(body): AppJson<PasswordBody>,
) -> ApiResult<Response> {
    let user = reconfirm_password(&state, &auth, &body.password, "Password is incorrect").await?;
    // Held until the account is gone: a webhook about this user waits, then finds no user.
    let _billing = crate::billing::cancel_before_deletion(&state, user.id).await?;
    state.store.delete_user(user.id).await?;
    tracing::info!(user_id = %user.id, "account deleted");
    let jar = session::clear_cookie(&state, jar);
    Ok((StatusCode::NO_CONTENT, jar).into_response())
}

#[utoipa::path(get, path = "/.well-known/jwks.json", tag = "auth", responses((status = 200, description = "The public keys of access tokens (JWKS)")))]
pub async fn jwks(State(state): State<AppState>) -> impl IntoResponse {
    (
        [(header::CACHE_CONTROL, "public, max-age=300")],
        axum::Json(state.keys.jwks()),
    )
}
