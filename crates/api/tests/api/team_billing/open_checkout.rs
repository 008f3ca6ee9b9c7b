//! A team's open checkout: a new one expires it, the team's end closes it, a payment Stripe has
//! and the API has not yet stored is found before a second checkout or a delete; the portal.

use super::*;

/// The id at the end of a checkout URL.
fn session_of(v: &Value) -> String {
    v["url"]
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .to_owned()
}

both!(
    async fn a_new_checkout_expires_the_open_one_so_a_team_pays_once(backend: Backend) {
        let b = spawn_billing(backend).await;
        let a = owner_with_team(&b, "ana@northwind.example", "Northwind").await;
        crate::helpers::record_seats(&b.app, a.id, 2).await; // recorded by hand: room to invite
        join(&b, &a, "adm@northwind.example", Role::Admin).await;
        // The owner's page in two tabs: only the newest can be paid.
        let (status, first) = start_checkout(&b, &a.token, 2).await;
        assert_eq!(status, StatusCode::OK, "{first}");
        let (status, second) = start_checkout(&b, &a.token, 3).await;
        assert_eq!(status, StatusCode::OK, "{second}");
        let (first, second) = (session_of(&first), session_of(&second));
        assert_eq!(b.mock.object(&first).unwrap()["status"], "expired");
        assert!(
            b.mock.pay(&first, CARD_OK).is_err(),
            "an expired page takes no payment"
        );
        b.mock
            .pay(&second, CARD_OK)
            .expect("the newest page is paid");
        let (status, v) = confirm(&b, &a.token, &second).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["team"]["seats"]["total"], 3);
        let (status, v) = start_checkout(&b, &a.token, 3).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "team_already_subscribed"),
            "{v}"
        );

        // A team deleted with a checkout open leaves nothing to pay.
        let c = owner_with_team(&b, "cat@contoso.example", "Contoso").await;
        let (status, open) = start_checkout(&b, &c.token, 1).await;
        assert_eq!(status, StatusCode::OK, "{open}");
        let (status, v) = call(
            &b,
            reqwest::Method::DELETE,
            "/api/team",
            &c.token,
            Some(json!({"password": PASSWORD})),
        )
        .await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{v}");
        assert_eq!(
            b.mock.object(&session_of(&open)).unwrap()["status"],
            "expired"
        );
    }
);

both!(
    async fn the_owner_manages_the_teams_billing_in_the_portal_of_the_teams_customer(
        backend: Backend,
    ) {
        let b = spawn_billing(backend).await;
        b.mock.set_webhook_url(None);
        let owner = owner_with_team(&b, "ana@northwind.example", "Northwind").await;
        let portal = |token: String, body: Option<Value>| {
            let b = &b;
            async move {
                call(
                    b,
                    reqwest::Method::POST,
                    "/api/team/billing/portal",
                    &token,
                    body,
                )
                .await
            }
        };
        let (status, v) = portal(owner.token.clone(), None).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::NOT_FOUND, "no_customer"),
            "{v}"
        );
        assert_eq!(
            error_message(&v),
            "The team has no billing account yet. Buy seats first."
        );

        let session = buy(&b, &owner.token, 2).await;
        let (status, v) = confirm(&b, &owner.token, &session).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let customer = team_row(&b, &owner).await.stripe_customer_id.unwrap();
        let admin = join(&b, &owner, "adm@northwind.example", Role::Admin).await;
        let loner = person(&b, "solo@else.example").await;

        // No body: back to /team; the session is the team's customer's, never the owner's own.
        let (status, v) = portal(owner.token.clone(), None).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let id = v["url"]
            .as_str()
            .unwrap()
            .rsplit('/')
            .next()
            .unwrap()
            .to_owned();
        let portal_session = b.mock.object(&id).unwrap();
        assert_eq!(portal_session["customer"], customer.as_str());
        assert_eq!(portal_session["return_url"], format!("{BASE}/team"));
        let (status, v) = portal(
            owner.token.clone(),
            Some(json!({"return_url": format!("{BASE}/dashboard")})),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (status, v) = portal(
            owner.token.clone(),
            Some(json!({"return_url": "https://evil.example/team"})),
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_REQUEST, "invalid_redirect_url"),
            "{v}"
        );

        // Billing is the owner's: admins are refused, people in no team find none.
        let (status, v) = portal(admin.token.clone(), None).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::FORBIDDEN, "forbidden_role"),
            "{v}"
        );
        let (status, v) = portal(loner.token.clone(), None).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::NOT_FOUND, "team_not_found"),
            "{v}"
        );
    }
);

both!(
    async fn an_owner_alone_goes_with_the_team_and_its_open_checkout_can_no_longer_be_paid(
        backend: Backend,
    ) {
        let b = spawn_billing(backend).await;
        let owner = owner_with_team(&b, "ana@northwind.example", "Northwind").await;
        let team = team_row(&b, &owner).await;
        let (status, v) = start_checkout(&b, &owner.token, 1).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let session = session_of(&v);
        let resp = b
            .app
            .client
            .delete(b.app.url("/api/account"))
            .bearer_auth(&owner.token)
            .json(&json!({"password": PASSWORD}))
            .send()
            .await
            .unwrap();
        let (status, v) = body(resp).await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{v}");
        assert!(b
            .app
            .state
            .store
            .team_by_id(team.id)
            .await
            .unwrap()
            .is_none());
        assert_eq!(b.mock.object(&session).unwrap()["status"], "expired");
        assert!(
            b.mock.pay(&session, CARD_OK).is_err(),
            "nothing to pay for a team that is gone"
        );
    }
);

both!(
    async fn a_payment_not_yet_stored_is_found_at_stripe_before_a_second_checkout_or_a_delete(
        backend: Backend,
    ) {
        let b = spawn_billing(backend).await;
        b.mock.set_webhook_url(None); // paid, but neither confirmed nor told by webhook yet
        let a = owner_with_team(&b, "ana@northwind.example", "Northwind").await;
        let first = buy(&b, &a.token, 2).await;
        let sub = b.mock.object(&first).unwrap()["subscription"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(
            team_row(&b, &a).await.subscription_id.is_none(),
            "not stored yet"
        );
        let (status, v) = start_checkout(&b, &a.token, 3).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "team_already_subscribed"),
            "{v}"
        );
        let row = team_row(&b, &a).await;
        assert_eq!(
            (row.subscription_id.as_deref(), row.seats),
            (Some(sub.as_str()), 2),
            "stored on the way"
        );
        assert_eq!(row.subscription_status.as_deref(), Some("active"));

        // Deleting a team whose payment is not stored yet cancels it at Stripe all the same.
        let c = owner_with_team(&b, "cat@contoso.example", "Contoso").await;
        let paid = buy(&b, &c.token, 1).await;
        let sub = b.mock.object(&paid).unwrap()["subscription"]
            .as_str()
            .unwrap()
            .to_owned();
        let (status, v) = call(
            &b,
            reqwest::Method::DELETE,
            "/api/team",
            &c.token,
            Some(json!({"password": PASSWORD})),
        )
        .await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{v}");
        assert_eq!(b.mock.object(&sub).unwrap()["status"], "canceled");

        // Nor does an owner alone go, with the team, while its payment is not stored.
        let d = owner_with_team(&b, "dan@fabrikam.example", "Fabrikam").await;
        buy(&b, &d.token, 1).await;
        let resp = b
            .app
            .client
            .delete(b.app.url("/api/account"))
            .bearer_auth(&d.token)
            .json(&json!({"password": PASSWORD}))
            .send()
            .await
            .unwrap();
        let (status, v) = body(resp).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "team_owner"),
            "{v}"
        );
        assert_eq!(
            team_row(&b, &d).await.subscription_status.as_deref(),
            Some("active")
        );
    }
);
