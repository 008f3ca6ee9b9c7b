//! The weekly idle-seats mail: once per ISO week, each team with a live subscription
//! and idle members (no call in 30 days, the owner aside) has its owner mailed their addresses and
//! what reclaiming their seats would save. Runs after each sweep (`Sweeper::run`); the team's row
//! of the week (`team_idle_mails`) is written with the mail in one transaction, so however many
//! sweeps or replicas run, a week's mail goes once. A team with nobody idle is noted for the week
//! too (no mail), so it is not read again until the next one.

use closewise_domain::catalogue::PRICE_CENTS;
use closewise_domain::idle_seats::{money, reclaim_offer, seat_use, week_of, Month, SeatUse};
use closewise_domain::subscription::SubscriptionStatus;
use closewise_domain::team_billing::has_live_subscription;
use closewise_domain::teams::Role;

use super::adoption::window;
use crate::clock::Clock;
use crate::mail::{Composer, Template};
use crate::store::Store;

/// The outbox's `kind` of the weekly mail.
pub const IDLE_SEATS_MAIL: &str = "team_idle_seats";

#[derive(Clone)]
pub struct IdleSeatMails {
    store: Store,
    clock: Clock,
    mail: Composer,
}

impl IdleSeatMails {
    pub fn new(store: Store, clock: Clock, mail: Composer) -> Self {
        IdleSeatMails { store, clock, mail }
    }

    /// Mails this week's owners not mailed yet; returns how many mails were queued.
    pub async fn send_due(&self) -> Result<u32, sqlx::Error> {
        let now = self.clock.now();
        let week = week_of(now);
        let mut sent = 0;
        for team in self.store.teams_without_idle_mail(&week).await? {
            let status = team
                .subscription_status
                .as_deref()
                .and_then(|s| SubscriptionStatus::parse(s).ok());
            if !has_live_subscription(status) {
                self.store
                    .record_idle_mail(team.id, &week, 0, None, now)
                    .await?;
                continue;
            }
            let rows = self
                .store
                .team_adoption_all(team.id, &window(Month::of(now), now))
                .await?;
            let owner = rows.iter().find(|r| r.user_id == team.owner_id);
            let idle: Vec<String> = rows
                .iter()
                .filter(|r| {
                    r.role != Role::Owner.as_str()
                        && seat_use(r.joined_at, r.last_call_at, r.last_seen_at, now)
                            == SeatUse::Idle
                })
                .map(|r| r.email.clone())
                .collect();
            let count = u32::try_from(idle.len()).unwrap_or(u32::MAX);
            let seats = self.store.team_seats(&team, now).await?;
            let offer = reclaim_offer(&seats, count, PRICE_CENTS);
            let mail = match owner {
                Some(owner) if count > 0 => Some(self.mail.compose(
                    &owner.email,
                    Template::TeamIdleSeats {
                        team: team.name.clone(),
                        idle,
                        seats_freed: offer.seats_freed,
                        saving: money(offer.monthly_saving, "usd"),
                        link: self.mail.page("/team#team-adoption"),
                    },
                    now,
                )),
                _ => None,
            };
            let queued = mail.is_some();
            if self
                .store
                .record_idle_mail(team.id, &week, count, mail.as_ref(), now)
                .await?
                && queued
            {
                tracing::info!(team_id = %team.id, idle = count, %week, "idle seats mailed");
                sent += 1;
            }
        }
        Ok(sent)
    }
}
