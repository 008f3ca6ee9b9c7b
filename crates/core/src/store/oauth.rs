//! The desktop app's sign-in: authorization codes (browser sign-in), device sign-in requests, and
//! the device sessions they start. Codes are stored as SHA-256 hashes. Spending a code and
//! starting its session is one transaction whose first statement is the conditional UPDATE, so of
//! many concurrent exchanges exactly one starts a session.

use time::OffsetDateTime;
use uuid::Uuid;

use super::mail::{unix_ms, NewMail};
use super::revocations::{notify_revoked, Revoked};
use super::sessions::INSERT_REFRESH;
use super::{dispatch, Store};

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct OauthCodeRow {
    pub id: Uuid,
    pub user_id: Uuid,
    pub client_id: String,
    pub redirect_uri: String,
    pub code_challenge: String,
    pub device_name: Option<String>,
    pub platform: Option<String>,
    pub expires_at: OffsetDateTime,
    /// Allowed by a session single sign-on started.
    pub sso: bool,
}

pub struct NewOauthCode<'a> {
    pub id: Uuid,
    pub code_hash: &'a str,
    pub user_id: Uuid,
    pub client_id: &'a str,
    pub redirect_uri: &'a str,
    pub code_challenge: &'a str,
    pub device_name: Option<&'a str>,
    pub platform: Option<&'a str>,
    pub now: OffsetDateTime,
    pub expires_at: OffsetDateTime,
    /// Allowed by a session single sign-on started.
    pub sso: bool,
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct DeviceCodeRow {
    pub id: Uuid,
    pub user_code: String,
    pub client_id: String,
    pub device_name: String,
    pub platform: String,
    pub status: String,
    pub user_id: Option<Uuid>,
    pub interval_secs: i32,
    pub last_polled_at_ms: Option<i64>,
    pub created_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
    /// The requesting client's address, as text; NULL on requests older than the column.
    pub requested_ip: Option<String>,
    /// Approved by a session single sign-on started.
    pub sso: bool,
}

pub struct NewDeviceCode<'a> {
    pub id: Uuid,
    pub device_code_hash: &'a str,
    pub user_code: &'a str,
    pub client_id: &'a str,
    pub device_name: &'a str,
    pub platform: &'a str,
    pub interval_secs: i32,
    pub now: OffsetDateTime,
    pub expires_at: OffsetDateTime,
    pub requested_ip: Option<&'a str>,
}

/// A device session to start: the session, its first refresh token and the device's name.
pub struct NewDeviceSession<'a> {
    pub id: Uuid,
    pub user_id: Uuid,
    pub refresh_id: Uuid,
    pub refresh_hash: &'a str,
    pub refresh_expires_at: OffsetDateTime,
    pub client_id: &'a str,
    pub device_name: String,
    pub platform: String,
    /// The address the session was started from (the app's exchange or poll).
    pub ip: Option<String>,
    /// The new-sign-in mail, written in the same transaction; its `to` is ignored: the mail goes
    /// to the account's address as stored when the session starts.
    pub notice: Option<NewMail>,
    pub now: OffsetDateTime,
    /// Allowed or approved by a session single sign-on started: the new session is stamped as
    /// SSO's too (`sessions.sso_at`), and Require SSO keeps it.
    pub sso: bool,
}

/// A live device session, for the Devices list.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct DeviceSessionRow {
    pub id: Uuid,
    pub device_name: Option<String>,
    pub platform: Option<String>,
    pub created_at: OffsetDateTime,
    pub last_seen_at: Option<OffsetDateTime>,
    /// When its newest refresh token lapses; `None` when it has none unspent.
    pub refresh_expires_at: Option<OffsetDateTime>,
}

/// What spending an authorization code did.
#[derive(Debug)]
pub enum CodeRedemption {
    /// This call spent the code, and `accept` took it: the session was started.
    Redeemed(OauthCodeRow),
    /// This call spent the code but `accept` refused it (wrong verifier, redirect URI, expired).
    Refused,
    /// The code was spent before: the session it produced, if any.
    Replayed(Option<Uuid>),
    Unknown,
}

const CODE_COLUMNS: &str =
    "id, user_id, client_id, redirect_uri, code_challenge, device_name, platform, expires_at, sso";
const DEVICE_COLUMNS: &str = "id, user_code, client_id, device_name, platform, status, user_id, \
    interval_secs, last_polled_at_ms, created_at, expires_at, requested_ip, sso";
const INSERT_DEVICE_SESSION: &str = "INSERT INTO sessions \
    (id, user_id, created_at, refreshed_at, client_id, device_name, platform, last_seen_at, ip, \
    sso_at) VALUES ($1, $2, $3, $3, $4, $5, $6, $3, $7, $8)";
/// `INSERT_MAIL` addressed to the session's account.
const INSERT_NOTICE: &str = "INSERT INTO mail_outbox \
    (id, to_email, kind, subject, text_body, html_body, link, created_at, attempts, due_at_ms) \
    SELECT $1, u.email, $2, $3, $4, $5, $6, $7, 0, $8 FROM users u WHERE u.id = $9";

/// Inserts the session and its refresh token on `$tx`.
macro_rules! insert_device_session {
    ($tx:expr, $s:expr) => {{
        let s = $s;
        sqlx::query(INSERT_DEVICE_SESSION)
            .bind(s.id)
            .bind(s.user_id)
            .bind(s.now)
            .bind(s.client_id)
            .bind(&s.device_name)
            .bind(&s.platform)
            .bind(&s.ip)
            .bind(s.sso.then_some(s.now))
            .execute(&mut *$tx)
            .await?;
        if let Some(mail) = &s.notice {
            sqlx::query(INSERT_NOTICE)
                .bind(mail.id)
                .bind(mail.kind)
                .bind(&mail.subject)
                .bind(&mail.text_body)
                .bind(&mail.html_body)
                .bind(&mail.link)
                .bind(mail.created_at)
                .bind(unix_ms(mail.created_at))
                .bind(s.user_id)
                .execute(&mut *$tx)
                .await?;
        }
        sqlx::query(INSERT_REFRESH)
            .bind(s.refresh_id)
            .bind(s.id)
            .bind(s.refresh_hash)
            .bind(s.now)
            .bind(s.refresh_expires_at)
            .execute(&mut *$tx)
            .await?;
    }};
}

impl Store {
    #[tracing::instrument(skip_all)]
    pub async fn insert_oauth_code(&self, c: &NewOauthCode<'_>) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| sqlx::query(
            "INSERT INTO oauth_codes (id, code_hash, user_id, client_id, redirect_uri, \
             code_challenge, device_name, platform, created_at, expires_at, sso) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
        )
        .bind(c.id)
        .bind(c.code_hash)
        .bind(c.user_id)
        .bind(c.client_id)
        .bind(c.redirect_uri)
        .bind(c.code_challenge)
        .bind(c.device_name)
        .bind(c.platform)
        .bind(c.now)
        .bind(c.expires_at)
        .bind(c.sso)
        .execute(p)
        .await
        .map(|_| ()))
    }

    /// Spends the code (whatever comes next, it never works again) and, when `accept` takes the
    /// spent row, starts the session `session(row)` in the same transaction and records it on the
    /// code, so a replay always finds the session to revoke.
    #[tracing::instrument(skip_all)]
    pub async fn redeem_oauth_code<'s>(
        &self,
        code_hash: &str,
        now: OffsetDateTime,
        accept: impl FnOnce(&OauthCodeRow) -> bool,
        session: impl FnOnce(&OauthCodeRow) -> NewDeviceSession<'s>,
    ) -> Result<CodeRedemption, sqlx::Error> {
        let spend = format!(
            "UPDATE oauth_codes SET used_at = $2 WHERE code_hash = $1 AND used_at IS NULL \
             RETURNING {CODE_COLUMNS}"
        );
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let row = sqlx::query_as::<_, OauthCodeRow>(&spend)
                .bind(code_hash)
                .bind(now)
                .fetch_optional(&mut *tx)
                .await?;
            let Some(row) = row else {
                let earlier = sqlx::query_as::<_, (Option<Uuid>,)>(
                    "SELECT session_id FROM oauth_codes WHERE code_hash = $1",
                )
                .bind(code_hash)
                .fetch_optional(&mut *tx)
                .await?;
                tx.commit().await?;
                return Ok(match earlier {
                    Some((session_id,)) => CodeRedemption::Replayed(session_id),
                    None => CodeRedemption::Unknown,
                });
            };
            if !accept(&row) {
                tx.commit().await?;
                return Ok(CodeRedemption::Refused);
            }
            let s = session(&row);
            insert_device_session!(tx, &s);
            sqlx::query("UPDATE oauth_codes SET session_id = $2 WHERE id = $1")
                .bind(row.id)
                .bind(s.id)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(CodeRedemption::Redeemed(row))
        })
    }

    #[tracing::instrument(skip_all)]
    pub async fn insert_device_code(&self, d: &NewDeviceCode<'_>) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| sqlx::query(
            "INSERT INTO device_codes (id, device_code_hash, user_code, client_id, device_name, \
             platform, status, interval_secs, created_at, expires_at, requested_ip) \
             VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $8, $9, $10)"
        )
        .bind(d.id)
        .bind(d.device_code_hash)
        .bind(d.user_code)
        .bind(d.client_id)
        .bind(d.device_name)
        .bind(d.platform)
        .bind(d.interval_secs)
        .bind(d.now)
        .bind(d.expires_at)
        .bind(d.requested_ip)
        .execute(p)
        .await
        .map(|_| ()))
    }

    pub async fn device_code_by_user_code(
        &self,
        user_code: &str,
    ) -> Result<Option<DeviceCodeRow>, sqlx::Error> {
        let sql = format!("SELECT {DEVICE_COLUMNS} FROM device_codes WHERE user_code = $1");
        dispatch!(self, |p| sqlx::query_as::<_, DeviceCodeRow>(&sql)
            .bind(user_code)
            .fetch_optional(p)
            .await)
    }

    pub async fn device_code_by_hash(
        &self,
        device_code_hash: &str,
    ) -> Result<Option<DeviceCodeRow>, sqlx::Error> {
        let sql = format!("SELECT {DEVICE_COLUMNS} FROM device_codes WHERE device_code_hash = $1");
        dispatch!(self, |p| sqlx::query_as::<_, DeviceCodeRow>(&sql)
            .bind(device_code_hash)
            .fetch_optional(p)
            .await)
    }

    /// Approves or denies a pending request for `user_id` (deciding on a session SSO started
    /// when `sso`); false when it was no longer pending.
    #[tracing::instrument(skip_all)]
    pub async fn decide_device_code(
        &self,
        id: Uuid,
        approve: bool,
        user_id: Uuid,
        sso: bool,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        let status = if approve { "approved" } else { "denied" };
        dispatch!(self, |p| sqlx::query(
            "UPDATE device_codes SET status = $2, user_id = $3, decided_at = $4, sso = $5 \
             WHERE id = $1 AND status = 'pending'"
        )
        .bind(id)
        .bind(status)
        .bind(user_id)
        .bind(now)
        .bind(sso)
        .execute(p)
        .await
        .map(|r| r.rows_affected() == 1))
    }

    /// Records a poll at `now_ms` and the interval the client must now keep, only if the last
    /// poll and the interval are still the ones the caller read (`read`): of polls racing each
    /// other exactly one records, and the others get false and must read the request again.
    pub async fn record_device_poll(
        &self,
        id: Uuid,
        read: (Option<i64>, i32),
        now_ms: i64,
        interval_secs: i32,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| sqlx::query(
            "UPDATE device_codes SET last_polled_at_ms = $2, interval_secs = $3 \
             WHERE id = $1 AND COALESCE(last_polled_at_ms, -1) = $4 AND interval_secs = $5"
        )
        .bind(id)
        .bind(now_ms)
        .bind(interval_secs)
        .bind(read.0.unwrap_or(-1))
        .bind(read.1)
        .execute(p)
        .await
        .map(|r| r.rows_affected() == 1))
    }

    /// Spends an approved request and starts its session, in one transaction: of concurrent polls
    /// exactly one gets true.
    #[tracing::instrument(skip_all)]
    pub async fn redeem_device_code(
        &self,
        id: Uuid,
        session: &NewDeviceSession<'_>,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let spent = sqlx::query(
                "UPDATE device_codes SET status = 'consumed', session_id = $2 \
                 WHERE id = $1 AND status = 'approved' AND user_id = $3",
            )
            .bind(id)
            .bind(session.id)
            .bind(session.user_id)
            .execute(&mut *tx)
            .await?;
            if spent.rows_affected() != 1 {
                return Ok(false);
            }
            insert_device_session!(tx, session);
            tx.commit().await?;
            Ok(true)
        })
    }

    /// The user's device sessions that are not signed out, newest first (the caller drops those
    /// whose refresh token has lapsed).
    pub async fn device_sessions_of(
        &self,
        user_id: Uuid,
    ) -> Result<Vec<DeviceSessionRow>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_as::<_, DeviceSessionRow>(
            "SELECT s.id, s.device_name, s.platform, s.created_at, s.last_seen_at, \
             (SELECT MAX(r.expires_at) FROM refresh_tokens r \
              WHERE r.session_id = s.id AND r.rotated_at IS NULL) AS refresh_expires_at \
             FROM sessions s WHERE s.user_id = $1 AND s.client_id IS NOT NULL \
             AND s.revoked_at IS NULL ORDER BY s.created_at DESC, s.id DESC"
        )
        .bind(user_id)
        .fetch_all(p)
        .await)
    }

    /// Signs out one of the user's device sessions; false for another user's, a web session, an
    /// ended or an unknown one.
    #[tracing::instrument(skip_all)]
    pub async fn revoke_device_session(
        &self,
        user_id: Uuid,
        session_id: Uuid,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        let ended = dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let ended = sqlx::query(
                "UPDATE sessions SET revoked_at = $3, revoked_reason = 'device_signed_out' \
                 WHERE id = $1 AND user_id = $2 AND client_id IS NOT NULL AND revoked_at IS NULL",
            )
            .bind(session_id)
            .bind(user_id)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected()
                == 1;
            let revoked = Revoked::Session {
                session_id,
                user_id,
            };
            if ended {
                notify_revoked!(self, tx, revoked);
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(ended.then_some(revoked))
        })?;
        if let Some(revoked) = ended {
            self.revoked(revoked);
        }
        Ok(ended.is_some())
    }
}
