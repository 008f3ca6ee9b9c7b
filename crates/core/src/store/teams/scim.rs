//! SCIM provisioning's rows (migration 0017, docs/teams.md): a team's SCIM tokens (hashed) and the
//! users its identity provider manages, and the membership changes SCIM makes: joining under the
//! team's lock (taking a seat) and withdrawing an address's invitations. Removing a member is
//! `removal`'s, as for every other way out of a team.

use closewise_domain::teams::{Role, Seats};
use time::OffsetDateTime;
use uuid::Uuid;

use super::seats::{join_team, locked, seats_in, written, AcceptOutcome};
use super::{count, withdraw_invites_sql, OPEN};
use crate::store::audit::{commit_audited, NewAudit};
use crate::store::revocations::Revoked;
use crate::store::tokens::confirm_vouched;
use crate::store::{dispatch, is_unique_violation, Pool, Store};

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ScimTokenRow {
    pub id: Uuid,
    pub team_id: Uuid,
    /// The owner's name for it; '' for tokens made before tokens had names.
    pub name: String,
    pub created_by: Option<Uuid>,
    pub created_at: OffsetDateTime,
    pub last_used_at: Option<OffsetDateTime>,
    pub revoked_at: Option<OffsetDateTime>,
}

/// A SCIM token to store: its hash only, never the secret.
#[derive(Clone, Copy, Debug)]
pub struct ScimTokenInsert<'a> {
    pub id: Uuid,
    pub team_id: Uuid,
    pub name: &'a str,
    pub token_hash: &'a str,
    pub created_by: Option<Uuid>,
    pub created_at: OffsetDateTime,
    /// The setup link it was made through (migration 0035).
    pub setup_link_id: Option<Uuid>,
}

/// A user the team's identity provider manages. `resource`: the attributes it sent, as JSON.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ScimUserRow {
    pub id: Uuid,
    pub team_id: Uuid,
    /// The address, normalised.
    pub user_name: String,
    pub external_id: Option<String>,
    pub active: bool,
    pub resource: String,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

const TOKEN_COLUMNS: &str = "id, team_id, name, created_by, created_at, last_used_at, revoked_at";
const USER_COLUMNS: &str =
    "id, team_id, user_name, external_id, active, resource, created_at, updated_at";

/// Which users a list reads: all, or those whose column equals a value.
#[derive(Clone, Copy, Debug)]
pub enum ScimUserFilter<'a> {
    All,
    UserName(&'a str),
    ExternalId(&'a str),
    Id(Uuid),
}

impl ScimUserFilter<'_> {
    fn sql(&self) -> &'static str {
        match self {
            ScimUserFilter::All => "",
            ScimUserFilter::UserName(_) => " AND user_name = $2",
            ScimUserFilter::ExternalId(_) => " AND external_id = $2",
            ScimUserFilter::Id(_) => " AND id = $2",
        }
    }
}

macro_rules! bind_filter {
    ($q:expr, $filter:expr) => {
        match $filter {
            ScimUserFilter::All => $q,
            ScimUserFilter::UserName(v) | ScimUserFilter::ExternalId(v) => $q.bind(v),
            ScimUserFilter::Id(id) => $q.bind(id),
        }
    };
}

impl Store {
    /// Stores a new token (its hash) with `audit` in the same transaction.
    pub async fn insert_scim_token(
        &self,
        token: &ScimTokenInsert<'_>,
        audit: Option<&NewAudit>,
    ) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            sqlx::query(
                "INSERT INTO scim_tokens (id, team_id, name, token_hash, created_by, created_at, \
                 setup_link_id) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(token.id)
            .bind(token.team_id)
            .bind(token.name)
            .bind(token.token_hash)
            .bind(token.created_by)
            .bind(token.created_at)
            .bind(token.setup_link_id)
            .execute(&mut *tx)
            .await?;
            commit_audited!(self, tx, audit);
            Ok(())
        })
    }

    /// The tokens made through a setup link, oldest first.
    pub async fn setup_link_scim_tokens(
        &self,
        link_id: Uuid,
    ) -> Result<Vec<ScimTokenRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {TOKEN_COLUMNS} FROM scim_tokens WHERE setup_link_id = $1 \
             ORDER BY created_at, id"
        );
        dispatch!(self, |p| sqlx::query_as::<_, ScimTokenRow>(&sql)
            .bind(link_id)
            .fetch_all(p)
            .await)
    }

    /// The team's tokens, newest first, revoked ones included.
    pub async fn scim_tokens(&self, team_id: Uuid) -> Result<Vec<ScimTokenRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {TOKEN_COLUMNS} FROM scim_tokens WHERE team_id = $1 \
             ORDER BY created_at DESC, id DESC"
        );
        dispatch!(self, |p| sqlx::query_as::<_, ScimTokenRow>(&sql)
            .bind(team_id)
            .fetch_all(p)
            .await)
    }

    /// Revokes one of the team's live tokens with `audit` in the same transaction. False (and
    /// nothing written) when there is none by that id.
    pub async fn revoke_scim_token(
        &self,
        team_id: Uuid,
        id: Uuid,
        now: OffsetDateTime,
        audit: Option<&NewAudit>,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let done = sqlx::query(
                "UPDATE scim_tokens SET revoked_at = $3 \
                 WHERE team_id = $1 AND id = $2 AND revoked_at IS NULL",
            )
            .bind(team_id)
            .bind(id)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected()
                == 1;
            if !done {
                return Ok(false);
            }
            commit_audited!(self, tx, audit);
            Ok(true)
        })
    }

    /// Revokes every live token of the team (SCIM turned off); how many. `audit` lands in the
    /// same transaction, its details given `tokens_revoked`.
    pub async fn revoke_all_scim_tokens(
        &self,
        team_id: Uuid,
        now: OffsetDateTime,
        audit: Option<&NewAudit>,
    ) -> Result<u64, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let revoked = sqlx::query(
                "UPDATE scim_tokens SET revoked_at = $2 WHERE team_id = $1 AND revoked_at IS NULL",
            )
            .bind(team_id)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            let audit = audit.cloned().map(|mut a| {
                if let Some(d) = a.details.as_object_mut() {
                    d.insert("tokens_revoked".into(), revoked.into());
                }
                a
            });
            commit_audited!(self, tx, audit.as_ref());
            Ok(revoked)
        })
    }

    /// The live token of that hash, its use recorded at `now`: (token id, team id).
    pub async fn use_scim_token(
        &self,
        token_hash: &str,
        now: OffsetDateTime,
    ) -> Result<Option<(Uuid, Uuid)>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_as::<_, (Uuid, Uuid)>(
            "UPDATE scim_tokens SET last_used_at = $2 \
             WHERE token_hash = $1 AND revoked_at IS NULL RETURNING id, team_id"
        )
        .bind(token_hash)
        .bind(now)
        .fetch_optional(p)
        .await)
    }

    /// Adds the provider's user. False when the team has one of that user name already.
    pub async fn insert_scim_user(&self, u: &ScimUserRow) -> Result<bool, sqlx::Error> {
        let done = dispatch!(self, |p| sqlx::query(&format!(
            "INSERT INTO scim_users ({USER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
        ))
        .bind(u.id)
        .bind(u.team_id)
        .bind(&u.user_name)
        .bind(&u.external_id)
        .bind(u.active)
        .bind(&u.resource)
        .bind(u.created_at)
        .bind(u.updated_at)
        .execute(p)
        .await
        .map(drop));
        match done {
            Ok(()) => Ok(true),
            Err(e) if is_unique_violation(&e) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Replaces the user's attributes. `Some(false)`: another of the team's users has that user
    /// name; None: no such user in the team.
    pub async fn update_scim_user(&self, u: &ScimUserRow) -> Result<Option<bool>, sqlx::Error> {
        let done = dispatch!(self, |p| {
            sqlx::query(
            "UPDATE scim_users SET user_name = $3, external_id = $4, active = $5, resource = $6, \
             updated_at = $7 WHERE team_id = $1 AND id = $2"
        )
        .bind(u.team_id)
        .bind(u.id)
        .bind(&u.user_name)
        .bind(&u.external_id)
        .bind(u.active)
        .bind(&u.resource)
        .bind(u.updated_at)
        .execute(p)
        .await
        .map(|r| r.rows_affected() == 1)
        });
        match done {
            Ok(true) => Ok(Some(true)),
            Ok(false) => Ok(None),
            Err(e) if is_unique_violation(&e) => Ok(Some(false)),
            Err(e) => Err(e),
        }
    }

    pub async fn delete_scim_user(&self, team_id: Uuid, id: Uuid) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| sqlx::query(
            "DELETE FROM scim_users WHERE team_id = $1 AND id = $2"
        )
        .bind(team_id)
        .bind(id)
        .execute(p)
        .await
        .map(|r| r.rows_affected() == 1))
    }

    /// One page of the team's users (by creation, `offset` rows skipped) and how many match.
    pub async fn scim_users(
        &self,
        team_id: Uuid,
        filter: ScimUserFilter<'_>,
        offset: i64,
        limit: i64,
    ) -> Result<(Vec<ScimUserRow>, u32), sqlx::Error> {
        let cond = filter.sql();
        let total_sql = format!("SELECT COUNT(*) FROM scim_users WHERE team_id = $1{cond}");
        let page_sql = format!(
            "SELECT {USER_COLUMNS} FROM scim_users WHERE team_id = $1{cond} \
             ORDER BY created_at, id LIMIT {limit} OFFSET {offset}",
            limit = limit.max(0),
            offset = offset.max(0)
        );
        dispatch!(self, |p| {
            let total: i64 = bind_filter!(sqlx::query_scalar(&total_sql).bind(team_id), filter)
                .fetch_one(p)
                .await?;
            let rows = bind_filter!(
                sqlx::query_as::<_, ScimUserRow>(&page_sql).bind(team_id),
                filter
            )
            .fetch_all(p)
            .await?;
            Ok((rows, count(total)))
        })
    }

    /// Makes `user_id` a member of the team under its lock when they are in no team and a seat is
    /// free; the team's open invitations of `email` are withdrawn first (their seat is this one).
    /// An unconfirmed account is confirmed, the directory vouched for the address, by
    /// `confirm_vouched!` (its password becomes `unusable_hash`, its sessions end, its links are
    /// voided). `audit` is written in the joining transaction: nothing is written without it.
    /// Their cached reads are announced changed once they joined.
    pub async fn scim_join_team(
        &self,
        team_id: Uuid,
        user_id: Uuid,
        email: &str,
        unusable_hash: &str,
        now: OffsetDateTime,
        audit: Option<&NewAudit>,
    ) -> Result<AcceptOutcome, sqlx::Error> {
        let before = self.user_by_id(user_id).await?;
        let outcome = self
            .scim_join_team_unannounced(team_id, user_id, email, unusable_hash, now, audit)
            .await?;
        let joined = outcome == AcceptOutcome::Joined;
        self.announce_if(joined, Revoked::Reads(user_id)).await?;
        let confirmed = joined && before.is_some_and(|b| b.email_confirmed_at.is_none());
        self.announce_if(confirmed, Revoked::User(user_id)).await?;
        Ok(outcome)
    }

    async fn scim_join_team_unannounced(
        &self,
        team_id: Uuid,
        user_id: Uuid,
        email: &str,
        unusable_hash: &str,
        now: OffsetDateTime,
        audit: Option<&NewAudit>,
    ) -> Result<AcceptOutcome, sqlx::Error> {
        let withdraw = withdraw_invites_sql();
        Ok(locked!(
            self,
            team_id,
            AcceptOutcome::NoTeam,
            |tx, total| {
                sqlx::query(&withdraw)
                    .bind(team_id)
                    .bind(email)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                confirm_vouched!(tx, user_id, unusable_hash, now);
                let joined =
                    join_team!(tx, team_id, total, now, user_id, Role::Member, None, false);
                written!(self, tx, None, audit);
                joined
            }
        ))
    }

    /// Withdraws the team's open invitations of `email` (the directory deprovisioned an address
    /// that is not a member): their seats free. `audit` lands in the same transaction. How many.
    pub async fn withdraw_team_invites_of(
        &self,
        team_id: Uuid,
        email: &str,
        now: OffsetDateTime,
        audit: Option<&NewAudit>,
    ) -> Result<u64, sqlx::Error> {
        let sql = withdraw_invites_sql();
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let withdrawn = sqlx::query(&sql)
                .bind(team_id)
                .bind(email)
                .bind(now)
                .execute(&mut *tx)
                .await?
                .rows_affected();
            commit_audited!(self, tx, audit);
            Ok(withdrawn)
        })
    }
}
