//! Deleting rows that have stopped working (`closewise_domain::sweep` says which, and from when):
//! one method per table, each deleting in batches of `BATCH` so that no statement holds its
//! locks for long, and the count of live pending device requests the cap reads. Every delete is
//! idempotent; `closewise_core::sweep` runs them under one advisory lock on PostgreSQL so that
//! replicas sweeping at the same moment take turns instead of deleting the same rows at once.

use time::OffsetDateTime;

use super::{dispatch, Store};

/// Rows deleted per statement.
const BATCH: i64 = 1000;

/// Deletes the rows whose ids `$select` (binding `$1` the cutoff, `$2` the batch size) picks,
/// batch after batch, until a batch comes back short; returns how many went.
macro_rules! delete_batches {
    ($store:expr, $table:expr, $select:expr, $cutoff:expr) => {{
        let sql = format!("DELETE FROM {} WHERE id IN ({})", $table, $select);
        let mut total: u64 = 0;
        loop {
            let n = dispatch!($store, |p| sqlx::query(&sql)
                .bind($cutoff)
                .bind(BATCH)
                .execute(p)
                .await
                .map(|r| r.rows_affected()))?;
            total += n;
            if n < BATCH as u64 {
                break;
            }
        }
        Ok(total)
    }};
}

impl Store {
    /// Device sign-in requests that expired before `before`, whatever their status.
    pub async fn sweep_device_codes(&self, before: OffsetDateTime) -> Result<u64, sqlx::Error> {
        delete_batches!(
            self,
            "device_codes",
            "SELECT id FROM device_codes WHERE expires_at < $1 LIMIT $2",
            before
        )
    }

    /// Authorization codes that expired before `before`, spent or not.
    pub async fn sweep_oauth_codes(&self, before: OffsetDateTime) -> Result<u64, sqlx::Error> {
        delete_batches!(
            self,
            "oauth_codes",
            "SELECT id FROM oauth_codes WHERE expires_at < $1 LIMIT $2",
            before
        )
    }

    /// E-mail links that expired before `before`: every reset link, and the verification links of
    /// confirmed accounts. An unconfirmed account's verification links stay: they carry the
    /// password their sign-up chose (`pending_signup_password`).
    pub async fn sweep_email_tokens(&self, before: OffsetDateTime) -> Result<u64, sqlx::Error> {
        delete_batches!(
            self,
            "email_tokens",
            "SELECT t.id FROM email_tokens t JOIN users u ON u.id = t.user_id \
             WHERE t.expires_at < $1 \
             AND (t.kind = 'reset' OR u.email_confirmed_at IS NOT NULL) LIMIT $2",
            before
        )
    }

    /// The refresh tokens of sessions that are over: revoked before `before`, or whose newest
    /// token expired before it. A live session keeps its spent tokens, so replaying one still
    /// revokes it (reuse detection); the session rows themselves stay (sign-in history).
    pub async fn sweep_session_tokens(&self, before: OffsetDateTime) -> Result<u64, sqlx::Error> {
        delete_batches!(
            self,
            "refresh_tokens",
            "SELECT r.id FROM refresh_tokens r WHERE r.session_id IN \
             (SELECT s.id FROM sessions s WHERE s.revoked_at < $1) \
             OR (r.expires_at < $1 AND NOT EXISTS (SELECT 1 FROM refresh_tokens n \
             WHERE n.session_id = r.session_id AND n.expires_at >= $1)) LIMIT $2",
            before
        )
    }

    /// Passkey challenges that expired before `before`, answered or not.
    pub async fn sweep_webauthn_challenges(
        &self,
        before: OffsetDateTime,
    ) -> Result<u64, sqlx::Error> {
        delete_batches!(
            self,
            "webauthn_challenges",
            "SELECT id FROM webauthn_challenges WHERE expires_at < $1 LIMIT $2",
            before
        )
    }

    /// Second-factor sign-in tokens (`mfa_token`) that expired before `before`, spent or not.
    pub async fn sweep_mfa_tokens(&self, before: OffsetDateTime) -> Result<u64, sqlx::Error> {
        delete_batches!(
            self,
            "mfa_tokens",
            "SELECT id FROM mfa_tokens WHERE expires_at < $1 LIMIT $2",
            before
        )
    }

    /// Device requests still waiting for a decision at `now`, counted up to `up_to` (the cap: the
    /// count never needs to read further).
    pub async fn pending_device_codes(
        &self,
        now: OffsetDateTime,
        up_to: u32,
    ) -> Result<u32, sqlx::Error> {
        let n: i64 = dispatch!(self, |p| sqlx::query_scalar(
            "SELECT COUNT(*) FROM (SELECT 1 FROM device_codes \
             WHERE status = 'pending' AND expires_at > $1 LIMIT $2) AS live"
        )
        .bind(now)
        .bind(i64::from(up_to))
        .fetch_one(p)
        .await)?;
        Ok(u32::try_from(n.max(0)).unwrap_or(u32::MAX))
    }

    /// Event stream events delivered before `before`: what is still owed stays, whatever its
    /// age (replay reads the audit trail, not these rows).
    pub async fn sweep_stream_outbox(&self, before: OffsetDateTime) -> Result<u64, sqlx::Error> {
        let sql = "DELETE FROM stream_outbox WHERE (stream_id, seq) IN \
                   (SELECT stream_id, seq FROM stream_outbox \
                   WHERE delivered_at IS NOT NULL AND delivered_at < $1 LIMIT $2)";
        let mut total: u64 = 0;
        loop {
            let n = dispatch!(self, |p| sqlx::query(sql)
                .bind(before)
                .bind(BATCH)
                .execute(p)
                .await
                .map(|r| r.rows_affected()))?;
            total += n;
            if n < BATCH as u64 {
                return Ok(total);
            }
        }
    }

    /// Each event stream's delivery attempts beyond its newest `kept` (the worker trims them as
    /// it logs one; this catches what it left).
    pub async fn sweep_stream_deliveries(&self, kept: i64) -> Result<u64, sqlx::Error> {
        delete_batches!(
            self,
            "stream_deliveries",
            "SELECT id FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY stream_id \
             ORDER BY attempted_at DESC, id DESC) AS n FROM stream_deliveries) ranked \
             WHERE n > $1 LIMIT $2",
            kept
        )
    }
}
