//! The proration dates a seats preview issues: recorded per team, and the only ones a seat change
//! may name (`closewise_domain::team_billing::proration_date_accepted`), so a client cannot pick
//! its own proration.

use closewise_domain::team_billing::{proration_date_accepted, PRORATION_QUOTE_TTL_MS};
use uuid::Uuid;

use super::TeamBillingError;
use crate::billing::Billing;

impl Billing {
    /// Records that a preview issued `proration_date` to the team now.
    pub(super) async fn record_proration_quote(
        &self,
        team_id: Uuid,
        proration_date: i64,
    ) -> Result<(), TeamBillingError> {
        let now = unix_ms(self.clock.now());
        self.store
            .record_proration_quote(team_id, proration_date, now, PRORATION_QUOTE_TTL_MS)
            .await?;
        Ok(())
    }

    /// Refuses a proration date that no preview issued to the team in the last ten minutes
    /// (`proration_date_accepted`); none at all is "now".
    pub(super) async fn check_proration_date(
        &self,
        team_id: Uuid,
        proration_date: Option<i64>,
    ) -> Result<(), TeamBillingError> {
        let Some(date) = proration_date else {
            return Ok(());
        };
        let issued = self.store.proration_quote_issued_at(team_id, date).await?;
        if proration_date_accepted(issued, unix_ms(self.clock.now())) {
            Ok(())
        } else {
            Err(TeamBillingError::InvalidProrationDate)
        }
    }
}

fn unix_ms(at: time::OffsetDateTime) -> i64 {
    (at.unix_timestamp_nanos() / 1_000_000) as i64
}
