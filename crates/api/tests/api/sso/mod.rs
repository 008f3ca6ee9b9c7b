//! Single sign-on (docs/teams.md) against a real OpenID provider (oidc-provider, run by
//! `idp`): the owner's connection, the first sign-in that makes the member and takes a seat, no
//! seat left, the ID token's person refused, Require SSO, and the owner's test.

mod claims;
mod idp;
mod policy;
mod prehijack;
mod provider_address;
mod require_everywhere;
mod saml;
mod saml_upkeep;
mod scim;
mod setup_link;
mod setup_link_gone;
mod switch_account;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::both;
use crate::helpers::*;
use crate::team::{call, join, team, user, User, PASSWORD};
use closewise_core::store::teams::domains::NewTeamDomain;
use idp::{Browser, Idp, CLIENT_ID, CLIENT_SECRET};

pub const DOMAIN: &str = "acme.example";

/// An owner at `DOMAIN` with a team of `seats` seats whose domain is verified.
async fn owner_with_domain(app: &TestApp, seats: u32) -> User {
    let owner = user(app, &format!("owner@{DOMAIN}")).await;
    team(app, &owner, "Acme Sales", seats).await;
    let (team_id, _) = app
        .state
        .store
        .membership_of(owner.id)
        .await
        .unwrap()
        .unwrap();
    let id = uuid::Uuid::now_v7();
    let now = app.state.clock.now();
    let new = NewTeamDomain {
        id,
        team_id,
        domain: DOMAIN,
        txt_token: "t",
        created_by: Some(owner.id),
        now,
    };
    assert!(app.state.store.insert_team_domain(&new).await.unwrap());
    assert!(app
        .state
        .store
        .mark_team_domain_verified(id, now)
        .await
        .unwrap());
    owner
}

async fn save(app: &TestApp, owner: &User, body: Value) -> (StatusCode, Value) {
    call(
        app,
        Method::PUT,
        "/api/team/sso",
        Some(&owner.token),
        Some(body),
    )
    .await
}

async fn connect(app: &TestApp, owner: &User, idp: &Idp, required: bool) -> Value {
    let body = json!({ "issuer": idp.issuer, "client_id": CLIENT_ID, "client_secret": CLIENT_SECRET, "required": required });
    let (s, v) = save(app, owner, body).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v
}

fn start(app: &TestApp, email: &str, next: &str) -> String {
    app.url(&format!("/api/auth/sso/start?email={email}&next={next}"))
}

async fn member_emails(app: &TestApp, owner: &User) -> Vec<String> {
    let (_, t) = call(app, Method::GET, "/api/team", Some(&owner.token), None).await;
    t["team"]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["email"].as_str().unwrap().to_string())
        .collect()
}

both!(
    async fn the_first_sso_sign_in_makes_the_verified_member_and_lands_on_next(app) {
        let owner = owner_with_domain(&app, 3).await;
        let ana = format!("ana@{DOMAIN}");
        let idp = Idp::start(&app, &[(&ana, true)]).await;
        let shown = connect(&app, &owner, &idp, false).await;
        assert_eq!(shown["redirect_uri"], "http://127.0.0.1:8080/api/auth/sso/callback", "{shown}");
        assert_eq!((shown["issuer"].as_str(), shown["configured"].as_bool()), (Some(idp.issuer.as_str()), Some(true)));
        assert!(!shown.to_string().contains(CLIENT_SECRET), "the secret is never shown: {shown}");
        let (_, again) = call(&app, Method::GET, "/api/team/sso", Some(&owner.token), None).await;
        assert_eq!(again["domains"], json!([DOMAIN]));
        assert!(!again.to_string().contains(CLIENT_SECRET));
        let (_, d) = body(app.post("/api/auth/sso/discover?next=/team", json!({ "email": ana })).await).await;
        assert_eq!(d["sso"], true, "{d}");
        assert_eq!(d["start_url"], format!("/api/auth/sso/start?email=ana%40{DOMAIN}&next=%2Fteam"));
        let (_, d) = body(app.post("/api/auth/sso/discover", json!({ "email": "ana@elsewhere.example" })).await).await;
        assert_eq!((d["sso"].as_bool(), d["start_url"].is_null()), (Some(false), true), "{d}");

        let browser = Browser::new();
        assert_eq!(browser.follow(&app, &start(&app, &ana, "/team")).await, "/team");
        let (s, session) = browser.session(&app).await;
        assert_eq!(s, StatusCode::OK, "{session}");
        assert_eq!(session["user"]["email"], ana.as_str());
        assert!(session["user"]["email_confirmed_at"].is_string(), "verified by the provider: {session}");
        assert!(member_emails(&app, &owner).await.contains(&ana));

        // Again: the same member, no second seat.
        let browser = Browser::new();
        assert_eq!(browser.follow(&app, &start(&app, &ana, "https://evil.example")).await, "/dashboard");
        let (_, t) = call(&app, Method::GET, "/api/team", Some(&owner.token), None).await;
        assert_eq!(t["team"]["seats"]["used"], 2, "{t}");
        let actions: Vec<String> = app.state.store.audit_log(50).await.unwrap().into_iter().map(|a| a.action).collect();
        assert!(actions.contains(&"team.sso.save".to_string()), "{actions:?}");
    }
);

both!(
    async fn with_no_free_seat_the_page_says_so_and_nothing_is_created(app) {
        let owner = owner_with_domain(&app, 1).await;
        let ana = format!("ana@{DOMAIN}");
        let idp = Idp::start(&app, &[(&ana, true)]).await;
        connect(&app, &owner, &idp, false).await;
        let landed = Browser::new().follow(&app, &start(&app, &ana, "/team")).await;
        assert_eq!(landed, "/signin?sso=1&sso_error=seats_taken&seats=1");
        assert!(app.state.store.user_by_email(&ana).await.unwrap().is_none(), "no account was made");
        assert_eq!(
            closewise_domain::sso::no_free_seat_message(1),
            "All 1 seats are taken. Ask your team's owner to add seats."
        );
    }
);

both!(
    async fn the_provider_must_vouch_for_an_address_at_a_verified_domain_and_a_state_works_once(app) {
        let owner = owner_with_domain(&app, 5).await;
        let (unverified, outsider) = (format!("cy@{DOMAIN}"), "eve@other.example".to_string());
        let ana = format!("ana@{DOMAIN}");
        let idp = Idp::start(&app, &[(&ana, true), (&unverified, false), (&outsider, true)]).await;
        connect(&app, &owner, &idp, false).await;
        let landed = Browser::new().follow(&app, &start(&app, &unverified, "/team")).await;
        assert_eq!(landed, "/signin?sso=1&sso_error=email_not_verified");
        // The provider signs in someone at another domain (login_hint names them).
        let url = start(&app, &ana, "/team");
        let browser = Browser::new();
        let res = browser.client.get(&url).send().await.unwrap();
        let to_idp = res.headers()["location"].to_str().unwrap().replace(&format!("login_hint=ana%40{DOMAIN}"), "login_hint=eve%40other.example");
        assert_eq!(browser.follow(&app, &to_idp).await, "/signin?sso=1&sso_error=domain_not_verified");
        assert!(app.state.store.user_by_email(&outsider).await.unwrap().is_none());
        assert!(app.state.store.user_by_email(&unverified).await.unwrap().is_none());

        // A callback replayed, or brought by a browser that did not start it, signs nobody in.
        let browser = Browser::new();
        let res = browser.client.get(start(&app, &ana, "/team")).send().await.unwrap();
        let mut url = reqwest::Url::parse(res.headers()["location"].to_str().unwrap()).unwrap();
        let callback = loop {
            let res = browser.client.get(url.clone()).send().await.unwrap();
            let next = url.join(res.headers()["location"].to_str().unwrap()).unwrap();
            if next.path() == "/api/auth/sso/callback" {
                break app.url(&next[url::Position::BeforePath..]);
            }
            url = next;
        };
        let other = Browser::new();
        let res = other.client.get(&callback).send().await.unwrap();
        assert_eq!(res.headers()["location"], "/signin?sso=1&sso_error=sso_login_expired", "not this browser's sign-in");
        assert!(app.state.store.user_by_email(&ana).await.unwrap().is_none());
        let res = browser.client.get(&callback).send().await.unwrap();
        assert_eq!(res.headers()["location"], "/team", "the browser that started it finishes it");
        let res = browser.client.get(&callback).send().await.unwrap();
        assert_eq!(res.headers()["location"], "/signin?sso=1&sso_error=sso_login_expired", "a state works once");
        let res = browser.client.get(app.url("/api/auth/sso/callback?error=access_denied")).send().await.unwrap();
        assert_eq!(res.headers()["location"], "/signin?sso=1&sso_error=sso_login_expired");

        // The owner's test: every check, nobody made.
        let dan = format!("dan@{DOMAIN}");
        let idp = Idp::start(&app, &[(&dan, true)]).await;
        connect(&app, &owner, &idp, false).await;
        let test = app.url(&format!("/api/auth/sso/start?email={dan}&test=true"));
        assert_eq!(Browser::new().follow(&app, &test).await, "/team?sso_test=passed");
        assert!(app.state.store.user_by_email(&dan).await.unwrap().is_none());
    }
);

both!(
    async fn require_sso_refuses_passwords_of_the_domain_and_ends_members_password_sessions(app) {
        let owner = owner_with_domain(&app, 5).await;
        let bo = format!("bo@{DOMAIN}");
        let member = join(&app, &owner, &bo, "member").await;
        let outside = join(&app, &owner, "dee@partner.example", "member").await;
        let idp = Idp::start(&app, &[(&bo, true)]).await;
        connect(&app, &owner, &idp, false).await;
        let (s, _) = call(&app, Method::GET, "/api/auth/user", Some(&member.token), None).await;
        assert_eq!(s, StatusCode::OK);

        let shown = connect(&app, &owner, &idp, true).await;
        assert_eq!(shown["required"], true);
        let (s, v) = call(&app, Method::GET, "/api/auth/user", Some(&member.token), None).await;
        assert_eq!(s, StatusCode::UNAUTHORIZED, "the member's password session ended: {v}");
        let (s, _) = call(&app, Method::GET, "/api/auth/user", Some(&outside.token), None).await;
        assert_eq!(s, StatusCode::OK, "an address at another domain keeps its session");
        let (s, _) = call(&app, Method::GET, "/api/auth/user", Some(&owner.token), None).await;
        assert_eq!(s, StatusCode::OK, "the owner keeps theirs");

        let (s, v) = body(app.signin(&bo, PASSWORD).await).await;
        assert_eq!((s, error_code(&v)), (StatusCode::FORBIDDEN, "sso_required"), "{v}");
        assert_eq!(error_message(&v), closewise_domain::sso::SSO_REQUIRED_MESSAGE);
        let (s, v) = body(app.post("/api/auth/recover", json!({ "email": bo })).await).await;
        assert_eq!((s, error_code(&v)), (StatusCode::FORBIDDEN, "sso_required"), "{v}");
        let (s, v) = body(app.signup(&format!("new@{DOMAIN}"), PASSWORD).await).await;
        assert_eq!((s, error_code(&v)), (StatusCode::FORBIDDEN, "sso_required"), "{v}");
        let (s, v) = body(app.signin(&format!("owner@{DOMAIN}"), PASSWORD).await).await;
        assert_eq!(s, StatusCode::OK, "the owner's break-glass password: {v}");
        let (s, _) = body(app.signin("dee@partner.example", PASSWORD).await).await;
        assert_eq!(s, StatusCode::OK);

        // SSO still signs the member in, and that session survives saving again.
        let browser = Browser::new();
        assert_eq!(browser.follow(&app, &start(&app, &bo, "/dashboard")).await, "/dashboard");
        let (s, v) = browser.session(&app).await;
        assert_eq!(s, StatusCode::OK, "{v}");

        // Removed: passwords work again.
        let (s, _) = call(&app, Method::DELETE, "/api/team/sso", Some(&owner.token), None).await;
        assert_eq!(s, StatusCode::NO_CONTENT);
        let (s, v) = body(app.signin(&bo, PASSWORD).await).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        let (_, d) = body(app.post("/api/auth/sso/discover", json!({ "email": bo })).await).await;
        assert_eq!(d["sso"], false);
    }
);

both!(
    async fn only_the_owner_configures_sso_for_a_verified_domain_with_a_readable_provider(app) {
        let owner = user(&app, "owner@plain.example").await;
        team(&app, &owner, "Plain", 3).await;
        let member = join(&app, &owner, "m@plain.example", "admin").await;
        let good = json!({ "issuer": "https://idp.invalid", "client_id": "c", "client_secret": "s" });
        let (s, v) = save(&app, &member, good.clone()).await;
        assert_eq!((s, error_code(&v)), (StatusCode::FORBIDDEN, "forbidden_role"), "{v}");
        let (s, v) = save(&app, &owner, good).await;
        assert_eq!((s, error_code(&v)), (StatusCode::CONFLICT, "domain_not_verified"), "{v}");
        let (s, v) = call(&app, Method::GET, "/api/team/sso", Some(&owner.token), None).await;
        assert_eq!((s, v["configured"].as_bool()), (StatusCode::OK, Some(false)), "{v}");
        let (s, v) = call(&app, Method::DELETE, "/api/team/sso", Some(&owner.token), None).await;
        assert_eq!((s, error_code(&v)), (StatusCode::NOT_FOUND, "sso_not_configured"), "{v}");

        let owner = owner_with_domain(&app, 3).await;
        for (body, code) in [
            (json!({ "issuer": "http://idp.example", "client_id": "c", "client_secret": "s" }), "invalid_issuer"),
            (json!({ "issuer": "https://idp.example", "client_id": " ", "client_secret": "s" }), "client_id_required"),
            (json!({ "issuer": "https://idp.example", "client_id": "c" }), "client_secret_required"),
        ] {
            let (s, v) = save(&app, &owner, body.clone()).await;
            assert_eq!((s, error_code(&v)), (StatusCode::BAD_REQUEST, code), "{body}: {v}");
        }
        let unreachable = json!({ "issuer": "http://127.0.0.1:9", "client_id": "c", "client_secret": "s" });
        let (s, v) = save(&app, &owner, unreachable).await;
        assert_eq!((s, error_code(&v)), (StatusCode::UNPROCESSABLE_ENTITY, "sso_discovery_failed"), "{v}");
        let idp = Idp::start(&app, &[]).await;
        connect(&app, &owner, &idp, false).await;
        // The secret may be left out once stored.
        let (s, v) = save(&app, &owner, json!({ "issuer": idp.issuer, "client_id": CLIENT_ID, "required": false })).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
);
