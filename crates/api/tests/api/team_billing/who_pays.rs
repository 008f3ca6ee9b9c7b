//! Who pays for a team: the card on file is the owner's, so every billing
//! action that charges it or opens the team's billing is the owner's. Each role × billing action
//! through the API, the expectations from the domain's table (`teams::may`, `Action::BILLING`),
//! and a refused one changes nothing at Stripe or in the team.

use closewise_domain::teams::{may, Action};

use super::*;

const FORBIDDEN_MESSAGE: &str = "Your role in the team does not allow this.";

/// What `role`'s attempt at `action` answered, checked against the domain's rule: allowed is
/// `ok`, refused is `403 forbidden_role` with the usual message.
fn check(role: Role, action: Action, got: (StatusCode, Value), ok: StatusCode) {
    let case = format!("{role:?} {action:?}");
    if may(role, action) {
        assert_eq!(got.0, ok, "{case}: {}", got.1);
    } else {
        assert_eq!(
            (got.0, error_code(&got.1)),
            (StatusCode::FORBIDDEN, "forbidden_role"),
            "{case}: {}",
            got.1
        );
        assert_eq!(error_message(&got.1), FORBIDDEN_MESSAGE, "{case}");
    }
}

both!(
    async fn every_role_may_do_exactly_the_billing_the_domain_gives_it(backend: Backend) {
        // The decision itself, so the suite fails if the domain's table drifts back.
        let owners_only: Vec<Action> = Action::BILLING
            .into_iter()
            .filter(|a| !may(Role::Admin, *a))
            .collect();
        assert_eq!(
            owners_only,
            [
                Action::StartCheckout,
                Action::PreviewSeats,
                Action::ChangeSeats,
                Action::ManageBilling
            ]
        );
        assert!(Action::BILLING.into_iter().all(|a| may(Role::Owner, a)));

        let b = spawn_billing(backend).await;
        b.mock.set_webhook_url(None);
        let owner = owner_with_team(&b, "ana@northwind.example", "Northwind").await;
        crate::helpers::record_seats(&b.app, owner.id, 3).await; // recorded by hand: room to invite
        let admin = join(&b, &owner, "adm@northwind.example", Role::Admin).await;
        let member = join(&b, &owner, "rep@northwind.example", Role::Member).await;
        let others = [(Role::Admin, &admin), (Role::Member, &member)];

        // Buying seats. The owner's page is open first: a checkout by anyone else would expire it.
        let (status, v) = start_checkout(&b, &owner.token, 3).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let owners_page = v["url"]
            .as_str()
            .unwrap()
            .rsplit('/')
            .next()
            .unwrap()
            .to_owned();
        for (role, who) in others {
            check(
                role,
                Action::StartCheckout,
                start_checkout(&b, &who.token, 4).await,
                StatusCode::OK,
            );
        }
        assert_eq!(
            b.mock.object(&owners_page).unwrap()["status"],
            "open",
            "the owner's page still takes the payment"
        );
        b.mock.pay(&owners_page, CARD_OK).expect("paid");

        // Reading the paid checkout back records what Stripe has: harmless, anyone in the team.
        for (role, who) in [
            (Role::Member, &member),
            (Role::Admin, &admin),
            (Role::Owner, &owner),
        ] {
            check(
                role,
                Action::ConfirmCheckout,
                confirm(&b, &who.token, &owners_page).await,
                StatusCode::OK,
            );
        }
        let sub = team_row(&b, &owner)
            .await
            .subscription_id
            .expect("the team's subscription");
        assert_eq!(stripe_quantity(&b, &sub), 3);

        // Previewing and changing seats, and the billing portal: refused ones first, so nothing they
        // could have changed hides behind the owner's own change.
        let preview = |token: String| {
            let b = &b;
            async move {
                call(
                    b,
                    reqwest::Method::GET,
                    "/api/team/seats/preview?seats=4",
                    &token,
                    None,
                )
                .await
            }
        };
        let set_seats = |token: String| {
            let b = &b;
            async move {
                call(
                    b,
                    reqwest::Method::PUT,
                    "/api/team/seats",
                    &token,
                    Some(json!({"seats": 4})),
                )
                .await
            }
        };
        let portal = |token: String| {
            let b = &b;
            async move {
                call(
                    b,
                    reqwest::Method::POST,
                    "/api/team/billing/portal",
                    &token,
                    None,
                )
                .await
            }
        };
        for (role, who) in others.into_iter().chain([(Role::Owner, &owner)]) {
            check(
                role,
                Action::PreviewSeats,
                preview(who.token.clone()).await,
                StatusCode::OK,
            );
            let got = set_seats(who.token.clone()).await;
            check(role, Action::ChangeSeats, got, StatusCode::OK);
            if role != Role::Owner {
                assert_eq!(
                    stripe_quantity(&b, &sub),
                    3,
                    "{role:?}: Stripe's seats unchanged"
                );
                assert_eq!(
                    team_row(&b, &owner).await.seats,
                    3,
                    "{role:?}: the team's seats unchanged"
                );
            }
            check(
                role,
                Action::ManageBilling,
                portal(who.token.clone()).await,
                StatusCode::OK,
            );
        }
        assert_eq!(
            stripe_quantity(&b, &sub),
            4,
            "the owner's change went through"
        );
        assert_eq!(team_row(&b, &owner).await.seats, 4);

        // Only the owner's change is in the audit log.
        for who in [&admin, &member] {
            let audit = b
                .app
                .state
                .store
                .audit_of(Some(who.id), "nobody@else.example", 20)
                .await
                .unwrap();
            assert!(audit.iter().all(|a| a.action != "team.seats"), "{audit:?}");
        }
    }
);
