//! Failed payments against stripe-mock's clock: a renewal declined (4000 0000 0000 0341) is
//! stored past due with Stripe's next try and mailed on each failure, Pro stays through the
//! retries, a card updated in the portal pays at once (a receipt, the failure gone), and retries
//! exhausted end the plan with a mail saying how to come back.

use super::*;
use crate::both;

const DAY: i64 = 86_400;
const CARD_FAILS_LATER: &str = "4000 0000 0000 0341";

impl Billing {
    /// Sets a card in the user's billing portal, as the portal's form does.
    async fn portal_card(&self, token: &str, card: &str) {
        let (status, v) = body(
            self.app
                .post_auth("/api/billing/portal", token, json!({}))
                .await,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let resp = self
            .app
            .client
            .post(format!("{}/card", v["url"].as_str().unwrap()))
            .form(&[("cardnumber", card), ("exp", "12 / 34"), ("cvc", "123")])
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::SEE_OTHER);
    }

    /// Moves stripe-mock's clock just past the subscription's period end.
    async fn to_renewal(&self, token: &str) {
        let end = self.subscription(token).await["current_period_end"]
            .as_i64()
            .unwrap();
        self.mock.advance_clock(end - self.mock.now() + 60);
    }

    /// Mails of `kind` to `to`, oldest first.
    async fn mails_of(&self, to: &str, kind: &str) -> Vec<closewise_core::store::MailRow> {
        let mut mails: Vec<_> = self
            .app
            .mails_to(to)
            .await
            .into_iter()
            .filter(|m| m.kind == kind)
            .collect();
        mails.reverse();
        mails
    }
}

both!(
    async fn a_declined_renewal_is_retried_and_a_card_updated_in_the_portal_recovers_it(
        backend: Backend,
    ) {
        let b = spawn_billing(backend).await;
        let email = "ana@example.com";
        let token = b.subscribed_user(email).await;
        b.portal_card(&token, CARD_FAILS_LATER).await;
        b.to_renewal(&token).await;

        let sub = b
            .wait_for_subscription(&token, |s| s["attempt_count"] == 1)
            .await;
        assert_eq!(sub["subscription_status"], "past_due");
        let since = sub["past_due_since"].as_i64().unwrap();
        assert_eq!(sub["next_payment_attempt"], json!(since + DAY), "{sub}");
        assert_eq!(
            b.plan(&token).await["plan_type"],
            "monthly",
            "Pro stays through the retries"
        );
        let (_, e) = body(b.app.get_auth("/api/entitlements", &token).await).await;
        assert_eq!(
            (e["unlimited"].as_bool(), e["warning"].as_str()),
            (Some(true), Some("payment_failed")),
            "the desktop app's warning: {e}"
        );
        let failed = b.mails_of(email, "payment_failed").await;
        assert_eq!(failed.len(), 1);
        assert!(
            failed[0].text_body.contains("20.00 USD"),
            "{}",
            failed[0].text_body
        );
        assert!(
            failed[0]
                .text_body
                .contains(&format!("{BASE}/dashboard#update-card")),
            "{}",
            failed[0].text_body
        );
        let next_day = closewise_domain::dunning::day_label(since + DAY);
        assert!(failed[0].text_body.contains(&next_day), "{next_day}");

        // The day-1 retry fails too: a second mail with the day-3 try.
        b.mock.advance_clock(DAY + 60);
        let sub = b
            .wait_for_subscription(&token, |s| s["attempt_count"] == 2)
            .await;
        assert_eq!(sub["next_payment_attempt"], json!(since + 3 * DAY));
        assert_eq!(
            sub["past_due_since"],
            json!(since),
            "since the first failure"
        );
        b.wait_for_deliveries().await;
        assert_eq!(b.mails_of(email, "payment_failed").await.len(), 2);

        b.portal_card(&token, CARD_OK).await;
        let sub = b
            .wait_for_subscription(&token, |s| s["subscription_status"] == "active")
            .await;
        b.wait_for_deliveries().await;
        let sub = if sub["past_due_since"].is_null() {
            sub
        } else {
            b.wait_for_subscription(&token, |s| s["past_due_since"].is_null())
                .await
        };
        assert_eq!(
            (
                sub["attempt_count"].clone(),
                sub["next_payment_attempt"].clone()
            ),
            (Value::Null, Value::Null)
        );
        let receipts = b.mails_of(email, "payment_recovered").await;
        assert_eq!(receipts.len(), 1, "one receipt");
        assert!(receipts[0].text_body.contains("20.00 USD paid on"));
        assert_eq!(b.plan(&token).await["plan_type"], "monthly");
    }
);

both!(
    async fn retries_exhausted_end_the_plan_with_a_mail_saying_how_to_come_back(backend: Backend) {
        let b = spawn_billing(backend).await;
        let email = "ben@example.com";
        let token = b.subscribed_user(email).await;
        b.portal_card(&token, CARD_FAILS_LATER).await;
        b.to_renewal(&token).await;
        b.wait_for_subscription(&token, |s| s["attempt_count"] == 1)
            .await;
        b.mock.advance_clock(8 * DAY);
        let plan = b.wait_for_plan(&token, |p| p["plan_type"] == "free").await;
        assert!(plan["stripe_subscription_id"].is_null());
        b.wait_for_deliveries().await;
        let sub = b.subscription(&token).await;
        assert_eq!(sub["subscription_status"], "canceled");
        assert!(sub["past_due_since"].is_null(), "{sub}");
        let ended = b.mails_of(email, "subscription_ended_unpaid").await;
        assert_eq!(ended.len(), 1);
        assert!(ended[0].text_body.contains(&format!("{BASE}/dashboard")));
        assert!(b.app.state.billing.past_due().await.unwrap().is_empty());
        let events = b.events_of_type("invoice.payment_failed");
        assert_eq!(events.len(), 5, "the renewal and four retries");
    }
);
