//! Sales teams (docs/teams.md): teams, their members and invitations. The changes that take
//! seats, under the team's lock, are in `seats`; the operators' changes in `admin`, the
//! Stripe side in `billing`, domain join in `join`.

use closewise_domain::teams::Role;
use time::OffsetDateTime;
use uuid::Uuid;

use super::audit::{commit_audited, NewAudit};
use super::revocations::{notify_revoked, Revoked};
use super::{dispatch, is_unique_violation, Store};
use audited::audited_one;

pub mod addressed;
pub mod admin;
pub mod adoption;
pub(crate) mod audited;
pub mod billing;
pub mod domains;
pub mod join;
pub mod pages;
pub mod policy;
pub mod removal;
pub mod scim;
pub mod seats;
pub mod setup_links;
pub mod sso;
pub mod trials;

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct TeamRow {
    pub id: Uuid,
    pub name: String,
    pub owner_id: Uuid,
    pub stripe_customer_id: Option<String>,
    pub subscription_id: Option<String>,
    pub price_id: Option<String>,
    pub seats: i32,
    pub subscription_status: Option<String>,
    pub current_period_end: Option<i64>,
    pub cancel_at_period_end: bool,
    /// The subscription's discount as JSON (`store::discount_of` reads it).
    pub discount: Option<String>,
    pub join_domain: Option<String>,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

impl TeamRow {
    pub fn seats(&self) -> u32 {
        count(i64::from(self.seats))
    }
}

/// A member with their address and the calls they started since a given instant.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct MemberRow {
    pub user_id: Uuid,
    pub email: String,
    pub role: String,
    pub joined_at: OffsetDateTime,
    pub calls_since: i64,
}

impl MemberRow {
    pub fn role(&self) -> Role {
        parse_role(&self.role)
    }
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct InviteRow {
    pub id: Uuid,
    pub team_id: Uuid,
    pub email: String,
    pub role: String,
    pub invited_by: Option<Uuid>,
    pub created_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
    pub last_sent_at: OffsetDateTime,
    pub accepted_at: Option<OffsetDateTime>,
    pub declined_at: Option<OffsetDateTime>,
    pub revoked_at: Option<OffsetDateTime>,
}

impl InviteRow {
    pub fn role(&self) -> Role {
        parse_role(&self.role)
    }

    /// Not accepted, declined nor revoked (it may have expired).
    pub fn open(&self) -> bool {
        self.accepted_at.is_none() && self.declined_at.is_none() && self.revoked_at.is_none()
    }

    pub fn expired(&self, now: OffsetDateTime) -> bool {
        now >= self.expires_at
    }

    /// Open and not expired: it holds a seat.
    pub fn pending(&self, now: OffsetDateTime) -> bool {
        self.open() && !self.expired(now)
    }
}

/// The columns are checked by the schema; anything else reads as the least privileged role.
fn parse_role(s: &str) -> Role {
    Role::parse(s).unwrap_or(Role::Member)
}

pub struct NewInvite<'a> {
    pub id: Uuid,
    pub team_id: Uuid,
    pub email: &'a str,
    pub role: Role,
    pub token_hash: &'a str,
    pub invited_by: Uuid,
    pub now: OffsetDateTime,
    pub expires_at: OffsetDateTime,
}

const TEAM_COLUMNS: &str = "id, name, owner_id, stripe_customer_id, subscription_id, price_id, \
    seats, subscription_status, current_period_end, cancel_at_period_end, discount, join_domain, \
    created_at, updated_at";

const INVITE_COLUMNS: &str = "id, team_id, email, role, invited_by, created_at, expires_at, \
    last_sent_at, accepted_at, declined_at, revoked_at";

/// The roles a member-facing change was decided on (`teams::may_remove`, `may_set_role`): the
/// change is made only while the target (`$3`) and the actor (`$4` with `$5`) still hold them,
/// so a promotion or demotion landing in between is not overridden.
#[derive(Clone, Copy, Debug)]
pub struct CheckedRoles {
    pub actor: Uuid,
    pub actor_role: Role,
    pub target_role: Role,
}

pub(super) const STILL_CHECKED: &str = "role = $3 AND EXISTS (SELECT 1 FROM team_members a \
    WHERE a.team_id = $1 AND a.user_id = $4 AND a.role = $5)";

const OPEN: &str = "accepted_at IS NULL AND declined_at IS NULL AND revoked_at IS NULL";

/// Withdraws the open invitations of one address to one team (`$1` the team, `$2` the address,
/// `$3` the time): their seats free.
fn withdraw_invites_sql() -> String {
    format!("UPDATE team_invites SET revoked_at = $3 WHERE team_id = $1 AND email = $2 AND {OPEN}")
}

pub(super) fn count(n: i64) -> u32 {
    u32::try_from(n.max(0)).unwrap_or(u32::MAX)
}

impl Store {
    /// Creates the team with `owner_id` as its owner (and first member), with `audit` in the same
    /// transaction. False, with nothing written, when the owner is in a team already.
    #[tracing::instrument(skip_all)]
    pub async fn create_team(
        &self,
        id: Uuid,
        name: &str,
        owner_id: Uuid,
        now: OffsetDateTime,
        audit: Option<&NewAudit>,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            sqlx::query(
                "INSERT INTO teams (id, name, owner_id, seats, cancel_at_period_end, \
                 created_at, updated_at) VALUES ($1, $2, $3, 0, $4, $5, $5)",
            )
            .bind(id)
            .bind(name)
            .bind(owner_id)
            .bind(false)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            let member = sqlx::query(
                "INSERT INTO team_members (team_id, user_id, role, joined_at) \
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(id)
            .bind(owner_id)
            .bind(Role::Owner.as_str())
            .bind(now)
            .execute(&mut *tx)
            .await;
            match member {
                Err(e) if is_unique_violation(&e) => return Ok(false),
                Err(e) => return Err(e),
                Ok(_) => {}
            }
            notify_revoked!(self, tx, Revoked::Reads(owner_id));
            commit_audited!(self, tx, audit);
            self.revoked(Revoked::Reads(owner_id));
            Ok(true)
        })
    }

    pub async fn team_by_id(&self, team_id: Uuid) -> Result<Option<TeamRow>, sqlx::Error> {
        let sql = format!("SELECT {TEAM_COLUMNS} FROM teams WHERE id = $1");
        dispatch!(self, |p| sqlx::query_as::<_, TeamRow>(&sql)
            .bind(team_id)
            .fetch_optional(p)
            .await)
    }

    /// The user's team and role, if they are in one.
    pub async fn membership_of(&self, user_id: Uuid) -> Result<Option<(Uuid, Role)>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_as::<_, (Uuid, String)>(
            "SELECT team_id, role FROM team_members WHERE user_id = $1"
        )
        .bind(user_id)
        .fetch_optional(p)
        .await
        .map(|r| r.map(|(team, role)| (team, parse_role(&role)))))
    }

    /// The members, oldest first, each with the calls they started at or after `since`.
    pub async fn team_members(
        &self,
        team_id: Uuid,
        since: OffsetDateTime,
    ) -> Result<Vec<MemberRow>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_as::<_, MemberRow>(
            "SELECT m.user_id, u.email, m.role, m.joined_at, \
             (SELECT COUNT(*) FROM calls c WHERE c.user_id = m.user_id AND c.started_at >= $2) \
             AS calls_since \
             FROM team_members m JOIN users u ON u.id = m.user_id \
             WHERE m.team_id = $1 ORDER BY m.joined_at, m.user_id"
        )
        .bind(team_id)
        .bind(since)
        .fetch_all(p)
        .await)
    }

    /// The team's invites neither accepted, declined nor revoked (expired ones included).
    pub async fn open_team_invites(&self, team_id: Uuid) -> Result<Vec<InviteRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {INVITE_COLUMNS} FROM team_invites WHERE team_id = $1 AND {OPEN} \
             ORDER BY created_at, id"
        );
        dispatch!(self, |p| sqlx::query_as::<_, InviteRow>(&sql)
            .bind(team_id)
            .fetch_all(p)
            .await)
    }

    /// The team's invite by id; another team's is None.
    pub async fn team_invite(
        &self,
        team_id: Uuid,
        invite_id: Uuid,
    ) -> Result<Option<InviteRow>, sqlx::Error> {
        let sql =
            format!("SELECT {INVITE_COLUMNS} FROM team_invites WHERE id = $1 AND team_id = $2");
        dispatch!(self, |p| sqlx::query_as::<_, InviteRow>(&sql)
            .bind(invite_id)
            .bind(team_id)
            .fetch_optional(p)
            .await)
    }

    pub async fn team_invite_by_hash(
        &self,
        token_hash: &str,
    ) -> Result<Option<InviteRow>, sqlx::Error> {
        let sql = format!("SELECT {INVITE_COLUMNS} FROM team_invites WHERE token_hash = $1");
        dispatch!(self, |p| sqlx::query_as::<_, InviteRow>(&sql)
            .bind(token_hash)
            .fetch_optional(p)
            .await)
    }

    /// Renames the team, with `audit` in the same transaction. False when there is no such team.
    pub async fn rename_team(
        &self,
        team_id: Uuid,
        name: &str,
        now: OffsetDateTime,
        audit: Option<&NewAudit>,
    ) -> Result<bool, sqlx::Error> {
        let sql = "UPDATE teams SET name = $2, updated_at = $3 WHERE id = $1";
        let renamed = audited_one!(
            self,
            audit,
            sqlx::query(sql).bind(team_id).bind(name).bind(now)
        )?;
        // Every member's entitlements name the team.
        self.announce_if(renamed, Revoked::AllReads).await
    }

    /// Revokes the team's open invite, with `audit` in the same transaction. False when there is
    /// none by that id.
    pub async fn revoke_team_invite(
        &self,
        team_id: Uuid,
        invite_id: Uuid,
        now: OffsetDateTime,
        audit: Option<&NewAudit>,
    ) -> Result<bool, sqlx::Error> {
        let sql = format!(
            "UPDATE team_invites SET revoked_at = $3 WHERE id = $1 AND team_id = $2 AND {OPEN}"
        );
        audited_one!(
            self,
            audit,
            sqlx::query(&sql).bind(invite_id).bind(team_id).bind(now)
        )
    }

    /// Declines an open invite, once, with `audit` in the same transaction.
    pub async fn decline_team_invite(
        &self,
        invite_id: Uuid,
        now: OffsetDateTime,
        audit: Option<&NewAudit>,
    ) -> Result<bool, sqlx::Error> {
        let sql = format!("UPDATE team_invites SET declined_at = $2 WHERE id = $1 AND {OPEN}");
        audited_one!(self, audit, sqlx::query(&sql).bind(invite_id).bind(now))
    }

    /// Gives a member who is not the owner another role (admin or member), while the roles
    /// `checked` still hold, with `audit` in the same transaction. False when there is no such
    /// member or a role changed meanwhile.
    pub async fn set_team_member_role(
        &self,
        team_id: Uuid,
        user_id: Uuid,
        role: Role,
        checked: &CheckedRoles,
        audit: Option<&NewAudit>,
    ) -> Result<bool, sqlx::Error> {
        let sql = format!(
            "UPDATE team_members SET role = $6 WHERE team_id = $1 AND user_id = $2 \
             AND role <> 'owner' AND {STILL_CHECKED}"
        );
        let changed = audited_one!(
            self,
            audit,
            sqlx::query(&sql)
                .bind(team_id)
                .bind(user_id)
                .bind(checked.target_role.as_str())
                .bind(checked.actor)
                .bind(checked.actor_role.as_str())
                .bind(role.as_str())
        )?;
        self.announce_if(changed, Revoked::Reads(user_id)).await
    }

    /// Makes the member `to` the owner and the owner `from` an admin, in one transaction. False,
    /// with nothing changed, unless `from` owns the team and `to` is another of its members.
    /// `audit` is written in the same transaction.
    pub async fn transfer_team(
        &self,
        team_id: Uuid,
        from: Uuid,
        to: Uuid,
        now: OffsetDateTime,
        audit: Option<&NewAudit>,
    ) -> Result<bool, sqlx::Error> {
        let set_role = "UPDATE team_members SET role = $3 WHERE team_id = $1 AND user_id = $2 \
             AND role = $4";
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let demoted = sqlx::query(set_role)
                .bind(team_id)
                .bind(from)
                .bind(Role::Admin.as_str())
                .bind(Role::Owner.as_str())
                .execute(&mut *tx)
                .await?;
            let promoted = sqlx::query(
                "UPDATE team_members SET role = $3 WHERE team_id = $1 AND user_id = $2 \
                 AND role <> $3",
            )
            .bind(team_id)
            .bind(to)
            .bind(Role::Owner.as_str())
            .execute(&mut *tx)
            .await?;
            if demoted.rows_affected() != 1 || promoted.rows_affected() != 1 || from == to {
                return Ok(false);
            }
            sqlx::query("UPDATE teams SET owner_id = $2, updated_at = $3 WHERE id = $1")
                .bind(team_id)
                .bind(to)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            notify_revoked!(self, tx, Revoked::Reads(from));
            notify_revoked!(self, tx, Revoked::Reads(to));
            commit_audited!(self, tx, audit);
            self.revoked(Revoked::Reads(from));
            self.revoked(Revoked::Reads(to));
            Ok(true)
        })
    }

    /// The subscription status of the user's team: None when they are in no team, Some(None)
    /// when the team has no subscription.
    pub async fn team_subscription_of_member(
        &self,
        user_id: Uuid,
    ) -> Result<Option<Option<String>>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_scalar::<_, Option<String>>(
            "SELECT t.subscription_status FROM team_members m JOIN teams t ON t.id = m.team_id \
             WHERE m.user_id = $1"
        )
        .bind(user_id)
        .fetch_optional(p)
        .await)
    }
}
