//! The one way a member leaves a team (docs/teams.md "Leaving and removal"): removal by the team
//! (owner or admin), by an operator, by the team's directory (SCIM, its open invitations of the
//! address withdrawn with it) or by a reclaim, and leaving.
//! One transaction deletes the membership (never the owner's), ends every session of a removed
//! person (web and desktop: their refresh tokens die with the session, their access tokens at the
//! next check), writes the audit row when there is one, and announces both to the caches, so the
//! desktop app's next call is refused instead of running on its cached entitlement.
//!
//! A member who leaves on their own keeps their sessions: the account is theirs and stays signed
//! in; what the team gave them goes at their next read (the announcement empties the caches).

use time::OffsetDateTime;
use uuid::Uuid;

use super::{withdraw_invites_sql, CheckedRoles, STILL_CHECKED};
use crate::store::audit::{commit_audited, NewAudit};
use crate::store::revocations::{notify_revoked, Revoked};
use crate::store::sessions::REVOKE_ALL_SESSIONS;
use crate::store::{dispatch, Store};

/// The reason recorded on the sessions of a member the team, an operator or a reclaim removed.
pub const SESSIONS_ENDED_REASON: &str = "team_member_removed";

/// Who takes the member out of the team, and so what becomes of their sessions.
#[derive(Clone, Copy, Debug)]
pub enum Removal<'a> {
    /// The team's owner or an admin, on the roles read: made only while they still hold.
    ByTeam(&'a CheckedRoles),
    /// Nobody's role (an operator, a reclaim's owner after its own check): anyone but the owner.
    /// The sessions end with `reason`.
    ByOperator { reason: &'static str },
    /// The team's directory (SCIM) deprovisioning `email`: as `ByOperator`, and the team's open
    /// invitations of the address are withdrawn with the membership.
    ByDirectory {
        reason: &'static str,
        email: &'a str,
    },
    /// The member themselves, on the roles read: they keep their sessions.
    Leaving(&'a CheckedRoles),
}

impl Removal<'_> {
    fn checked(&self) -> Option<&CheckedRoles> {
        match self {
            Removal::ByTeam(c) | Removal::Leaving(c) => Some(c),
            Removal::ByOperator { .. } | Removal::ByDirectory { .. } => None,
        }
    }

    /// The reason on the sessions it ends; None: it ends none.
    fn ends_sessions(&self) -> Option<&'static str> {
        match self {
            Removal::ByTeam(_) => Some(SESSIONS_ENDED_REASON),
            Removal::ByOperator { reason } | Removal::ByDirectory { reason, .. } => Some(reason),
            Removal::Leaving(_) => None,
        }
    }
}

impl Store {
    /// Takes `user_id` out of the team as `how` says, with `audit` in the same transaction. False,
    /// with nothing written, when they are not a member, own the team, or a checked role changed.
    #[tracing::instrument(skip_all, fields(team_id = %team_id, user_id = %user_id))]
    pub async fn remove_from_team(
        &self,
        team_id: Uuid,
        user_id: Uuid,
        how: Removal<'_>,
        audit: Option<&NewAudit>,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        let mut delete = "DELETE FROM team_members WHERE team_id = $1 AND user_id = $2 \
             AND role <> 'owner'"
            .to_owned();
        if how.checked().is_some() {
            delete = format!("{delete} AND {STILL_CHECKED}");
        }
        let ended: u64 = dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let mut q = sqlx::query(&delete).bind(team_id).bind(user_id);
            if let Some(c) = how.checked() {
                q = q
                    .bind(c.target_role.as_str())
                    .bind(c.actor)
                    .bind(c.actor_role.as_str());
            }
            if q.execute(&mut *tx).await?.rows_affected() != 1 {
                // Nothing written: the transaction rolls back as it drops.
                return Ok(false);
            }
            if let Removal::ByDirectory { email, .. } = how {
                sqlx::query(&withdraw_invites_sql())
                    .bind(team_id)
                    .bind(email)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
            }
            let mut ended = 0;
            if let Some(reason) = how.ends_sessions() {
                ended = sqlx::query(REVOKE_ALL_SESSIONS)
                    .bind(user_id)
                    .bind(now)
                    .bind(reason)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
            }
            notify_revoked!(self, tx, Revoked::Reads(user_id));
            if ended > 0 {
                notify_revoked!(self, tx, Revoked::User(user_id));
            }
            commit_audited!(self, tx, audit);
            Ok::<_, sqlx::Error>(ended)
        })?;
        self.revoked(Revoked::Reads(user_id));
        if ended > 0 {
            self.revoked(Revoked::User(user_id));
        }
        Ok(true)
    }
}
