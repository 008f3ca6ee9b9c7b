//! Yearly billing for a team, against stripe-mock: a checkout of seats at the yearly price, the
//! owner's switch from monthly to yearly with a preview first (audited as `team.interval`), and
//! what the switch answers the others (members, a team with no subscription, a bad interval).

use super::*;

async fn preview(b: &Billing, token: &str, query: &str) -> (StatusCode, Value) {
    let path = format!("/api/team/billing/interval/preview{query}");
    call(b, reqwest::Method::GET, &path, token, None).await
}

async fn switch(b: &Billing, token: &str, body: Value) -> (StatusCode, Value) {
    call(
        b,
        reqwest::Method::PUT,
        "/api/team/billing/interval",
        token,
        Some(body),
    )
    .await
}

both!(
    async fn a_yearly_team_checkout_bills_each_seat_at_the_yearly_price(backend: Backend) {
        let b = spawn_billing(backend).await;
        let owner = owner_with_team(&b, "ana@northwind.example", "Northwind Sales").await;
        let mut order = checkout_body(3);
        order["interval"] = json!("year");
        let (status, v) = body(
            b.app
                .post_auth("/api/team/checkout", &owner.token, order)
                .await,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let session_id = v["url"]
            .as_str()
            .unwrap()
            .rsplit('/')
            .next()
            .unwrap()
            .to_owned();
        b.mock.pay(&session_id, CARD_OK).expect("paid");
        let (status, v) = confirm(&b, &owner.token, &session_id).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["team"]["subscription"]["interval"], "year", "{v}");
        assert_eq!(v["team"]["seats"]["total"], 3);
        let row = team_row(&b, &owner).await;
        assert_eq!(row.price_id.as_deref(), Some("price_closewise_yearly"));
        let sub = row.subscription_id.unwrap();
        let invoices =
            stripe_post(&b, "/v1/invoices/create_preview", &[("subscription", sub)]).await;
        assert_eq!(
            invoices["total"],
            3 * 20_000,
            "the renewal is a year of three seats: {invoices}"
        );

        let mut order = checkout_body(3);
        order["interval"] = json!("week");
        let (status, v) = body(
            b.app
                .post_auth("/api/team/checkout", &owner.token, order)
                .await,
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_REQUEST, "invalid_interval"),
            "{v}"
        );
    }
);

both!(
    async fn the_owner_previews_then_switches_the_team_to_yearly(backend: Backend) {
        let b = spawn_billing(backend).await;
        let owner = owner_with_team(&b, "ana@northwind.example", "Northwind Sales").await;
        let session_id = buy(&b, &owner.token, 3).await;
        let (status, v) = confirm(&b, &owner.token, &session_id).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["team"]["subscription"]["interval"], "month");
        let member = join(&b, &owner, "rep@northwind.example", Role::Member).await;

        let (status, p) = preview(&b, &owner.token, "?interval=year").await;
        assert_eq!(status, StatusCode::OK, "{p}");
        assert_eq!(p["next_total"], 3 * 20_000, "{p}");
        let due = p["amount_due_now"].as_i64().unwrap();
        assert!(
            due <= 3 * 20_000 - 3 * 2000 + 10 && due > 0,
            "a year of 3 seats less the unused month: {p}"
        );

        for (status, v) in [
            preview(&b, &member.token, "?interval=year").await,
            switch(&b, &member.token, json!({"interval": "year"})).await,
        ] {
            assert_eq!(
                (status, error_code(&v)),
                (StatusCode::FORBIDDEN, "forbidden_role"),
                "{v}"
            );
        }
        let (status, v) = switch(
            &b,
            &owner.token,
            json!({"interval": "year", "proration_date": p["proration_date"]}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["team"]["subscription"]["interval"], "year", "{v}");
        assert_eq!(v["team"]["seats"]["total"], 3, "the same seats");
        assert_eq!(
            team_row(&b, &owner).await.price_id.as_deref(),
            Some("price_closewise_yearly")
        );
        let audit = b
            .app
            .state
            .store
            .audit_of(Some(owner.id), "ana@northwind.example", 20)
            .await
            .unwrap();
        assert!(
            audit.iter().any(|a| a.action == "team.interval"),
            "{audit:?}"
        );

        let (status, v) = switch(&b, &owner.token, json!({"interval": "year"})).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "same_interval"),
            "{v}"
        );
    }
);

both!(
    async fn a_team_switch_needs_a_subscription_and_a_known_interval(backend: Backend) {
        let b = spawn_billing(backend).await;
        let owner = owner_with_team(&b, "ana@northwind.example", "Northwind Sales").await;
        let (status, v) = preview(&b, &owner.token, "?interval=year").await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "no_team_subscription"),
            "{v}"
        );
        let (status, v) = switch(&b, &owner.token, json!({"interval": "year"})).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "no_team_subscription"),
            "{v}"
        );
        let (status, v) = preview(&b, &owner.token, "?interval=fortnight").await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_REQUEST, "invalid_interval"),
            "{v}"
        );
        let loner = person(&b, "solo@example.com").await;
        let (status, v) = preview(&b, &loner.token, "?interval=year").await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::NOT_FOUND, "team_not_found"),
            "{v}"
        );
    }
);
