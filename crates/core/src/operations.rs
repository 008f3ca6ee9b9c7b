//! The database as operators and probes see it: whether it answers, its schema's migrations, the
//! figures and the audit trail, and the sweep an operator runs by hand.

use serde_json::json;

use crate::actor::Actor;
use crate::clock::Clock;
use crate::sso::SamlUpkeepReport;
use crate::store::audit::AuditRow;
use crate::store::schema::PendingMigration;
use crate::store::stats::Stats;
use crate::store::Store;
use crate::sweep::{SweepReport, Sweeper};

/// What a sweep by hand did: the rows it deleted, and the SAML connections' upkeep.
#[derive(Clone, Copy, Debug)]
pub struct SweepRun {
    pub deleted: SweepReport,
    pub saml: SamlUpkeepReport,
}

#[derive(Clone)]
pub struct Operations {
    store: Store,
    clock: Clock,
    sweeper: Sweeper,
}

impl Operations {
    pub fn new(store: Store, clock: Clock, sweeper: Sweeper) -> Self {
        Operations {
            store,
            clock,
            sweeper,
        }
    }

    /// `sqlite` or `postgres`.
    pub fn backend_name(&self) -> &'static str {
        self.store.backend_name()
    }

    /// Whether the database answers (the readiness probe).
    pub async fn ping(&self) -> Result<(), sqlx::Error> {
        self.store.ping().await
    }

    pub async fn pending_migrations(&self) -> anyhow::Result<Vec<PendingMigration>> {
        self.store.pending_migrations().await
    }

    pub async fn migrate(&self) -> anyhow::Result<()> {
        self.store.migrate().await
    }

    /// Closes the pool, waiting for what is in flight.
    pub async fn close(&self) {
        self.store.close().await
    }

    /// Sign-ups, plans and revenue as of now, with a per-day chart of the last `days`.
    pub async fn stats(&self, days: u32) -> Result<Stats, sqlx::Error> {
        self.store.stats(self.clock.now(), days).await
    }

    /// The whole audit trail, newest first.
    pub async fn audit_log(&self, limit: i64) -> Result<Vec<AuditRow>, sqlx::Error> {
        self.store.audit_log(limit).await
    }

    /// One sweep now, the same the server runs on its schedule (the SAML connections' upkeep
    /// with it), recorded as `db.sweep` with what it deleted and what the upkeep did.
    pub async fn sweep(&self, actor: &Actor) -> anyhow::Result<SweepRun> {
        let now = self.clock.now();
        let deleted = self.sweeper.sweep(now).await?;
        let saml = self.sweeper.saml_upkeep(now).await?;
        let details = json!({ "deleted": deleted, "saml": saml });
        let audit = actor.audit("db.sweep", None, None, details, now);
        self.store.record_audit(&audit).await?;
        Ok(SweepRun { deleted, saml })
    }
}
