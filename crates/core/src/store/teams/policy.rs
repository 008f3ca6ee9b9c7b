//! A team's policy for the desktop app (migration 0018): the JSON last saved, who saved it and
//! when, and the `policy_version` each device reports in its heartbeats. The team's two switches
//! each have one source of truth outside the policy: "require a second factor" is
//! `teams.require_mfa`, "require SSO" is `team_sso.required` (false without SSO). The policy read
//! here carries those columns' values whatever the saved JSON says, and saving it sets them.

use closewise_domain::policy::Policy;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::store::audit::{write_audit, NewAudit};
use crate::store::revocations::{notify_revoked, Revoked};
use crate::store::{dispatch, Store};

/// A team's policy as stored; `policy` is None while nobody has saved one (the default applies).
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct TeamPolicyRow {
    pub require_mfa: bool,
    /// `team_sso.required`; false when the team has no single sign-on.
    pub require_sso: bool,
    /// The team has single sign-on set up (a `team_sso` row).
    pub sso_configured: bool,
    pub policy: Option<String>,
    pub updated_at: Option<OffsetDateTime>,
    /// The address of whoever saved it last (None once their account is gone).
    pub updated_by: Option<String>,
}

impl TeamPolicyRow {
    /// The policy in force: the saved one (the default when none, or unreadable) with the team's
    /// own `require_mfa` and `require_sso`.
    pub fn policy(&self) -> Policy {
        let mut p = self
            .policy
            .as_deref()
            .and_then(|json| serde_json::from_str::<Policy>(json).ok())
            .unwrap_or_default();
        p.require_mfa = self.require_mfa;
        p.require_sso = self.require_sso;
        p
    }
}

/// A device of the team's members: the version it last reported and when it was last seen.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct DevicePolicyRow {
    pub policy_version: Option<String>,
    pub last_seen_at: Option<OffsetDateTime>,
}

const POLICY_OF_TEAM: &str = "SELECT t.require_mfa, COALESCE(s.required, FALSE) AS require_sso, \
     (s.team_id IS NOT NULL) AS sso_configured, p.policy, p.updated_at, u.email AS updated_by \
     FROM teams t LEFT JOIN team_policies p ON p.team_id = t.id \
     LEFT JOIN team_sso s ON s.team_id = t.id \
     LEFT JOIN users u ON u.id = p.updated_by";

impl Store {
    /// The team's policy row; None for no such team.
    pub async fn team_policy(&self, team_id: Uuid) -> Result<Option<TeamPolicyRow>, sqlx::Error> {
        let sql = format!("{POLICY_OF_TEAM} WHERE t.id = $1");
        dispatch!(self, |p| sqlx::query_as::<_, TeamPolicyRow>(&sql)
            .bind(team_id)
            .fetch_optional(p)
            .await)
    }

    /// The policy of the team whose seat `user_id` holds; None in no team.
    pub async fn policy_of_member(
        &self,
        user_id: Uuid,
    ) -> Result<Option<TeamPolicyRow>, sqlx::Error> {
        let sql = format!(
            "{POLICY_OF_TEAM} JOIN team_members m ON m.team_id = t.id WHERE m.user_id = $1"
        );
        dispatch!(self, |p| sqlx::query_as::<_, TeamPolicyRow>(&sql)
            .bind(user_id)
            .fetch_optional(p)
            .await)
    }

    /// Saves the team's policy (its canonical JSON and version), sets `teams.require_mfa` and the
    /// team's `team_sso.required` (when it has SSO) to the policy's, and writes the audit row, in
    /// one transaction. Every member's cached entitlements (their policy) are announced changed
    /// (`Revoked::AllReads`).
    pub async fn save_team_policy(
        &self,
        team_id: Uuid,
        policy: &Policy,
        by: Option<Uuid>,
        audit: &NewAudit,
    ) -> Result<(), sqlx::Error> {
        let now = audit.now;
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            sqlx::query(
                "INSERT INTO team_policies (team_id, policy, policy_version, updated_by, updated_at) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (team_id) DO UPDATE SET \
                 policy = excluded.policy, policy_version = excluded.policy_version, \
                 updated_by = excluded.updated_by, updated_at = excluded.updated_at",
            )
            .bind(team_id)
            .bind(policy.canonical_json())
            .bind(policy.version())
            .bind(by)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            sqlx::query("UPDATE teams SET require_mfa = $2, updated_at = $3 WHERE id = $1")
                .bind(team_id)
                .bind(policy.require_mfa)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "UPDATE team_sso SET required = $2, updated_by = $3, updated_at = $4 \
                 WHERE team_id = $1 AND required <> $2",
            )
            .bind(team_id)
            .bind(policy.require_sso)
            .bind(by)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            write_audit!(self, tx, audit);
            notify_revoked!(self, tx, Revoked::AllReads);
            tx.commit().await?;
        });
        self.revoked(Revoked::AllReads);
        Ok(())
    }

    /// Records the policy version a device reported in a heartbeat of `call_id`.
    pub async fn record_policy_version(
        &self,
        session_id: Option<Uuid>,
        call_id: Uuid,
        version: &str,
        now: OffsetDateTime,
    ) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| {
            sqlx::query("UPDATE calls SET policy_version = $2 WHERE id = $1")
                .bind(call_id)
                .bind(version)
                .execute(p)
                .await?;
            if let Some(session) = session_id {
                sqlx::query(
                    "UPDATE sessions SET policy_version = $2, policy_reported_at = $3 WHERE id = $1",
                )
                .bind(session)
                .bind(version)
                .bind(now)
                .execute(p)
                .await?;
            }
            Ok(())
        })
    }

    /// The team members' devices (desktop sessions, not revoked) seen since `since`.
    pub async fn team_device_policies(
        &self,
        team_id: Uuid,
        since: OffsetDateTime,
    ) -> Result<Vec<DevicePolicyRow>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_as::<_, DevicePolicyRow>(
            "SELECT s.policy_version, s.last_seen_at FROM sessions s \
             JOIN team_members m ON m.user_id = s.user_id \
             WHERE m.team_id = $1 AND s.client_id IS NOT NULL AND s.revoked_at IS NULL \
             AND s.last_seen_at >= $2"
        )
        .bind(team_id)
        .bind(since)
        .fetch_all(p)
        .await)
    }
}
