//! Yearly billing for a person, against stripe-mock: a checkout of the yearly price, the interval
//! `GET /api/subscription` names, and switching monthly to yearly with a preview first; the
//! refusals a switch answers (a bad interval, no subscription, the same interval).

use super::*;
use crate::both;

const YEARLY: &str = "price_closewise_yearly";

async fn preview(b: &Billing, token: &str, query: &str) -> (StatusCode, Value) {
    body(
        b.app
            .get_auth(&format!("/api/billing/interval/preview{query}"), token)
            .await,
    )
    .await
}

async fn switch(b: &Billing, token: &str, body_json: Value) -> (StatusCode, Value) {
    let req = b
        .app
        .client
        .put(b.app.url("/api/billing/interval"))
        .bearer_auth(token)
        .json(&body_json);
    body(req.send().await.unwrap()).await
}

both!(
    async fn a_yearly_checkout_gives_the_same_pro_plan_billed_yearly(backend: Backend) {
        let b = spawn_billing(backend).await;
        let token = b.user("ana@example.com").await;
        let mut order = checkout_body();
        order["price_id"] = json!(YEARLY);
        let (status, v) = body(b.app.post_auth("/api/checkout", &token, order).await).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let url = v["url"].as_str().unwrap().to_owned();
        assert_eq!(b.pay(&url, CARD_OK).await.status(), StatusCode::SEE_OTHER);
        let (status, v) = b.confirm(&token, &Billing::session_id(&url)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["plan"]["plan_type"], "monthly", "the same Pro plan: {v}");
        let sub = b.subscription(&token).await;
        assert_eq!(
            (sub["price_id"].as_str(), sub["interval"].as_str()),
            (Some(YEARLY), Some("year")),
            "{sub}"
        );
        let end = sub["current_period_end"].as_i64().unwrap();
        let now = b.mock.now();
        assert!(end - now > 360 * 86_400, "a year's period: {sub}");

        // A yearly subscriber already has the plan the monthly price sells.
        let (status, v) = body(
            b.app
                .post_auth("/api/checkout", &token, checkout_body())
                .await,
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "already_subscribed"),
            "{v}"
        );
    }
);

both!(
    async fn a_monthly_subscriber_previews_then_switches_to_yearly(backend: Backend) {
        let b = spawn_billing(backend).await;
        let token = b.subscribed_user("ana@example.com").await;
        assert_eq!(b.subscription(&token).await["interval"], "month");
        b.mock.advance_clock(10 * 86_400);
        b.app.advance(time::Duration::days(10));
        let (_, session) = body(b.app.signin("ana@example.com", PASSWORD).await).await;
        let token = access(&session);

        let (status, p) = preview(&b, &token, "?interval=year").await;
        assert_eq!(status, StatusCode::OK, "{p}");
        assert_eq!(
            (p["interval"].as_str(), p["currency"].as_str()),
            (Some("year"), Some("usd"))
        );
        assert_eq!(p["next_total"], 20_000, "{p}");
        let due = p["amount_due_now"].as_i64().unwrap();
        assert!(
            due > 20_000 - 2000 && due < 20_000,
            "a year less the unused two-thirds month: {p}"
        );

        let (status, v) = switch(
            &b,
            &token,
            json!({"interval": "year", "proration_date": p["proration_date"]}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["subscription"]["interval"], "year", "{v}");
        assert_eq!(v["subscription"]["price_id"], YEARLY);
        assert_eq!(b.subscription(&token).await["interval"], "year");
        assert_eq!(
            b.plan(&token).await["plan_type"],
            "monthly",
            "the same entitlement"
        );
        let invoices = b.events_of_type("invoice.paid");
        let last = invoices.last().unwrap();
        assert_eq!(
            last["data"]["object"]["total"], due,
            "charged what the preview showed"
        );

        let id = b
            .app
            .state
            .store
            .user_by_email("ana@example.com")
            .await
            .unwrap()
            .unwrap()
            .id;
        let audit = b
            .app
            .state
            .store
            .audit_of(Some(id), "ana@example.com", 10)
            .await
            .unwrap();
        let row = audit
            .iter()
            .find(|a| a.action == "billing.interval")
            .expect("audited");
        let details: Value = serde_json::from_str(&row.details).unwrap();
        assert_eq!(
            details["interval"],
            json!({"before": "month", "after": "year"})
        );

        // Back the same way: the same interval now is refused.
        let (status, v) = preview(&b, &token, "?interval=year").await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "same_interval"),
            "{v}"
        );
        assert_eq!(
            error_message(&v),
            "Your subscription is already billed yearly."
        );
    }
);

both!(
    async fn a_switch_answers_bad_intervals_and_no_subscription_plainly(backend: Backend) {
        let b = spawn_billing(backend).await;
        let token = b.user("ana@example.com").await;
        for query in ["?interval=week", "?interval=", "", "?interval=Year"] {
            let (status, v) = preview(&b, &token, query).await;
            assert_eq!(
                (status, error_code(&v)),
                (StatusCode::BAD_REQUEST, "invalid_interval"),
                "{query}: {v}"
            );
            assert_eq!(
                error_message(&v),
                "The billing interval must be month or year."
            );
        }
        let (status, v) = switch(&b, &token, json!({"interval": "yearly"})).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_REQUEST, "invalid_interval"),
            "{v}"
        );
        let (status, v) = preview(&b, &token, "?interval=year").await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "no_subscription"),
            "{v}"
        );
        let (status, v) = switch(&b, &token, json!({"interval": "year"})).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "no_subscription"),
            "{v}"
        );
        let anonymous = b
            .app
            .client
            .get(b.app.url("/api/billing/interval/preview?interval=year"))
            .send()
            .await
            .unwrap();
        assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    }
);
