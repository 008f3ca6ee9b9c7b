//! `teams domains show` and `teams domains disable`: an operator sees a team's domains and
//! un-verifies one, asked first and audited with the actor and the reason.

use closewise_core::clock::Clock;
use closewise_core::store::teams::domains::NewTeamDomain;
use closewise_core::teams::Teams;
use closewise_testkit::both;
use uuid::Uuid;

use crate::helpers::{stderr, TestDb, ACTOR};

/// Ana's team "Contoso" with contoso.example verified and pending.example pending.
async fn contoso(db: &TestDb) -> Uuid {
    let store = db.store().await;
    let ana = store
        .user_by_email("ana@example.com")
        .await
        .unwrap()
        .unwrap()
        .id;
    let team = Teams::new(
        store.clone(),
        Clock::System,
        closewise_core::mail::Composer::new("http://localhost"),
        closewise_core::limits::unlimited(),
    )
    .create(&closewise_core::actor::Actor::member(ana, ""), "Contoso")
    .await
    .unwrap();
    let now = Clock::System.now();
    for (domain, verified) in [("contoso.example", true), ("pending.example", false)] {
        let id = Uuid::now_v7();
        let new = NewTeamDomain {
            id,
            team_id: team.id,
            domain,
            txt_token: "abc123",
            created_by: Some(ana),
            now,
        };
        assert!(store.insert_team_domain(&new).await.unwrap());
        if verified {
            assert!(store.mark_team_domain_verified(id, now).await.unwrap());
        }
    }
    store.close().await;
    team.id
}

both!(
    async fn domains_show_and_disable_is_confirmed_and_audited(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let id = contoso(&db).await;
        let v = db.json(&["teams", "domains", "show", "Contoso"]).await;
        assert_eq!(v["team"]["id"], id.to_string());
        let domains = v["domains"].as_array().unwrap();
        assert_eq!(domains.len(), 2, "{v}");
        assert_eq!((domains[0]["domain"].as_str(), domains[0]["status"].as_str()), (Some("contoso.example"), Some("verified")));
        assert_eq!(domains[0]["txt_name"], "_closewise-challenge.contoso.example");
        assert_eq!(domains[0]["txt_value"], "closewise-domain-verification=abc123");
        assert_eq!(domains[1]["status"], "pending");
        let text = db.ok(&["teams", "domains", "show", &id.to_string()]).await;
        assert!(text.contains("contoso.example") && text.contains("verified"), "{text}");

        // Asked first; a reason is required; only a verified domain of the team.
        let out = db.run_with_stdin(&["teams", "domains", "disable", "Contoso", "contoso.example", "--reason", "r"], "y\n").await;
        assert_eq!(out.status.code(), Some(1));
        assert!(stderr(&out).contains("--yes"), "{}", stderr(&out));
        let out = db.run(&["teams", "domains", "disable", "Contoso", "contoso.example", "--reason", " ", "--yes"]).await;
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let out = db.run(&["teams", "domains", "disable", "Contoso", "other.example", "--reason", "r", "--yes"]).await;
        assert_eq!(out.status.code(), Some(1));
        assert!(stderr(&out).contains("no domain"), "{}", stderr(&out));
        let out = db.run(&["teams", "domains", "disable", "Contoso", "pending.example", "--reason", "r", "--yes"]).await;
        assert_eq!(out.status.code(), Some(1));
        assert!(stderr(&out).contains("not verified"), "{}", stderr(&out));

        let out = db.ok(&["teams", "domains", "disable", "Contoso", "Contoso.Example", "--reason", "ticket 7: disputed", "--yes"]).await;
        assert!(out.contains("pending"), "{out}");
        let v = db.json(&["teams", "domains", "show", "Contoso"]).await;
        assert_eq!(v["domains"][0]["status"], "pending");
        let team = db.json(&["teams", "show", "Contoso"]).await;
        let audit = &team["audit"][0];
        assert_eq!(audit["action"], "team.domain_disable");
        assert_eq!(audit["actor"], ACTOR);
        assert_eq!(audit["reason"], "ticket 7: disputed");
        assert_eq!(audit["details"]["domain"], "contoso.example");
        assert_eq!(audit["details"]["team_id"], id.to_string());
    }
);
