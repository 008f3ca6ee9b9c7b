//! Every role × action pair through the API, the expectations taken from the domain's table
//! (`teams::may`, `may_remove`, `may_set_role`), and another team's anything is not found.

use closewise_domain::teams::{may, may_remove, may_set_role, Action, Role};
use reqwest::{Method, StatusCode};
use serde_json::json;

use super::*;
use crate::both;

fn role(name: &str) -> Role {
    Role::parse(name).unwrap()
}

both!(
    async fn every_role_may_do_exactly_what_the_domain_says(app) {
        for (i, name) in ["owner", "admin", "member"].into_iter().enumerate() {
            let crew = crew(&app, &format!("c{i}")).await;
            let r = role(name);
            if i == 0 {
                verified_domain(&app, crew.owner.id, "northwind.example").await;
            }
            let caller = crew.by(name, false).clone();
            // An invite of the owner's for the resend and revoke checks.
            let pending = format!("c{i}-pending@northwind.example");
            assert_eq!(invite(&app, &crew.owner, &pending, "member").await.0, StatusCode::ACCEPTED);
            let pending_id = invite_id(&app, &crew.owner, &pending).await;
            let t = Some(caller.token.as_str());
            let checks: Vec<(Action, (StatusCode, serde_json::Value), StatusCode)> = vec![
                (Action::View, call(&app, Method::GET, "/api/team", t, None).await, StatusCode::OK),
                (Action::Rename, call(&app, Method::PATCH, "/api/team", t, Some(json!({"name": "Renamed"}))).await, StatusCode::OK),
                (Action::Invite, invite(&app, &caller, &format!("c{i}-new@northwind.example"), "member").await, StatusCode::ACCEPTED),
                (Action::ResendInvite, call(&app, Method::POST, &format!("/api/team/invites/{pending_id}/resend"), t, None).await, StatusCode::ACCEPTED),
                (Action::RevokeInvite, call(&app, Method::DELETE, &format!("/api/team/invites/{pending_id}"), t, None).await, StatusCode::NO_CONTENT),
                (Action::ApproveJoin, call(&app, Method::GET, "/api/team/join-requests", t, None).await, StatusCode::OK),
                (Action::ConfigureDomainJoin, call(&app, Method::PUT, "/api/team/domain-join", t, Some(json!({"domain": "northwind.example"}))).await, StatusCode::OK),
                (Action::Leave, call(&app, Method::POST, "/api/team/leave", t, None).await, StatusCode::NO_CONTENT),
            ];
            for (action, got, ok) in checks {
                let case = format!("{name} {action:?}");
                if may(r, action) {
                    assert_eq!(got.0, ok, "{case}: {}", got.1);
                } else if action == Action::Leave {
                    assert_refused(got, StatusCode::BAD_REQUEST, "owner_cannot_leave", &case);
                } else {
                    assert_refused(got.clone(), StatusCode::FORBIDDEN, "forbidden_role", &case);
                    assert_eq!(error_message(&got.1), "Your role in the team does not allow this.");
                }
            }
            // Transfer last (it changes the owner); a non-owner who left asks as their peer.
            let asker = if r == Role::Owner { &crew.owner } else { crew.by(name, true) };
            let target = crew.members[1].id;
            let got = call(&app, Method::POST, "/api/team/transfer", Some(&asker.token), Some(json!({"user_id": target}))).await;
            if may(r, Action::TransferOwnership) {
                assert_eq!(got.0, StatusCode::OK, "{}", got.1);
                assert_eq!(got.1["team"]["role"], "admin", "the old owner is an admin");
                assert_eq!(get_team(&app, &crew.members[1]).await["role"], "owner");
            } else {
                assert_refused(got, StatusCode::FORBIDDEN, "forbidden_role", &format!("{name} transfer"));
            }
        }
    }
);

both!(
    async fn who_removes_whom_and_who_changes_roles_is_the_domains_rule(app) {
        for (i, actor_name) in ["owner", "admin", "member"].into_iter().enumerate() {
            let crew = crew(&app, &format!("r{i}")).await;
            let actor = crew.by(actor_name, false).clone();
            let peers = [&crew.owner, &crew.admins[1], &crew.members[1]];
            // Roles first (the team stays whole), then removals.
            for target in peers {
                for new_role in ["admin", "member"] {
                    let before = get_team(&app, &crew.owner).await;
                    let target_role = before["members"].as_array().unwrap().iter()
                        .find(|m| m["user_id"] == target.id.to_string()).unwrap()["role"].as_str().unwrap().to_string();
                    let got = call(&app, Method::PUT, &format!("/api/team/members/{}/role", target.id), Some(&actor.token), Some(json!({"role": new_role}))).await;
                    let case = format!("{actor_name} sets {target_role} to {new_role}");
                    if may_set_role(role(actor_name), role(&target_role), role(new_role)) {
                        assert_eq!(got.0, StatusCode::OK, "{case}: {}", got.1);
                    } else {
                        assert_refused(got, StatusCode::FORBIDDEN, "forbidden_role", &case);
                    }
                }
                let got = call(&app, Method::PUT, &format!("/api/team/members/{}/role", target.id), Some(&actor.token), Some(json!({"role": "owner"}))).await;
                assert_refused(got, StatusCode::BAD_REQUEST, "invalid_role", "ownership is transferred, not set");
            }
            // Put the peers back in their roles before the removals.
            for (u, r) in [(&crew.admins[1], "admin"), (&crew.members[1], "member")] {
                app.state.teams.set_role(&closewise_core::actor::Actor::member(crew.owner.id, ""), u.id, role(r)).await.unwrap();
            }
            for (target, target_role) in [(&crew.owner, "owner"), (&crew.admins[1], "admin"), (&crew.members[1], "member")] {
                let got = call(&app, Method::DELETE, &format!("/api/team/members/{}", target.id), Some(&actor.token), None).await;
                let case = format!("{actor_name} removes {target_role}");
                if may_remove(role(actor_name), role(target_role)) {
                    assert_eq!(got.0, StatusCode::NO_CONTENT, "{case}: {}", got.1);
                    assert!(app.state.store.membership_of(target.id).await.unwrap().is_none(), "{case}: out of the team");
                } else {
                    assert_refused(got, StatusCode::FORBIDDEN, "forbidden_role", &case);
                }
            }
        }
    }
);

both!(
    /// An invite as a role the inviter may not give is 403 (who may give which is the core's
    /// `who_invites_as_what_follows_the_domain`).
    async fn an_invite_as_a_role_one_may_not_give_answers_403(app) {
        let crew = crew(&app, "i").await;
        let got = invite(&app, &crew.admins[0], "i-other@northwind.example", "admin").await;
        assert_refused(got.clone(), StatusCode::FORBIDDEN, "forbidden_role", "an admin invites an admin");
        assert_eq!(error_message(&got.1), "Your role in the team does not allow this.");
        let got = invite(&app, &crew.owner, "i-new@northwind.example", "admin").await;
        assert_eq!(got.0, StatusCode::ACCEPTED, "{}", got.1);
    }
);

both!(
    async fn another_teams_member_invite_or_request_is_not_found(app) {
        let a = crew(&app, "a").await;
        let b = user(&app, "boss@contoso.example").await;
        team(&app, &b, "Contoso", 3).await;
        let stranger = user(&app, "solo@contoso.example").await;
        assert_eq!(invite(&app, &a.owner, "pending@northwind.example", "member").await.0, StatusCode::ACCEPTED);
        let a_invite = invite_id(&app, &a.owner, "pending@northwind.example").await;
        let member = a.members[0].id;
        for caller in [&b, &stranger] {
            let t = Some(caller.token.as_str());
            for (case, got) in [
                ("remove", call(&app, Method::DELETE, &format!("/api/team/members/{member}"), t, None).await),
                ("role", call(&app, Method::PUT, &format!("/api/team/members/{member}/role"), t, Some(json!({"role": "admin"}))).await),
                ("resend", call(&app, Method::POST, &format!("/api/team/invites/{a_invite}/resend"), t, None).await),
                ("revoke", call(&app, Method::DELETE, &format!("/api/team/invites/{a_invite}"), t, None).await),
                ("transfer", call(&app, Method::POST, "/api/team/transfer", t, Some(json!({"user_id": member}))).await),
                ("approve", call(&app, Method::POST, &format!("/api/team/join-requests/{a_invite}/approve"), t, None).await),
                ("deny", call(&app, Method::POST, &format!("/api/team/join-requests/{a_invite}/deny"), t, None).await),
                ("malformed id", call(&app, Method::DELETE, "/api/team/members/not-a-uuid", t, None).await),
                ("malformed invite id", call(&app, Method::POST, "/api/team/invites/42/resend", t, None).await),
            ] {
                assert_refused(got, StatusCode::NOT_FOUND, "team_not_found", case);
            }
        }
        // Nothing changed in team A.
        let team_a = get_team(&app, &a.owner).await;
        assert_eq!(team_a["members"].as_array().unwrap().len(), 5);
        assert_eq!(team_a["invites"].as_array().unwrap().len(), 1);
        assert_eq!(get_team(&app, &a.members[0]).await["role"], "member");
        assert_eq!(get_team(&app, &stranger).await, serde_json::Value::Null);
    }
);
