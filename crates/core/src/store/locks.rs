//! Locks that hold across API replicas: on PostgreSQL a transaction-scoped advisory lock
//! (`pg_advisory_xact_lock`), taken on a connection of its own small pool so that waiting for
//! (or holding) a lock never uses up the connections the queries under it need. SQLite runs as
//! one process: there the in-process lock is the whole story.

use sqlx::{Postgres, Transaction};

use super::Store;

/// A held advisory lock: its transaction ends (a rollback, so the lock goes) when this is
/// dropped, or when the connection dies with its process.
pub struct AdvisoryLock {
    _tx: Transaction<'static, Postgres>,
}

impl std::fmt::Debug for AdvisoryLock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AdvisoryLock")
    }
}

impl Store {
    /// Waits for and takes the advisory lock `key` on PostgreSQL; `None` on SQLite.
    pub async fn advisory_lock(&self, key: i64) -> Result<Option<AdvisoryLock>, sqlx::Error> {
        let Some(pool) = &self.locks else {
            return Ok(None);
        };
        let mut tx = crate::store::begin::begin(pool).await?;
        sqlx::query("SELECT pg_advisory_xact_lock($1)")
            .bind(key)
            .execute(&mut *tx)
            .await?;
        Ok(Some(AdvisoryLock { _tx: tx }))
    }
}
