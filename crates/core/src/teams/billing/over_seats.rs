//! A team whose seats Stripe lowered below its members (`closewise_domain::over_seats`): nobody
//! is dropped; the owner is mailed once per episode, through the outbox, and the change audited.
//! Runs after each store of Stripe's view of a team's subscription (`Billing::fulfil_team`: the
//! webhooks, the success page's confirm, the CLI's replay), under the team's lock, so two
//! deliveries of one change (or two replicas) see the episode start once.

use closewise_domain::over_seats::{episode_starts, owner_notice};
use closewise_domain::teams::Seats;
use serde_json::json;
use uuid::Uuid;

use crate::billing::Billing;
use crate::mail::templates::escape;
use crate::store::audit::NewAudit;
use crate::store::teams::TeamRow;
use crate::store::NewMail;

/// The outbox's `kind` of the owner's mail.
pub const OVER_SEATS_MAIL: &str = "team_over_seats";

impl Billing {
    /// The team's seats as they are now (None: the team is gone).
    pub(super) async fn seats_now(
        &self,
        team_id: Uuid,
    ) -> Result<Option<(TeamRow, Seats)>, sqlx::Error> {
        let Some(team) = self.store.team_by_id(team_id).await? else {
            return Ok(None);
        };
        let seats = self.store.team_seats(&team, self.clock.now()).await?;
        Ok(Some((team, seats)))
    }

    /// After Stripe's seats were stored: when they just fell below the members, mail the owner
    /// and audit it. Stored first, then mailed: a crash between the two loses the mail rather
    /// than sending it twice (the notice on `/team` stays).
    pub(super) async fn note_over_seats(
        &self,
        before: &Seats,
        team_id: Uuid,
    ) -> Result<(), sqlx::Error> {
        let Some((team, after)) = self.seats_now(team_id).await? else {
            return Ok(());
        };
        if !episode_starts(before, &after) {
            return Ok(());
        }
        let Some(notice) = owner_notice(&team.name, &after) else {
            return Ok(());
        };
        let now = self.clock.now();
        tracing::warn!(%team_id, seats = after.total, members = after.members, "team over seats");
        self.store
            .record_audit(&NewAudit {
                actor: "stripe".to_owned(),
                action: "team.over_seats",
                user_id: Some(team.owner_id),
                target_email: None,
                reason: None,
                details: json!({"team_id": team_id, "seats": after.total, "members": after.members}),
                now,
            })
            .await?;
        let Some(owner) = self.store.user_by_id(team.owner_id).await? else {
            return Ok(());
        };
        let link = self.base_url.as_ref().map(|b| format!("{b}/team"));
        let mut text = notice.clone();
        let mut html = format!("<p>{}</p>", escape(&notice));
        if let Some(link) = &link {
            text.push_str(&format!("\n\nManage the team: {link}"));
            html.push_str(&format!(
                "<p><a href=\"{}\">Manage the team</a></p>",
                escape(link)
            ));
        }
        self.store
            .enqueue_mail(&NewMail {
                id: Uuid::now_v7(),
                to: owner.email,
                kind: OVER_SEATS_MAIL,
                subject: format!("{} has fewer seats than members", team.name),
                text_body: text,
                html_body: html,
                link: None,
                created_at: now,
            })
            .await
    }
}
