//! `teams setup-links list` and `teams setup-links revoke`: an operator sees a team's setup links
//! for IT (never the link) and revokes one, asked first and audited with the reason.

use closewise_core::clock::Clock;
use closewise_core::store::teams::setup_links::NewSetupLink;
use closewise_core::teams::Teams;
use closewise_testkit::both;
use serde_json::json;
use time::Duration;
use uuid::Uuid;

use crate::helpers::{stderr, TestDb};

/// Ana's team "Contoso" with an open link for domain and sso: the link's id.
async fn contoso_link(db: &TestDb) -> Uuid {
    let store = db.store().await;
    let ana = store
        .user_by_email("ana@example.com")
        .await
        .unwrap()
        .unwrap()
        .id;
    let owner = closewise_core::actor::Actor::member(ana, "ana@example.com");
    let mail = closewise_core::mail::Composer::new("http://localhost");
    let team = Teams::new(
        store.clone(),
        Clock::System,
        mail,
        closewise_core::limits::unlimited(),
    )
    .create(&owner, "Contoso")
    .await
    .unwrap();
    let (id, now) = (Uuid::now_v7(), Clock::System.now());
    let details = json!({ "team_id": team.id, "setup_link_id": id });
    let audit = owner.audit("team.setup_link_created", None, None, details, now);
    let link = NewSetupLink {
        id,
        team_id: team.id,
        token_hash: "not-a-token-anyone-holds",
        steps: "domain,sso",
        created_by: "ana@example.com",
        created_at: now,
        expires_at: now + Duration::hours(24),
    };
    store.insert_setup_link(&link, &audit).await.unwrap();
    store.close().await;
    id
}

both!(
    async fn setup_links_list_and_revoke_show_and_end_a_teams_link(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let id = contoso_link(&db).await;
        let v = db.json(&["teams", "setup-links", "list", "Contoso"]).await;
        let links = v["links"].as_array().unwrap();
        assert_eq!(links.len(), 1, "{v}");
        assert_eq!((links[0]["id"].as_str(), links[0]["state"].as_str()), (Some(id.to_string().as_str()), Some("open")));
        assert_eq!(links[0]["steps"], json!(["domain", "sso"]));
        assert!(!v.to_string().contains("not-a-token"), "{v}");
        let text = db.ok(&["teams", "setup-links", "list", "Contoso"]).await;
        assert!(text.contains(&id.to_string()) && text.contains("domain,sso"), "{text}");

        let out = db.run(&["teams", "setup-links", "revoke", "Contoso", &id.to_string(), "--reason", " ", "--yes"]).await;
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        db.ok(&["teams", "setup-links", "revoke", "Contoso", &id.to_string(), "--reason", "ticket 11", "--yes"]).await;
        let v = db.json(&["teams", "setup-links", "list", "Contoso"]).await;
        assert_eq!(v["links"][0]["state"], "revoked", "{v}");
        let store = db.store().await;
        let rows = store.audit_log(20).await.unwrap();
        let revoked = rows.iter().find(|r| r.action == "team.setup_link_revoked").expect("audited");
        assert_eq!(revoked.reason.as_deref(), Some("ticket 11"));
        store.close().await;
    }
);
