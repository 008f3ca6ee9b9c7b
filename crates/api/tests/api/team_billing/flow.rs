//! Buying seats: checkout, paying, confirm or webhooks alone, and entitlements through the team.

use super::*;

both!(
    async fn three_seats_paid_and_confirmed_make_every_member_unlimited_through_the_team(
        backend: Backend,
    ) {
        let b = spawn_billing(backend).await;
        b.mock.set_webhook_url(None); // the confirm alone
        let owner = owner_with_team(&b, "ana@northwind.example", "Northwind Sales").await;
        let team = team_row(&b, &owner).await;
        let session_id = buy(&b, &owner.token, 3).await;

        let session = b.mock.object(&session_id).unwrap();
        assert_eq!(session["metadata"]["team_id"], team.id.to_string());
        assert_eq!(session["mode"], "subscription");
        let customer = session["customer"].as_str().unwrap().to_owned();
        assert_eq!(
            b.mock.object(&customer).unwrap()["metadata"]["team_id"],
            team.id.to_string()
        );
        let sub_id = session["subscription"].as_str().unwrap().to_owned();
        assert_eq!(stripe_quantity(&b, &sub_id), 3);
        assert_eq!(
            b.mock.object(&sub_id).unwrap()["metadata"]["team_id"],
            team.id.to_string()
        );

        let (status, v) = confirm(&b, &owner.token, &session_id).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let t = &v["team"];
        assert_eq!(t["seats"], json!({"total": 3, "used": 1, "free": 2}));
        assert_eq!(t["paid"], true);
        assert_eq!(t["subscription"]["status"], "active");
        assert_eq!(t["subscription"]["cancel_at_period_end"], false);
        assert!(t["subscription"]["current_period_end"].as_i64().unwrap() > b.mock.now());
        assert_eq!(t["role"], "owner");
        // Confirming twice changes nothing; the owner's personal plan is untouched.
        let (status, again) = confirm(&b, &owner.token, &session_id).await;
        assert_eq!(status, StatusCode::OK, "{again}");
        assert_eq!(again, v);
        assert!(b
            .app
            .state
            .store
            .subscription_of(owner.id)
            .await
            .unwrap()
            .is_none());

        let member = join(&b, &owner, "rep@northwind.example", Role::Member).await;
        let outsider = person(&b, "someone@else.example").await;
        for p in [&owner, &member] {
            let e = entitlements(&b, &p.token).await;
            assert_eq!(e["unlimited"], true, "{e}");
            assert_eq!(e["plan_type"], "monthly");
            assert_eq!(e["source"], "team");
            assert_eq!(e["team"], json!({"id": team.id, "name": "Northwind Sales"}));
            assert!(e["warning"].is_null());
        }
        let e = entitlements(&b, &outsider.token).await;
        assert_eq!(e["unlimited"], false);
        assert!(e["source"].is_null() && e["team"].is_null(), "{e}");

        // Nobody pays twice: a seat in the paid team counts as having the plan, so a personal
        // checkout of the same price is refused as for a personal subscriber; others may buy.
        for p in [&owner, &member] {
            let (status, v) = body(
                b.app
                    .post_auth("/api/checkout", &p.token, crate::billing::checkout_body())
                    .await,
            )
            .await;
            assert_eq!(
                (status, error_code(&v)),
                (StatusCode::CONFLICT, "already_subscribed"),
                "{v}"
            );
            assert_eq!(error_message(&v), "You already have this subscription");
        }
        let (status, v) = body(
            b.app
                .post_auth(
                    "/api/checkout",
                    &outsider.token,
                    crate::billing::checkout_body(),
                )
                .await,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        // The plan answer says so before anyone clicks: the seat is the current plan, not a personal payment.
        for p in [&owner, &member] {
            let plan = crate::plans::plan(&b.app, &p.token).await;
            assert_eq!(
                (plan["paid"].as_bool(), plan["checkout"].as_str()),
                (Some(false), Some("current_plan")),
                "{plan}"
            );
        }
        let plan = crate::plans::plan(&b.app, &outsider.token).await;
        assert_eq!(
            (plan["paid"].as_bool(), plan["checkout"].as_str()),
            (Some(false), Some("available")),
            "{plan}"
        );

        // Calls use the same entitlements: a member's call is not a free one.
        let (status, c) = body(
            b.app
                .post_auth("/api/calls", &member.token, json!({"client_call_id": "c1"}))
                .await,
        )
        .await;
        assert!(status.is_success(), "{c}");
        assert!(c["max_seconds"].is_null(), "no free-call cap: {c}");

        // The audit trail has the checkout.
        let audit = b
            .app
            .state
            .store
            .audit_of(Some(owner.id), "ana@northwind.example", 10)
            .await
            .unwrap();
        assert!(
            audit.iter().any(|a| a.action == "team.checkout"),
            "{audit:?}"
        );
    }
);

both!(
    async fn the_webhooks_alone_make_the_team_paid(backend: Backend) {
        let b = spawn_billing(backend).await;
        let owner = owner_with_team(&b, "ana@northwind.example", "Northwind Sales").await;
        buy(&b, &owner.token, 3).await;
        let e = wait_for_entitlements(&b, &owner.token, |e| e["unlimited"] == true).await;
        assert_eq!(e["source"], "team");
        let team = team_row(&b, &owner).await;
        assert_eq!(team.seats, 3);
        assert_eq!(team.subscription_status.as_deref(), Some("active"));
        assert!(b
            .app
            .state
            .store
            .subscription_of(owner.id)
            .await
            .unwrap()
            .is_none());
        let plan = b
            .app
            .state
            .store
            .plan_for(owner.id, b.app.state.clock.now())
            .await
            .unwrap();
        assert_eq!(plan.plan_type.as_str(), "free", "never a personal plan");
    }
);

both!(
    async fn another_teams_session_is_not_yours_and_checkout_is_checked(backend: Backend) {
        let b = spawn_billing(backend).await;
        b.mock.set_webhook_url(None);
        let a = owner_with_team(&b, "ana@northwind.example", "Northwind").await;
        let c = owner_with_team(&b, "cat@contoso.example", "Contoso").await;
        let session_a = buy(&b, &a.token, 2).await;
        let (status, v) = confirm(&b, &c.token, &session_a).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::FORBIDDEN, "session_not_yours"),
            "{v}"
        );
        assert!(team_row(&b, &c).await.subscription_id.is_none());
        let (status, v) = confirm(&b, &a.token, "cs_test_nope").await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::NOT_FOUND, "session_not_found"),
            "{v}"
        );

        // Validation, in the document's codes.
        crate::helpers::record_seats(&b.app, c.id, 2).await; // recorded by hand: room to invite
        join(&b, &c, "adm@contoso.example", Role::Admin).await;
        for (seats, case) in [
            (0, "zero"),
            (1, "below the two in use"),
            (10_001, "above 10000"),
        ] {
            let (status, v) = start_checkout(&b, &c.token, seats).await;
            assert_eq!(
                (status, error_code(&v)),
                (StatusCode::BAD_REQUEST, "invalid_seats"),
                "{case}: {v}"
            );
        }
        let mut bad = checkout_body(3);
        bad["success_url"] = json!("https://evil.example/team");
        let (status, v) = body(b.app.post_auth("/api/team/checkout", &c.token, bad).await).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_REQUEST, "invalid_redirect_url")
        );
        let (status, _) = start_checkout(&b, &c.token, 2).await;
        assert_eq!(status, StatusCode::OK, "the owner buys seats");
        let (status, v) = confirm(&b, &a.token, &session_a).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (status, v) = start_checkout(&b, &a.token, 3).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "team_already_subscribed"),
            "{v}"
        );
    }
);

both!(
    async fn members_may_not_touch_billing_and_people_in_no_team_find_none(backend: Backend) {
        let b = spawn_billing(backend).await;
        let owner = owner_with_team(&b, "ana@northwind.example", "Northwind").await;
        crate::helpers::record_seats(&b.app, owner.id, 2).await;
        let member = join(&b, &owner, "rep@northwind.example", Role::Member).await;
        let loner = person(&b, "solo@else.example").await;
        let seats = Some(json!({"seats": 2}));
        for (who, status, code) in [
            (&member, StatusCode::FORBIDDEN, "forbidden_role"),
            (&loner, StatusCode::NOT_FOUND, "team_not_found"),
        ] {
            let (s, v) = start_checkout(&b, &who.token, 2).await;
            assert_eq!((s, error_code(&v)), (status, code), "checkout: {v}");
            let (s, v) = call(
                &b,
                reqwest::Method::GET,
                "/api/team/seats/preview?seats=2",
                &who.token,
                None,
            )
            .await;
            assert_eq!((s, error_code(&v)), (status, code), "preview: {v}");
            let (s, v) = call(
                &b,
                reqwest::Method::PUT,
                "/api/team/seats",
                &who.token,
                seats.clone(),
            )
            .await;
            assert_eq!((s, error_code(&v)), (status, code), "seats: {v}");
            let (s, v) = call(
                &b,
                reqwest::Method::DELETE,
                "/api/team",
                &who.token,
                Some(json!({"password": PASSWORD})),
            )
            .await;
            assert_eq!((s, error_code(&v)), (status, code), "delete: {v}");
        }
        // Without a subscription there are no seats to change.
        let (s, v) = call(
            &b,
            reqwest::Method::PUT,
            "/api/team/seats",
            &owner.token,
            seats,
        )
        .await;
        assert_eq!(
            (s, error_code(&v)),
            (StatusCode::CONFLICT, "no_team_subscription"),
            "{v}"
        );
        assert_eq!(error_message(&v), "Buy seats for the team first.");
    }
);
