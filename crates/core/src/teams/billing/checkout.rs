//! A team's checkout of N seats (docs/teams.md, "Billing"): under the team's lock, one payable
//! checkout at a time, on the team's own Stripe customer.

use closewise_domain::catalogue::{catalogue, find_by_price};
use closewise_domain::checkout::CheckoutRefusal;
use closewise_domain::team_billing::{checkout_seats, may_start_checkout};
use closewise_domain::team_purchase::{decide_purchase, Collection, TRIAL_DAYS};
use closewise_domain::teams::Action;
use serde_json::json;
use time::OffsetDateTime;
use uuid::Uuid;

use super::{status_of, unavailable, TeamBillingError, TeamCheckout};
use crate::actor::Actor;
use crate::billing::{on_site, Billing, Promotion, PromotionError};
use crate::store::teams::seats::SeatOutcome;
use crate::store::teams::TeamRow;

impl Billing {
    /// The owner's checkout of `seats` for their team, with its own customer (created once) in
    /// the owner's name and address; returns the hosted page's URL. Checked in this order: the
    /// role, the member's Stripe budget, a verified address, return pages of the site, the
    /// seats, and for a trial that neither the team, its owner nor its customer had one. Stripe
    /// failures are `StripeUnavailable` (the API's checkout_failed). Audited as `team.checkout`.
    pub async fn start_team_checkout(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        checkout: &TeamCheckout<'_>,
    ) -> Result<String, TeamBillingError> {
        let (team, _) = self.team_for(actor, team, Action::StartCheckout).await?;
        self.spend_stripe(actor).await?;
        let user = self
            .store
            .user_by_id(actor.user_id().unwrap_or(team.owner_id))
            .await?
            .ok_or(TeamBillingError::Refused(CheckoutRefusal::InvalidToken))?;
        if user.email_confirmed_at.is_none() {
            return Err(TeamBillingError::Refused(CheckoutRefusal::EmailNotVerified));
        }
        if !on_site(checkout.site, &[checkout.success_url, checkout.cancel_url]) {
            return Err(TeamBillingError::InvalidRedirect);
        }
        let promotion = self.team_promotion(&team, checkout).await?;
        // One payable checkout per team at a time: under the team's lock, the sessions it left
        // open are expired before a new one starts, so two pages (two tabs, owner and admin)
        // can never both be paid into two subscriptions.
        let _serialised = self.lock(team.id).await?;
        let team = &self.team_row(team.id).await?;
        if !may_start_checkout(status_of(team)) {
            return Err(TeamBillingError::AlreadySubscribed);
        }
        let now = self.clock.now();
        let used = self.store.team_seats(team, now).await?.used();
        let seats = checkout_seats(checkout.seats, used).map_err(TeamBillingError::InvalidSeats)?;
        if checkout.trial {
            let had_trial = self
                .store
                .had_team_trial(team.id, team.owner_id, team.stripe_customer_id.as_deref())
                .await?;
            decide_purchase(seats, checkout.interval, Collection::Card, true, had_trial)
                .map_err(TeamBillingError::Purchase)?;
        }
        // Fewer seats than the team had: the new number holds from now (under the seats lock,
        // never below those in use), so no invite meanwhile outgrows what the payment covers. If
        // no checkout opens after all, the team gets its seats back.
        let lowered = seats < team.seats()
            && match self.store.set_team_seats(team.id, seats, now).await? {
                SeatOutcome::Done(written) => written,
                SeatOutcome::Refused(e) => return Err(TeamBillingError::Seats(e)),
                SeatOutcome::NoTeam => return Err(TeamBillingError::TeamNotFound),
            };
        let url = match self
            .open_team_checkout(team, checkout, &user.email, seats, &promotion, now)
            .await
        {
            Ok(url) => url,
            Err(e) => {
                if lowered {
                    if let Err(db) = self.store.set_team_seats(team.id, team.seats(), now).await {
                        tracing::warn!(team_id = %team.id, error = %db, "seats not given back");
                    }
                }
                return Err(e);
            }
        };
        let details = json!({"team_id": team.id, "seats": seats, "trial": checkout.trial});
        self.store
            .record_audit(&actor.audit("team.checkout", None, None, details, now))
            .await?;
        tracing::info!(team_id = %team.id, seats, "team checkout started");
        Ok(url)
    }

    /// The team's customer (created once), its open checkouts expired, no payment at Stripe
    /// waiting to be stored, then the new checkout session; its URL.
    async fn open_team_checkout(
        &self,
        team: &TeamRow,
        checkout: &TeamCheckout<'_>,
        email: &str,
        seats: u32,
        promotion: &Promotion,
        now: OffsetDateTime,
    ) -> Result<String, TeamBillingError> {
        let customer = match &team.stripe_customer_id {
            Some(c) => c.clone(),
            None => {
                let created = self
                    .stripe
                    .create_team_customer(team.id, email, &team.name)
                    .await
                    .map_err(unavailable)?;
                self.store
                    .save_team_customer(team.id, &created, now)
                    .await?
                    .unwrap_or(created)
            }
        };
        self.expire_open_checkouts(&customer).await?;
        self.refuse_if_paid_at_stripe(&TeamRow {
            stripe_customer_id: Some(customer.clone()),
            ..team.clone()
        })
        .await?;
        self.stripe
            .create_team_checkout_session(
                team.id,
                &customer,
                checkout.price_id,
                seats,
                checkout.success_url,
                checkout.cancel_url,
                promotion,
                checkout.trial.then_some(TRIAL_DAYS),
            )
            .await
            .map_err(unavailable)
    }

    /// The promotion the team's checkout offers; a team that had a subscription has paid before.
    async fn team_promotion(
        &self,
        team: &TeamRow,
        checkout: &TeamCheckout<'_>,
    ) -> Result<Promotion, TeamBillingError> {
        let unit = find_by_price(&catalogue(checkout.prices), checkout.price_id)
            .map_or(0, |p| i64::from(p.price) * 100);
        let amount = unit * i64::from(checkout.seats);
        self.promotion_for(checkout.promotion_code, status_of(team).is_some(), amount)
            .await
            .map_err(|e| match e {
                PromotionError::Refused(r) => TeamBillingError::InvalidPromotion(r),
                PromotionError::Stripe(f) => unavailable(f),
            })
    }
}
