//! Changing seats: the preview, the change at Stripe with its proration, the floor of seats in
//! use, concurrent changes, losing a seat, and deleting the team or the owner's account.

use super::*;

/// An owner with a paid team of `seats` (confirmed, webhooks delivered) and its subscription id.
async fn paid_team(b: &Billing, email: &str, seats: i64) -> (Person, String) {
    let owner = owner_with_team(b, email, "Northwind Sales").await;
    let session_id = buy(b, &owner.token, seats).await;
    let (status, v) = confirm(b, &owner.token, &session_id).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let sub = team_row(b, &owner).await.subscription_id.unwrap();
    (owner, sub)
}

async fn put_seats(b: &Billing, token: &str, body: Value) -> (StatusCode, Value) {
    call(
        b,
        reqwest::Method::PUT,
        "/api/team/seats",
        token,
        Some(body),
    )
    .await
}

both!(
    async fn three_to_two_seats_is_previewed_as_a_credit_and_prorated_on_the_next_invoice(
        backend: Backend,
    ) {
        let b = spawn_billing(backend).await;
        let (mut owner, sub) = paid_team(&b, "ana@northwind.example", 3).await;
        b.mock.advance_clock(10 * 86_400);
        b.app.advance(time::Duration::days(10));
        let (_, session) = body(b.app.signin("ana@northwind.example", PASSWORD).await).await;
        owner.token = session["access_token"].as_str().unwrap().to_owned();
        let (status, p) = call(
            &b,
            reqwest::Method::GET,
            "/api/team/seats/preview?seats=2",
            &owner.token,
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{p}");
        assert_eq!(p["seats"], 2);
        assert_eq!(p["currency"], "usd");
        assert_eq!(p["next_total"], 4000, "{p}");
        let due = p["amount_due_now"].as_i64().unwrap();
        assert!(
            due < 0 && due > -2000,
            "a credit for a third of the unused month: {p}"
        );
        let proration_date = p["proration_date"].as_i64().unwrap();

        let (status, v) = put_seats(
            &b,
            &owner.token,
            json!({"seats": 2, "proration_date": proration_date}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(
            v["team"]["seats"],
            json!({"total": 2, "used": 1, "free": 1})
        );
        assert_eq!(stripe_quantity(&b, &sub), 2);
        assert_eq!(team_row(&b, &owner).await.seats, 2);

        // The next invoice carries the proration lines, then 2 seats.
        let customer = team_row(&b, &owner).await.stripe_customer_id.unwrap();
        let next = stripe_post(
            &b,
            "/v1/invoices/create_preview",
            &[("customer", customer), ("subscription", sub.clone())],
        )
        .await;
        let lines = next["lines"]["data"].as_array().unwrap();
        let prorated: i64 = lines
            .iter()
            .filter(|l| l["parent"]["subscription_item_details"]["proration"] == true)
            .map(|l| l["amount"].as_i64().unwrap())
            .sum();
        assert_eq!(
            prorated, due,
            "the preview's amount is what was prorated: {next}"
        );
        assert!(
            lines.iter().any(|l| l["quantity"] == 2
                && l["parent"]["subscription_item_details"]["proration"] == false),
            "{next}"
        );
        let audit = b
            .app
            .state
            .store
            .audit_of(Some(owner.id), "ana@northwind.example", 10)
            .await
            .unwrap();
        assert!(audit.iter().any(|a| a.action == "team.seats"), "{audit:?}");
        // As for every team row, the actor is the caller's address (docs/api.md).
        for row in audit.iter().filter(|a| a.action.starts_with("team.")) {
            assert_eq!(row.actor, "ana@northwind.example", "{}", row.action);
        }
    }
);

both!(
    async fn only_a_proration_date_the_server_issued_in_the_last_ten_minutes_is_taken(
        backend: Backend,
    ) {
        let b = spawn_billing(backend).await;
        let (owner, sub) = paid_team(&b, "ana@northwind.example", 3).await;
        let preview = |seats: u32| {
            let (b, token) = (&b, owner.token.clone());
            async move {
                let (status, p) = call(
                    b,
                    reqwest::Method::GET,
                    &format!("/api/team/seats/preview?seats={seats}"),
                    &token,
                    None,
                )
                .await;
                assert_eq!(status, StatusCode::OK, "{p}");
                p["proration_date"].as_i64().unwrap()
            }
        };
        let issued = preview(4).await;
        // A date inside the period that no preview issued, and one far outside it, are refused
        // before Stripe is asked; the seats stay as they were.
        for date in [issued - 1, issued + 3_600, 0, i64::MAX] {
            let (status, v) = put_seats(
                &b,
                &owner.token,
                json!({"seats": 4, "proration_date": date}),
            )
            .await;
            assert_eq!(
                (status, error_code(&v)),
                (StatusCode::BAD_REQUEST, "invalid_proration_date"),
                "{date}: {v}"
            );
        }
        assert_eq!(stripe_quantity(&b, &sub), 3);
        // An issued date older than ten minutes is refused too; a fresh preview's is taken.
        b.app.advance(time::Duration::minutes(11));
        let (status, v) = put_seats(
            &b,
            &owner.token,
            json!({"seats": 4, "proration_date": issued}),
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_REQUEST, "invalid_proration_date"),
            "{v}"
        );
        assert_eq!(stripe_quantity(&b, &sub), 3);
        let fresh = preview(4).await;
        let (status, v) = put_seats(
            &b,
            &owner.token,
            json!({"seats": 4, "proration_date": fresh}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(stripe_quantity(&b, &sub), 4);
        // The reclaim takes the same dates only.
        let (status, v) = call(
            &b,
            reqwest::Method::POST,
            "/api/team/reclaim",
            &owner.token,
            Some(json!({"user_ids": [], "seats": 3, "proration_date": fresh - 7})),
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_REQUEST, "invalid_proration_date"),
            "{v}"
        );
        assert_eq!(stripe_quantity(&b, &sub), 4);
    }
);

both!(
    async fn seats_never_go_below_those_in_use_and_a_removed_member_is_free_at_once(
        backend: Backend,
    ) {
        let b = spawn_billing(backend).await;
        let (owner, sub) = paid_team(&b, "ana@northwind.example", 3).await;
        let member = join(&b, &owner, "rep@northwind.example", Role::Member).await;
        b.app
            .state
            .teams
            .invite(
                &as_member(&b, &owner).await,
                "new@northwind.example",
                Role::Member,
            )
            .await
            .unwrap();
        let (status, v) = put_seats(&b, &owner.token, json!({"seats": 2})).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "seats_in_use"),
            "{v}"
        );
        assert_eq!(
            error_message(&v),
            "3 seats are in use (2 members and 1 pending invites). Remove members or revoke invites first."
        );
        let (status, v) = call(
            &b,
            reqwest::Method::GET,
            "/api/team/seats/preview?seats=2",
            &owner.token,
            None,
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "seats_in_use"),
            "{v}"
        );
        let (status, v) = put_seats(&b, &owner.token, json!({"seats": 10_001})).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_REQUEST, "invalid_seats"),
            "{v}"
        );
        assert_eq!(stripe_quantity(&b, &sub), 3, "Stripe was not asked");

        assert_eq!(entitlements(&b, &member.token).await["source"], "team");
        b.app
            .state
            .teams
            .remove_member(&as_member(&b, &owner).await, None, member.id)
            .await
            .unwrap();
        // The removal ended their sessions; signed in again, they are on their own plan.
        let (status, _) = body(b.app.get_auth("/api/entitlements", &member.token).await).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        let (_, s) = body(b.app.signin("rep@northwind.example", PASSWORD).await).await;
        let e = entitlements(&b, s["access_token"].as_str().unwrap()).await;
        assert_eq!(e["unlimited"], false, "{e}");
        assert!(e["source"].is_null() && e["team"].is_null(), "{e}");
    }
);

both!(
    async fn concurrent_seat_changes_leave_stripe_and_the_team_agreeing(backend: Backend) {
        let b = spawn_billing(backend).await;
        let (owner, sub) = paid_team(&b, "ana@northwind.example", 3).await;
        // The owner's two tabs (seat changes are the owner's alone).
        let (x, y) = tokio::join!(
            put_seats(&b, &owner.token, json!({"seats": 5})),
            put_seats(&b, &owner.token, json!({"seats": 4})),
        );
        assert_eq!(x.0, StatusCode::OK, "{}", x.1);
        assert_eq!(y.0, StatusCode::OK, "{}", y.1);
        let quantity = stripe_quantity(&b, &sub);
        assert!(quantity == 4 || quantity == 5);
        assert_eq!(team_row(&b, &owner).await.seats as u64, quantity);
        // And once the webhooks of both changes are in, still the same.
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(
            team_row(&b, &owner).await.seats as u64,
            stripe_quantity(&b, &sub)
        );
    }
);

both!(
    async fn a_team_whose_subscription_ended_leaves_its_members_free(backend: Backend) {
        let b = spawn_billing(backend).await;
        let (owner, sub) = paid_team(&b, "ana@northwind.example", 3).await;
        let member = join(&b, &owner, "rep@northwind.example", Role::Member).await;
        assert_eq!(entitlements(&b, &member.token).await["unlimited"], true);
        let res = b
            .app
            .client
            .delete(format!("{}/v1/subscriptions/{sub}", b.mock_url))
            .bearer_auth(closewise_api::config::DEV_STRIPE_SECRET_KEY)
            .send()
            .await
            .unwrap();
        assert!(res.status().is_success());
        let e = wait_for_entitlements(&b, &member.token, |e| e["unlimited"] == false).await;
        assert_eq!(
            e["team"]["name"], "Northwind Sales",
            "still in the team, unpaid: {e}"
        );
        assert!(e["source"].is_null());
        assert_eq!(
            team_row(&b, &owner).await.subscription_status.as_deref(),
            Some("canceled")
        );

        // Buying again, fewer seats than before: the new number holds from the checkout on, so
        // no invite meanwhile leaves more people in the team than the payment covers.
        let (status, v) = start_checkout(&b, &owner.token, 2).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(team_row(&b, &owner).await.seats, 2);
        let (status, v) = call(
            &b,
            reqwest::Method::POST,
            "/api/team/invites",
            &owner.token,
            Some(json!({"email": "third@northwind.example", "role": "member"})),
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "seats_taken"),
            "{v}"
        );
        let (status, v) = start_checkout(&b, &owner.token, 1).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_REQUEST, "invalid_seats"),
            "{v}"
        );
    }
);

both!(
    async fn deleting_the_team_cancels_its_subscription_and_frees_the_owner_to_go(
        backend: Backend,
    ) {
        let b = spawn_billing(backend).await;
        let (owner, sub) = paid_team(&b, "ana@northwind.example", 2).await;
        let member = join(&b, &owner, "rep@northwind.example", Role::Member).await;
        let delete_account = |token: String| {
            let b = &b;
            async move {
                call(
                    b,
                    reqwest::Method::DELETE,
                    "/api/account",
                    &token,
                    Some(json!({"password": PASSWORD})),
                )
                .await
            }
        };
        let (status, v) = delete_account(owner.token.clone()).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "team_owner"),
            "{v}"
        );
        assert_eq!(
            error_message(&v),
            "Transfer the team to another member or delete it before deleting your account."
        );
        let (status, v) = call(
            &b,
            reqwest::Method::DELETE,
            "/api/team",
            &owner.token,
            Some(json!({"password": "wrong-password-1"})),
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_REQUEST, "invalid_credentials"),
            "{v}"
        );

        let (status, v) = call(
            &b,
            reqwest::Method::DELETE,
            "/api/team",
            &owner.token,
            Some(json!({"password": PASSWORD})),
        )
        .await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{v}");
        assert_eq!(b.mock.object(&sub).unwrap()["status"], "canceled");
        assert!(b
            .app
            .state
            .store
            .membership_of(member.id)
            .await
            .unwrap()
            .is_none());
        assert_eq!(entitlements(&b, &member.token).await["unlimited"], false);
        let audit = b
            .app
            .state
            .store
            .audit_of(Some(owner.id), "ana@northwind.example", 10)
            .await
            .unwrap();
        assert!(audit.iter().any(|a| a.action == "team.delete"), "{audit:?}");
        let (status, v) = delete_account(owner.token.clone()).await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{v}");
    }
);

both!(
    async fn an_owner_alone_in_an_unpaid_team_deletes_it_with_the_account_and_members_free_their_seat(
        backend: Backend,
    ) {
        let b = spawn_billing(backend).await;
        let lone = owner_with_team(&b, "solo@northwind.example", "Solo").await;
        let lone_team = team_row(&b, &lone).await;
        let (status, v) = call(
            &b,
            reqwest::Method::DELETE,
            "/api/account",
            &lone.token,
            Some(json!({"password": PASSWORD})),
        )
        .await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{v}");
        assert!(b
            .app
            .state
            .store
            .team_by_id(lone_team.id)
            .await
            .unwrap()
            .is_none());

        let owner = owner_with_team(&b, "ana@contoso.example", "Contoso").await;
        let team = team_row(&b, &owner).await;
        let member = join_unpaid(&b, &owner, "rep@contoso.example").await;
        let (status, v) = call(
            &b,
            reqwest::Method::DELETE,
            "/api/account",
            &owner.token,
            Some(json!({"password": PASSWORD})),
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "team_owner"),
            "another member: {v}"
        );
        let (status, v) = call(
            &b,
            reqwest::Method::DELETE,
            "/api/account",
            &member.token,
            Some(json!({"password": PASSWORD})),
        )
        .await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{v}");
        let (members, _) = b.app.state.store.team_headcount(team.id).await.unwrap();
        assert_eq!(members, 1, "the member's seat freed");
        let (status, v) = call(
            &b,
            reqwest::Method::DELETE,
            "/api/account",
            &owner.token,
            Some(json!({"password": PASSWORD})),
        )
        .await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{v}");
        assert!(
            b.app
                .state
                .store
                .team_by_id(team.id)
                .await
                .unwrap()
                .is_none(),
            "deleted with its owner"
        );
    }
);

/// A member of a team without a subscription: seats recorded by hand so the invite fits.
async fn join_unpaid(b: &Billing, owner: &Person, email: &str) -> Person {
    crate::helpers::record_seats(&b.app, owner.id, 2).await;
    join(b, owner, email, Role::Member).await
}
