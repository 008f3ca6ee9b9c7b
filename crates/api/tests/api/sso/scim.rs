//! SCIM with single sign-on (docs/teams.md "SCIM provisioning"): when the team has SSO,
//! creating a user with no account makes them a member at once, with an account without a
//! password that signs in by SSO, and no invitation mail; without SSO it is the invitation mail.
//! An invitation still open when the person joins by SSO is withdrawn: one seat per person.

use reqwest::{Method, StatusCode};

use super::*;
use crate::team::scim::{new_user, scim, scim_token};

both!(
    async fn with_sso_a_provisioned_user_is_a_member_at_once_who_signs_in_by_sso(app) {
        let owner = owner_with_domain(&app, 3).await;
        let token = scim_token(&app, &owner).await;
        let (early, rep) = (format!("early@{DOMAIN}"), format!("rep@{DOMAIN}"));

        // No SSO yet: an invitation mail holds the seat, no account is made.
        let (status, _, v) = scim(&app, Method::POST, "/Users", &token, Some(new_user(&early))).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        assert_eq!(app.mails_to(&early).await.len(), 1, "the invitation mail");
        assert!(app.state.store.user_by_email(&early).await.unwrap().is_none());

        let idp = Idp::start(&app, &[(&rep, true), (&early, true)]).await;
        connect(&app, &owner, &idp, false).await;
        let (status, _, v) = scim(&app, Method::POST, "/Users", &token, Some(new_user(&rep))).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        assert_eq!(v["active"], true);
        assert!(app.mails_to(&rep).await.is_empty(), "no invitation mail with SSO");
        let account = app.state.store.user_by_email(&rep).await.unwrap().expect("the account, made at once");
        assert!(account.email_confirmed_at.is_some(), "the directory vouched for the address");
        assert!(member_emails(&app, &owner).await.contains(&rep));
        let (_, t) = call(&app, Method::GET, "/api/team", Some(&owner.token), None).await;
        assert_eq!(t["team"]["seats"]["used"], 3, "owner, rep and early's invitation: {t}");
        // Nobody knows its password.
        let (status, v) = body(app.signin(&rep, PASSWORD).await).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_credentials"), "{v}");
        let actions: Vec<String> = app.state.store.audit_log(50).await.unwrap().into_iter().map(|a| a.action).collect();
        assert!(actions.contains(&"team.scim.member_add".to_owned()), "{actions:?}");

        // They sign in by SSO into the membership they have: no second seat.
        let browser = Browser::new();
        assert_eq!(browser.follow(&app, &start(&app, &rep, "/team")).await, "/team");
        let (s, session) = browser.session(&app).await;
        assert_eq!((s, session["user"]["id"].as_str()), (StatusCode::OK, Some(account.id.to_string().as_str())), "{session}");

        // The one invited before SSO joins by SSO: the invitation's seat is the one they take.
        let browser = Browser::new();
        assert_eq!(browser.follow(&app, &start(&app, &early, "/team")).await, "/team");
        let (_, t) = call(&app, Method::GET, "/api/team", Some(&owner.token), None).await;
        assert_eq!(t["team"]["seats"]["used"], 3, "{t}");
        assert_eq!(t["team"]["invites"], json!([]), "{t}");
        assert!(member_emails(&app, &owner).await.contains(&early));
    }
);
