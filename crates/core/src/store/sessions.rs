//! Sessions and their rotating refresh tokens (stored as SHA-256 hashes).

use time::OffsetDateTime;
use uuid::Uuid;

use super::revocations::{notify_revoked, Revoked};
use super::{dispatch, Store};

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct SessionRow {
    pub id: Uuid,
    pub user_id: Uuid,
    pub created_at: OffsetDateTime,
    pub refreshed_at: OffsetDateTime,
    pub revoked_at: Option<OffsetDateTime>,
    pub revoked_reason: Option<String>,
    pub user_agent: Option<String>,
    pub ip: Option<String>,
}

/// A refresh token with its session, as the refresh grant needs them.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct RefreshRow {
    pub id: Uuid,
    pub session_id: Uuid,
    pub user_id: Uuid,
    pub expires_at: OffsetDateTime,
    pub rotated_at: Option<OffsetDateTime>,
    pub session_revoked_at: Option<OffsetDateTime>,
    pub session_created_at: OffsetDateTime,
    /// When single sign-on started the session; `None` for every other sign-in.
    pub session_sso_at: Option<OffsetDateTime>,
}

impl RefreshRow {
    /// Unspent, unexpired, of a session still active: the only token that may sign out.
    pub fn is_live(&self, now: OffsetDateTime) -> bool {
        self.rotated_at.is_none() && self.session_revoked_at.is_none() && now < self.expires_at
    }
}

pub struct NewSession<'a> {
    pub id: Uuid,
    pub user_id: Uuid,
    pub refresh_id: Uuid,
    pub refresh_hash: &'a str,
    pub refresh_expires_at: OffsetDateTime,
    pub user_agent: Option<&'a str>,
    pub ip: Option<&'a str>,
    /// The session starts with its password entered now (a password sign-in): its re-authentication
    /// window (`closewise_domain::reauth`) opens at `now`.
    pub password_entered: bool,
    pub now: OffsetDateTime,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Rotation {
    /// This request spent the token and wrote its successor.
    Rotated,
    /// Another request spent it first.
    AlreadySpent,
}

/// Ends every live session of a user: binds user id, now, reason.
pub(crate) const REVOKE_ALL_SESSIONS: &str = "UPDATE sessions SET revoked_at = $2, \
    revoked_reason = $3 WHERE user_id = $1 AND revoked_at IS NULL";

/// The session's insert ($1–$6), shared by both forms of `create_session`.
macro_rules! insert_session {
    () => {
        "INSERT INTO sessions (id, user_id, created_at, refreshed_at, user_agent, ip, password_at) \
         VALUES ($1, $2, $3, $3, $4, $5, $6)"
    };
}

const INSERT_SESSION: &str = insert_session!();

macro_rules! refresh_columns {
    () => {
        "INSERT INTO refresh_tokens (id, session_id, token_hash, created_at, expires_at) "
    };
}

/// `create_session` on PostgreSQL: the session ($1–$6) and its refresh token ($7–$9) in one
/// statement.
const CREATE_SESSION_PG: &str = concat!(
    "WITH s AS (",
    insert_session!(),
    " RETURNING id) ",
    refresh_columns!(),
    "SELECT $7, s.id, $8, $3, $9 FROM s"
);

/// A refresh token: id, session, token hash, created at, expires at.
pub(crate) const INSERT_REFRESH: &str = concat!(refresh_columns!(), "VALUES ($1, $2, $3, $4, $5)");

/// Binds a new session's $1–$6 (`insert_session!`).
macro_rules! bind_session {
    ($query:expr, $s:expr) => {{
        let s = $s;
        $query
            .bind(s.id)
            .bind(s.user_id)
            .bind(s.now)
            .bind(s.user_agent)
            .bind(s.ip)
            .bind(s.password_entered.then_some(s.now))
    }};
}

impl Store {
    /// Writes the session and its first refresh token, atomically. On PostgreSQL in one statement
    /// (the refresh token's insert reads the session's from a `WITH`): a sign-in's round trips to
    /// the database are its cost on a machine that shares its cores with the database;
    /// SQLite, which has no inserts inside `WITH`, in one transaction.
    pub async fn create_session(&self, s: &NewSession<'_>) -> Result<(), sqlx::Error> {
        match &self.pool {
            super::Pool::Postgres(p) => bind_session!(sqlx::query(CREATE_SESSION_PG), s)
                .bind(s.refresh_id)
                .bind(s.refresh_hash)
                .bind(s.refresh_expires_at)
                .execute(p)
                .await
                .map(|_| ()),
            super::Pool::Sqlite(p) => {
                let mut tx = crate::store::begin::begin(p).await?;
                bind_session!(sqlx::query(INSERT_SESSION), s)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query(INSERT_REFRESH)
                    .bind(s.refresh_id)
                    .bind(s.id)
                    .bind(s.refresh_hash)
                    .bind(s.now)
                    .bind(s.refresh_expires_at)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await
            }
        }
    }

    pub async fn refresh_token_by_hash(
        &self,
        hash: &str,
    ) -> Result<Option<RefreshRow>, sqlx::Error> {
        dispatch!(self, |p| {
            sqlx::query_as::<_, RefreshRow>(
            "SELECT r.id, r.session_id, s.user_id, r.expires_at, r.rotated_at, s.revoked_at AS session_revoked_at, s.created_at AS session_created_at, s.sso_at AS session_sso_at \
             FROM refresh_tokens r JOIN sessions s ON s.id = r.session_id WHERE r.token_hash = $1"
        )
        .bind(hash)
        .fetch_optional(p)
        .await
        })
    }

    /// Spends `token_id` and writes its successor, atomically: of many concurrent callers exactly
    /// one gets `Rotated`.
    pub async fn rotate_refresh_token(
        &self,
        token_id: Uuid,
        session_id: Uuid,
        child_id: Uuid,
        child_hash: &str,
        child_expires_at: OffsetDateTime,
        now: OffsetDateTime,
    ) -> Result<Rotation, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let spent = sqlx::query(
                "UPDATE refresh_tokens SET rotated_at = $2 WHERE id = $1 AND rotated_at IS NULL",
            )
            .bind(token_id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            if spent.rows_affected() != 1 {
                return Ok(Rotation::AlreadySpent);
            }
            sqlx::query(INSERT_REFRESH)
                .bind(child_id)
                .bind(session_id)
                .bind(child_hash)
                .bind(now)
                .bind(child_expires_at)
                .execute(&mut *tx)
                .await?;
            sqlx::query("UPDATE sessions SET refreshed_at = $2 WHERE id = $1")
                .bind(session_id)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            Ok(Rotation::Rotated)
        })
    }

    /// Ends one session (told to the token cache: `revocations`); false when it had ended.
    pub async fn revoke_session(
        &self,
        session_id: Uuid,
        reason: &str,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        let user_id: Option<Uuid> = dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let user_id: Option<Uuid> = sqlx::query_scalar(
                "UPDATE sessions SET revoked_at = $2, revoked_reason = $3 \
                 WHERE id = $1 AND revoked_at IS NULL RETURNING user_id",
            )
            .bind(session_id)
            .bind(now)
            .bind(reason)
            .fetch_optional(&mut *tx)
            .await?;
            if let Some(user_id) = user_id {
                notify_revoked!(
                    self,
                    tx,
                    Revoked::Session {
                        session_id,
                        user_id
                    }
                );
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(user_id)
        })?;
        if let Some(user_id) = user_id {
            self.revoked(Revoked::Session {
                session_id,
                user_id,
            });
        }
        Ok(user_id.is_some())
    }

    /// Ends every session of the user; returns how many were active.
    pub async fn revoke_all_sessions(
        &self,
        user_id: Uuid,
        reason: &str,
        now: OffsetDateTime,
    ) -> Result<u64, sqlx::Error> {
        let n = dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let n = sqlx::query(REVOKE_ALL_SESSIONS)
                .bind(user_id)
                .bind(now)
                .bind(reason)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            if n > 0 {
                notify_revoked!(self, tx, Revoked::User(user_id));
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(n)
        })?;
        if n > 0 {
            self.revoked(Revoked::User(user_id));
        }
        Ok(n)
    }

    /// True when the session exists, belongs to the user and has not been revoked.
    pub async fn session_is_active(
        &self,
        session_id: Uuid,
        user_id: Uuid,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_as::<_, (i64,)>(
            "SELECT COUNT(*) FROM sessions WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL"
        )
        .bind(session_id)
        .bind(user_id)
        .fetch_one(p)
        .await
        .map(|(n,)| n == 1))
    }

    pub async fn sessions_of(&self, user_id: Uuid) -> Result<Vec<SessionRow>, sqlx::Error> {
        dispatch!(self, |p| {
            sqlx::query_as::<_, SessionRow>(
            "SELECT id, user_id, created_at, refreshed_at, revoked_at, revoked_reason, user_agent, ip \
             FROM sessions WHERE user_id = $1 ORDER BY created_at DESC"
        )
        .bind(user_id)
        .fetch_all(p)
        .await
        })
    }

    /// Records that a device session was just used (refresh, entitlements, calls), at most once a
    /// minute per session, so the Devices list can show "last seen".
    pub async fn touch_session(
        &self,
        session_id: Uuid,
        now: OffsetDateTime,
    ) -> Result<(), sqlx::Error> {
        let stale = now - time::Duration::minutes(1);
        dispatch!(self, |p| {
            sqlx::query(
                "UPDATE sessions SET last_seen_at = $2 WHERE id = $1 \
                 AND (last_seen_at IS NULL OR last_seen_at < $3)",
            )
            .bind(session_id)
            .bind(now)
            .bind(stale)
            .execute(p)
            .await
            .map(|_| ())
        })
    }

    /// Records that the password was entered on the session just now (re-authentication); false
    /// when the session is not the user's or has ended. Never called by refresh: rotating a
    /// refresh token keeps the time of the last entry.
    pub async fn stamp_password(
        &self,
        session_id: Uuid,
        user_id: Uuid,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            sqlx::query(
                "UPDATE sessions SET password_at = $3 \
                 WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL",
            )
            .bind(session_id)
            .bind(user_id)
            .bind(now)
            .execute(p)
            .await
            .map(|r| r.rows_affected() == 1)
        })
    }
}
