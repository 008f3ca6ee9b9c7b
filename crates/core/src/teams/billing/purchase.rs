//! A team's free trial and paying by invoice (`closewise_domain::team_purchase`). The trial's
//! checkout is the ordinary one with `trial: true` (`checkout.rs`); here: the trial recorded once
//! when Stripe first reports it (so no team, owner or customer gets a second), the owner's mail
//! when Stripe says it ends in three days, and the subscription paid by invoice — no hosted
//! checkout: the seats are active at once and Stripe sends the invoice.

use closewise_domain::subscription::SubscriptionStatus;
use closewise_domain::team_billing::{checkout_seats, may_start_checkout};
use closewise_domain::team_purchase::{
    decide_purchase, trial_ends_notice, Collection, INVOICE_DAYS_UNTIL_DUE,
};
use closewise_domain::teams::Action;
use serde_json::json;
use uuid::Uuid;

use super::{status_of, unavailable, TeamBillingError, TeamCheckout};
use crate::actor::Actor;
use crate::billing::stripe::{SentInvoice, TeamSubscription};
use crate::billing::Billing;
use crate::mail::templates::escape;
use crate::store::audit::NewAudit;
use crate::store::teams::trials::NewTrial;
use crate::store::teams::TeamRow;
use crate::store::NewMail;

/// The outbox's `kind` of the owner's mail that the trial ends soon.
pub const TRIAL_ENDS_MAIL: &str = "team_trial_ends";

/// A team's seats bought by invoice: the team as stored, and the invoice Stripe sent.
#[derive(Clone, Debug)]
pub struct TeamInvoice {
    pub team: TeamRow,
    pub invoice: SentInvoice,
}

/// How a team's seats were bought: Stripe's hosted checkout to open, or an invoice already sent
/// (the seats active at once).
#[derive(Clone, Debug)]
pub enum TeamPurchase {
    Checkout(String),
    Invoice(Box<TeamInvoice>),
}

impl Billing {
    /// Buys the team's seats the way `collection` says: by card through Stripe's checkout, or by
    /// an invoice due in 30 days.
    pub async fn start_team_purchase(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        order: &TeamCheckout<'_>,
        collection: Collection,
    ) -> Result<TeamPurchase, TeamBillingError> {
        match collection {
            Collection::Invoice => Ok(TeamPurchase::Invoice(Box::new(
                self.start_team_invoice(actor, team, order).await?,
            ))),
            Collection::Card => Ok(TeamPurchase::Checkout(
                self.start_team_checkout(actor, team, order).await?,
            )),
        }
    }

    /// The owner buys `seats` paid by invoice (`collection_method=send_invoice`, due in 30
    /// days): for 10 seats or more, yearly (the domain's rule), on the team's own customer. The
    /// subscription is active at once and stored on the team; Stripe sends the invoice, whose
    /// page is in the answer. Checked like a checkout (role, Stripe budget, verified address,
    /// no subscription yet, seats); audited as `team.invoice`.
    pub async fn start_team_invoice(
        &self,
        actor: &Actor,
        team: Option<Uuid>,
        order: &TeamCheckout<'_>,
    ) -> Result<TeamInvoice, TeamBillingError> {
        let (team, _) = self.team_for(actor, team, Action::StartCheckout).await?;
        self.spend_stripe(actor).await?;
        let user = self
            .store
            .user_by_id(actor.user_id().unwrap_or(team.owner_id))
            .await?
            .ok_or(TeamBillingError::Refused(
                closewise_domain::checkout::CheckoutRefusal::InvalidToken,
            ))?;
        if user.email_confirmed_at.is_none() {
            return Err(TeamBillingError::Refused(
                closewise_domain::checkout::CheckoutRefusal::EmailNotVerified,
            ));
        }
        let _serialised = self.lock(team.id).await?;
        let team = self.team_row(team.id).await?;
        if !may_start_checkout(status_of(&team)) {
            return Err(TeamBillingError::AlreadySubscribed);
        }
        let now = self.clock.now();
        let used = self.store.team_seats(&team, now).await?.used();
        let seats = checkout_seats(order.seats, used).map_err(TeamBillingError::InvalidSeats)?;
        decide_purchase(
            seats,
            order.interval,
            Collection::Invoice,
            order.trial,
            false,
        )
        .map_err(TeamBillingError::Purchase)?;
        let customer = match &team.stripe_customer_id {
            Some(c) => c.clone(),
            None => {
                let created = self
                    .stripe
                    .create_team_customer(team.id, &user.email, &team.name)
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
        let (sub, invoice) = self
            .stripe
            .create_team_invoice_subscription(
                team.id,
                &customer,
                order.price_id,
                seats,
                INVOICE_DAYS_UNTIL_DUE,
            )
            .await
            .map_err(unavailable)?;
        self.fulfil_team(team.id, &sub).await?;
        let details = json!({
            "team_id": team.id, "seats": seats, "subscription": sub.record.subscription_id,
            "invoice": invoice.id, "due_date": invoice.due_date,
        });
        self.store
            .record_audit(&actor.audit("team.invoice", None, None, details, now))
            .await?;
        tracing::info!(team_id = %team.id, seats, "team subscription paid by invoice");
        Ok(TeamInvoice {
            team: self.team_row(team.id).await?,
            invoice,
        })
    }

    /// After Stripe's view of a team's subscription was stored: a trialing one is the team's
    /// trial, recorded once.
    pub(super) async fn note_trial(
        &self,
        team_id: Uuid,
        sub: &TeamSubscription,
    ) -> Result<(), sqlx::Error> {
        if sub.record.status != SubscriptionStatus::Trialing {
            return Ok(());
        }
        let Some(team) = self.store.team_by_id(team_id).await? else {
            return Ok(());
        };
        let trial = NewTrial {
            team_id,
            owner_id: team.owner_id,
            customer_id: &sub.record.customer_id,
            subscription_id: &sub.record.subscription_id,
            trial_end: sub.trial_end,
        };
        if self
            .store
            .record_team_trial(&trial, self.clock.now())
            .await?
        {
            tracing::info!(%team_id, trial_end = ?sub.trial_end, "team trial started");
        }
        Ok(())
    }

    /// Stripe's `customer.subscription.trial_will_end` for a team's subscription (stored just
    /// before): the owner is mailed when the trial ends and what is charged then, once per
    /// trial, with its audit row, in one transaction.
    pub(crate) async fn remind_trial_end(
        &self,
        team_id: Uuid,
        sub: &TeamSubscription,
    ) -> Result<(), sqlx::Error> {
        let Some(trial_end) = sub
            .trial_end
            .filter(|_| sub.record.status == SubscriptionStatus::Trialing)
        else {
            return Ok(());
        };
        let Some(team) = self.store.team_by_id(team_id).await? else {
            return Ok(());
        };
        let Some(owner) = self.store.user_by_id(team.owner_id).await? else {
            return Ok(());
        };
        let now = self.clock.now();
        // A trial started before it was recorded here (an event missed) is recorded now.
        self.note_trial(team_id, sub).await?;
        let (subject, mut text) = trial_ends_notice(&team.name, sub.quantity, trial_end);
        let mut html = format!("<p>{}</p>", escape(&text));
        let link = self.base_url.as_ref().map(|b| format!("{b}/team"));
        if let Some(link) = &link {
            text.push_str(&format!("\n\nThe team page: {link}"));
            html.push_str(&format!(
                "<p><a href=\"{}\">Open the team page</a></p>",
                escape(link)
            ));
        }
        let mail = NewMail {
            id: Uuid::now_v7(),
            to: owner.email,
            kind: TRIAL_ENDS_MAIL,
            subject,
            text_body: text,
            html_body: html,
            link,
            created_at: now,
        };
        let audit = NewAudit {
            actor: "stripe".to_owned(),
            action: "team.trial_will_end",
            user_id: Some(team.owner_id),
            target_email: None,
            reason: None,
            details: json!({"team_id": team_id, "trial_end": trial_end}),
            now,
        };
        if self
            .store
            .remind_team_trial(team_id, &audit, &mail, now)
            .await?
        {
            tracing::info!(%team_id, trial_end, "team trial ends soon: owner mailed");
        }
        Ok(())
    }
}
