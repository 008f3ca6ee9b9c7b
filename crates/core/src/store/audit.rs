//! The operators' audit trail: who changed what, when and why. Written in the same transaction as
//! the change it describes (see `admin.rs`), read back by `closewise users show`.

use time::OffsetDateTime;
use uuid::Uuid;

use super::{dispatch, Store};

/// One change an operator made.
#[derive(Clone, Debug)]
pub struct NewAudit {
    pub actor: String,
    /// A dotted verb: `user.verify`, `user.sign_out`, `user.delete`, `plan.set`, `subscription.sync`...
    pub action: &'static str,
    pub user_id: Option<Uuid>,
    pub target_email: Option<String>,
    pub reason: Option<String>,
    /// What changed, as JSON (before and after).
    pub details: serde_json::Value,
    pub now: OffsetDateTime,
}

#[derive(Clone, Debug, sqlx::FromRow, serde::Serialize)]
pub struct AuditRow {
    pub id: Uuid,
    pub actor: String,
    pub action: String,
    pub user_id: Option<Uuid>,
    pub target_email: Option<String>,
    pub reason: Option<String>,
    /// JSON text.
    pub details: String,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// The API replica or CLI host that wrote the row (`APP_INSTANCE`, default the host name);
    /// None for rows older than migration 0007.
    pub instance: Option<String>,
}

pub(crate) const INSERT_AUDIT: &str = "INSERT INTO audit_log \
    (id, actor, action, user_id, target_email, reason, details, created_at, instance, team_id) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";

impl NewAudit {
    /// The team the row is about: its details' top-level `"team_id"` (the column a team's
    /// activity is read by, `audit_log_team_idx`).
    pub fn team_id(&self) -> Option<Uuid> {
        self.details
            .get("team_id")
            .and_then(|t| t.as_str())
            .and_then(|t| Uuid::try_parse(t).ok())
    }
}

/// Binds a `NewAudit` to `INSERT_AUDIT` as row `$id`, written by `$store`'s instance.
macro_rules! bind_audit {
    ($store:expr, $audit:expr, $id:expr) => {
        sqlx::query($crate::store::audit::INSERT_AUDIT)
            .bind($id)
            .bind(&$audit.actor)
            .bind($audit.action)
            .bind($audit.user_id)
            .bind(&$audit.target_email)
            .bind(&$audit.reason)
            .bind($audit.details.to_string())
            .bind($audit.now)
            .bind(&*$store.instance)
            .bind($audit.team_id())
    };
}
pub(crate) use bind_audit;

/// Writes `$audit` (a `&NewAudit`) in the transaction `$tx`, and the events it raises to the
/// outbox of its team's event streams (`streams::enqueue_events!`) in the same transaction.
/// Every audit row is written here.
macro_rules! write_audit {
    ($store:expr, $tx:ident, $audit:expr) => {{
        let audit: &$crate::store::audit::NewAudit = $audit;
        let id = uuid::Uuid::now_v7();
        $crate::store::audit::bind_audit!($store, audit, id)
            .execute(&mut *$tx)
            .await?;
        if let Some(team_id) = audit.team_id() {
            let events =
                $crate::store::streams::NewStreamEvent::of_audit(id, audit, &$store.instance);
            $crate::store::streams::enqueue_events!($tx, team_id, &events);
        }
    }};
}
pub(crate) use write_audit;

/// Writes `$audit` (an `Option<&NewAudit>`) in the transaction `$tx`, then commits it: a change
/// and its audit row land together or not at all.
macro_rules! commit_audited {
    ($store:expr, $tx:ident, $audit:expr) => {{
        if let Some(audit) = $audit {
            $crate::store::audit::write_audit!($store, $tx, audit);
        }
        $tx.commit().await?;
    }};
}
pub(crate) use commit_audited;

const AUDIT_COLUMNS: &str =
    "id, actor, action, user_id, target_email, reason, details, created_at, instance";

impl Store {
    /// Writes `audit` alone, with the events it raises, in one transaction.
    pub async fn record_audit(&self, audit: &NewAudit) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = super::begin::begin(p).await?;
            write_audit!(self, tx, audit);
            tx.commit().await
        })
    }

    /// Writes `audits`, with the events they raise, in one transaction (a bulk load's rows).
    pub async fn record_audits(&self, audits: &[NewAudit]) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = super::begin::begin(p).await?;
            for audit in audits {
                write_audit!(self, tx, audit);
            }
            tx.commit().await
        })
    }

    /// The trail of one account, newest first: by id, and by address for what outlived it.
    pub async fn audit_of(
        &self,
        user_id: Option<Uuid>,
        email: &str,
        limit: i64,
    ) -> Result<Vec<AuditRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {AUDIT_COLUMNS} FROM audit_log WHERE user_id = $1 OR target_email = $2 \
             ORDER BY created_at DESC, id DESC LIMIT $3"
        );
        dispatch!(self, |p| sqlx::query_as::<_, AuditRow>(&sql)
            .bind(user_id)
            .bind(email)
            .bind(limit)
            .fetch_all(p)
            .await)
    }

    /// The whole trail, newest first.
    pub async fn audit_log(&self, limit: i64) -> Result<Vec<AuditRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {AUDIT_COLUMNS} FROM audit_log ORDER BY created_at DESC, id DESC LIMIT $1"
        );
        dispatch!(self, |p| sqlx::query_as::<_, AuditRow>(&sql)
            .bind(limit)
            .fetch_all(p)
            .await)
    }
}
