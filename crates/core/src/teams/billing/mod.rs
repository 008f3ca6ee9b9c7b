//! Team billing (docs/teams.md, "Billing"): a checkout of N seats for the team's own Stripe
//! customer, its confirmation, Stripe's events about a team's subscription, the seats' preview and
//! change, and deleting a team with its subscription. The team row follows what Stripe says, read
//! back under the team's lock (`Billing::lock` keyed by the team id: in process, and the advisory
//! lock on PostgreSQL), never a personal plan. Each change is one command taking the [`Actor`]:
//! it checks the actor's role with `teams::may` (`team_for`), spends the member's Stripe budget
//! where it calls Stripe on their behalf, and writes its audit row with the change.

use crate::teams::acting::acting_on;
use closewise_domain::billing_interval::IntervalRefusal;
use closewise_domain::checkout::CheckoutRefusal;
use closewise_domain::subscription::SubscriptionStatus;
use closewise_domain::team_billing::{
    has_live_subscription, InvalidSeats, NO_TEAM_SUBSCRIPTION_MESSAGE,
    TEAM_ALREADY_SUBSCRIBED_MESSAGE,
};
use closewise_domain::teams::{may, Action, Role, SeatError};
use serde_json::json;
use uuid::Uuid;

use crate::actor::Actor;
use crate::billing::stripe::{SeatsPreview, TeamSubscription};
use crate::billing::{is_stripe_id, Billing, StripeFailure};
use crate::limits::{Limit, LimitError};
use crate::store::audit::NewAudit;
use crate::store::teams::billing::ResizeOutcome;
use crate::store::teams::TeamRow;
use crate::teams::SeatsView;

mod cancel;
mod checkout;
mod delete;
mod interval;
mod invoices;
mod live_at_stripe;
mod over_seats;
mod portal;
mod proration;
mod purchase;
pub mod reclaim;

pub use over_seats::OVER_SEATS_MAIL;
pub use purchase::{TeamInvoice, TeamPurchase, TRIAL_ENDS_MAIL};

/// Why a team billing step did not happen. `code()` is the machine code; the message is the
/// user's (except the session errors, which the API answers with the activation message).
#[derive(Debug, thiserror::Error)]
pub enum TeamBillingError {
    #[error("There is no such team.")]
    TeamNotFound,
    #[error("Your role in the team does not allow this.")]
    ForbiddenRole,
    #[error("{0}")]
    InvalidSeats(InvalidSeats),
    /// Seats out of range or below those in use (the domain's message).
    #[error("{0}")]
    Seats(SeatError),
    /// The caller may not buy (their address is not verified, or their account is gone).
    #[error("{0}")]
    Refused(CheckoutRefusal),
    /// A return address that is not a page of the site.
    #[error("The return addresses must be pages of this site")]
    InvalidRedirect,
    /// The promotion code typed cannot be used; the reason is the domain's.
    #[error("{0}")]
    InvalidPromotion(closewise_domain::promotion::PromotionRefusal),
    #[error("{}", TEAM_ALREADY_SUBSCRIBED_MESSAGE)]
    AlreadySubscribed,
    /// A trial the team had already, or an invoice the rule does not allow (the domain's).
    #[error("{0}")]
    Purchase(closewise_domain::team_purchase::PurchaseRefusal),
    #[error("{}", NO_TEAM_SUBSCRIPTION_MESSAGE)]
    NoSubscription,
    /// The subscription may not switch to that interval (it ends, or is billed so already).
    #[error("{0}")]
    Interval(IntervalRefusal),
    /// Nothing to cancel or resume, already cancelling, or the period is over.
    #[error("{0}")]
    Cancel(closewise_domain::cancellation::CancelRefusal),
    #[error("Stripe has no checkout session by that id")]
    SessionNotFound,
    #[error("the checkout session is not the team's")]
    SessionNotYours,
    #[error("the checkout session is not paid")]
    SessionNotPaid,
    /// A proration date no preview of the team issued in the last ten minutes, or one Stripe
    /// refused (outside the current period).
    #[error("The preview is out of date. Preview the change again.")]
    InvalidProrationDate,
    /// The team has no Stripe customer, so no portal.
    #[error("The team has no billing account yet. Buy seats first.")]
    NoCustomer,
    /// Stripe could not open the team's billing portal.
    #[error("the billing portal could not be opened: {0}")]
    PortalFailed(StripeFailure),
    #[error("Stripe is unavailable: {0}")]
    StripeUnavailable(StripeFailure),
    /// The member's Stripe budget is spent.
    #[error(transparent)]
    Limited(#[from] LimitError),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

impl TeamBillingError {
    pub fn code(&self) -> &'static str {
        match self {
            TeamBillingError::TeamNotFound => "team_not_found",
            TeamBillingError::ForbiddenRole => "forbidden_role",
            TeamBillingError::InvalidSeats(e) => e.code(),
            TeamBillingError::Seats(e) => e.code(),
            TeamBillingError::Refused(r) => r.code(),
            TeamBillingError::InvalidRedirect => "invalid_redirect_url",
            TeamBillingError::InvalidPromotion(r) => r.code(),
            TeamBillingError::AlreadySubscribed => "team_already_subscribed",
            TeamBillingError::Purchase(r) => r.code(),
            TeamBillingError::NoSubscription => "no_team_subscription",
            TeamBillingError::Interval(r) => r.code(),
            TeamBillingError::Cancel(r) => r.code(),
            TeamBillingError::SessionNotFound => "session_not_found",
            TeamBillingError::SessionNotYours => "session_not_yours",
            TeamBillingError::SessionNotPaid => "session_not_paid",
            TeamBillingError::InvalidProrationDate => "invalid_proration_date",
            TeamBillingError::NoCustomer => "no_customer",
            TeamBillingError::PortalFailed(_) => "portal_failed",
            TeamBillingError::StripeUnavailable(_) => "stripe_unavailable",
            TeamBillingError::Limited(_) => "rate_limited",
            TeamBillingError::Database(_) => "internal",
        }
    }
}

/// A checkout of seats for the team, as the caller asked it.
pub struct TeamCheckout<'a> {
    pub seats: u32,
    pub price_id: &'a str,
    /// The prices on sale, to price the seats for a promotion's minimum amount.
    pub prices: closewise_domain::catalogue::PriceIds<'a>,
    pub success_url: &'a str,
    pub cancel_url: &'a str,
    /// The site's base URL: both return addresses must be its pages.
    pub site: &'a str,
    /// The promotion code as the owner typed it, if any.
    pub promotion_code: Option<&'a str>,
    /// The interval `price_id` bills at (paying by invoice is for yearly seats).
    pub interval: closewise_domain::billing_interval::Interval,
    /// "Try it with your team free for 14 days": the card is taken, charged at the trial's end.
    pub trial: bool,
}

/// A seat change priced by Stripe before it is made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamSeatsPreview {
    pub seats: u32,
    pub amount_due_now: i64,
    pub next_total: i64,
    pub currency: String,
    /// Pass it back to `set_team_seats` to be charged what was shown.
    pub proration_date: i64,
}

pub(super) fn status_of(team: &TeamRow) -> Option<SubscriptionStatus> {
    team.subscription_status
        .as_deref()
        .and_then(|s| SubscriptionStatus::parse(s).ok())
}

pub(super) fn unavailable(e: StripeFailure) -> TeamBillingError {
    TeamBillingError::StripeUnavailable(e)
}

impl Billing {
    /// The team `actor` acts on (a member: their own; anyone else: `team`) and the role it acts
    /// with, when the role allows `action`; no such team: not found.
    pub async fn team_for(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        action: Action,
    ) -> Result<(TeamRow, Role), TeamBillingError> {
        let (team_id, role) = acting_on(&self.store, actor, team, action)
            .await?
            .ok_or(TeamBillingError::TeamNotFound)?;
        if !may(role, action) {
            return Err(TeamBillingError::ForbiddenRole);
        }
        let team = self.team_row(team_id).await?;
        Ok((team, role))
    }

    /// Spends a member's budget of Stripe calls (operators and jobs have none).
    pub(crate) async fn spend_stripe(&self, actor: &Actor) -> Result<(), TeamBillingError> {
        if let Some(user_id) = actor.user_id() {
            self.limits
                .spend(Limit::StripePerUser, &user_id.to_string())
                .await?;
        }
        Ok(())
    }

    pub(super) async fn team_row(&self, team_id: Uuid) -> Result<TeamRow, TeamBillingError> {
        self.store
            .team_by_id(team_id)
            .await?
            .ok_or(TeamBillingError::TeamNotFound)
    }

    /// Before an owner's account goes, and with it their team that nobody needs: the team's open
    /// checkouts are expired, so none is paid for a team that is gone. `AlreadySubscribed` when
    /// one was paid meanwhile (the team is paid for now: the owner is needed).
    pub async fn expire_team_checkouts(&self, team_id: Uuid) -> Result<(), TeamBillingError> {
        let _serialised = self.lock(team_id).await?;
        let team = self.team_row(team_id).await?;
        if let Some(customer) = &team.stripe_customer_id {
            self.expire_open_checkouts(customer).await?;
        }
        self.refuse_if_paid_at_stripe(&team).await
    }

    /// Expires the team customer's open checkout sessions. One paid in the meantime cannot be
    /// expired: its subscription is on its way, so no second checkout starts.
    pub(super) async fn expire_open_checkouts(
        &self,
        customer: &str,
    ) -> Result<(), TeamBillingError> {
        for id in self
            .stripe
            .open_checkout_sessions(customer)
            .await
            .map_err(unavailable)?
        {
            match self.stripe.expire_checkout_session(&id).await {
                Ok(()) | Err(StripeFailure::NotFound) => {}
                Err(StripeFailure::Refused { .. }) => {
                    tracing::warn!(session = %id, "an open team checkout was paid meanwhile");
                    return Err(TeamBillingError::AlreadySubscribed);
                }
                Err(e) => return Err(unavailable(e)),
            }
        }
        Ok(())
    }

    /// Stores Stripe's view of the team's subscription (seats = the item's quantity). Call it
    /// under the team's lock, with what was just read from Stripe. Fewer seats than members are
    /// stored as they are (nobody is dropped) and start an over-seats episode (`over_seats`).
    pub async fn fulfil_team(
        &self,
        team_id: Uuid,
        sub: &TeamSubscription,
    ) -> Result<bool, sqlx::Error> {
        let before = self.seats_now(team_id).await?.map(|(_, seats)| seats);
        let stored = self
            .store
            .apply_team_subscription(team_id, &sub.record, sub.quantity, self.clock.now())
            .await?;
        if stored {
            self.note_trial(team_id, sub).await?;
        }
        if let (Some(before), true) = (before, stored) {
            self.note_over_seats(&before, team_id).await?;
        }
        tracing::info!(%team_id, subscription = %sub.record.subscription_id,
            status = %sub.record.status, seats = sub.quantity, stored, "team subscription stored");
        Ok(stored)
    }

    /// The success page's activation for a team: any member may confirm; the session must be
    /// this team's (metadata and customer), complete and paid. Reads the subscription back.
    pub async fn confirm_team_checkout(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        session_id: &str,
    ) -> Result<TeamRow, TeamBillingError> {
        let id = session_id.trim();
        let (team, _) = self.team_for(actor, team, Action::ConfirmCheckout).await?;
        self.spend_stripe(actor).await?;
        if !is_stripe_id(id) {
            return Err(TeamBillingError::SessionNotFound);
        }
        let _serialised = self.lock(team.id).await?;
        let session = self
            .stripe
            .checkout_session(id)
            .await
            .map_err(|e| match e {
                StripeFailure::NotFound => TeamBillingError::SessionNotFound,
                other => unavailable(other),
            })?;
        let team = self.team_row(team.id).await?;
        let named = session.metadata_team_id.as_deref() == Some(team.id.to_string().as_str());
        let customer_ok = match (&team.stripe_customer_id, &session.customer_id) {
            (Some(known), Some(theirs)) => known == theirs,
            (Some(_), None) => false,
            (None, _) => true,
        };
        if !named || !customer_ok {
            tracing::warn!(session = %session.id, "team confirm of a session that is not the team's");
            return Err(TeamBillingError::SessionNotYours);
        }
        let Some(record) = session
            .subscription
            .filter(|_| session.complete && session.paid)
        else {
            return Err(TeamBillingError::SessionNotPaid);
        };
        let sub = self
            .stripe
            .team_subscription(&record.subscription_id)
            .await
            .map_err(unavailable)?;
        self.fulfil_team(team.id, &sub).await?;
        self.team_row(team.id).await
    }

    /// The team a subscription of Stripe's belongs to: by its customer, else by its metadata
    /// when that team has no other customer.
    pub(crate) async fn team_of_subscription(
        &self,
        sub: &TeamSubscription,
    ) -> Result<Option<Uuid>, sqlx::Error> {
        if let Some(team) = self.store.team_of_customer(&sub.record.customer_id).await? {
            return Ok(Some(team));
        }
        let Some(team_id) = sub.team_id else {
            return Ok(None);
        };
        Ok(match self.store.team_by_id(team_id).await? {
            Some(t) if t.stripe_customer_id.is_none() => Some(team_id),
            _ => None,
        })
    }

    /// What changing the team's seats to `seats` would cost now, from Stripe's invoice preview
    /// (whoever may change them).
    pub async fn preview_team_seats(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        seats: u32,
    ) -> Result<TeamSeatsPreview, TeamBillingError> {
        let (team, _) = self.team_for(actor, team, Action::PreviewSeats).await?;
        let team = &team;
        let now = self.clock.now();
        live_subscription(team)?;
        let current = self.store.team_seats(team, now).await?;
        current
            .check_resize(seats)
            .map_err(TeamBillingError::Seats)?;
        self.price_team_seats(team, seats).await
    }

    /// Stripe's price of the team's seats changed to `seats` now, with no check of the seats in
    /// use (a reclaim checks them as they will be once its members are gone).
    pub(super) async fn price_team_seats(
        &self,
        team: &TeamRow,
        seats: u32,
    ) -> Result<TeamSeatsPreview, TeamBillingError> {
        let (subscription_id, customer) = live_subscription(team)?;
        let now = self.clock.now();
        let sub = self
            .stripe
            .team_subscription(subscription_id)
            .await
            .map_err(unavailable)?;
        let item = sub
            .item_id
            .as_deref()
            .ok_or(TeamBillingError::NoSubscription)?;
        let proration_date = sub.proration_date(now.unix_timestamp());
        self.record_proration_quote(team.id, proration_date).await?;
        let SeatsPreview {
            amount_due_now,
            next_total,
            currency,
        } = self
            .stripe
            .preview_quantity(customer, subscription_id, item, seats, proration_date)
            .await
            .map_err(unavailable)?;
        Ok(TeamSeatsPreview {
            seats,
            amount_due_now,
            next_total,
            currency,
            proration_date,
        })
    }

    /// Sets the team's seats: under the team's lock and row lock, checks them against members and
    /// pending invites (`Seats::check_resize`), changes the subscription item's quantity at Stripe
    /// (`create_prorations`, at `proration_date` or now), then stores the seats and subscription
    /// Stripe answered, with `audit` (when given) in the transaction that stores them. It runs
    /// to its end on a task of its own: a caller that goes away (a closed connection) does not
    /// cut it off between Stripe's change and storing it, or before a failed decrease gives its
    /// seats back. The step of [`Billing::change_team_seats`] and of a reclaim; it checks no role.
    pub async fn set_team_seats(
        &self,
        team_id: Uuid,
        seats: u32,
        proration_date: Option<i64>,
        audit: Option<NewAudit>,
    ) -> Result<SeatsView, TeamBillingError> {
        let this = self.clone();
        tokio::spawn(async move {
            this.resize(team_id, seats, proration_date, audit.as_ref())
                .await
        })
        .await
        .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()))
    }

    /// The actor changes the team's seats (the owner, or an operator): checked against members
    /// and pending invites, changed at Stripe (at the preview's `proration_date`), stored and
    /// audited as `team.seats` together.
    pub async fn change_team_seats(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        seats: u32,
        proration_date: Option<i64>,
    ) -> Result<SeatsView, TeamBillingError> {
        let (team, _) = self.team_for(actor, team, Action::ChangeSeats).await?;
        let details =
            json!({"team_id": team.id, "seats": {"before": team.seats(), "after": seats}});
        let audit = actor.audit("team.seats", None, None, details, self.clock.now());
        self.set_team_seats(team.id, seats, proration_date, Some(audit))
            .await
    }

    async fn resize(
        &self,
        team_id: Uuid,
        seats: u32,
        proration_date: Option<i64>,
        audit: Option<&NewAudit>,
    ) -> Result<SeatsView, TeamBillingError> {
        self.check_proration_date(team_id, proration_date).await?;
        let _serialised = self.lock(team_id).await?;
        let team = self.team_row(team_id).await?;
        let (subscription_id, _) = live_subscription(&team)?;
        let now = self.clock.now();
        let stripe = &self.stripe;
        let outcome = self
            .store
            .resize_team_seats(team_id, seats, now, audit, || async move {
                let sub = stripe.team_subscription(subscription_id).await?;
                let Some(item) = sub.item_id.as_deref() else {
                    return Err(StripeFailure::NotFound);
                };
                let at = proration_date.unwrap_or_else(|| sub.proration_date(now.unix_timestamp()));
                let changed = stripe
                    .set_subscription_quantity(subscription_id, item, seats, at)
                    .await?;
                Ok((changed.record, changed.quantity))
            })
            .await?;
        match outcome {
            ResizeOutcome::Done(seats) => {
                tracing::info!(%team_id, seats = seats.total, "team seats changed");
                Ok(seats.into())
            }
            ResizeOutcome::Refused(e) => Err(TeamBillingError::Seats(e)),
            ResizeOutcome::NoTeam => Err(TeamBillingError::TeamNotFound),
            ResizeOutcome::Failed(StripeFailure::NotFound) => Err(TeamBillingError::NoSubscription),
            ResizeOutcome::Failed(StripeFailure::Refused { .. }) if proration_date.is_some() => {
                Err(TeamBillingError::InvalidProrationDate)
            }
            ResizeOutcome::Failed(e) => Err(unavailable(e)),
        }
    }
}

/// The team's subscription id and customer when it has a subscription that has not ended.
pub(super) fn live_subscription(team: &TeamRow) -> Result<(&str, &str), TeamBillingError> {
    match (&team.subscription_id, &team.stripe_customer_id) {
        (Some(sub), Some(customer)) if has_live_subscription(status_of(team)) => {
            Ok((sub, customer))
        }
        _ => Err(TeamBillingError::NoSubscription),
    }
}
