//! The owner's setup links for IT: made, listed and revoked by the owner alone, audited; at the
//! link, only its steps (the link as actor everywhere, refused by every other service), gone once
//! revoked, expired or finished; finishing mails the owner in the transaction that audits it;
//! the sweeper deletes links that ended 30 days ago.

use closewise_core::actor::Actor;
use closewise_core::setup_links::SetupLinksError;
use closewise_core::store::fixture::TeamFixture;
use closewise_core::store::mail::MailFilter;
use closewise_domain::email::Email;
use closewise_domain::setup_links::{SetupLinkState, SetupStep};
use closewise_testkit::{both, Backend};
use time::Duration;
use uuid::Uuid;

use super::{break_audit, fixture, restore, trail, Fx};

struct Team {
    id: Uuid,
    owner: Actor,
    owner_email: String,
    member: Actor,
}

async fn team(f: &Fx) -> Team {
    let (store, now) = (&f.app.store, f.app.clock.now());
    let t = store
        .seed_team_fixture(&TeamFixture {
            prefix: "it".into(),
            domain: "acme.example".into(),
            members: 2,
            calls: 0,
            audit: 0,
            invites: 0,
            password_hash: String::new(),
            now,
        })
        .await
        .unwrap();
    let member_email = t.member_email.clone().unwrap();
    let member = store.user_by_email(&member_email).await.unwrap().unwrap();
    Team {
        id: t.team_id,
        owner: Actor::member(t.owner_id, &t.owner_email),
        owner_email: t.owner_email,
        member: Actor::member(member.id, member_email),
    }
}

/// The token of a link's URL.
fn token_of(url: &str) -> String {
    url.rsplit('/').next().unwrap().to_string()
}

fn code<T: std::fmt::Debug>(r: Result<T, SetupLinksError>) -> &'static str {
    r.expect_err("refused").code()
}

both!(
    async fn only_the_owner_makes_lists_and_revokes_links_and_each_change_is_audited(
        backend: Backend,
    ) {
        let f = fixture(backend).await;
        let t = team(&f).await;
        let links = &f.app.setup_links;
        for bad in [&[][..], &["sso", "sso"][..], &["billing"][..]] {
            assert_eq!(
                code(links.create(&t.owner, None, bad).await),
                "invalid_setup_steps",
                "{bad:?}"
            );
        }
        assert_eq!(
            code(links.create(&t.member, None, &["domain"]).await),
            "forbidden_role"
        );
        assert_eq!(code(links.list(&t.member, None).await), "forbidden_role");

        let made = links
            .create(&t.owner, None, &["scim", "domain"])
            .await
            .unwrap();
        assert_eq!(made.steps, vec![SetupStep::Domain, SetupStep::Scim]);
        assert!(
            made.url.starts_with("http://127.0.0.1:8080/setup/"),
            "{}",
            made.url
        );
        assert_eq!(token_of(&made.url).len(), 43, "32 random bytes, base64url");
        assert_eq!(made.expires_at, f.app.clock.now() + Duration::hours(24));
        assert_eq!(trail(&f, "team.setup_link_created").await, 1);
        let listed = links.list(&t.owner, None).await.unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(
            (listed[0].state, listed[0].created_by.as_str()),
            (SetupLinkState::Open, t.owner_email.as_str())
        );
        assert!(
            !format!("{listed:?}").contains(&token_of(&made.url)),
            "the token is never listed"
        );

        assert_eq!(
            code(links.revoke(&t.member, None, made.id).await),
            "forbidden_role"
        );
        assert_eq!(
            code(links.revoke(&t.owner, None, Uuid::now_v7()).await),
            "setup_link_not_found"
        );
        links.revoke(&t.owner, None, made.id).await.unwrap();
        links.revoke(&t.owner, None, made.id).await.unwrap();
        assert_eq!(
            trail(&f, "team.setup_link_revoked").await,
            1,
            "revoking again changes nothing"
        );
        assert_eq!(
            links.list(&t.owner, None).await.unwrap()[0].state,
            SetupLinkState::Revoked
        );
        assert_eq!(
            links.state(&token_of(&made.url)).await.unwrap(),
            SetupLinkState::Revoked
        );
        assert_eq!(
            code(links.page(&token_of(&made.url)).await),
            "setup_link_gone"
        );
        assert_eq!(code(links.page("nope").await), "setup_link_not_found");

        // Without its audit row, no link is made.
        break_audit(&f).await;
        assert!(links.create(&t.owner, None, &["sso"]).await.is_err());
        restore(&f).await;
        assert_eq!(links.list(&t.owner, None).await.unwrap().len(), 1);
    }
);

both!(
    async fn a_link_takes_only_its_steps_and_nothing_else_of_the_team(backend: Backend) {
        let f = fixture(backend).await;
        let t = team(&f).await;
        let links = &f.app.setup_links;
        let made = links.create(&t.owner, None, &["scim"]).await.unwrap();
        let token = token_of(&made.url);
        let page = links.page(&token).await.unwrap();
        assert_eq!(
            (page.steps.clone(), page.done.clone()),
            (vec![SetupStep::Scim], vec![])
        );
        assert_eq!(page.scim_base_url, "http://127.0.0.1:8080/scim/v2");
        assert_eq!(
            code(links.add_domain(&token, "acme.example").await),
            "setup_step_not_allowed"
        );
        let email = Email::parse("it@acme.example").unwrap();
        assert_eq!(
            code(links.start_test(&token, &email).await),
            "setup_step_not_allowed"
        );

        let (scim, _) = links.create_scim_token(&token, "Okta").await.unwrap();
        let page = links.page(&token).await.unwrap();
        assert_eq!(page.done, vec![SetupStep::Scim]);
        assert_eq!(page.scim_tokens.len(), 1);
        assert_eq!(
            (page.scim_tokens[0].id, page.scim_tokens[0].name.as_str()),
            (scim.id, "Okta")
        );
        let rows = f.app.store.team_audit(t.id, 50).await.unwrap();
        let made_by = rows
            .iter()
            .find(|r| r.action == "team.scim.token_create")
            .unwrap();
        assert_eq!(made_by.actor, format!("setup link {}", made.id));

        // As the link, every other service finds no team: billing, policy, streams, domains,
        // single sign-on.
        let link = Actor::SetupLink {
            team_id: t.id,
            link_id: made.id,
        };
        let team = Some(t.id);
        assert!(
            f.app.teams.team_policy(&link, team).await.is_err(),
            "policy"
        );
        assert!(
            f.app
                .billing
                .team_billing_details(&link, team)
                .await
                .is_err(),
            "billing"
        );
        assert!(f.app.streams.list(&link).await.is_err(), "streams");
        assert!(
            f.app
                .verified_domains
                .add(&link, team, "acme.example")
                .await
                .is_err(),
            "domains"
        );
        assert!(f.app.sso.show(&link, team).await.is_err(), "single sign-on");
        assert!(f.app.scim.tokens(&link, team).await.is_ok(), "its own step");
        // Another team's id is none of the link's.
        assert!(f
            .app
            .scim
            .tokens(&link, Some(Uuid::now_v7()))
            .await
            .is_err());

        // Once it ends, not even its own step.
        links.revoke(&t.owner, None, made.id).await.unwrap();
        assert!(f.app.scim.tokens(&link, team).await.is_err(), "revoked");
        assert_eq!(
            code(links.create_scim_token(&token, "Again").await),
            "setup_link_gone"
        );
    }
);

both!(
    async fn finishing_ends_the_link_and_mails_the_owner_in_its_audited_transaction(
        backend: Backend,
    ) {
        let f = fixture(backend).await;
        let t = team(&f).await;
        let links = &f.app.setup_links;
        let made = links
            .create(&t.owner, None, &["domain", "scim"])
            .await
            .unwrap();
        let token = token_of(&made.url);
        links.create_scim_token(&token, "Entra").await.unwrap();

        break_audit(&f).await;
        assert!(links.finish(&token).await.is_err());
        restore(&f).await;
        let mail = |f: &Fx| {
            let to = t.owner_email.clone();
            let store = f.app.store.clone();
            async move {
                store
                    .list_mail(Some(&to), MailFilter::All, 10)
                    .await
                    .unwrap()
            }
        };
        assert!(
            mail(&f)
                .await
                .iter()
                .all(|m| m.kind != "setup_link_finished"),
            "no mail without the row"
        );
        assert_eq!(links.state(&token).await.unwrap(), SetupLinkState::Open);

        assert_eq!(links.finish(&token).await.unwrap(), vec![SetupStep::Scim]);
        let sent: Vec<_> = mail(&f)
            .await
            .into_iter()
            .filter(|m| m.kind == "setup_link_finished")
            .collect();
        assert_eq!(sent.len(), 1);
        assert_eq!(sent[0].subject, "IT finished setting up it bench team");
        assert!(
            sent[0].text_body.contains("created a SCIM token"),
            "{}",
            sent[0].text_body
        );
        assert!(sent[0]
            .text_body
            .contains("http://127.0.0.1:8080/team/security#team-setup-links"));
        assert_eq!(trail(&f, "team.setup_link_finished").await, 1);
        assert_eq!(code(links.finish(&token).await), "setup_link_gone");
        assert!(matches!(
            links.page(&token).await,
            Err(SetupLinksError::Gone(SetupLinkState::Finished))
        ));
        // Revoking a finished link leaves it finished.
        links.revoke(&t.owner, None, made.id).await.unwrap();
        assert_eq!(
            links.list(&t.owner, None).await.unwrap()[0].state,
            SetupLinkState::Finished
        );
        assert_eq!(
            links.list(&t.owner, None).await.unwrap()[0].done,
            vec![SetupStep::Scim]
        );
    }
);

both!(
    async fn a_link_expires_after_24_hours_and_is_swept_30_days_later(backend: Backend) {
        let f = fixture(backend).await;
        let t = team(&f).await;
        let links = &f.app.setup_links;
        let made = links.create(&t.owner, None, &["sso"]).await.unwrap();
        let token = token_of(&made.url);
        f.app.clock.advance(Duration::hours(24));
        assert!(matches!(
            links.page(&token).await,
            Err(SetupLinksError::Gone(SetupLinkState::Expired))
        ));
        assert_eq!(
            links.list(&t.owner, None).await.unwrap()[0].state,
            SetupLinkState::Expired
        );
        links.revoke(&t.owner, None, made.id).await.unwrap();
        assert_eq!(
            links.state(&token).await.unwrap(),
            SetupLinkState::Expired,
            "revoking changes nothing"
        );

        f.app.clock.advance(Duration::days(30));
        let report = f.app.sweeper.sweep(f.app.clock.now()).await.unwrap();
        assert_eq!(report.setup_links, 0, "30 days are kept");
        f.app.clock.advance(Duration::minutes(1));
        let report = f.app.sweeper.sweep(f.app.clock.now()).await.unwrap();
        assert_eq!(report.setup_links, 1);
        assert!(links.list(&t.owner, None).await.unwrap().is_empty());
        assert_eq!(code(links.page(&token).await), "setup_link_not_found");
    }
);
