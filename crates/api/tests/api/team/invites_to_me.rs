//! The invitations addressed to the signed-in user: listed on their `/team` (team, inviter, role)
//! while they are open, and accepted from there without the mail's link, for their verified
//! address only.

use reqwest::{Method, StatusCode};
use serde_json::json;

use super::*;
use crate::both;

async fn mine(app: &TestApp, u: &User) -> Value {
    let (status, v) = call(
        app,
        Method::GET,
        "/api/team/invites/mine",
        Some(&u.token),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

async fn accept_mine(app: &TestApp, u: &User, id: &str) -> (StatusCode, Value) {
    let path = format!("/api/team/invites/{id}/accept");
    call(app, Method::POST, &path, Some(&u.token), None).await
}

both!(
    async fn an_invitee_sees_their_open_invitations_and_accepts_one_from_the_team_page(app) {
        let ana = user(&app, "ana@northwind.example").await;
        team(&app, &ana, "Northwind Sales", 3).await;
        let bo = user(&app, "bo@contoso.example").await;
        team(&app, &bo, "Contoso", 3).await;
        let rep = user(&app, "rep@northwind.example").await;
        assert_eq!(mine(&app, &rep).await, json!({ "invites": [] }));

        let (status, v) = invite(&app, &ana, "Rep@Northwind.example", "admin").await;
        assert_eq!(status, StatusCode::ACCEPTED, "{v}");
        let (status, v) = invite(&app, &bo, "rep@northwind.example", "member").await;
        assert_eq!(status, StatusCode::ACCEPTED, "{v}");
        invite(&app, &ana, "someone@northwind.example", "member").await;
        let v = mine(&app, &rep).await;
        let invites = v["invites"].as_array().unwrap();
        assert_eq!(invites.len(), 2, "only those to the caller's address: {v}");
        assert_eq!(
            (&invites[0]["team_name"], &invites[0]["invited_by"], &invites[0]["role"]),
            (&json!("Northwind Sales"), &json!("ana@northwind.example"), &json!("admin")),
            "oldest first: {v}"
        );
        assert_eq!(invites[1]["team_name"], "Contoso");
        assert!(invites[0]["expires_at"].as_str().unwrap().ends_with('Z'));
        let northwind = invites[0]["id"].as_str().unwrap().to_owned();
        let contoso = invites[1]["id"].as_str().unwrap().to_owned();

        // Someone else cannot accept it by its id; nor can an id that is no invite.
        let other = user(&app, "other@northwind.example").await;
        assert_refused(accept_mine(&app, &other, &northwind).await, StatusCode::NOT_FOUND, "invite_not_found", "another address's");
        assert_refused(accept_mine(&app, &rep, "nope").await, StatusCode::NOT_FOUND, "invite_not_found", "not an id");

        let (status, v) = accept_mine(&app, &rep, &northwind).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!((v["team"]["name"].as_str(), v["team"]["role"].as_str()), (Some("Northwind Sales"), Some("admin")));
        assert_eq!(get_team(&app, &rep).await["name"], "Northwind Sales");
        assert_refused(accept_mine(&app, &rep, &northwind).await, StatusCode::CONFLICT, "invite_used", "accepted twice");
        assert_refused(accept_mine(&app, &rep, &contoso).await, StatusCode::CONFLICT, "already_in_team", "one team at a time");
        let listed: Vec<Value> = mine(&app, &rep).await["invites"].as_array().unwrap().iter().map(|i| i["team_name"].clone()).collect();
        assert_eq!(listed, [json!("Contoso")], "the used one is gone");
        let actions = audit_actions(&app).await;
        assert!(actions.iter().any(|a| a == "team.invite_accept"), "{actions:?}");
    }
);

both!(
    async fn an_unverified_address_is_shown_no_invitations_and_cannot_accept_one(app) {
        let ana = user(&app, "ana@northwind.example").await;
        team(&app, &ana, "Northwind Sales", 3).await;
        let rep = user(&app, "rep@northwind.example").await;
        invite(&app, &ana, "rep@northwind.example", "member").await;
        let id = mine(&app, &rep).await["invites"][0]["id"].as_str().unwrap().to_owned();
        app.execute("UPDATE users SET email_confirmed_at = NULL WHERE email = 'rep@northwind.example'").await;
        assert_eq!(mine(&app, &rep).await, json!({ "invites": [] }));
        assert_refused(accept_mine(&app, &rep, &id).await, StatusCode::FORBIDDEN, "email_not_verified", "unverified");
        let (status, _) = call(&app, Method::GET, "/api/team/invites/mine", None, None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
);
