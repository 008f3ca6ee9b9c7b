//! `teams list`, `teams show`, `teams remove-member`, `teams transfer`, `teams seats set`.

use closewise_core::clock::Clock;
use closewise_core::store::teams::seats::SeatOutcome;
use closewise_core::store::Store;
use closewise_core::teams::Teams;
use closewise_domain::teams::Role;
use closewise_testkit::both;
use serde_json::Value;
use uuid::Uuid;

use crate::helpers::{sign_in, stderr, TestDb, ACTOR};

/// The rows of a team's trail an operator wrote (the members' own, from building the team, aside).
fn operators(v: &Value) -> Vec<Value> {
    let rows = v["audit"].as_array().unwrap().iter();
    rows.filter(|r| r["actor"] == ACTOR).cloned().collect()
}

/// Northwind Sales: ana owns it, ed is an admin, cy a member, an invite to rep@northwind.example
/// is pending; 5 seats, 4 used. Answers the team's id.
async fn northwind(db: &TestDb) -> Uuid {
    let store = db.store().await;
    let teams = Teams::new(
        store.clone(),
        Clock::System,
        closewise_core::mail::Composer::new("http://localhost"),
        closewise_core::limits::unlimited(),
    );
    let ana = id_of(&store, "ana@example.com").await;
    let team = teams
        .create(
            &closewise_core::actor::Actor::member(ana, ""),
            "Northwind Sales",
        )
        .await
        .unwrap();
    // Recorded as `closewise teams seats set` does for a team Stripe does not bill.
    let seats = store
        .set_team_seats(team.id, 5, Clock::System.now())
        .await
        .unwrap();
    assert_eq!(seats, SeatOutcome::Done(true));
    for (email, role) in [
        ("ed@example.com", Role::Admin),
        ("cy@example.com", Role::Member),
    ] {
        let invitation = teams
            .invite(&closewise_core::actor::Actor::member(ana, ""), email, role)
            .await
            .unwrap();
        let user = id_of(&store, email).await;
        teams
            .accept(
                &closewise_core::actor::Actor::member(user, ""),
                &invitation.token,
            )
            .await
            .unwrap();
    }
    teams
        .invite(
            &closewise_core::actor::Actor::member(ana, ""),
            "rep@northwind.example",
            Role::Member,
        )
        .await
        .unwrap();
    store.close().await;
    team.id
}

/// SQL: the team ana owns (ids are blobs on SQLite, so not compared as text).
const ANA_OWNS: &str = "owner_id = (SELECT id FROM users WHERE email = 'ana@example.com')";

/// Another team with the same name, owned by di.
async fn second_northwind(db: &TestDb) -> Uuid {
    let store = db.store().await;
    let di = id_of(&store, "di@example.com").await;
    let team = Teams::new(
        store.clone(),
        Clock::System,
        closewise_core::mail::Composer::new("http://localhost"),
        closewise_core::limits::unlimited(),
    )
    .create(
        &closewise_core::actor::Actor::member(di, ""),
        "Northwind Sales",
    )
    .await
    .unwrap();
    store.close().await;
    team.id
}

async fn id_of(store: &Store, email: &str) -> Uuid {
    store.user_by_email(email).await.unwrap().unwrap().id
}

fn member<'a>(team: &'a Value, email: &str) -> Option<&'a Value> {
    team["members"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["email"] == email)
}

fn assert_has(text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "{part:?} missing from:\n{text}");
    }
}

both!(
    async fn teams_list_shows_owner_seats_and_subscription(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let id = northwind(&db).await;
        db.execute(&format!(
            "UPDATE teams SET subscription_id = 'sub_nw', stripe_customer_id = 'cus_nw', \
             subscription_status = 'active' WHERE {ANA_OWNS}"
        ))
        .await;
        let other = second_northwind(&db).await;

        let v = db.json(&["teams", "list"]).await;
        let list = v.as_array().unwrap();
        assert_eq!(list.len(), 2);
        let nw = list.iter().find(|t| t["id"] == id.to_string()).unwrap();
        assert_eq!(nw["name"], "Northwind Sales");
        assert_eq!(nw["owner_email"], "ana@example.com");
        assert_eq!(nw["seats"], serde_json::json!({ "total": 5, "used": 4, "free": 1 }));
        assert_eq!(nw["subscription_status"], "active");
        assert!(nw["created_at"].as_str().unwrap().ends_with('Z'));
        let di = list.iter().find(|t| t["id"] == other.to_string()).unwrap();
        assert_eq!(di["seats"], serde_json::json!({ "total": 0, "used": 1, "free": 0 }));
        assert!(di["subscription_status"].is_null());

        let table = db.ok(&["teams", "list"]).await;
        assert!(table.starts_with("ID"), "{table}");
        assert_has(&table, &[&id.to_string(), "Northwind Sales", "ana@example.com", "4/5", "active", "di@example.com", "1/0"]);
    }
);

both!(
    async fn teams_show_explains_the_team_on_one_screen(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let id = northwind(&db).await;
        db.execute(&format!(
            "UPDATE teams SET subscription_id = 'sub_nw', stripe_customer_id = 'cus_nw', \
             price_id = 'price_closewise_monthly', subscription_status = 'active', \
             current_period_end = 1795000000, cancel_at_period_end = TRUE WHERE {ANA_OWNS}"
        ))
        .await;

        let v = db.json(&["teams", "show", "Northwind Sales"]).await;
        assert_eq!(v["id"], id.to_string());
        assert_eq!(v["owner"]["email"], "ana@example.com");
        assert_eq!(v["seats"], serde_json::json!({ "total": 5, "used": 4, "free": 1 }));
        assert_eq!(member(&v, "ana@example.com").unwrap()["role"], "owner");
        assert_eq!(member(&v, "ed@example.com").unwrap()["role"], "admin");
        let cy = member(&v, "cy@example.com").unwrap();
        assert_eq!(cy["role"], "member");
        assert_eq!(cy["calls_this_month"], 0);
        assert!(cy["joined_at"].as_str().is_some());
        let invites = v["invites"].as_array().unwrap();
        assert_eq!(invites.len(), 1);
        assert_eq!(invites[0]["email"], "rep@northwind.example");
        assert_eq!(invites[0]["expired"], false);
        assert_eq!(
            v["subscription"],
            serde_json::json!({
                "status": "active", "current_period_end": 1795000000, "cancel_at_period_end": true,
                "stripe_customer_id": "cus_nw", "subscription_id": "sub_nw",
                "price_id": "price_closewise_monthly",
            })
        );
        assert!(operators(&v).is_empty());

        // By id too, and as a screen.
        let screen = db.ok(&["teams", "show", &id.to_string()]).await;
        assert_has(&screen, &[
            "Northwind Sales", "ana@example.com", "owner", "ed@example.com", "admin",
            "rep@northwind.example", "4 used of 5 (1 free)", "sub_nw", "cus_nw", "Expires",
            "Audit trail",
        ]);
    }
);

both!(
    async fn remove_member_frees_the_seat_is_audited_and_refuses_the_owner(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let id = northwind(&db).await;
        let store = db.store().await;
        let (cy_id, ana_id) = (sign_in(&store, "cy@example.com").await, sign_in(&store, "ana@example.com").await);
        store.close().await;
        let out = db
            .ok(&["teams", "remove-member", "Northwind Sales", "cy@example.com", "--reason", "ticket 5: left the company", "--yes"])
            .await;
        assert_has(&out, &["cy@example.com", "removed", "Northwind Sales"]);
        // Every session of the removed person ends, and only theirs.
        let store = db.store().await;
        let ended: Vec<_> = store.sessions_of(cy_id).await.unwrap().into_iter().map(|s| s.revoked_reason).collect();
        assert_eq!(ended, [Some("team_member_removed".to_owned())]);
        assert!(store.sessions_of(ana_id).await.unwrap()[0].revoked_at.is_none());
        store.close().await;

        let v = db.json(&["teams", "show", &id.to_string()]).await;
        assert!(member(&v, "cy@example.com").is_none());
        assert_eq!(v["seats"]["used"], 3);
        let audit = &operators(&v)[0];
        assert_eq!(audit["action"], "team.member_remove");
        assert_eq!(audit["actor"], ACTOR);
        assert_eq!(audit["reason"], "ticket 5: left the company");
        assert_eq!(audit["target_email"], "cy@example.com");
        assert_eq!(audit["details"]["team_id"], id.to_string());
        assert_eq!(audit["details"]["role"], "member");
        // The removed account's own trail shows it as well.
        let cy = db.json(&["users", "show", "cy@example.com"]).await;
        assert_eq!(cy["audit"][0]["action"], "team.member_remove");

        // By id; the owner is refused with what to do instead.
        let store = db.store().await;
        let ana = id_of(&store, "ana@example.com").await;
        store.close().await;
        let owner = db
            .run(&["teams", "remove-member", &id.to_string(), &ana.to_string(), "--reason", "r", "--yes"])
            .await;
        assert_eq!(owner.status.code(), Some(1));
        assert!(stderr(&owner).contains("transfer"), "{}", stderr(&owner));
        let not_member = db
            .run(&["teams", "remove-member", &id.to_string(), "cy@example.com", "--reason", "r", "--yes"])
            .await;
        assert_eq!(not_member.status.code(), Some(1));
        assert!(stderr(&not_member).contains("not a member"), "{}", stderr(&not_member));
        let v = db.json(&["teams", "show", &id.to_string()]).await;
        assert_eq!(member(&v, "ana@example.com").unwrap()["role"], "owner");
        assert_eq!(operators(&v).len(), 1, "refusals change and record nothing");
    }
);

both!(
    async fn transfer_swaps_the_roles_and_refuses_someone_outside_the_team(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let id = northwind(&db).await;
        let out = db
            .ok(&["teams", "transfer", "Northwind Sales", "cy@example.com", "--reason", "ana is leaving", "--yes"])
            .await;
        assert_has(&out, &["cy@example.com", "owner"]);
        let v = db.json(&["teams", "show", &id.to_string()]).await;
        assert_eq!(v["owner"]["email"], "cy@example.com");
        assert_eq!(member(&v, "cy@example.com").unwrap()["role"], "owner");
        assert_eq!(member(&v, "ana@example.com").unwrap()["role"], "admin");
        let audit = &operators(&v)[0];
        assert_eq!(audit["action"], "team.transfer");
        assert_eq!(audit["actor"], ACTOR);
        assert_eq!(audit["reason"], "ana is leaving");
        assert_eq!(audit["details"]["from"], "ana@example.com");
        assert_eq!(audit["details"]["to"], "cy@example.com");

        for outsider in ["di@example.com", "nobody@example.com", "cy@example.com"] {
            let out = db
                .run(&["teams", "transfer", &id.to_string(), outsider, "--reason", "r", "--yes"])
                .await;
            assert_eq!(out.status.code(), Some(1), "{outsider}: {}", stderr(&out));
        }
        let v = db.json(&["teams", "show", &id.to_string()]).await;
        assert_eq!(v["owner"]["email"], "cy@example.com");
        assert_eq!(operators(&v).len(), 1);
    }
);

both!(
    async fn seats_set_records_refuses_below_the_seats_in_use_and_is_audited(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let id = northwind(&db).await;
        let below = db
            .run(&["teams", "seats", "set", "Northwind Sales", "3", "--reason", "r", "--yes"])
            .await;
        assert_eq!(below.status.code(), Some(1));
        assert!(
            stderr(&below).contains(
                "4 seats are in use (3 members and 1 pending invites). Remove members or revoke invites first."
            ),
            "{}",
            stderr(&below)
        );
        let out = db
            .ok(&["teams", "seats", "set", "Northwind Sales", "8", "--reason", "ticket 6: three more reps", "--yes"])
            .await;
        assert_has(&out, &["8", "5"]);
        let v = db.json(&["teams", "show", &id.to_string()]).await;
        assert_eq!(v["seats"], serde_json::json!({ "total": 8, "used": 4, "free": 4 }));
        assert_eq!(operators(&v).len(), 1);
        let audit = &operators(&v)[0];
        assert_eq!(audit["action"], "team.seats");
        assert_eq!(audit["actor"], ACTOR);
        assert_eq!(audit["reason"], "ticket 6: three more reps");
        assert_eq!((audit["details"]["before"].as_i64(), audit["details"]["after"].as_i64()), (Some(5), Some(8)));
        let log = db.json(&["audit"]).await;
        assert_eq!(log[0]["action"], "team.seats");

        let zero = db.run(&["teams", "seats", "set", &id.to_string(), "0", "--reason", "r", "--yes"]).await;
        assert_eq!(zero.status.code(), Some(1));
        assert!(stderr(&zero).contains("A team has between 1 and"), "{}", stderr(&zero));
    }
);

both!(
    async fn changes_ask_first_and_need_a_reason(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let id = northwind(&db).await;
        let team = id.to_string();
        for args in [
            vec!["teams", "remove-member", &team, "cy@example.com", "--reason", "r"],
            vec!["teams", "transfer", &team, "cy@example.com", "--reason", "r"],
            vec!["teams", "seats", "set", &team, "9", "--reason", "r"],
        ] {
            let out = db.run_with_stdin(&args, "y\n").await;
            assert_eq!(out.status.code(), Some(1), "{args:?}");
            assert!(stderr(&out).contains("--yes"), "{args:?}: {}", stderr(&out));
        }
        for args in [
            vec!["teams", "remove-member", &team, "cy@example.com", "--yes"],
            vec!["teams", "transfer", &team, "cy@example.com", "--reason", " ", "--yes"],
            vec!["teams", "seats", "set", &team, "9", "--yes"],
        ] {
            let out = db.run(&args).await;
            assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        }
        let v = db.json(&["teams", "show", &team]).await;
        assert_eq!(v["seats"], serde_json::json!({ "total": 5, "used": 4, "free": 1 }));
        assert_eq!(member(&v, "ana@example.com").unwrap()["role"], "owner");
        assert!(operators(&v).is_empty());
    }
);

both!(
    async fn an_ambiguous_name_lists_the_ids_and_an_unknown_team_or_user_fails(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let first = northwind(&db).await;
        let second = second_northwind(&db).await;
        let out = db.run(&["teams", "show", "Northwind Sales"]).await;
        assert_eq!(out.status.code(), Some(1));
        assert_has(&stderr(&out), &["2 teams", &first.to_string(), &second.to_string()]);
        let out = db
            .run(&["teams", "seats", "set", "Northwind Sales", "9", "--reason", "r", "--yes"])
            .await;
        assert_eq!(out.status.code(), Some(1));
        assert!(stderr(&out).contains(&second.to_string()), "{}", stderr(&out));

        for args in [
            vec!["teams", "show", "Southwind"],
            vec!["teams", "show", "0193f1c2-0000-7000-8000-000000000000"],
            vec!["teams", "remove-member", "Southwind", "cy@example.com", "--reason", "r", "--yes"],
        ] {
            let out = db.run(&args).await;
            assert_eq!(out.status.code(), Some(1), "{args:?}");
            assert!(stderr(&out).contains("no team"), "{args:?}: {}", stderr(&out));
        }
        let unknown_user = db
            .run(&["teams", "remove-member", &first.to_string(), "nobody@example.com", "--reason", "r", "--yes"])
            .await;
        assert_eq!(unknown_user.status.code(), Some(1));
        assert!(stderr(&unknown_user).contains("no account"), "{}", stderr(&unknown_user));
        let malformed = db
            .run(&["teams", "remove-member", &first.to_string(), "not-an-address", "--reason", "r", "--yes"])
            .await;
        assert_eq!(malformed.status.code(), Some(2), "{}", stderr(&malformed));

        let empty = crate::helpers::TestDb::new(db.backend).await;
        assert!(empty.ok(&["teams", "list"]).await.contains("No teams"));
    }
);

/// Buys 5 seats for the team at the mock as the team's checkout does, and confirms it as the
/// success page would. Returns the subscription id.
async fn subscribe_team(db: &TestDb, mock: &stripe_mock::MockHandle, team: Uuid) -> String {
    use closewise_core::billing::{Billing, StripeClient, StripeConnection};
    let store = db.store().await;
    let stripe = StripeClient::new(&StripeConnection {
        api_base: mock.base_url(),
        secret_key: stripe_mock::DEFAULT_SECRET_KEY.to_owned().into(),
        timeout: std::time::Duration::from_secs(5),
    })
    .unwrap();
    let customer = stripe
        .create_team_customer(team, "ana@example.com", "Northwind Sales")
        .await
        .unwrap();
    let url = stripe
        .create_team_checkout_session(
            team,
            &customer,
            stripe_mock::SEED_PRICE,
            5,
            "http://127.0.0.1:8080/team?checkout=success&session_id={CHECKOUT_SESSION_ID}",
            "http://127.0.0.1:8080/team",
            &closewise_core::billing::Promotion::Allow,
            None,
        )
        .await
        .unwrap();
    let session_id = url.rsplit('/').next().unwrap();
    mock.pay(session_id, "4242424242424242").unwrap();
    let ana = id_of(&store, "ana@example.com").await;
    let row = Billing::new(store.clone(), stripe, Clock::System)
        .confirm_team_checkout(
            &closewise_core::actor::Actor::member(ana, "ana@example.com"),
            None,
            session_id,
        )
        .await
        .unwrap();
    store.close().await;
    row.subscription_id.expect("the team is subscribed")
}

both!(
    async fn seats_set_on_a_subscribed_team_changes_the_stripe_subscription(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let id = northwind(&db).await;
        let (_, mock) = stripe_mock::spawn(stripe_mock::Config::default()).await.unwrap();
        let sub_id = subscribe_team(&db, &mock, id).await;
        let (team, base) = (id.to_string(), mock.base_url());
        let set = |n: &'static str| {
            vec!["teams", "seats", "set", "Northwind Sales", n, "--reason", "ticket 8", "--yes", "--stripe-api-base"]
        };

        let mut below = set("3");
        below.push(&base);
        let out = db.run(&below).await;
        assert_eq!(out.status.code(), Some(1));
        assert!(stderr(&out).contains("4 seats are in use"), "{}", stderr(&out));

        let mut seven = set("7");
        seven.push(&base);
        let out = db.ok(&seven).await;
        assert_has(&out, &["7 seats (was 5)"]);
        let v = db.json(&["teams", "show", &team]).await;
        assert_eq!(v["seats"], serde_json::json!({ "total": 7, "used": 4, "free": 3 }));
        assert_eq!(v["subscription"]["subscription_id"], sub_id.as_str());
        assert_eq!(v["subscription"]["status"], "active");
        let audit = &operators(&v)[0];
        assert_eq!(audit["action"], "team.seats");
        assert_eq!(audit["actor"], ACTOR);
        let seats = &audit["details"]["seats"];
        assert_eq!((seats["before"].as_i64(), seats["after"].as_i64()), (Some(5), Some(7)), "{audit}");
        assert_eq!(operators(&v).len(), 1, "the refusal recorded nothing");

        let stripe = closewise_core::billing::StripeClient::new(&closewise_core::billing::StripeConnection {
            api_base: mock.base_url(),
            secret_key: stripe_mock::DEFAULT_SECRET_KEY.to_owned().into(),
            timeout: std::time::Duration::from_secs(5),
        })
        .unwrap();
        assert_eq!(stripe.team_subscription(&sub_id).await.unwrap().quantity, 7, "Stripe's quantity");

        // Stripe unreachable: refused, nothing recorded.
        let out = db
            .run(&["teams", "seats", "set", &team, "9", "--reason", "r", "--yes", "--stripe-api-base", "http://127.0.0.1:9", "--stripe-timeout-secs", "2"])
            .await;
        assert_eq!(out.status.code(), Some(1));
        assert!(stderr(&out).contains("nothing changed"), "{}", stderr(&out));
        assert_eq!(db.json(&["teams", "show", &team]).await["seats"]["total"], 7);
    }
);
