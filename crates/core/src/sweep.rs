//! The sweeper: deletes the rows that have stopped working — expired device sign-in requests and
//! authorization codes, old e-mail links, the refresh tokens of sessions that are over, expired
//! passkey challenges and second-factor sign-in tokens, single sign-on attempts that can no longer
//! finish, ended rate-limit windows, event stream events delivered a day ago and delivery attempts
//! beyond a stream's last 100 — by the domain's rules (`closewise_domain::sweep`, which also lists what
//! is never deleted). The API runs it every `SWEEP_INTERVAL_SECS` (`run`); operators run it once
//! with `closewise db sweep`. One `sweep(now)` does everything, each table by its store method.
//! After each sweep, `run` also sends the weekly idle-seats mails when given them.
//!
//! The running sweeper also re-checks verified domains daily when given the domains service
//! ([`Sweeper::with_domains`]): each due domain once a day, whichever replica looks first; and
//! keeps up the teams' SAML connections when given the SSO service ([`Sweeper::with_sso`]): their
//! metadata URLs read again daily, the owners mailed before a certificate in use expires
//! (`crate::sso::Sso::saml_upkeep`). `closewise db sweep` runs that upkeep too.
//!
//! Several replicas may sweep at once on PostgreSQL: the whole sweep holds one advisory lock, so
//! they take turns (the second finds nothing left), and every delete is idempotent anyway.

use std::time::Duration;

use closewise_domain::sweep::{cutoffs, STREAM_DELIVERIES_KEPT};
use time::OffsetDateTime;
use tokio::sync::watch;

use crate::clock::Clock;
use crate::sso::{SamlUpkeepReport, Sso, SsoError};
use crate::store::Store;
use crate::teams::idle_mail::IdleSeatMails;
use crate::verified_domains::{RecheckReport, VerifiedDomains};

/// The advisory lock a sweep holds on PostgreSQL ("SWEEP" in ASCII, far from the billing keys'
/// folded UUIDs by chance only, which is enough: a collision would only make one wait).
pub const SWEEP_LOCK_KEY: i64 = 0x0053_5745_4550;

/// How many rows one sweep deleted, per kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct SweepReport {
    pub device_codes: u64,
    pub oauth_codes: u64,
    pub email_tokens: u64,
    pub session_tokens: u64,
    pub rate_limits: u64,
    pub webauthn_challenges: u64,
    pub mfa_tokens: u64,
    pub sso_logins: u64,
    pub setup_links: u64,
    pub stream_outbox: u64,
    pub stream_deliveries: u64,
}

impl SweepReport {
    pub fn total(&self) -> u64 {
        self.device_codes
            + self.oauth_codes
            + self.email_tokens
            + self.session_tokens
            + self.rate_limits
            + self.webauthn_challenges
            + self.mfa_tokens
            + self.sso_logins
            + self.setup_links
            + self.stream_outbox
            + self.stream_deliveries
    }
}

#[derive(Clone)]
pub struct Sweeper {
    store: Store,
    clock: Clock,
    /// The weekly idle-seats mail, sent after each sweep when set.
    idle_seat_mails: Option<IdleSeatMails>,
    domains: Option<VerifiedDomains>,
    sso: Option<Sso>,
}

impl Sweeper {
    pub fn new(store: Store, clock: Clock) -> Self {
        Sweeper {
            store,
            clock,
            idle_seat_mails: None,
            domains: None,
            sso: None,
        }
    }

    /// Also sends the weekly idle-seats mails after each sweep of `run`.
    pub fn with_idle_seat_mails(mut self, mails: IdleSeatMails) -> Self {
        self.idle_seat_mails = Some(mails);
        self
    }

    /// Re-checks the verified domains due (a day after their last check) at every run too.
    pub fn with_domains(mut self, domains: VerifiedDomains) -> Self {
        self.domains = Some(domains);
        self
    }

    /// Keeps up the SAML connections at every run too (metadata URLs, certificate mails).
    pub fn with_sso(mut self, sso: Sso) -> Self {
        self.sso = Some(sso);
        self
    }

    /// The SAML connections' upkeep as of `now` (nothing without the SSO service), under the
    /// sweep's lock so that replicas take turns (the second finds nothing due).
    pub async fn saml_upkeep(&self, now: OffsetDateTime) -> Result<SamlUpkeepReport, SsoError> {
        let Some(sso) = &self.sso else {
            return Ok(SamlUpkeepReport::default());
        };
        let _turn = self.store.advisory_lock(SWEEP_LOCK_KEY).await?;
        let report = sso.saml_upkeep(now).await?;
        if report != SamlUpkeepReport::default() {
            tracing::info!(?report, "kept up the SAML connections");
        }
        Ok(report)
    }

    /// The daily re-check of verified domains as of `now` (nothing without the domains service),
    /// under the sweep's lock so that replicas take turns.
    pub async fn recheck_domains(&self, now: OffsetDateTime) -> Result<RecheckReport, sqlx::Error> {
        let Some(domains) = &self.domains else {
            return Ok(RecheckReport::default());
        };
        let _turn = self.store.advisory_lock(SWEEP_LOCK_KEY).await?;
        let report = domains.recheck(now).await?;
        if report.checked > 0 {
            tracing::info!(?report, "re-checked verified domains");
        }
        Ok(report)
    }

    /// Deletes what has stopped working as of `now`.
    pub async fn sweep(&self, now: OffsetDateTime) -> Result<SweepReport, sqlx::Error> {
        let _turn = self.store.advisory_lock(SWEEP_LOCK_KEY).await?;
        let before = cutoffs(now);
        let report = SweepReport {
            device_codes: self.store.sweep_device_codes(before.device_codes).await?,
            oauth_codes: self.store.sweep_oauth_codes(before.auth_codes).await?,
            email_tokens: self.store.sweep_email_tokens(before.email_tokens).await?,
            session_tokens: self
                .store
                .sweep_session_tokens(before.session_tokens)
                .await?,
            rate_limits: self.store.rate_sweep(now.unix_timestamp()).await?,
            webauthn_challenges: self
                .store
                .sweep_webauthn_challenges(before.webauthn_challenges)
                .await?,
            mfa_tokens: self.store.sweep_mfa_tokens(before.mfa_tokens).await?,
            sso_logins: self
                .store
                .delete_expired_sso_logins(before.sso_logins)
                .await?,
            setup_links: self
                .store
                .delete_old_setup_links(before.setup_links)
                .await?,
            stream_outbox: self.store.sweep_stream_outbox(before.stream_outbox).await?,
            stream_deliveries: self
                .store
                .sweep_stream_deliveries(STREAM_DELIVERIES_KEPT)
                .await?,
        };
        if report.total() > 0 {
            tracing::info!(?report, "swept expired rows");
        }
        Ok(report)
    }

    /// Sweeps every `every` (the first time one interval after the start) until `stop` fires. A
    /// failed sweep is logged and the next tick tries again.
    pub async fn run(self, every: Duration, mut stop: watch::Receiver<bool>) {
        let mut tick = tokio::time::interval(every.max(Duration::from_millis(10)));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        tick.tick().await;
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                _ = stop.changed() => return,
            }
            if let Err(e) = self.sweep(self.clock.now()).await {
                tracing::warn!(error = %e, "sweep failed; the next tick tries again");
            }
            if let Some(mails) = &self.idle_seat_mails {
                if let Err(e) = mails.send_due().await {
                    tracing::warn!(error = %e, "idle-seats mails failed; the next tick tries again");
                }
            }
            if let Err(e) = self.recheck_domains(self.clock.now()).await {
                tracing::warn!(error = %e, "domain re-check failed; the next tick tries again");
            }
            if let Err(e) = self.saml_upkeep(self.clock.now()).await {
                tracing::warn!(error = %e, "SAML upkeep failed; the next tick tries again");
            }
        }
    }
}
