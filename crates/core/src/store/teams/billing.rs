//! A team's Stripe side (docs/teams.md, "Billing"): its customer, the subscription Stripe reports
//! for it (seats = the item's quantity), a seat change made at Stripe with no seat given away
//! meanwhile, and deleting the team.

use std::future::Future;

use closewise_domain::cancellation::CancellationReason;
use closewise_domain::teams::Seats;
use time::OffsetDateTime;
use uuid::Uuid;

use super::seats::{locked, seats_in};
use super::{count, OPEN};
use crate::store::audit::NewStreamEvent;
use crate::store::audit::{commit_audited, write_audit, NewAudit};
use crate::store::{dispatch, Pool, Revoked, Store, SubscriptionRecord};

/// A subscription that ended never replaces the one the team has now: only the same
/// subscription, or the first, or one after the stored one ended, is written; and a live one
/// replaces an abandoned first payment (`incomplete`), which `may_start_checkout` lets the team
/// retry with a new checkout.
const APPLY: &str = "UPDATE teams SET subscription_id = $2, price_id = $3, \
    subscription_status = $4, current_period_end = $5, cancel_at_period_end = $6, seats = $7, \
    stripe_customer_id = COALESCE(stripe_customer_id, $8), updated_at = $9, discount = $10 \
    WHERE id = $1 AND (subscription_id IS NULL OR subscription_id = $2 \
    OR subscription_status IN ('canceled', 'incomplete_expired') \
    OR (subscription_status = 'incomplete' \
        AND $4 NOT IN ('incomplete', 'incomplete_expired', 'canceled')))";

/// SQLite's seat change: the team's seats `$2` where they are `$3`.
const SET_SEATS: &str = "UPDATE teams SET seats = $2, updated_at = $4 WHERE id = $1 AND seats = $3";

fn seats_column(quantity: u32) -> i32 {
    i32::try_from(quantity).unwrap_or(i32::MAX)
}

macro_rules! apply_team {
    ($conn:expr, $team_id:expr, $record:expr, $quantity:expr, $now:expr) => {
        async {
            let applied = apply_team_row!($conn, $team_id, $record, $quantity, $now)?;
            crate::store::billing::sync_reason!($conn, $record);
            Ok::<bool, sqlx::Error>(applied)
        }
        .await
    };
}

macro_rules! apply_team_row {
    ($conn:expr, $team_id:expr, $record:expr, $quantity:expr, $now:expr) => {
        sqlx::query(APPLY)
            .bind($team_id)
            .bind(&$record.subscription_id)
            .bind(&$record.price_id)
            .bind($record.status.as_str())
            .bind($record.current_period_end)
            .bind($record.cancel_at_period_end)
            .bind(seats_column($quantity))
            .bind(&$record.customer_id)
            .bind($now)
            .bind(crate::store::billing::discount_column(&$record.discount))
            .execute($conn)
            .await
            .map(|r| r.rows_affected() == 1)
    };
}

/// How a seat change at Stripe ended.
#[derive(Debug)]
pub enum ResizeOutcome<E> {
    /// Stripe changed the quantity; the team's row holds what it answered.
    Done(Seats),
    /// The domain refused the new seats; Stripe was not called.
    Refused(closewise_domain::teams::SeatError),
    /// Stripe failed; nothing changed here.
    Failed(E),
    NoTeam,
}

impl Store {
    /// Records that a seats preview issued `proration_date` to the team at `now_ms`, and forgets
    /// the team's dates issued more than `ttl_ms` before.
    pub async fn record_proration_quote(
        &self,
        team_id: Uuid,
        proration_date: i64,
        now_ms: i64,
        ttl_ms: i64,
    ) -> Result<(), sqlx::Error> {
        dispatch!(self, |p| {
            sqlx::query("DELETE FROM proration_quotes WHERE team_id = $1 AND issued_at_ms < $2")
                .bind(team_id)
                .bind(now_ms - ttl_ms)
                .execute(p)
                .await?;
            sqlx::query(
                "INSERT INTO proration_quotes (team_id, proration_date, issued_at_ms) \
                 VALUES ($1, $2, $3) ON CONFLICT (team_id, proration_date) \
                 DO UPDATE SET issued_at_ms = excluded.issued_at_ms",
            )
            .bind(team_id)
            .bind(proration_date)
            .bind(now_ms)
            .execute(p)
            .await
            .map(|_| ())
        })
    }

    /// When a preview last issued `proration_date` to the team (Unix milliseconds), if one did.
    pub async fn proration_quote_issued_at(
        &self,
        team_id: Uuid,
        proration_date: i64,
    ) -> Result<Option<i64>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_scalar(
            "SELECT issued_at_ms FROM proration_quotes WHERE team_id = $1 AND proration_date = $2"
        )
        .bind(team_id)
        .bind(proration_date)
        .fetch_optional(p)
        .await)
    }

    /// The team whose Stripe customer this is.
    pub async fn team_of_customer(&self, customer_id: &str) -> Result<Option<Uuid>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_scalar::<_, Uuid>(
            "SELECT id FROM teams WHERE stripe_customer_id = $1"
        )
        .bind(customer_id)
        .fetch_optional(p)
        .await)
    }

    /// Remembers the team's customer unless it has one; returns the one it has.
    pub async fn save_team_customer(
        &self,
        team_id: Uuid,
        customer_id: &str,
        now: OffsetDateTime,
    ) -> Result<Option<String>, sqlx::Error> {
        dispatch!(self, |p| {
            sqlx::query(
                "UPDATE teams SET stripe_customer_id = $2, updated_at = $3 \
                 WHERE id = $1 AND stripe_customer_id IS NULL",
            )
            .bind(team_id)
            .bind(customer_id)
            .bind(now)
            .execute(p)
            .await?;
            sqlx::query_scalar::<_, Option<String>>(
                "SELECT stripe_customer_id FROM teams WHERE id = $1",
            )
            .bind(team_id)
            .fetch_optional(p)
            .await
            .map(Option::flatten)
        })
    }

    /// Stores Stripe's view of the team's subscription, seats = its item's quantity. False when
    /// nothing was written (no such team, or an older subscription than the team's live one).
    #[tracing::instrument(skip_all, fields(%team_id))]
    pub async fn apply_team_subscription(
        &self,
        team_id: Uuid,
        record: &SubscriptionRecord,
        quantity: u32,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        let events = [NewStreamEvent::subscription_updated(
            team_id, record, quantity, now,
        )];
        let applied = dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let applied = apply_team!(&mut *tx, team_id, record, quantity, now)?;
            if applied {
                crate::store::audit::enqueue_events!(tx, team_id, &events);
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(applied)
        })?;
        // Each member's plan and entitlements follow the team's subscription.
        self.announce_if(applied, Revoked::AllReads).await
    }

    /// `apply_team_subscription` of a change the actor made at Stripe (a new interval), with
    /// its audit row in the same transaction.
    pub async fn apply_team_subscription_audited(
        &self,
        team_id: Uuid,
        record: &SubscriptionRecord,
        quantity: u32,
        now: OffsetDateTime,
        audit: &NewAudit,
    ) -> Result<bool, sqlx::Error> {
        let applied = dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let applied = apply_team!(&mut *tx, team_id, record, quantity, now)?;
            commit_audited!(self, tx, Some(audit));
            Ok::<_, sqlx::Error>(applied)
        })?;
        self.announce_if(applied, Revoked::AllReads).await
    }

    /// `apply_team_subscription_audited` for a cancellation or a resumption just made at
    /// Stripe: also sets the reason given (none: cleared) in the same transaction.
    pub async fn apply_team_cancellation_audited(
        &self,
        team_id: Uuid,
        record: &SubscriptionRecord,
        quantity: u32,
        reason: Option<CancellationReason>,
        now: OffsetDateTime,
        audit: &NewAudit,
    ) -> Result<bool, sqlx::Error> {
        let applied = dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let applied = apply_team!(&mut *tx, team_id, record, quantity, now)?;
            if record.cancel_at_period_end {
                crate::store::billing::set_reason!(&mut *tx, record, reason, now)?;
            }
            commit_audited!(self, tx, Some(audit));
            Ok::<_, sqlx::Error>(applied)
        })?;
        self.announce_if(applied, Revoked::AllReads).await
    }

    /// Changes the seats: checks `seats` against the members and pending invites
    /// (`Seats::check_resize`), runs `change` (the quantity change at Stripe), then stores what it
    /// answered; no invite or accept takes a seat being removed in between. On PostgreSQL the
    /// team's row stays locked (`FOR UPDATE`) throughout. SQLite has one write lock for the whole
    /// database, which must not wait for Stripe (every other write would wait, then fail after
    /// the busy timeout): there the check and a decrease's new total are written at once, Stripe
    /// is called outside any transaction, and the old total comes back if Stripe fails. Callers
    /// serialise a team's seat changes within a process (`Billing::lock`); a CLI process changing
    /// them at the same moment as the API is reconciled by the `customer.subscription.updated`
    /// webhooks, which store Stripe's quantity as read back under the team's lock.
    #[tracing::instrument(skip_all, fields(%team_id, seats))]
    pub async fn resize_team_seats<F, Fut, E>(
        &self,
        team_id: Uuid,
        seats: u32,
        now: OffsetDateTime,
        audit: Option<&NewAudit>,
        change: F,
    ) -> Result<ResizeOutcome<E>, sqlx::Error>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<(SubscriptionRecord, u32), E>>,
    {
        if let Pool::Sqlite(p) = &self.pool {
            // The check, and the seats a decrease removes held back at once (no invite or accept,
            // from this process or the CLI's, can take them), in one short write transaction.
            let mut tx = p.begin_with("BEGIN IMMEDIATE").await?;
            let total: Option<i32> = sqlx::query_scalar("SELECT seats FROM teams WHERE id = $1")
                .bind(team_id)
                .fetch_optional(&mut *tx)
                .await?;
            let Some(total) = total else {
                return Ok(ResizeOutcome::NoTeam);
            };
            let current = seats_in!(&mut *tx, team_id, total, now, None);
            if let Err(e) = current.check_resize(seats) {
                return Ok(ResizeOutcome::Refused(e));
            }
            let held = seats_column(seats) < total;
            if held {
                sqlx::query(SET_SEATS)
                    .bind(team_id)
                    .bind(seats_column(seats))
                    .bind(total)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            return match change().await {
                Ok((record, quantity)) => {
                    let mut tx = crate::store::begin::begin(p).await?;
                    apply_team!(&mut *tx, team_id, record, quantity, now)?;
                    commit_audited!(self, tx, audit);
                    Ok(ResizeOutcome::Done(Seats {
                        total: quantity,
                        ..current
                    }))
                }
                Err(e) => {
                    if held {
                        // Stripe said no (or nothing): the seats come back. Had it changed the
                        // quantity after all, its `customer.subscription.updated` sets them.
                        sqlx::query(SET_SEATS)
                            .bind(team_id)
                            .bind(total)
                            .bind(seats_column(seats))
                            .bind(now)
                            .execute(p)
                            .await?;
                    }
                    Ok(ResizeOutcome::Failed(e))
                }
            };
        }
        Ok(locked!(
            self,
            team_id,
            ResizeOutcome::NoTeam,
            |tx, total| {
                let current = seats_in!(&mut *tx, team_id, total, now, None);
                if let Err(e) = current.check_resize(seats) {
                    return Ok(ResizeOutcome::Refused(e));
                }
                let (record, quantity) = match change().await {
                    Ok(answer) => answer,
                    Err(e) => return Ok(ResizeOutcome::Failed(e)),
                };
                apply_team!(&mut *tx, team_id, record, quantity, now)?;
                if let Some(audit) = audit {
                    write_audit!(self, tx, audit);
                }
                ResizeOutcome::Done(Seats {
                    total: quantity,
                    ..current
                })
            }
        ))
    }

    /// Deletes the team (members, invites and join requests go with it) and writes the audit
    /// row in the same transaction. False when it was gone already.
    #[tracing::instrument(skip_all, fields(%team_id))]
    pub async fn delete_team_audited(
        &self,
        team_id: Uuid,
        audit: &NewAudit,
    ) -> Result<bool, sqlx::Error> {
        let deleted = dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let deleted = sqlx::query("DELETE FROM teams WHERE id = $1")
                .bind(team_id)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                == 1;
            if deleted {
                write_audit!(self, tx, audit);
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(deleted)
        })?;
        self.announce_if(deleted, Revoked::AllReads).await
    }

    /// How many members the team has, and how many open invites (expired ones included).
    pub async fn team_headcount(&self, team_id: Uuid) -> Result<(u32, u32), sqlx::Error> {
        let invites = format!("SELECT COUNT(*) FROM team_invites WHERE team_id = $1 AND {OPEN}");
        dispatch!(self, |p| {
            let members: i64 =
                sqlx::query_scalar("SELECT COUNT(*) FROM team_members WHERE team_id = $1")
                    .bind(team_id)
                    .fetch_one(p)
                    .await?;
            let open: i64 = sqlx::query_scalar(&invites)
                .bind(team_id)
                .fetch_one(p)
                .await?;
            Ok((count(members), count(open)))
        })
    }
}
