//! Reclaiming seats: removes the chosen members and lowers the team's seats in one
//! confirmed step, priced first by the same Stripe preview a seat change shows (`dry_run`). The
//! rules (who may be removed, seats never below those still used, never raised) are
//! `closewise_domain::idle_seats::check_reclaim`'s; the actor is whoever may change seats (the
//! owner, or an operator with the owner's authority).
//!
//! The members go first (the seats cannot fall below them), each removal audited and every
//! session of the removed ended (as any removal by the team: `store::teams::removal`), then the seats
//! change at Stripe with the preview's proration date. Stripe failing after the removals leaves
//! the members removed and the seats as they were: the answer says so, and the seat change can be
//! made again on its own.

use closewise_domain::idle_seats::{check_reclaim, ReclaimRefusal};
use closewise_domain::teams::{Action, Role};
use serde_json::json;
use uuid::Uuid;

use super::{live_subscription, TeamBillingError, TeamSeatsPreview};
use crate::actor::Actor;
use crate::billing::Billing;
use crate::store::teams::removal::Removal;
use crate::store::teams::CheckedRoles;
use crate::teams::SeatsView;

#[derive(Debug, thiserror::Error)]
pub enum ReclaimError {
    #[error("{0}")]
    Refused(ReclaimRefusal),
    #[error(transparent)]
    Billing(#[from] TeamBillingError),
    /// A chosen member left or changed role between the check and the removal.
    #[error("The team changed meanwhile and nobody else was removed. Look at it again.")]
    Changed,
}

impl ReclaimError {
    pub fn code(&self) -> &'static str {
        match self {
            ReclaimError::Refused(r) => r.code(),
            ReclaimError::Billing(e) => e.code(),
            ReclaimError::Changed => "team_changed",
        }
    }
}

impl From<sqlx::Error> for ReclaimError {
    fn from(e: sqlx::Error) -> Self {
        ReclaimError::Billing(TeamBillingError::Database(e))
    }
}

/// A reclaim as the caller asked it.
#[derive(Clone, Debug)]
pub struct ReclaimOrder<'a> {
    pub user_ids: &'a [Uuid],
    pub seats: u32,
    /// Price it only: nothing changes.
    pub dry_run: bool,
    /// From the dry run's preview: charged what was shown.
    pub proration_date: Option<i64>,
}

#[derive(Clone, Debug)]
pub struct Reclaimed {
    /// The members removed (to be removed, on a dry run): id and address.
    pub removed: Vec<(Uuid, String)>,
    pub seats: u32,
    /// The dry run's price of the seat change.
    pub preview: Option<TeamSeatsPreview>,
    /// The seats after a confirmed reclaim.
    pub after: Option<SeatsView>,
}

impl Billing {
    /// Checks and prices (`dry_run`) or makes a reclaim for the actor's team.
    pub async fn reclaim(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        order: &ReclaimOrder<'_>,
    ) -> Result<Reclaimed, ReclaimError> {
        let (team, role) = self.team_for(actor, team, Action::ChangeSeats).await?;
        live_subscription(&team)?;
        if !order.dry_run {
            // Checked before anyone is removed, as the seat change checks it again.
            self.check_proration_date(team.id, order.proration_date)
                .await?;
        }
        let now = self.clock.now();
        let members = self.store.team_members(team.id, now).await?;
        let roles: Vec<(Uuid, Role)> = members.iter().map(|m| (m.user_id, m.role())).collect();
        let seats = self.store.team_seats(&team, now).await?;
        check_reclaim(role, &roles, order.user_ids, &seats, order.seats)
            .map_err(ReclaimError::Refused)?;
        let chosen: Vec<(Uuid, String, Role)> = order
            .user_ids
            .iter()
            .filter_map(|id| members.iter().find(|m| m.user_id == *id))
            .map(|m| (m.user_id, m.email.clone(), m.role()))
            .collect();
        let removed = chosen.iter().map(|(id, e, _)| (*id, e.clone())).collect();
        if order.dry_run {
            let preview = self.price_team_seats(&team, order.seats).await?;
            return Ok(Reclaimed {
                removed,
                seats: order.seats,
                preview: Some(preview),
                after: None,
            });
        }
        for (id, email, target_role) in &chosen {
            let checked = CheckedRoles {
                // An operator acts with the owner's authority, checked as the owner's.
                actor: actor.user_id().unwrap_or(team.owner_id),
                actor_role: role,
                target_role: *target_role,
            };
            let audit = actor.audit(
                "team.member_remove",
                Some(*id),
                Some(email.clone()),
                json!({"team_id": team.id, "reclaim": true}),
                now,
            );
            let how = Removal::ByTeam(&checked);
            if !self
                .store
                .remove_from_team(team.id, *id, how, Some(&audit), now)
                .await?
            {
                return Err(ReclaimError::Changed);
            }
        }
        let details = json!({"team_id": team.id, "seats": {"before": team.seats(), "after": order.seats}, "reclaim": true});
        let audit = actor.audit("team.seats", None, None, details, self.clock.now());
        let after = self
            .set_team_seats(team.id, order.seats, order.proration_date, Some(audit))
            .await?;
        tracing::info!(team_id = %team.id, removed = chosen.len(), seats = after.total, "seats reclaimed");
        Ok(Reclaimed {
            removed,
            seats: after.total,
            preview: None,
            after: Some(after),
        })
    }
}
