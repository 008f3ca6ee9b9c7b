//! A team's verified domains (docs/teams.md): the owner claims a company domain and is given a
//! DNS TXT record to publish; "verify" looks it up ([`dns`]) and marks the domain verified, one
//! team at a time; the sweeper re-checks verified domains daily and un-verifies one whose record
//! has been gone for a week. The rules are `closewise_domain::teams::domains`'s; the store keeps
//! the rows (`store::teams::domains`). Every change is a command taking the [`Actor`] (the owner,
//! an operator, or the daily re-check), checked with `teams::may(role, ManageDomains)` and
//! audited in the change's own transaction, its details naming the team (`team_id`).

pub mod dns;

use closewise_domain::teams::domains::{
    normalize_domain, recheck, recheck_cutoff, record_found, txt_name, txt_value, DomainError,
    Recheck, MAX_TEAM_DOMAINS,
};
use closewise_domain::teams::{may, Action};
use rand::RngCore;
use serde_json::{json, Value};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::actor::Actor;
use crate::clock::Clock;
use crate::limits::{Limit, LimitError, Limits};
use crate::store::audit::NewAudit;
use crate::store::teams::domains::{Claim, NewTeamDomain, TeamDomainRow};
use crate::store::Store;
use crate::teams::acting::acting_on;
pub use dns::{Dns, DnsError};

/// How many due domains one re-check looks up (the rest wait for the next sweep).
const RECHECK_BATCH: i64 = 200;
/// The daily re-check, as the actor of its audit rows.
pub const RECHECK_ACTOR: Actor = Actor::System { job: "closewise" };

#[derive(Debug, thiserror::Error)]
pub enum VerifiedDomainsError {
    #[error("There is no such team.")]
    TeamNotFound,
    #[error("Your role in the team does not allow this.")]
    ForbiddenRole,
    #[error("There is no such domain in your team.")]
    NotFound,
    #[error("{0}")]
    Invalid(DomainError),
    #[error("{0} is already one of your team's domains.")]
    Exists(String),
    #[error("{0} is verified by another team. A domain is verified by one team at a time: its record must be gone from that team for a week, or an operator must disable it there, before yours can verify it.")]
    Taken(String),
    #[error("{0}")]
    NotVerified(String),
    #[error(
        "A team can claim at most {} domains. Remove one you no longer use first.",
        MAX_TEAM_DOMAINS
    )]
    TooMany,
    #[error(transparent)]
    Limited(#[from] LimitError),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

impl VerifiedDomainsError {
    pub fn code(&self) -> &'static str {
        match self {
            VerifiedDomainsError::TeamNotFound => "team_not_found",
            VerifiedDomainsError::ForbiddenRole => "forbidden_role",
            VerifiedDomainsError::NotFound => "domain_not_found",
            VerifiedDomainsError::Invalid(e) => e.code(),
            VerifiedDomainsError::Exists(_) => "domain_exists",
            VerifiedDomainsError::Taken(_) => "domain_taken",
            VerifiedDomainsError::NotVerified(_) => "domain_not_verified",
            VerifiedDomainsError::TooMany => "too_many_domains",
            VerifiedDomainsError::Limited(_) => "rate_limited",
            VerifiedDomainsError::Database(_) => "internal",
        }
    }
}

/// A domain as the owner (or an operator) sees it, with the record to publish.
#[derive(Clone, Debug)]
pub struct VerifiedDomainView {
    pub id: Uuid,
    pub team_id: Uuid,
    pub domain: String,
    pub txt_name: String,
    pub txt_value: String,
    /// `pending` or `verified`.
    pub status: String,
    pub created_at: OffsetDateTime,
    pub verified_at: Option<OffsetDateTime>,
    pub last_checked_at: Option<OffsetDateTime>,
    pub last_seen_at: Option<OffsetDateTime>,
}

impl From<TeamDomainRow> for VerifiedDomainView {
    fn from(r: TeamDomainRow) -> Self {
        VerifiedDomainView {
            id: r.id,
            team_id: r.team_id,
            txt_name: txt_name(&r.domain),
            txt_value: txt_value(&r.txt_token),
            domain: r.domain,
            status: r.status,
            created_at: r.created_at,
            verified_at: r.verified_at,
            last_checked_at: r.last_checked_at,
            last_seen_at: r.last_seen_at,
        }
    }
}

/// What one daily re-check did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct RecheckReport {
    pub checked: u64,
    pub unverified: u64,
}

#[derive(Clone)]
pub struct VerifiedDomains {
    store: Store,
    clock: Clock,
    dns: Dns,
    limits: Limits,
}

/// 128 random bits as 32 hex digits: the TXT record's token.
fn new_token() -> String {
    let mut bytes = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

impl VerifiedDomains {
    pub fn new(store: Store, clock: Clock, dns: Dns, limits: Limits) -> Self {
        VerifiedDomains {
            store,
            clock,
            dns,
            limits,
        }
    }

    /// The team `actor` manages the domains of (a member: their own, when their role may; anyone
    /// else: `team`).
    async fn team_of(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
    ) -> Result<Uuid, VerifiedDomainsError> {
        let (team_id, role) = acting_on(&self.store, actor, team, Action::ManageDomains)
            .await?
            .ok_or(VerifiedDomainsError::TeamNotFound)?;
        if !may(role, Action::ManageDomains) {
            return Err(VerifiedDomainsError::ForbiddenRole);
        }
        Ok(team_id)
    }

    fn audit(
        &self,
        actor: &Actor,
        action: &'static str,
        team_id: Uuid,
        domain: &str,
        extra: Value,
    ) -> NewAudit {
        actor.audit(
            action,
            None,
            None,
            details(team_id, domain, extra),
            self.clock.now(),
        )
    }

    /// The team's domains, by name (a member's own team: `team` None).
    pub async fn list(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
    ) -> Result<Vec<VerifiedDomainView>, VerifiedDomainsError> {
        let team_id = self.team_of(actor, team).await?;
        let rows = self.store.team_domains(team_id).await?;
        Ok(rows.into_iter().map(VerifiedDomainView::from).collect())
    }

    /// Claims `domain` for the team, pending until its record is seen.
    pub async fn add(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        domain: &str,
    ) -> Result<VerifiedDomainView, VerifiedDomainsError> {
        let team_id = self.team_of(actor, team).await?;
        let domain = normalize_domain(domain).map_err(VerifiedDomainsError::Invalid)?;
        if let Some(holder) = self.store.team_for_verified_domain(&domain).await? {
            if holder != team_id {
                return Err(VerifiedDomainsError::Taken(domain));
            }
        }
        let id = Uuid::now_v7();
        let token = new_token();
        let audit = self.audit(actor, "team.domain_add", team_id, &domain, Value::Null);
        let claim = self
            .store
            .claim_team_domain(
                &NewTeamDomain {
                    id,
                    team_id,
                    domain: &domain,
                    txt_token: &token,
                    created_by: actor.user_id(),
                    now: self.clock.now(),
                },
                MAX_TEAM_DOMAINS,
                Some(&audit),
            )
            .await?;
        match claim {
            Claim::Claimed => {}
            Claim::Exists => return Err(VerifiedDomainsError::Exists(domain)),
            Claim::TooMany => return Err(VerifiedDomainsError::TooMany),
            Claim::NoTeam => return Err(VerifiedDomainsError::TeamNotFound),
        }
        self.one(team_id, id).await
    }

    async fn one(
        &self,
        team_id: Uuid,
        id: Uuid,
    ) -> Result<VerifiedDomainView, VerifiedDomainsError> {
        let row = self.store.team_domain(team_id, id).await?;
        row.map(VerifiedDomainView::from)
            .ok_or(VerifiedDomainsError::NotFound)
    }

    /// Looks the domain's record up and marks it verified when it is there. A domain verified
    /// already stays so (the daily re-check decides when it stops). Each look-up spends the
    /// member's `DomainCheckPerUser` budget, once their role allows it.
    pub async fn verify(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        id: Uuid,
    ) -> Result<VerifiedDomainView, VerifiedDomainsError> {
        let team_id = self.team_of(actor, team).await?;
        if let Some(user_id) = actor.user_id() {
            self.limits
                .spend(Limit::DomainCheckPerUser, &user_id.to_string())
                .await?;
        }
        let row = self
            .store
            .team_domain(team_id, id)
            .await?
            .ok_or(VerifiedDomainsError::NotFound)?;
        if row.status == "verified" {
            return Ok(row.into());
        }
        if let Some(holder) = self.store.team_for_verified_domain(&row.domain).await? {
            if holder != team_id {
                return Err(VerifiedDomainsError::Taken(row.domain));
            }
        }
        let name = txt_name(&row.domain);
        let records = self.dns.txt(&name).await.map_err(|e| {
            tracing::info!(domain = %row.domain, error = %e, "domain look-up failed");
            VerifiedDomainsError::NotVerified(format!(
                "We could not look up {name} ({e}). Please try again in a few minutes."
            ))
        })?;
        if !record_found(&records, &row.txt_token) {
            return Err(VerifiedDomainsError::NotVerified(format!(
                "We did not find the TXT record {name} with the value {}. DNS changes can take a while to show: please try again later.",
                txt_value(&row.txt_token)
            )));
        }
        let audit = self.audit(
            actor,
            "team.domain_verify",
            team_id,
            &row.domain,
            Value::Null,
        );
        if !self
            .store
            .verify_team_domain(row.id, self.clock.now(), Some(&audit))
            .await?
        {
            return Err(VerifiedDomainsError::Taken(row.domain));
        }
        tracing::info!(%team_id, domain = %row.domain, "domain verified");
        self.one(team_id, id).await
    }

    /// Removes one of the team's domains; domain join at it ends.
    pub async fn remove(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        id: Uuid,
    ) -> Result<(), VerifiedDomainsError> {
        let team_id = self.team_of(actor, team).await?;
        let row = self
            .store
            .team_domain(team_id, id)
            .await?
            .ok_or(VerifiedDomainsError::NotFound)?;
        let audit = self.audit(
            actor,
            "team.domain_remove",
            team_id,
            &row.domain,
            Value::Null,
        );
        let now = self.clock.now();
        self.store
            .remove_team_domain(team_id, id, now, &audit)
            .await?
            .ok_or(VerifiedDomainsError::NotFound)?;
        Ok(())
    }

    /// Un-verifies a team's domain by its name (an operator's, with their reason): pending again,
    /// and domain join at it ends. The owner verifies it again only by its record.
    pub async fn disable(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        domain: &str,
    ) -> Result<VerifiedDomainView, VerifiedDomainsError> {
        let team_id = self.team_of(actor, team).await?;
        let wanted = domain.trim().trim_end_matches('.').to_ascii_lowercase();
        let row = self
            .store
            .team_domains(team_id)
            .await?
            .into_iter()
            .find(|d| d.domain == wanted)
            .ok_or(VerifiedDomainsError::NotFound)?;
        if row.status != "verified" {
            return Err(VerifiedDomainsError::NotVerified(format!(
                "{} is not verified: there is nothing to disable.",
                row.domain
            )));
        }
        let audit = self.audit(
            actor,
            "team.domain_disable",
            team_id,
            &row.domain,
            Value::Null,
        );
        let now = self.clock.now();
        self.store.unverify_team_domain(&row, now, &audit).await?;
        tracing::info!(%team_id, domain = %row.domain, actor = %audit.actor, "domain disabled");
        self.one(team_id, row.id).await
    }

    /// The daily re-check (the sweeper's): looks up every verified domain checked a day ago or
    /// more; a record seen is noted, one gone for a week un-verifies its domain. A look-up that
    /// fails counts as a record not seen.
    pub async fn recheck(&self, now: OffsetDateTime) -> Result<RecheckReport, sqlx::Error> {
        let mut report = RecheckReport::default();
        let due = self
            .store
            .team_domains_due(recheck_cutoff(now), RECHECK_BATCH)
            .await?;
        for row in due {
            let found = match self.dns.txt(&txt_name(&row.domain)).await {
                Ok(records) => record_found(&records, &row.txt_token),
                Err(e) => {
                    tracing::warn!(domain = %row.domain, error = %e, "domain re-check look-up failed");
                    false
                }
            };
            report.checked += 1;
            match recheck(found, row.last_seen_at, row.verified_at, now) {
                Recheck::Seen => {
                    self.store
                        .note_team_domain_checked(row.id, true, now)
                        .await?
                }
                Recheck::Missing => {
                    self.store
                        .note_team_domain_checked(row.id, false, now)
                        .await?
                }
                Recheck::Unverify => {
                    let mut audit = RECHECK_ACTOR.audit(
                        "team.domain_unverify",
                        None,
                        None,
                        details(
                            row.team_id,
                            &row.domain,
                            json!({"last_seen_at": row.last_seen_at.map(|t| t.unix_timestamp())}),
                        ),
                        now,
                    );
                    audit.reason = Some("its TXT record has been gone for 7 days".to_owned());
                    if self.store.unverify_team_domain(&row, now, &audit).await? {
                        report.unverified += 1;
                        tracing::warn!(team_id = %row.team_id, domain = %row.domain, "domain un-verified: its record is gone");
                    }
                }
            }
        }
        Ok(report)
    }
}

/// An audit row's details: the team and domain, and `extra`'s fields.
fn details(team_id: Uuid, domain: &str, extra: Value) -> Value {
    let mut d = json!({ "team_id": team_id, "domain": domain });
    if let (Some(d), Value::Object(extra)) = (d.as_object_mut(), extra) {
        d.extend(extra);
    }
    d
}
