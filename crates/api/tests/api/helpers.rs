//! The suite's harness is the workspace's one (`closewise_testkit::app`): `spawn_app_with`,
//! `TestApp` and its typed helpers, `Backend`; `both!` runs a test on each database.

pub use closewise_testkit::app::*;

/// Records the seats of the team `owner` is in, as the operator's `closewise teams seats set` does
/// for a team Stripe does not bill (`Store::set_team_seats`, under the team's lock): room to
/// invite without a checkout.
pub async fn record_seats(app: &TestApp, owner: uuid::Uuid, seats: u32) {
    let store = &app.state.store;
    let (team, _) = store.membership_of(owner).await.unwrap().expect("a team");
    let outcome = store
        .set_team_seats(team, seats, app.state.clock.now())
        .await
        .unwrap();
    assert_eq!(
        outcome,
        closewise_core::store::teams::seats::SeatOutcome::Done(true)
    );
}

/// Makes `domain` a verified domain of the team `owner` is in, straight in the store (the suites
/// of what a verified domain allows; `team::domains` verifies through the API and DNS).
pub async fn verified_domain(app: &TestApp, owner: uuid::Uuid, domain: &str) {
    use closewise_core::store::teams::domains::NewTeamDomain;
    let store = &app.state.store;
    let (team_id, _) = store.membership_of(owner).await.unwrap().expect("a team");
    let (id, now) = (uuid::Uuid::now_v7(), app.state.clock.now());
    let new = NewTeamDomain {
        id,
        team_id,
        domain,
        txt_token: "test",
        created_by: Some(owner),
        now,
    };
    assert!(
        store.insert_team_domain(&new).await.unwrap(),
        "{domain} new"
    );
    assert!(
        store.mark_team_domain_verified(id, now).await.unwrap(),
        "{domain} verified"
    );
}

/// A verified account signed in, made through the core services rather than HTTP sign-up, the
/// verification mail and the password grant (for the tests that are not about those paths):
/// the account as `closewise db seed` makes it, a session started as a password sign-in starts
/// one, and the session answered as `POST /api/auth/token` answers it (`access_token`,
/// `refresh_token`, `user`). The password is hashed with the app's hasher, so the account
/// signs in with it through the API too.
pub async fn signed_in_account(app: &TestApp, email: &str, password: &str) -> serde_json::Value {
    use closewise_core::seed::SeedAccount;
    let services = &app.state.services;
    let account = SeedAccount {
        email: email.to_owned(),
        password: password.to_owned(),
        verified: true,
        plan: closewise_domain::plan::PlanType::Free,
        subscription: None,
    };
    let operator = closewise_core::actor::Actor::operator("test fixture", None);
    assert!(
        services
            .seeding
            .seed_account(&operator, &account)
            .await
            .unwrap(),
        "{email} is new"
    );
    let user = services
        .store
        .user_by_email(email)
        .await
        .unwrap()
        .expect("the account just made");
    let session = services.sessions.start(user, None, None).await.unwrap();
    let body = closewise_api::auth::session::session_body(&app.state, session)
        .unwrap_or_else(|_| panic!("the session of {email} signed"));
    serde_json::to_value(body).unwrap()
}
