//! The team changes that take seats (docs/teams.md): an invite, accepting one, a resend that
//! revives an expired invite, fewer seats. Each runs in one transaction that first locks the
//! team's row, then recounts members and pending invites and applies the domain's `Seats` rule:
//! on PostgreSQL the row is locked `FOR UPDATE`; on SQLite the transaction begins `IMMEDIATE`,
//! taking the database's write lock before it reads. Whether an invite is still pending (not
//! expired) is decided in Rust.

use closewise_domain::subscription::SubscriptionStatus;
use closewise_domain::team_billing::may_start_checkout;
use closewise_domain::teams::{SeatError, Seats};
use time::OffsetDateTime;
use uuid::Uuid;

use super::{count, InviteRow, NewInvite, TeamRow, OPEN};
use crate::store::audit::NewAudit;
use crate::store::mail::NewMail;
use crate::store::{dispatch, is_unique_violation, Pool, Revoked, Store};

/// The end of a change that needs seats.
#[derive(Debug, PartialEq, Eq)]
pub enum SeatOutcome<T> {
    Done(T),
    Refused(SeatError),
    /// The team is gone (deleted meanwhile).
    NoTeam,
}

#[derive(Debug, PartialEq, Eq)]
pub enum AcceptOutcome {
    Joined,
    /// Accepted, declined or revoked already.
    Spent,
    AlreadyInTeam,
    Refused(SeatError),
    NoTeam,
    /// The team's directory (SCIM) deactivated the address: no seat until it reactivates them.
    Deactivated,
}

/// The team's seats as they stand through `$conn`, leaving out the invite `$except` (the one
/// being accepted or revived); `$total` is the team's seats column.
macro_rules! seats_in {
    ($conn:expr, $team_id:expr, $total:expr, $now:expr, $except:expr) => {{
        let members: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM team_members WHERE team_id = $1")
                .bind($team_id)
                .fetch_one($conn)
                .await?;
        let open: Vec<(Uuid, OffsetDateTime)> = sqlx::query_as(&format!(
            "SELECT id, expires_at FROM team_invites WHERE team_id = $1 AND {OPEN}"
        ))
        .bind($team_id)
        .fetch_all($conn)
        .await?;
        let except: Option<Uuid> = $except;
        let pending = open
            .iter()
            .filter(|(id, expires_at)| Some(*id) != except && $now < *expires_at)
            .count();
        Seats {
            total: count(i64::from($total)),
            members: count(members),
            pending_invites: u32::try_from(pending).unwrap_or(u32::MAX),
        }
    }};
}

/// Inside `locked!`: makes `$user_id` a `$role` of the team when they are in no team and a seat
/// is free for them (`$except`: the invite being accepted holds no seat of its own). Returns the
/// refusal from the enclosing function (the transaction rolls back), else `AcceptOutcome::Joined`.
/// With `$check_directory`, an address the team's directory deactivated is refused
/// (`AcceptOutcome::Deactivated`).
macro_rules! join_team {
    ($tx:ident, $team_id:expr, $total:expr, $now:expr, $user_id:expr, $role:expr, $except:expr, $check_directory:expr) => {{
        // The team's directory deactivated the address: its state wins until it reactivates them
        // (the directory's own join skips this: it is the reactivation).
        if $check_directory {
            let deactivated: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM scim_users s JOIN users u ON u.email = s.user_name \
                 WHERE s.team_id = $1 AND u.id = $2 AND NOT s.active",
            )
            .bind($team_id)
            .bind($user_id)
            .fetch_one(&mut *$tx)
            .await?;
            if deactivated > 0 {
                return Ok(AcceptOutcome::Deactivated);
            }
        }
        let in_team: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM team_members WHERE user_id = $1")
                .bind($user_id)
                .fetch_one(&mut *$tx)
                .await?;
        if in_team > 0 {
            return Ok(AcceptOutcome::AlreadyInTeam);
        }
        let seats = seats_in!(&mut *$tx, $team_id, $total, $now, $except);
        if let Err(e) = seats.check_invite() {
            return Ok(AcceptOutcome::Refused(e));
        }
        let joined = sqlx::query(
            "INSERT INTO team_members (team_id, user_id, role, joined_at) VALUES ($1, $2, $3, $4)",
        )
        .bind($team_id)
        .bind($user_id)
        .bind($role.as_str())
        .bind($now)
        .execute(&mut *$tx)
        .await;
        match joined {
            Err(e) if is_unique_violation(&e) => return Ok(AcceptOutcome::AlreadyInTeam),
            Err(e) => return Err(e),
            Ok(_) => AcceptOutcome::Joined,
        }
    }};
}

/// Inside `locked!`, after the change: its outbox `$mail` (an `Option<&NewMail>`) and its `$audit`
/// row (an `Option<&NewAudit>`), committed with it.
macro_rules! written {
    ($store:expr, $tx:ident, $mail:expr, $audit:expr) => {{
        let mail: Option<&$crate::store::mail::NewMail> = $mail;
        if let Some(mail) = mail {
            $crate::store::mail::bind_mail!(mail)
                .execute(&mut *$tx)
                .await?;
        }
        let audit: Option<&$crate::store::audit::NewAudit> = $audit;
        if let Some(audit) = audit {
            $crate::store::audit::write_audit!($store, $tx, audit);
        }
    }};
}

/// Runs `$body` in a transaction holding the team's lock, with `$seats` bound to the team's seats
/// column (`SeatOutcome::NoTeam`/`$gone` when the team is gone). Commits after the body.
macro_rules! locked {
    ($store:expr, $team_id:expr, $gone:expr, |$tx:ident, $seats:ident| $body:block) => {
        match &$store.pool {
            Pool::Sqlite(p) => {
                let mut $tx = p.begin_with("BEGIN IMMEDIATE").await?;
                let seats: Option<i32> =
                    sqlx::query_scalar("SELECT seats FROM teams WHERE id = $1")
                        .bind($team_id)
                        .fetch_optional(&mut *$tx)
                        .await?;
                let Some($seats) = seats else {
                    return Ok($gone);
                };
                let out = $body;
                $tx.commit().await?;
                out
            }
            Pool::Postgres(p) => {
                let mut $tx = crate::store::begin::begin(p).await?;
                let seats: Option<i32> =
                    sqlx::query_scalar("SELECT seats FROM teams WHERE id = $1 FOR UPDATE")
                        .bind($team_id)
                        .fetch_optional(&mut *$tx)
                        .await?;
                let Some($seats) = seats else {
                    return Ok($gone);
                };
                let out = $body;
                $tx.commit().await?;
                out
            }
        }
    };
}

impl Store {
    /// The team's seats now, without a lock (for showing them).
    pub async fn team_seats(
        &self,
        team: &TeamRow,
        now: OffsetDateTime,
    ) -> Result<Seats, sqlx::Error> {
        dispatch!(self, |p| Ok(seats_in!(p, team.id, team.seats, now, None)))
    }

    /// Invites an address under the team's lock when a seat is free, with the invitation `mail`
    /// and its `audit` row written in the same transaction. An open invite of the same address to
    /// this team is revoked first: the new one replaces it.
    #[tracing::instrument(skip_all, fields(team_id = %new.team_id))]
    pub async fn invite_to_team_mailed(
        &self,
        new: &NewInvite<'_>,
        mail: Option<&NewMail>,
        audit: Option<&NewAudit>,
    ) -> Result<SeatOutcome<()>, sqlx::Error> {
        let insert = "INSERT INTO team_invites (id, team_id, email, role, token_hash, invited_by, \
             created_at, expires_at, last_sent_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $7)";
        let replace = format!(
            "UPDATE team_invites SET revoked_at = $3 WHERE team_id = $1 AND email = $2 AND {OPEN}"
        );
        Ok(locked!(
            self,
            new.team_id,
            SeatOutcome::NoTeam,
            |tx, total| {
                sqlx::query(&replace)
                    .bind(new.team_id)
                    .bind(new.email)
                    .bind(new.now)
                    .execute(&mut *tx)
                    .await?;
                let seats = seats_in!(&mut *tx, new.team_id, total, new.now, None);
                if let Err(e) = seats.check_invite() {
                    return Ok(SeatOutcome::Refused(e));
                }
                sqlx::query(insert)
                    .bind(new.id)
                    .bind(new.team_id)
                    .bind(new.email)
                    .bind(new.role.as_str())
                    .bind(new.token_hash)
                    .bind(new.invited_by)
                    .bind(new.now)
                    .bind(new.expires_at)
                    .execute(&mut *tx)
                    .await?;
                written!(self, tx, mail, audit);
                SeatOutcome::Done(())
            }
        ))
    }

    /// Gives an open invite a new token (the old one stops working) and a new lifetime, under the
    /// team's lock: an invite that had expired held no seat, so it needs a free one again.
    /// `Done(false)`: no such open invite in this team. The new link's `mail` and the `audit` row
    /// are written in the same transaction.
    #[allow(clippy::too_many_arguments)]
    pub async fn resend_team_invite(
        &self,
        team_id: Uuid,
        invite_id: Uuid,
        token_hash: &str,
        now: OffsetDateTime,
        expires_at: OffsetDateTime,
        mail: Option<&NewMail>,
        audit: Option<&NewAudit>,
    ) -> Result<SeatOutcome<bool>, sqlx::Error> {
        let select = format!(
            "SELECT expires_at FROM team_invites WHERE id = $1 AND team_id = $2 AND {OPEN}"
        );
        let update = "UPDATE team_invites SET token_hash = $2, expires_at = $3, last_sent_at = $4 \
             WHERE id = $1";
        Ok(locked!(self, team_id, SeatOutcome::NoTeam, |tx, total| {
            let found: Option<OffsetDateTime> = sqlx::query_scalar(&select)
                .bind(invite_id)
                .bind(team_id)
                .fetch_optional(&mut *tx)
                .await?;
            let Some(old_expiry) = found else {
                return Ok(SeatOutcome::Done(false));
            };
            if now >= old_expiry {
                let seats = seats_in!(&mut *tx, team_id, total, now, Some(invite_id));
                if let Err(e) = seats.check_invite() {
                    return Ok(SeatOutcome::Refused(e));
                }
            }
            sqlx::query(update)
                .bind(invite_id)
                .bind(token_hash)
                .bind(expires_at)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            written!(self, tx, mail, audit);
            SeatOutcome::Done(true)
        }))
    }

    /// Spends the invite and makes `user_id` a member with its role, under the team's lock: the
    /// invite is spent once, the user must be in no team, and a seat must be free for them
    /// (counting everyone else). Nothing is written unless they join.
    #[tracing::instrument(skip_all, fields(team_id = %invite.team_id))]
    async fn accept_team_invite_unannounced(
        &self,
        invite: &InviteRow,
        token_hash: &str,
        user_id: Uuid,
        now: OffsetDateTime,
        audit: Option<&NewAudit>,
    ) -> Result<AcceptOutcome, sqlx::Error> {
        // Spent only through the link it has now: a resend between reading the invite and this
        // lock gave it a new token, and the old link's accept finds it spent.
        let spend = format!(
            "UPDATE team_invites SET accepted_at = $2 WHERE id = $1 AND token_hash = $3 AND {OPEN}"
        );
        Ok(locked!(
            self,
            invite.team_id,
            AcceptOutcome::NoTeam,
            |tx, total| {
                let spent = sqlx::query(&spend)
                    .bind(invite.id)
                    .bind(now)
                    .bind(token_hash)
                    .execute(&mut *tx)
                    .await?;
                if spent.rows_affected() != 1 {
                    return Ok(AcceptOutcome::Spent);
                }
                let role = invite.role();
                let joined = join_team!(
                    tx,
                    invite.team_id,
                    total,
                    now,
                    user_id,
                    role,
                    Some(invite.id),
                    true
                );
                written!(self, tx, None, audit);
                joined
            }
        ))
    }

    /// `accept_team_invite_unannounced`, then the new member's reads announced changed
    /// (`Revoked::Reads`) once they joined. `audit` is written in the joining transaction.
    pub async fn accept_team_invite(
        &self,
        invite: &InviteRow,
        token_hash: &str,
        user_id: Uuid,
        now: OffsetDateTime,
        audit: Option<&NewAudit>,
    ) -> Result<AcceptOutcome, sqlx::Error> {
        let outcome = self
            .accept_team_invite_unannounced(invite, token_hash, user_id, now, audit)
            .await?;
        let joined = outcome == AcceptOutcome::Joined;
        self.announce_if(joined, Revoked::Reads(user_id)).await?;
        Ok(outcome)
    }

    /// Records the team's seats under its lock, never below the members and pending invites, for
    /// a team Stripe does not bill: `Done(false)`, nothing written, once its subscription is live
    /// and not an abandoned first payment (its seats are the item's quantity, changed at Stripe) — decided under the lock, so a
    /// payment landing meanwhile is never overwritten.
    pub async fn set_team_seats(
        &self,
        team_id: Uuid,
        seats: u32,
        now: OffsetDateTime,
    ) -> Result<SeatOutcome<bool>, sqlx::Error> {
        self.set_team_seats_audited(team_id, seats, now, None).await
    }

    /// `set_team_seats`, with `audit` written in the same transaction when the seats are set.
    #[tracing::instrument(skip_all, fields(team_id = %team_id))]
    pub async fn set_team_seats_audited(
        &self,
        team_id: Uuid,
        seats: u32,
        now: OffsetDateTime,
        audit: Option<&NewAudit>,
    ) -> Result<SeatOutcome<bool>, sqlx::Error> {
        Ok(locked!(self, team_id, SeatOutcome::NoTeam, |tx, total| {
            let status: Option<String> =
                sqlx::query_scalar("SELECT subscription_status FROM teams WHERE id = $1")
                    .bind(team_id)
                    .fetch_one(&mut *tx)
                    .await?;
            let status = status
                .as_deref()
                .and_then(|s| SubscriptionStatus::parse(s).ok());
            // An abandoned first payment (`incomplete`) bills nothing: as for a new checkout.
            if !may_start_checkout(status) {
                return Ok(SeatOutcome::Done(false));
            }
            let current = seats_in!(&mut *tx, team_id, total, now, None);
            if let Err(e) = current.check_resize(seats) {
                return Ok(SeatOutcome::Refused(e));
            }
            sqlx::query("UPDATE teams SET seats = $2, updated_at = $3 WHERE id = $1")
                .bind(team_id)
                .bind(i32::try_from(seats).unwrap_or(i32::MAX))
                .bind(now)
                .execute(&mut *tx)
                .await?;
            written!(self, tx, None, audit);
            SeatOutcome::Done(true)
        }))
    }
}

// The domain-join approval (`join`), single sign-on's first sign-in (`sso`) and the directory's
// join (`scim`) take a seat the same way.
pub(super) use {join_team, locked, seats_in, written};
