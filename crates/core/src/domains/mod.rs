//! A team's verified company domains (issue 25, docs/teams.md): the owner claims a domain and is
//! given a DNS TXT record to publish; "verify" looks it up ([`dns`]) and marks the domain
//! verified, one team at a time; the sweeper re-checks verified domains daily and un-verifies one
//! whose record has been gone for a week. The rules are `closewise_domain::teams::domains`'s; the
//! store keeps the rows (`store::teams::domains`). Every change is audited with the acting person
//! (the owner's address, an operator's, or `closewise` for the daily re-check), its details naming
//! the team (`team_id`) as the other team rows do.

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

use crate::clock::Clock;
use crate::store::audit::NewAudit;
use crate::store::teams::domains::{Claim, NewTeamDomain, TeamDomainRow};
use crate::store::Store;
pub use dns::{Dns, DnsError};

/// How many due domains one re-check looks up (the rest wait for the next sweep).
const RECHECK_BATCH: i64 = 200;
/// The actor of the daily re-check's audit rows.
pub const RECHECK_ACTOR: &str = "closewise";

#[derive(Debug, thiserror::Error)]
pub enum DomainsError {
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
    Database(#[from] sqlx::Error),
}

impl DomainsError {
    pub fn code(&self) -> &'static str {
        match self {
            DomainsError::TeamNotFound => "team_not_found",
            DomainsError::ForbiddenRole => "forbidden_role",
            DomainsError::NotFound => "domain_not_found",
            DomainsError::Invalid(e) => e.code(),
            DomainsError::Exists(_) => "domain_exists",
            DomainsError::Taken(_) => "domain_taken",
            DomainsError::NotVerified(_) => "domain_not_verified",
            DomainsError::TooMany => "too_many_domains",
            DomainsError::Database(_) => "internal",
        }
    }
}

/// A domain as the owner (or an operator) sees it, with the record to publish.
#[derive(Clone, Debug)]
pub struct DomainView {
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

impl From<TeamDomainRow> for DomainView {
    fn from(r: TeamDomainRow) -> Self {
        DomainView {
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
pub struct Domains {
    store: Store,
    clock: Clock,
    dns: Dns,
}

/// 128 random bits as 32 hex digits: the TXT record's token.
fn new_token() -> String {
    let mut bytes = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

impl Domains {
    pub fn new(store: Store, clock: Clock, dns: Dns) -> Self {
        Domains { store, clock, dns }
    }

    /// The caller's team when they may manage its domains (the owner).
    async fn owner_team(&self, user_id: Uuid) -> Result<Uuid, DomainsError> {
        let (team_id, role) = self
            .store
            .membership_of(user_id)
            .await?
            .ok_or(DomainsError::TeamNotFound)?;
        if !may(role, Action::ManageDomains) {
            return Err(DomainsError::ForbiddenRole);
        }
        Ok(team_id)
    }

    /// An audit row of the user `actor`'s change to a domain of `team_id`.
    async fn audit_by(
        &self,
        actor: Uuid,
        action: &'static str,
        team_id: Uuid,
        domain: &str,
    ) -> Result<NewAudit, sqlx::Error> {
        let who = self.store.user_by_id(actor).await?;
        Ok(NewAudit {
            actor: who.map_or_else(|| actor.to_string(), |u| u.email),
            action,
            user_id: Some(actor),
            target_email: None,
            reason: None,
            details: details(team_id, domain, Value::Null),
            now: self.clock.now(),
        })
    }

    /// The caller's team's domains, by name (the owner).
    pub async fn list(&self, user_id: Uuid) -> Result<Vec<DomainView>, DomainsError> {
        let team_id = self.owner_team(user_id).await?;
        self.of_team(team_id).await
    }

    /// Any team's domains, by name (operators).
    pub async fn of_team(&self, team_id: Uuid) -> Result<Vec<DomainView>, DomainsError> {
        let rows = self.store.team_domains(team_id).await?;
        Ok(rows.into_iter().map(DomainView::from).collect())
    }

    /// Claims `domain` for the caller's team, pending until its record is seen.
    pub async fn add(&self, user_id: Uuid, domain: &str) -> Result<DomainView, DomainsError> {
        let team_id = self.owner_team(user_id).await?;
        let domain = normalize_domain(domain).map_err(DomainsError::Invalid)?;
        if let Some(holder) = self.store.team_for_verified_domain(&domain).await? {
            if holder != team_id {
                return Err(DomainsError::Taken(domain));
            }
        }
        let id = Uuid::now_v7();
        let token = new_token();
        let claim = self
            .store
            .claim_team_domain(
                &NewTeamDomain {
                    id,
                    team_id,
                    domain: &domain,
                    txt_token: &token,
                    created_by: Some(user_id),
                    now: self.clock.now(),
                },
                MAX_TEAM_DOMAINS,
            )
            .await?;
        match claim {
            Claim::Claimed => {}
            Claim::Exists => return Err(DomainsError::Exists(domain)),
            Claim::TooMany => return Err(DomainsError::TooMany),
            Claim::NoTeam => return Err(DomainsError::TeamNotFound),
        }
        let audit = self
            .audit_by(user_id, "team.domain_add", team_id, &domain)
            .await?;
        self.store.record_audit(&audit).await?;
        self.one(team_id, id).await
    }

    async fn one(&self, team_id: Uuid, id: Uuid) -> Result<DomainView, DomainsError> {
        let row = self.store.team_domain(team_id, id).await?;
        row.map(DomainView::from).ok_or(DomainsError::NotFound)
    }

    /// Looks the domain's record up and marks it verified when it is there. A domain verified
    /// already stays so (the daily re-check decides when it stops).
    pub async fn verify(&self, user_id: Uuid, id: Uuid) -> Result<DomainView, DomainsError> {
        let team_id = self.owner_team(user_id).await?;
        let row = self
            .store
            .team_domain(team_id, id)
            .await?
            .ok_or(DomainsError::NotFound)?;
        if row.status == "verified" {
            return Ok(row.into());
        }
        if let Some(holder) = self.store.team_for_verified_domain(&row.domain).await? {
            if holder != team_id {
                return Err(DomainsError::Taken(row.domain));
            }
        }
        let name = txt_name(&row.domain);
        let records = self.dns.txt(&name).await.map_err(|e| {
            tracing::info!(domain = %row.domain, error = %e, "domain look-up failed");
            DomainsError::NotVerified(format!(
                "We could not look up {name} ({e}). Please try again in a few minutes."
            ))
        })?;
        if !record_found(&records, &row.txt_token) {
            return Err(DomainsError::NotVerified(format!(
                "We did not find the TXT record {name} with the value {}. DNS changes can take a while to show: please try again later.",
                txt_value(&row.txt_token)
            )));
        }
        if !self
            .store
            .mark_team_domain_verified(row.id, self.clock.now())
            .await?
        {
            return Err(DomainsError::Taken(row.domain));
        }
        let audit = self
            .audit_by(user_id, "team.domain_verify", team_id, &row.domain)
            .await?;
        self.store.record_audit(&audit).await?;
        tracing::info!(%team_id, domain = %row.domain, "domain verified");
        self.one(team_id, id).await
    }

    /// Removes one of the caller's team's domains; domain join at it ends.
    pub async fn remove(&self, user_id: Uuid, id: Uuid) -> Result<(), DomainsError> {
        let team_id = self.owner_team(user_id).await?;
        let row = self
            .store
            .team_domain(team_id, id)
            .await?
            .ok_or(DomainsError::NotFound)?;
        let audit = self
            .audit_by(user_id, "team.domain_remove", team_id, &row.domain)
            .await?;
        let now = self.clock.now();
        self.store
            .remove_team_domain(team_id, id, now, &audit)
            .await?
            .ok_or(DomainsError::NotFound)?;
        Ok(())
    }

    /// An operator un-verifies a team's domain (`audit` names them and why): pending again, and
    /// domain join at it ends. The owner verifies it again only by its record.
    pub async fn disable(
        &self,
        team_id: Uuid,
        domain: &str,
        mut audit: NewAudit,
    ) -> Result<DomainView, DomainsError> {
        let wanted = domain.trim().trim_end_matches('.').to_ascii_lowercase();
        let row = self
            .store
            .team_domains(team_id)
            .await?
            .into_iter()
            .find(|d| d.domain == wanted)
            .ok_or(DomainsError::NotFound)?;
        if row.status != "verified" {
            return Err(DomainsError::NotVerified(format!(
                "{} is not verified: there is nothing to disable.",
                row.domain
            )));
        }
        audit.details = details(team_id, &row.domain, audit.details);
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
                    let audit = NewAudit {
                        actor: RECHECK_ACTOR.to_owned(),
                        action: "team.domain_unverify",
                        user_id: None,
                        target_email: None,
                        reason: Some("its TXT record has been gone for 7 days".to_owned()),
                        details: details(
                            row.team_id,
                            &row.domain,
                            json!({"last_seen_at": row.last_seen_at.map(|t| t.unix_timestamp())}),
                        ),
                        now,
                    };
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
