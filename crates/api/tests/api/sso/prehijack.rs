//! An address someone else signed up, never confirmed, that the team's identity provider (the first
//! SSO sign-in) or its directory (SCIM seating the account) then confirms, in either order: the
//! password whoever signed up chose never works, every session of the account ends and its
//! outstanding links are voided, as a verification link after sign-ups that disagreed does. And a
//! user the directory deactivated comes back neither by SSO nor into a seat until it reactivates
//! them.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use super::*;
use crate::team::scim::{new_user, scim, scim_token};

const ATTACKER: &str = "attacker-chose-this-2026";

/// What the attacker holds on the account they signed up: the password and the mailed link (both
/// theirs to use), and a session of the account (standing for any session it had).
struct Planted {
    user_id: uuid::Uuid,
    link: String,
    refresh_token: String,
}

/// The attacker signs `email` up with their own password; nobody confirms it.
async fn presign(app: &TestApp, email: &str) -> Planted {
    let (s, v) = body(app.signup(email, ATTACKER).await).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let user = app.state.store.user_by_email(email).await.unwrap().unwrap();
    assert!(user.email_confirmed_at.is_none());
    let mail = app.mails_to(email).await;
    let link = mail
        .iter()
        .filter(|m| m.kind == "verification")
        .find_map(|m| m.link.as_ref()?.split("token=").nth(1))
        .map(|t| t.split('&').next().unwrap_or(t).to_owned())
        .expect("the verification link");
    let session = app
        .state
        .sessions
        .sso_sign_in(user.id, None, None)
        .await
        .unwrap();
    Planted {
        user_id: user.id,
        link,
        refresh_token: session.refresh_token,
    }
}

/// Nothing the attacker holds works any more: the password grant, the session, the link.
async fn assert_neutralised(app: &TestApp, email: &str, planted: &Planted, case: &str) {
    let (s, v) = body(app.signin(email, ATTACKER).await).await;
    assert_eq!(
        (s, error_code(&v)),
        (StatusCode::BAD_REQUEST, "invalid_credentials"),
        "{case}: the attacker's password: {v}"
    );
    let (s, v) = body(app.refresh(&planted.refresh_token).await).await;
    assert_eq!(
        s,
        StatusCode::UNAUTHORIZED,
        "{case}: the account's old session: {v}"
    );
    let reasons: Vec<Option<String>> = app
        .state
        .store
        .sessions_of(planted.user_id)
        .await
        .unwrap()
        .into_iter()
        .filter(|s| s.revoked_reason.as_deref() != Some("refresh_token_reused"))
        .map(|s| s.revoked_reason)
        .collect();
    assert!(
        reasons.contains(&Some("email_confirmed".to_owned())),
        "{case}: {reasons:?}"
    );
    let (s, v) = body(
        app.post("/api/auth/verify", json!({ "token": planted.link }))
            .await,
    )
    .await;
    assert_eq!(
        (s, error_code(&v)),
        (StatusCode::BAD_REQUEST, "token_used"),
        "{case}: the attacker's verification link: {v}"
    );
    let user = app.state.store.user_by_email(email).await.unwrap().unwrap();
    assert!(user.email_confirmed_at.is_some(), "{case}");
}

both!(
    async fn a_first_sso_sign_in_then_scim_never_keeps_the_password_someone_else_chose(app) {
        let owner = owner_with_domain(&app, 5).await;
        let victim = format!("victim@{DOMAIN}");
        let idp = Idp::start(&app, &[(&victim, true)]).await;
        connect(&app, &owner, &idp, false).await;
        let planted = presign(&app, &victim).await;

        let browser = Browser::new();
        assert_eq!(browser.follow(&app, &start(&app, &victim, "/team")).await, "/team");
        let (s, session) = browser.session(&app).await;
        assert_eq!(s, StatusCode::OK, "the victim's SSO session: {session}");
        assert_eq!(session["user"]["id"], planted.user_id.to_string());
        assert_neutralised(&app, &victim, &planted, "after SSO").await;

        let token = scim_token(&app, &owner).await;
        let (s, _, v) = scim(&app, Method::POST, "/Users", &token, Some(new_user(&victim))).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        assert_neutralised(&app, &victim, &planted, "after SSO, then SCIM").await;
        let (s, v) = browser.session(&app).await;
        assert_eq!(s, StatusCode::OK, "the victim stays signed in: {v}");
    }
);

both!(
    async fn scim_seating_then_a_first_sso_sign_in_never_keeps_the_password_someone_else_chose(app) {
        let owner = owner_with_domain(&app, 5).await;
        let victim = format!("victim@{DOMAIN}");
        let planted = presign(&app, &victim).await;

        // The directory seats the account: without SSO yet, the person sets a password with
        // "Forgot password?".
        let token = scim_token(&app, &owner).await;
        let (s, _, v) = scim(&app, Method::POST, "/Users", &token, Some(new_user(&victim))).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        assert!(member_emails(&app, &owner).await.contains(&victim));
        assert_neutralised(&app, &victim, &planted, "after SCIM").await;

        let idp = Idp::start(&app, &[(&victim, true)]).await;
        connect(&app, &owner, &idp, false).await;
        let browser = Browser::new();
        assert_eq!(browser.follow(&app, &start(&app, &victim, "/team")).await, "/team");
        let (s, session) = browser.session(&app).await;
        assert_eq!(s, StatusCode::OK, "{session}");
        assert_eq!(session["user"]["id"], planted.user_id.to_string());
        let (s, v) = body(app.signin(&victim, ATTACKER).await).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "after SCIM, then SSO: {v}");
    }
);

fn set_active(active: bool) -> Value {
    json!({"schemas": ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
           "Operations": [{"op": "replace", "path": "active", "value": active}]})
}

async fn seats_used(app: &TestApp, owner: &User) -> u64 {
    let (_, t) = call(app, Method::GET, "/api/team", Some(&owner.token), None).await;
    t["team"]["seats"]["used"].as_u64().unwrap()
}

both!(
    async fn a_user_the_directory_deactivated_comes_back_by_sso_only_once_it_reactivates_them(app) {
        let owner = owner_with_domain(&app, 5).await;
        let (rep, never) = (format!("rep@{DOMAIN}"), format!("never@{DOMAIN}"));
        let idp = Idp::start(&app, &[(&rep, true), (&never, true)]).await;
        connect(&app, &owner, &idp, false).await;
        let token = scim_token(&app, &owner).await;
        let (s, _, v) = scim(&app, Method::POST, "/Users", &token, Some(new_user(&rep))).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let path = format!("/Users/{}", v["id"].as_str().unwrap());
        assert_eq!(Browser::new().follow(&app, &start(&app, &rep, "/team")).await, "/team");

        let (s, _, v) = scim(&app, Method::PATCH, &path, &token, Some(set_active(false))).await;
        assert_eq!((s, v["active"].as_bool()), (StatusCode::OK, Some(false)), "{v}");
        assert!(!member_emails(&app, &owner).await.contains(&rep));
        assert_eq!(seats_used(&app, &owner).await, 1);

        // The next SSO sign-in neither signs them in nor takes a seat.
        let browser = Browser::new();
        let landed = browser.follow(&app, &start(&app, &rep, "/team")).await;
        assert_eq!(landed, "/signin?sso=1&sso_error=deactivated_by_directory");
        let (s, _) = browser.session(&app).await;
        assert_eq!(s, StatusCode::UNAUTHORIZED, "no session");
        assert!(!member_emails(&app, &owner).await.contains(&rep));
        assert_eq!(seats_used(&app, &owner).await, 1);

        // Made inactive before they ever had an account: the sign-in makes none.
        let mut inactive = new_user(&never);
        inactive["active"] = json!(false);
        let (s, _, v) = scim(&app, Method::POST, "/Users", &token, Some(inactive)).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let landed = Browser::new().follow(&app, &start(&app, &never, "/team")).await;
        assert_eq!(landed, "/signin?sso=1&sso_error=deactivated_by_directory");
        assert!(app.state.store.user_by_email(&never).await.unwrap().is_none());
        assert_eq!(seats_used(&app, &owner).await, 1);

        // Reactivated by the directory: a member again, and SSO signs them in.
        let (s, _, v) = scim(&app, Method::PATCH, &path, &token, Some(set_active(true))).await;
        assert_eq!((s, v["active"].as_bool()), (StatusCode::OK, Some(true)), "{v}");
        assert!(member_emails(&app, &owner).await.contains(&rep));
        let browser = Browser::new();
        assert_eq!(browser.follow(&app, &start(&app, &rep, "/team")).await, "/team");
        let (s, v) = browser.session(&app).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(seats_used(&app, &owner).await, 2);
    }
);

both!(
    async fn a_user_the_directory_deactivated_takes_no_seat_by_an_invitation_until_it_reactivates_them(app) {
        let owner = owner_with_domain(&app, 5).await;
        let email = format!("rep@{DOMAIN}");
        let rep = user(&app, &email).await;
        let token = scim_token(&app, &owner).await;
        let mut inactive = new_user(&email);
        inactive["active"] = json!(false);
        let (s, _, v) = scim(&app, Method::POST, "/Users", &token, Some(inactive)).await;
        assert_eq!(s, StatusCode::CREATED, "{v}");
        let path = format!("/Users/{}", v["id"].as_str().unwrap());

        let (s, v) = crate::team::invite(&app, &owner, &email, "member").await;
        assert_eq!(s, StatusCode::ACCEPTED, "{v}");
        let link = app.token_from_mail(&email, "team_invite").await;
        let accept = json!({ "token": link });
        let (s, v) = call(&app, Method::POST, "/api/team/invites/accept", Some(&rep.token), Some(accept)).await;
        assert_eq!((s, error_code(&v)), (StatusCode::FORBIDDEN, "deactivated_by_directory"), "{v}");
        assert!(!member_emails(&app, &owner).await.contains(&email));

        let (s, _, v) = scim(&app, Method::PATCH, &path, &token, Some(set_active(true))).await;
        assert_eq!((s, v["active"].as_bool()), (StatusCode::OK, Some(true)), "{v}");
        assert!(member_emails(&app, &owner).await.contains(&email));
        assert_eq!(seats_used(&app, &owner).await, 2, "the invitation's seat is the one they took");
    }
);
