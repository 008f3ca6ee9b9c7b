//! A team's discount: a promotion code taken at the team's checkout shows on the team's
//! subscription (`GET /api/team`, and the confirmation's answer); none without one.

use super::*;

both!(
    async fn a_promotion_code_at_the_teams_checkout_shows_on_its_subscription(backend: Backend) {
        let b = spawn_billing(backend).await;
        let owner = owner_with_team(&b, "ana@northwind.example", "Northwind Sales").await;
        promotion_code(&b, "PARTNER", 20, "Partner").await;
        let mut order = checkout_body(3);
        order["interval"] = json!("year");
        order["promotion_code"] = json!("PARTNER");
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
        let discount = &v["team"]["subscription"]["discount"];
        assert_eq!(discount["name"], "Partner", "{v}");
        assert_eq!(discount["percent_off"], 20.0);
        assert_eq!(discount["duration"], "forever");
        assert_eq!(discount["ends_at"], Value::Null);
        assert_eq!(discount["label"], "20% off forever");

        let (status, v) = body(b.app.get_auth("/api/team", &owner.token).await).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(
            v["team"]["subscription"]["discount"]["label"],
            "20% off forever"
        );
    }
);

both!(
    async fn a_team_that_paid_without_a_code_has_no_discount(backend: Backend) {
        let b = spawn_billing(backend).await;
        let owner = owner_with_team(&b, "ana@northwind.example", "Northwind Sales").await;
        let session_id = buy(&b, &owner.token, 2).await;
        let (status, v) = confirm(&b, &owner.token, &session_id).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let subscription = &v["team"]["subscription"];
        assert_eq!(subscription["status"], "active", "{v}");
        assert!(subscription.get("discount").is_some(), "{v}");
        assert_eq!(subscription["discount"], Value::Null);
    }
);
