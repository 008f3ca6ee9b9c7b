//! Pre-hijacking in either order: when an unconfirmed address was signed up for
//! twice, no click on any of its links (the first, the newest, a resent one) may activate a
//! password the clicker did not choose; the link confirms the address and the clicker chooses.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::both;
use crate::helpers::*;

const OWNER: &str = "owner-pass-2026";
const ATTACKER: &str = "attacker-pass-2026";
const CHOSEN: &str = "chosen-on-the-page-2026";

/// Every verification link mailed to `to`, oldest first.
async fn verification_tokens(app: &TestApp, to: &str) -> Vec<String> {
    let mut tokens: Vec<String> = app
        .mails_to(to)
        .await
        .iter()
        .filter(|m| m.kind == "verification")
        .filter_map(|m| m.link.as_ref()?.split("token=").nth(1))
        .map(|t| t.split('&').next().unwrap_or(t).to_owned())
        .collect();
    tokens.reverse();
    tokens
}

#[derive(Clone, Copy, Debug)]
enum Link {
    First,
    Newest,
    Resent,
}

/// Two sign-ups of `email` a minute apart (`first` then `second`), then the mailbox owner clicks
/// `link`. Returns the verification answer, after checking neither pending password works.
async fn two_signups_then_click(
    app: &TestApp,
    email: &str,
    first: &str,
    second: &str,
    link: Link,
) -> Value {
    let (status, fresh) = body(app.signup("fresh@example.com", OWNER).await).await;
    assert_eq!(status, StatusCode::OK);
    for password in [first, second] {
        let (status, answer) = body(app.signup(email, password).await).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        // Same answer as for a new address: nothing says a sign-up happened before.
        assert_eq!(
            answer.as_object().unwrap().keys().collect::<Vec<_>>(),
            fresh.as_object().unwrap().keys().collect::<Vec<_>>()
        );
        assert_eq!(answer["email"], email);
        app.advance(time::Duration::seconds(61));
    }
    if let Link::Resent = link {
        let res = app
            .post(
                "/api/auth/resend",
                json!({ "email": email, "type": "signup" }),
            )
            .await;
        assert_eq!(res.status(), StatusCode::OK);
    }
    let tokens = verification_tokens(app, email).await;
    assert_eq!(
        tokens.len(),
        if let Link::Resent = link { 3 } else { 2 },
        "{link:?}"
    );
    let token = match link {
        Link::First => &tokens[0],
        Link::Newest | Link::Resent => tokens.last().unwrap(),
    };
    let (status, v) = body(
        app.post("/api/auth/verify", json!({ "token": token }))
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{link:?}: {v}");
    for password in [OWNER, ATTACKER] {
        let (status, s) = body(app.signin(email, password).await).await;
        assert_eq!(
            (status, error_code(&s)),
            (StatusCode::BAD_REQUEST, "invalid_credentials"),
            "{link:?}: {password} is no password of the account"
        );
    }
    assert_eq!(v["status"], "choose_password", "{link:?}: {v}");
    assert!(
        v["user"]["email_confirmed_at"].is_string(),
        "the mailbox owner confirmed the address"
    );
    // Every other link of the address is spent with the confirmation.
    for other in tokens.iter().filter(|t| *t != token) {
        let (status, e) = body(
            app.post("/api/auth/verify", json!({ "token": other }))
                .await,
        )
        .await;
        assert_eq!(
            (status, error_code(&e)),
            (StatusCode::BAD_REQUEST, "token_used"),
            "{link:?}"
        );
    }
    v
}

/// The clicker chooses their password; it is the account's and nothing else is.
async fn choose_and_sign_in(app: &TestApp, email: &str, v: &Value) {
    let password_token = v["password_token"].as_str().expect("a password token");
    let (status, chosen) = body(
        app.post(
            "/api/auth/verify/password",
            json!({ "password_token": password_token, "password": CHOSEN }),
        )
        .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{chosen}");
    assert_eq!(chosen["user"]["email"], email);
    assert_eq!(app.signin(email, CHOSEN).await.status(), StatusCode::OK);
    for password in [OWNER, ATTACKER] {
        assert_eq!(
            app.signin(email, password).await.status(),
            StatusCode::BAD_REQUEST,
            "{password}"
        );
    }
}

both!(
    async fn owner_first_then_attacker_no_link_activates_a_password_the_clicker_did_not_choose(app) {
        for (n, link) in [Link::First, Link::Newest, Link::Resent].into_iter().enumerate() {
            let email = format!("owner-first-{n}@example.com");
            let v = two_signups_then_click(&app, &email, OWNER, ATTACKER, link).await;
            choose_and_sign_in(&app, &email, &v).await;
        }
    }
);

both!(
    async fn attacker_first_then_owner_no_link_activates_a_password_the_clicker_did_not_choose(app) {
        for (n, link) in [Link::First, Link::Newest, Link::Resent].into_iter().enumerate() {
            let email = format!("attacker-first-{n}@example.com");
            let v = two_signups_then_click(&app, &email, ATTACKER, OWNER, link).await;
            choose_and_sign_in(&app, &email, &v).await;
        }
    }
);

both!(
    async fn one_signup_is_still_one_click_with_its_link_or_a_resent_one(app) {
        for (email, resend) in [("one@example.com", false), ("one-resent@example.com", true)] {
            assert_eq!(app.signup(email, OWNER).await.status(), StatusCode::OK);
            if resend {
                app.advance(time::Duration::seconds(61));
                let res = app.post("/api/auth/resend", json!({ "email": email, "type": "signup" })).await;
                assert_eq!(res.status(), StatusCode::OK);
            }
            let token = verification_tokens(&app, email).await.pop().unwrap();
            let (status, v) = body(app.post("/api/auth/verify", json!({ "token": token })).await).await;
            assert_eq!(status, StatusCode::OK, "{v}");
            assert_eq!(app.signin(email, OWNER).await.status(), StatusCode::OK, "resent: {resend}");
            assert_eq!(v["status"], "confirmed", "{v}");
            assert!(v.get("password_token").is_none(), "{v}");
            assert!(v["user"]["email_confirmed_at"].is_string());
        }
    }
);

both!(
    async fn a_signup_refused_within_the_minute_is_no_second_signup(app) {
        // A second sign-up inside the resend interval mails nothing and records no password, so
        // the only link still confirms the only password in one click.
        assert_eq!(app.signup("quick@example.com", OWNER).await.status(), StatusCode::OK);
        assert_eq!(app.signup("quick@example.com", ATTACKER).await.status(), StatusCode::OK);
        let tokens = verification_tokens(&app, "quick@example.com").await;
        assert_eq!(tokens.len(), 1);
        let (_, v) = body(app.post("/api/auth/verify", json!({ "token": tokens[0] })).await).await;
        assert_eq!(app.signin("quick@example.com", OWNER).await.status(), StatusCode::OK);
        assert_eq!(app.signin("quick@example.com", ATTACKER).await.status(), StatusCode::BAD_REQUEST);
        assert_eq!(v["status"], "confirmed", "{v}");
    }
);

both!(
    async fn the_password_step_refuses_weak_passwords_and_spent_expired_or_unknown_tokens(app) {
        let choose = |token: &str, password: &str| {
            app.post("/api/auth/verify/password", json!({ "password_token": token, "password": password }))
        };
        let v = two_signups_then_click(&app, "weak@example.com", OWNER, ATTACKER, Link::Newest).await;
        let token = v["password_token"].as_str().unwrap().to_owned();
        let (status, e) = body(choose(&token, "abc").await).await;
        assert_eq!((status, error_code(&e)), (StatusCode::UNPROCESSABLE_ENTITY, "weak_password"));
        assert_eq!(error_message(&e), "Password must be at least 6 characters");
        let (status, e) = body(choose(&token, "password1").await).await;
        assert_eq!((status, error_code(&e)), (StatusCode::UNPROCESSABLE_ENTITY, "weak_password"));
        assert_eq!(error_message(&e), "This password is too common. Please choose another one");
        let (status, e) = body(choose("made-up", CHOSEN).await).await;
        assert_eq!((status, error_code(&e)), (StatusCode::BAD_REQUEST, "token_invalid"), "{e}");
        // The refusals spent nothing: the token still works, once.
        assert_eq!(choose(&token, CHOSEN).await.status(), StatusCode::OK);
        let (status, e) = body(choose(&token, ATTACKER).await).await;
        assert_eq!((status, error_code(&e)), (StatusCode::BAD_REQUEST, "token_used"), "{e}");
        assert_eq!(error_message(&e), "This password link has already been used.");
        assert_eq!(app.signin("weak@example.com", CHOSEN).await.status(), StatusCode::OK);
        assert_eq!(app.signin("weak@example.com", ATTACKER).await.status(), StatusCode::BAD_REQUEST);

        // A token left unused for an hour has expired; the address stays confirmed, passwordless.
        let v = two_signups_then_click(&app, "late@example.com", ATTACKER, OWNER, Link::First).await;
        app.advance(time::Duration::hours(1));
        let (status, e) = body(choose(v["password_token"].as_str().unwrap(), CHOSEN).await).await;
        assert_eq!((status, error_code(&e)), (StatusCode::BAD_REQUEST, "token_expired"), "{e}");
        assert_eq!(app.signin("late@example.com", CHOSEN).await.status(), StatusCode::BAD_REQUEST);
    }
);
