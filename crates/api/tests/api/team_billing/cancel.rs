//! A team's plan cancelled at the period's end and resumed, against stripe-mock: the owner's
//! (whoever may manage the team's billing), with the reason answered in `GET /api/team` and
//! audited as `team.cancel`; admins and members are refused; the clock passing the period's
//! end ends the team's subscription and its members' Pro.

use super::*;

async fn cancel(b: &Billing, token: &str, body: Option<Value>) -> (StatusCode, Value) {
    call(
        b,
        reqwest::Method::POST,
        "/api/team/billing/cancel",
        token,
        body,
    )
    .await
}

async fn resume(b: &Billing, token: &str) -> (StatusCode, Value) {
    call(
        b,
        reqwest::Method::POST,
        "/api/team/billing/resume",
        token,
        None,
    )
    .await
}

both!(
    async fn the_owner_cancels_the_teams_plan_with_a_reason_and_resumes_it(backend: Backend) {
        let b = spawn_billing(backend).await;
        let owner = owner_with_team(&b, "ana@northwind.example", "Northwind Sales").await;
        let (status, v) = cancel(&b, &owner.token, None).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "nothing_to_cancel"),
            "{v}"
        );

        let session_id = buy(&b, &owner.token, 3).await;
        let (status, v) = confirm(&b, &owner.token, &session_id).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let admin = join(&b, &owner, "ben@northwind.example", Role::Admin).await;
        let rep = join(&b, &owner, "cy@northwind.example", Role::Member).await;

        for who in [&admin, &rep] {
            let (status, v) = cancel(&b, &who.token, Some(json!({"reason": "unused"}))).await;
            assert_eq!(
                (status, error_code(&v)),
                (StatusCode::FORBIDDEN, "forbidden_role"),
                "{v}"
            );
        }
        let (status, v) = cancel(&b, &owner.token, Some(json!({"reason": "nope"}))).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_REQUEST, "invalid_reason"),
            "{v}"
        );

        let (status, v) = cancel(&b, &owner.token, Some(json!({"reason": "unused"}))).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let sub = &v["team"]["subscription"];
        assert_eq!(sub["cancel_at_period_end"], true, "{v}");
        assert_eq!(sub["cancellation_reason"], "unused", "{v}");
        let (status, v) = cancel(&b, &owner.token, None).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "already_cancelling"),
            "{v}"
        );
        let (status, v) = body(b.app.get_auth("/api/team", &admin.token).await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            v["team"]["subscription"]["cancellation_reason"], "unused",
            "{v}"
        );

        let audit = b.app.state.store.audit_log(50).await.unwrap();
        let row = audit
            .iter()
            .find(|a| a.action == "team.cancel")
            .expect("audited");
        let details: Value = serde_json::from_str(&row.details).unwrap();
        assert_eq!(details["reason"], "unused");

        let (status, v) = resume(&b, &rep.token).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::FORBIDDEN, "forbidden_role"),
            "{v}"
        );
        let (status, v) = resume(&b, &owner.token).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(
            v["team"]["subscription"]["cancel_at_period_end"], false,
            "{v}"
        );
        assert!(
            v["team"]["subscription"]["cancellation_reason"].is_null(),
            "{v}"
        );
        let (status, v) = resume(&b, &owner.token).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "nothing_to_resume"),
            "{v}"
        );

        // Cancelled again; the period ends on Stripe's clock: the members are no longer Pro.
        let (status, v) = cancel(&b, &owner.token, None).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        b.mock.advance_clock(32 * 86_400);
        wait_for_entitlements(&b, &rep.token, |e| e["source"] != "team").await;
        assert_eq!(
            team_row(&b, &owner).await.subscription_status.as_deref(),
            Some("canceled")
        );
    }
);
