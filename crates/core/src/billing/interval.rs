//! Switching a personal subscription between monthly and yearly (`billing_interval`): a preview
//! of what Stripe would invoice, then the switch at the preview's proration date, stored and
//! audited as `billing.interval` together. The team's owner does the same for the team
//! (`teams::billing::interval`).

use closewise_domain::billing_interval::{decide_switch, Billed, Interval, IntervalRefusal};
use closewise_domain::catalogue::PriceIds;
use closewise_domain::team_billing::{proration_date_accepted, PRORATION_QUOTE_TTL_MS};
use serde_json::json;
use uuid::Uuid;

use super::stripe::{SeatsPreview, TeamSubscription};
use super::{Billing, StripeFailure};
use crate::actor::Actor;
use crate::store::SubscriptionRow;

/// What a switch of interval would cost now, from Stripe's invoice preview (cents).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IntervalPreview {
    pub interval: Interval,
    /// The switch's invoice: the new period less the unused time (negative: a credit).
    pub amount_due_now: i64,
    /// The new recurring total, each period from now on.
    pub next_total: i64,
    pub currency: String,
    /// Pass it back to the switch to be charged what was shown.
    pub proration_date: i64,
}

impl IntervalPreview {
    pub(crate) fn new(interval: Interval, p: SeatsPreview, proration_date: i64) -> Self {
        IntervalPreview {
            interval,
            amount_due_now: p.amount_due_now,
            next_total: p.next_total,
            currency: p.currency,
            proration_date,
        }
    }
}

/// Why a personal switch did not happen.
#[derive(Debug, thiserror::Error)]
pub enum IntervalError {
    #[error("{0}")]
    Refused(IntervalRefusal),
    #[error("The preview is out of date. Preview the change again.")]
    InvalidProrationDate,
    #[error("Stripe is unavailable: {0}")]
    StripeUnavailable(StripeFailure),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

impl IntervalError {
    pub fn code(&self) -> &'static str {
        match self {
            IntervalError::Refused(r) => r.code(),
            IntervalError::InvalidProrationDate => "invalid_proration_date",
            IntervalError::StripeUnavailable(_) => "stripe_unavailable",
            IntervalError::Database(_) => "internal",
        }
    }
}

/// The subscription as a switch sees it.
pub(crate) fn billed(
    status: closewise_domain::subscription::SubscriptionStatus,
    cancel_at_period_end: bool,
    price_id: Option<&str>,
    prices: PriceIds<'_>,
) -> Billed {
    Billed {
        status,
        cancel_at_period_end,
        interval: price_id.and_then(|p| prices.interval_of(p)),
    }
}

pub(crate) fn unix_ms(at: time::OffsetDateTime) -> i64 {
    (at.unix_timestamp_nanos() / 1_000_000) as i64
}

impl Billing {
    /// The subscription's item at Stripe and the proration date of a switch now.
    pub(crate) async fn switch_point(
        &self,
        subscription_id: &str,
    ) -> Result<(TeamSubscription, String, i64), StripeFailure> {
        let sub = self.stripe.team_subscription(subscription_id).await?;
        let item = sub.item_id.clone().ok_or(StripeFailure::NotFound)?;
        let at = sub.proration_date(self.clock.now().unix_timestamp());
        Ok((sub, item, at))
    }

    /// Records that a preview issued `proration_date` for the subscription now.
    pub(crate) async fn record_interval_quote(
        &self,
        subscription_id: &str,
        proration_date: i64,
    ) -> Result<(), sqlx::Error> {
        let now = unix_ms(self.clock.now());
        self.store
            .record_interval_quote(subscription_id, proration_date, now, PRORATION_QUOTE_TTL_MS)
            .await
    }

    /// Whether a switch may name `proration_date` (none: now).
    pub(crate) async fn interval_quote_accepted(
        &self,
        subscription_id: &str,
        proration_date: Option<i64>,
    ) -> Result<bool, sqlx::Error> {
        let Some(date) = proration_date else {
            return Ok(true);
        };
        let issued = self
            .store
            .interval_quote_issued_at(subscription_id, date)
            .await?;
        Ok(proration_date_accepted(issued, unix_ms(self.clock.now())))
    }

    /// The member's own subscription, when it may switch to `to`.
    async fn switchable(
        &self,
        actor: &Actor,
        to: Interval,
        prices: PriceIds<'_>,
    ) -> Result<(Uuid, SubscriptionRow), IntervalError> {
        let no_subscription = IntervalError::Refused(IntervalRefusal::NoSubscription);
        let user_id = actor.user_id().ok_or(no_subscription)?;
        let row = self.store.subscription_of(user_id).await?;
        let current = row.as_ref().map(|r| {
            billed(
                r.status,
                r.cancel_at_period_end,
                r.price_id.as_deref(),
                prices,
            )
        });
        decide_switch(current, to).map_err(IntervalError::Refused)?;
        Ok((user_id, row.expect("decide_switch refuses no subscription")))
    }

    /// What switching the member's subscription to `to` would cost now.
    pub async fn preview_interval(
        &self,
        actor: &Actor,
        to: Interval,
        prices: PriceIds<'_>,
    ) -> Result<IntervalPreview, IntervalError> {
        let (_, row) = self.switchable(actor, to, prices).await?;
        let (_, item, at) = self
            .switch_point(&row.subscription_id)
            .await
            .map_err(stripe_failure)?;
        self.record_interval_quote(&row.subscription_id, at).await?;
        let preview = self
            .stripe
            .preview_price(
                &row.customer_id,
                &row.subscription_id,
                &item,
                prices.of(to),
                at,
            )
            .await
            .map_err(stripe_failure)?;
        Ok(IntervalPreview::new(to, preview, at))
    }

    /// Switches the member's subscription to `to` at the preview's `proration_date` (or now):
    /// under the user's lock, changed at Stripe, then stored with its `billing.interval` audit
    /// row in one transaction. It runs to its end on a task of its own, so a caller that goes
    /// away does not cut it off between Stripe's change and storing it.
    pub async fn change_interval(
        &self,
        actor: &Actor,
        to: Interval,
        prices: PriceIds<'_>,
        proration_date: Option<i64>,
    ) -> Result<SubscriptionRow, IntervalError> {
        let (this, actor) = (self.clone(), actor.clone());
        let prices = (prices.monthly.to_owned(), prices.yearly.to_owned());
        tokio::spawn(async move {
            let prices = PriceIds {
                monthly: &prices.0,
                yearly: &prices.1,
            };
            this.switch(&actor, to, prices, proration_date).await
        })
        .await
        .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()))
    }

    async fn switch(
        &self,
        actor: &Actor,
        to: Interval,
        prices: PriceIds<'_>,
        proration_date: Option<i64>,
    ) -> Result<SubscriptionRow, IntervalError> {
        let (user_id, _) = self.switchable(actor, to, prices).await?;
        let _serialised = self.lock(user_id).await?;
        let (user_id, row) = self.switchable(actor, to, prices).await?;
        if !self
            .interval_quote_accepted(&row.subscription_id, proration_date)
            .await?
        {
            return Err(IntervalError::InvalidProrationDate);
        }
        let (_, item, now_at) = self
            .switch_point(&row.subscription_id)
            .await
            .map_err(stripe_failure)?;
        let changed = self
            .stripe
            .set_subscription_price(
                &row.subscription_id,
                &item,
                prices.of(to),
                proration_date.unwrap_or(now_at),
            )
            .await
            .map_err(|e| match e {
                StripeFailure::Refused { .. } if proration_date.is_some() => {
                    IntervalError::InvalidProrationDate
                }
                other => stripe_failure(other),
            })?;
        let now = self.clock.now();
        let from = row.price_id.as_deref().and_then(|p| prices.interval_of(p));
        let details = json!({
            "subscription_id": row.subscription_id,
            "interval": {"before": from, "after": to},
        });
        let audit = actor.audit("billing.interval", Some(user_id), None, details, now);
        self.store
            .apply_subscription_audited(user_id, &changed.record, now, |_, _| Some(audit))
            .await?;
        tracing::info!(%user_id, interval = %to, "subscription interval changed");
        self.store
            .subscription_of(user_id)
            .await?
            .ok_or(IntervalError::Refused(IntervalRefusal::NoSubscription))
    }
}

fn stripe_failure(e: StripeFailure) -> IntervalError {
    match e {
        StripeFailure::NotFound => IntervalError::Refused(IntervalRefusal::NoSubscription),
        other => IntervalError::StripeUnavailable(other),
    }
}
