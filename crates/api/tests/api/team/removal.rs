//! Removal ends sessions (docs/teams.md "Leaving and removal"): whoever removes a member (the
//! team's owner or an admin, an operator through the CLI's service, the directory through SCIM,
//! a reclaim: `team_billing::reclaim`), every session of the removed person ends at once, the
//! desktop app's included: their bearer and refresh tokens answer 401 and their next call is
//! refused. A member who leaves on their own keeps their sessions; the team is gone from their
//! next read.

use closewise_core::actor::Actor;
use reqwest::{Method, StatusCode};

use super::scim::{new_user, scim, scim_token, verified_domain};
use super::*;
use crate::both;

/// A person's two sessions: a web sign-in and the desktop app's device session, each
/// (access token, refresh token).
pub struct Sessions {
    pub web: (String, String),
    pub desktop: (String, String),
}

/// Signs `email` (an account already) in on the web and approves a device session for them.
pub async fn sessions(app: &TestApp, email: &str) -> Sessions {
    let (status, s) = body(app.signin(email, PASSWORD).await).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    let web = (
        s["access_token"].as_str().unwrap().to_owned(),
        s["refresh_token"].as_str().unwrap().to_owned(),
    );
    let desktop = crate::device_signin::device_session(app, &web.0).await;
    Sessions { web, desktop }
}

impl Sessions {
    fn each(&self) -> [(&'static str, &(String, String)); 2] {
        [("web", &self.web), ("desktop", &self.desktop)]
    }
}

/// Every token of `s` is refused: the bearer (401 on `/api/auth/user` and `/api/entitlements`),
/// a new call (401 or 403) and the refresh token (401).
pub async fn assert_locked_out(app: &TestApp, s: &Sessions, case: &str) {
    for (kind, (access, refresh)) in s.each() {
        for path in ["/api/auth/user", "/api/entitlements"] {
            let (status, v) = body(app.get_auth(path, access).await).await;
            assert_eq!(
                status,
                StatusCode::UNAUTHORIZED,
                "{case}, {kind}, {path}: {v}"
            );
        }
        let (status, v) = crate::calls::start(app, access, &format!("{case}-{kind}")).await;
        assert!(
            matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN),
            "{case}, {kind}, call: {status} {v}"
        );
        let (status, v) = body(app.refresh(refresh).await).await;
        assert_eq!(
            status,
            StatusCode::UNAUTHORIZED,
            "{case}, {kind}, refresh: {v}"
        );
    }
}

/// Every token of `s` still works (the refresh token is not spent: only the bearer is used).
pub async fn assert_signed_in(app: &TestApp, s: &Sessions, case: &str) {
    for (kind, (access, _)) in s.each() {
        let (status, v) = body(app.get_auth("/api/auth/user", access).await).await;
        assert_eq!(status, StatusCode::OK, "{case}, {kind}: {v}");
    }
}

both!(
    async fn removal_by_the_owner_or_an_admin_ends_every_session_of_the_removed_member(app) {
        let owner = user(&app, "ana@northwind.example").await;
        team(&app, &owner, "Northwind", 5).await;
        let admin = join(&app, &owner, "dee@northwind.example", "admin").await;
        join(&app, &owner, "rep@northwind.example", "member").await;
        join(&app, &owner, "cy@northwind.example", "member").await;
        let rep = sessions(&app, "rep@northwind.example").await;
        let cy = sessions(&app, "cy@northwind.example").await;
        assert_signed_in(&app, &rep, "before").await;
        let (status, v) = crate::calls::start(&app, &rep.desktop.0, "before").await;
        assert_eq!(status, StatusCode::CREATED, "{v}");

        let rep_id = app.state.store.user_by_email("rep@northwind.example").await.unwrap().unwrap().id;
        let path = format!("/api/team/members/{rep_id}");
        let (status, v) = call(&app, Method::DELETE, &path, Some(&owner.token), None).await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{v}");
        assert_locked_out(&app, &rep, "removed by the owner").await;

        let cy_id = app.state.store.user_by_email("cy@northwind.example").await.unwrap().unwrap().id;
        let path = format!("/api/team/members/{cy_id}");
        let (status, v) = call(&app, Method::DELETE, &path, Some(&admin.token), None).await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{v}");
        assert_locked_out(&app, &cy, "removed by an admin").await;
        // The remover's own sessions are untouched.
        assert_eq!(get_team(&app, &admin).await["seats"]["used"], 2);
        let reasons: Vec<_> = app.state.store.sessions_of(cy_id).await.unwrap().into_iter()
            .map(|s| s.revoked_reason.unwrap_or_default()).collect();
        assert_eq!(reasons, ["team_member_removed"; 3], "the sign-in of the join, the web's, the desktop app's");
    }
);

both!(
    async fn an_operator_s_removal_ends_them_too(app) {
        let owner = user(&app, "ana@northwind.example").await;
        team(&app, &owner, "Northwind", 5).await;
        join(&app, &owner, "rep@northwind.example", "member").await;
        let rep = sessions(&app, "rep@northwind.example").await;
        let store = &app.state.store;
        let (team_id, _) = store.membership_of(owner.id).await.unwrap().unwrap();
        let team = store.team_by_id(team_id).await.unwrap().unwrap();
        let user = store.user_by_email("rep@northwind.example").await.unwrap().unwrap();
        let ops = Actor::operator("test-operator", Some("left the company".into()));
        // What `closewise teams remove-member` calls.
        app.state.teams.remove_member(&ops, Some(team.id), user.id).await.unwrap();
        assert_locked_out(&app, &rep, "removed by an operator").await;
        assert_signed_in(&app, &sessions(&app, "ana@northwind.example").await, "the owner").await;
    }
);

both!(
    async fn the_directory_s_removal_ends_them_too(app) {
        let owner = user(&app, "ana@acme.test").await;
        team(&app, &owner, "Acme", 3).await;
        verified_domain(&app, &owner, "acme.test").await;
        let token = scim_token(&app, &owner).await;
        user(&app, "rep@acme.test").await;
        let (status, _, v) = scim(&app, Method::POST, "/Users", &token, Some(new_user("rep@acme.test"))).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        let rep = sessions(&app, "rep@acme.test").await;
        let path = format!("/Users/{}", v["id"].as_str().unwrap());
        let (status, _, v) = scim(&app, Method::DELETE, &path, &token, None).await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{v}");
        assert_locked_out(&app, &rep, "deleted by the directory").await;
    }
);

both!(
    async fn a_member_who_leaves_keeps_their_sessions_but_not_the_team(app) {
        let owner = user(&app, "ana@northwind.example").await;
        team(&app, &owner, "Northwind", 5).await;
        join(&app, &owner, "rep@northwind.example", "member").await;
        app.execute("UPDATE teams SET subscription_status = 'active', current_period_end = 1795000000").await;
        let rep = sessions(&app, "rep@northwind.example").await;
        let before = crate::calls::entitlements(&app, &rep.desktop.0).await;
        assert_eq!((before["team"]["name"].as_str(), before["source"].as_str()), (Some("Northwind"), Some("team")), "{before}");
        let (status, v) = call(&app, Method::POST, "/api/team/leave", Some(&rep.web.0), None).await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{v}");
        assert_signed_in(&app, &rep, "left").await;
        let after = crate::calls::entitlements(&app, &rep.desktop.0).await;
        assert_eq!(after["team"], serde_json::Value::Null, "the team is gone at the next read: {after}");
        assert_eq!((after["source"].as_str(), after["unlimited"].as_bool()), (None, Some(false)), "{after}");
        let (status, v) = body(app.refresh(&rep.desktop.1).await).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (status, v) = crate::calls::start(&app, v["access_token"].as_str().unwrap(), "after").await;
        assert_eq!(status, StatusCode::CREATED, "their own Free Trial: {v}");
    }
);
