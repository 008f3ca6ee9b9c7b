//! The team owner switches the team's subscription between monthly and yearly: a preview of
//! Stripe's invoice first, then the switch at its proration date (the team's lock held), stored
//! with its `team.interval` audit row in one transaction. The same seats, at the other price.

use closewise_domain::billing_interval::{
    decide_switch, Interval, IntervalRefusal, TEAM_PREVIEW, TEAM_SWITCH,
};
use closewise_domain::catalogue::PriceIds;
use serde_json::json;
use uuid::Uuid;

use super::{live_subscription, status_of, unavailable, TeamBillingError};
use crate::actor::Actor;
use crate::billing::interval::{billed, IntervalPreview};
use crate::billing::{Billing, StripeFailure};
use crate::store::teams::TeamRow;
use closewise_domain::teams::Action;

impl Billing {
    /// The team the actor may switch with `action`, with its subscription and customer, when
    /// it may switch to `to`.
    async fn team_switchable(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        action: Action,
        to: Interval,
        prices: PriceIds<'_>,
    ) -> Result<TeamRow, TeamBillingError> {
        let (team, _) = self.team_for(actor, team, action).await?;
        live_subscription(&team)?;
        let current = status_of(&team).map(|status| {
            billed(
                status,
                team.cancel_at_period_end,
                team.price_id.as_deref(),
                prices,
            )
        });
        decide_switch(current, to).map_err(|r| match r {
            IntervalRefusal::NoSubscription => TeamBillingError::NoSubscription,
            other => TeamBillingError::Interval(other),
        })?;
        Ok(team)
    }

    /// What switching the team's subscription to `to` would cost now (the owner's).
    pub async fn preview_team_interval(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        to: Interval,
        prices: PriceIds<'_>,
    ) -> Result<IntervalPreview, TeamBillingError> {
        let team = self
            .team_switchable(actor, team, TEAM_PREVIEW, to, prices)
            .await?;
        let (subscription_id, customer) = live_subscription(&team)?;
        let (_, item, at) = self
            .switch_point(subscription_id)
            .await
            .map_err(team_failure)?;
        self.record_interval_quote(subscription_id, at).await?;
        let preview = self
            .stripe
            .preview_price(customer, subscription_id, &item, prices.of(to), at)
            .await
            .map_err(team_failure)?;
        Ok(IntervalPreview::new(to, preview, at))
    }

    /// Switches the team's subscription to `to` at the preview's `proration_date` (or now),
    /// on a task of its own so that a caller going away does not cut it off midway.
    pub async fn change_team_interval(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        to: Interval,
        prices: PriceIds<'_>,
        proration_date: Option<i64>,
    ) -> Result<TeamRow, TeamBillingError> {
        let (this, actor) = (self.clone(), actor.clone());
        let prices = (prices.monthly.to_owned(), prices.yearly.to_owned());
        tokio::spawn(async move {
            let prices = PriceIds {
                monthly: &prices.0,
                yearly: &prices.1,
            };
            this.switch_team(&actor, team, to, prices, proration_date)
                .await
        })
        .await
        .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()))
    }

    async fn switch_team(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        to: Interval,
        prices: PriceIds<'_>,
        proration_date: Option<i64>,
    ) -> Result<TeamRow, TeamBillingError> {
        let first = self
            .team_switchable(actor, team, TEAM_SWITCH, to, prices)
            .await?;
        let _serialised = self.lock(first.id).await?;
        let team = self
            .team_switchable(actor, Some(first.id), TEAM_SWITCH, to, prices)
            .await?;
        let (subscription_id, _) = live_subscription(&team)?;
        if !self
            .interval_quote_accepted(subscription_id, proration_date)
            .await?
        {
            return Err(TeamBillingError::InvalidProrationDate);
        }
        let (_, item, now_at) = self
            .switch_point(subscription_id)
            .await
            .map_err(team_failure)?;
        let changed = self
            .stripe
            .set_subscription_price(
                subscription_id,
                &item,
                prices.of(to),
                proration_date.unwrap_or(now_at),
            )
            .await
            .map_err(|e| match e {
                StripeFailure::Refused { .. } if proration_date.is_some() => {
                    TeamBillingError::InvalidProrationDate
                }
                other => team_failure(other),
            })?;
        let now = self.clock.now();
        let from = team.price_id.as_deref().and_then(|p| prices.interval_of(p));
        let details = json!({"team_id": team.id, "interval": {"before": from, "after": to}});
        let audit = actor.audit("team.interval", None, None, details, now);
        self.store
            .apply_team_subscription_audited(
                team.id,
                &changed.record,
                changed.quantity,
                now,
                &audit,
            )
            .await?;
        tracing::info!(team_id = %team.id, interval = %to, "team subscription interval changed");
        self.team_row(team.id).await
    }
}

fn team_failure(e: StripeFailure) -> TeamBillingError {
    match e {
        StripeFailure::NotFound => TeamBillingError::NoSubscription,
        other => unavailable(other),
    }
}
