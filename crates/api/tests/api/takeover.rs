//! Ways into someone else's account through the mailbox flows (items 10 and 11): stale
//! reset links, and pre-hijacking an address before its owner confirms it.

use reqwest::StatusCode;
use serde_json::json;

use crate::both;
use crate::helpers::*;

const OWNER: &str = "owner-pass-2026";
const ATTACKER: &str = "attacker-pass-2026";

/// Every reset link mailed to `to`, oldest first.
async fn reset_tokens(app: &TestApp, to: &str) -> Vec<String> {
    let mut tokens: Vec<String> = app
        .mails_to(to)
        .await
        .iter()
        .filter(|m| m.kind == "reset")
        .filter_map(|m| m.link.as_ref()?.split("token=").nth(1).map(str::to_owned))
        .collect();
    tokens.reverse();
    tokens
}

both!(
    async fn a_reset_voids_every_other_reset_link_and_ends_every_session(app) {
        let s = app.signed_in_user("ana@example.com", OWNER).await;
        for _ in 0..2 {
            app.post("/api/auth/recover", json!({"email": "ana@example.com"})).await;
            app.advance(time::Duration::seconds(61));
        }
        let links = reset_tokens(&app, "ana@example.com").await;
        assert_eq!(links.len(), 2, "two reset links");
        let (status, v) = body(app.post("/api/auth/reset", json!({"token": links[1], "password": "new-pass-2026"})).await).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        // The older link no longer works.
        let (status, v) = body(app.post("/api/auth/reset", json!({"token": links[0], "password": ATTACKER})).await).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
        assert_eq!(error_code(&v), "token_used");
        assert_eq!(app.signin("ana@example.com", ATTACKER).await.status(), StatusCode::BAD_REQUEST);
        assert_eq!(app.signin("ana@example.com", "new-pass-2026").await.status(), StatusCode::OK);
        // Every session that existed ended.
        let access = s["access_token"].as_str().unwrap();
        assert_eq!(app.get_auth("/api/auth/user", access).await.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(app.refresh(s["refresh_token"].as_str().unwrap()).await.status(), StatusCode::UNAUTHORIZED);
    }
);

both!(
    async fn changing_the_password_voids_outstanding_reset_links(app) {
        let s = app.signed_in_user("bo@example.com", OWNER).await;
        app.post("/api/auth/recover", json!({"email": "bo@example.com"})).await;
        let link = reset_tokens(&app, "bo@example.com").await.pop().unwrap();
        let res = app
            .post_auth(
                "/api/auth/password",
                s["access_token"].as_str().unwrap(),
                json!({"current_password": OWNER, "password": "newer-pass-2026"}),
            )
            .await;
        assert_eq!(res.status(), StatusCode::OK);
        let (status, v) = body(app.post("/api/auth/reset", json!({"token": link, "password": ATTACKER})).await).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "token_used"), "{v}");
        assert_eq!(app.signin("bo@example.com", "newer-pass-2026").await.status(), StatusCode::OK);
    }
);

both!(
    async fn a_confirmation_link_confirms_only_the_password_of_the_signup_that_sent_it(app) with |s| {
        s.allow_unverified_signin = true;
    } {
        // The attacker registers the victim's address first and keeps a session open.
        assert_eq!(app.signup("cy@example.com", ATTACKER).await.status(), StatusCode::OK);
        let (status, attacker) = body(app.signin("cy@example.com", ATTACKER).await).await;
        assert_eq!(status, StatusCode::OK, "{attacker}");
        // The owner signs up later with their own password and follows the link of that sign-up.
        app.advance(time::Duration::seconds(61));
        assert_eq!(app.signup("cy@example.com", OWNER).await.status(), StatusCode::OK);
        let token = app.token_from_mail("cy@example.com", "verification").await;
        let (status, v) = body(app.post("/api/auth/verify", json!({ "token": token })).await).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        // Two sign-ups disagree (api/prehijack.rs): the owner chooses the password on the page.
        assert_eq!(v["status"], "choose_password", "{v}");
        let chosen = json!({ "password_token": v["password_token"], "password": OWNER });
        assert_eq!(app.post("/api/auth/verify/password", chosen).await.status(), StatusCode::OK);
        // The owner's password is the account's; the attacker's is not, and their session ended.
        assert_eq!(app.signin("cy@example.com", OWNER).await.status(), StatusCode::OK);
        let (status, v) = body(app.signin("cy@example.com", ATTACKER).await).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_credentials"));
        assert_eq!(
            app.get_auth("/api/auth/user", attacker["access_token"].as_str().unwrap()).await.status(),
            StatusCode::UNAUTHORIZED,
            "sessions opened before confirmation end on confirmation"
        );
        assert_eq!(
            app.refresh(attacker["refresh_token"].as_str().unwrap()).await.status(),
            StatusCode::UNAUTHORIZED
        );
    }
);

both!(
    async fn the_first_signups_link_activates_neither_password_once_another_signup_came(app) {
        assert_eq!(app.signup("dee@example.com", OWNER).await.status(), StatusCode::OK);
        let first = app.token_from_mail("dee@example.com", "verification").await;
        app.advance(time::Duration::seconds(61));
        assert_eq!(app.signup("dee@example.com", ATTACKER).await.status(), StatusCode::OK);
        let (status, v) = body(app.post("/api/auth/verify", json!({ "token": first })).await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(v["status"], "choose_password", "{v}");
        assert_eq!(app.signin("dee@example.com", OWNER).await.status(), StatusCode::BAD_REQUEST);
        assert_eq!(app.signin("dee@example.com", ATTACKER).await.status(), StatusCode::BAD_REQUEST);
    }
);
