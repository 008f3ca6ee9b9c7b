//! Invitations: the mail and its link, lookup without signing in, accept once and for the invited
//! verified address only, decline, revoke, expiry, no enumeration, the last seat, rate limits.

use reqwest::{Method, StatusCode};
use serde_json::json;

use super::*;
use crate::both;

async fn lookup(app: &TestApp, token: &str) -> (StatusCode, Value) {
    call(
        app,
        Method::POST,
        "/api/team/invites/lookup",
        None,
        Some(json!({ "token": token })),
    )
    .await
}

async fn accept(app: &TestApp, u: &User, token: &str) -> (StatusCode, Value) {
    call(
        app,
        Method::POST,
        "/api/team/invites/accept",
        Some(&u.token),
        Some(json!({ "token": token })),
    )
    .await
}

both!(
    async fn an_invite_mails_a_working_link_that_is_accepted_once(app) {
        let owner = user(&app, "ana@northwind.example").await;
        team(&app, &owner, "Northwind Sales", 3).await;
        let (status, v) = invite(&app, &owner, "Rep@Northwind.example", "admin").await;
        assert_eq!((status, v.clone()), (StatusCode::ACCEPTED, json!({})));
        let mails = app.mails_to("rep@northwind.example").await;
        let mail = mails.iter().find(|m| m.kind == "team_invite").expect("an invitation mail");
        assert_eq!(mail.subject, "You're invited to join Northwind Sales on Closewise");
        assert!(mail.link.as_deref().unwrap().starts_with("http://127.0.0.1:8080/invite?token="));
        assert!(mail.text_body.contains("ana@northwind.example") && mail.text_body.contains("an admin") && mail.text_body.contains("7 days"));
        let token = app.token_from_mail("rep@northwind.example", "team_invite").await;
        // The link's page, before signing in.
        let (status, v) = lookup(&app, &token).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v, json!({ "team_name": "Northwind Sales", "role": "admin", "email": "rep@northwind.example" }));
        let team_view = get_team(&app, &owner).await;
        assert_eq!(team_view["seats"], json!({ "total": 3, "used": 2, "free": 1 }), "a pending invite holds a seat");
        assert_eq!(team_view["invites"][0]["email"], "rep@northwind.example");
        assert_eq!(team_view["invites"][0]["expired"], false);
        let rep = user(&app, "rep@northwind.example").await;
        let (status, v) = accept(&app, &rep, &token).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["team"]["role"], "admin");
        assert_eq!(v["team"]["name"], "Northwind Sales");
        assert_eq!(v["team"]["seats"], json!({ "total": 3, "used": 2, "free": 1 }));
        assert_refused(accept(&app, &rep, &token).await, StatusCode::CONFLICT, "invite_used", "accepted twice");
        assert_refused(lookup(&app, &token).await, StatusCode::NOT_FOUND, "invite_not_found", "a used link");
        let actions = audit_actions(&app).await;
        for a in ["team.create", "team.invite", "team.invite_accept"] {
            assert!(actions.iter().any(|x| x == a), "{a} in {actions:?}");
        }
    }
);

both!(
    async fn only_the_invited_verified_address_accepts_and_links_end(app) {
        let owner = user(&app, "ana@northwind.example").await;
        team(&app, &owner, "Northwind Sales", 10).await;
        invite(&app, &owner, "rep@northwind.example", "member").await;
        let token = app.token_from_mail("rep@northwind.example", "team_invite").await;
        let other = user(&app, "other@northwind.example").await;
        let got = accept(&app, &other, &token).await;
        assert_refused(got.clone(), StatusCode::CONFLICT, "invite_other_address", "another address");
        assert_eq!(error_message(&got.1), "This invitation is for another e-mail address. Sign in with the address it was sent to.");
        assert_refused(call(&app, Method::POST, "/api/team/invites/decline", Some(&other.token), Some(json!({"token": token}))).await,
            StatusCode::CONFLICT, "invite_other_address", "declined by another address");
        let rep = user(&app, "rep@northwind.example").await;
        app.execute("UPDATE users SET email_confirmed_at = NULL WHERE email = 'rep@northwind.example'").await;
        assert_refused(accept(&app, &rep, &token).await, StatusCode::FORBIDDEN, "email_not_verified", "unverified");
        // Declined: the link ends.
        app.execute("UPDATE users SET email_confirmed_at = created_at WHERE email = 'rep@northwind.example'").await;
        let (status, v) = call(&app, Method::POST, "/api/team/invites/decline", Some(&rep.token), Some(json!({"token": token}))).await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{v}");
        assert_refused(lookup(&app, &token).await, StatusCode::NOT_FOUND, "invite_not_found", "declined");
        assert_refused(accept(&app, &rep, &token).await, StatusCode::CONFLICT, "invite_used", "accept after decline");
        // Revoked: the link ends.
        invite(&app, &owner, "cy@northwind.example", "member").await;
        let cy_token = app.token_from_mail("cy@northwind.example", "team_invite").await;
        let id = invite_id(&app, &owner, "cy@northwind.example").await;
        assert_eq!(call(&app, Method::DELETE, &format!("/api/team/invites/{id}"), Some(&owner.token), None).await.0, StatusCode::NO_CONTENT);
        assert_refused(lookup(&app, &cy_token).await, StatusCode::NOT_FOUND, "invite_not_found", "revoked");
        // Expired after 7 days.
        invite(&app, &owner, "dee@northwind.example", "member").await;
        let dee_token = app.token_from_mail("dee@northwind.example", "team_invite").await;
        user(&app, "dee@northwind.example").await;
        app.advance(time::Duration::days(7) + time::Duration::seconds(1));
        let (_, session) = body(app.signin("dee@northwind.example", PASSWORD).await).await;
        let dee = User { id: Uuid::nil(), token: session["access_token"].as_str().unwrap().to_string() };
        assert_refused(lookup(&app, &dee_token).await, StatusCode::BAD_REQUEST, "invite_expired", "expired lookup");
        assert_refused(accept(&app, &dee, &dee_token).await, StatusCode::BAD_REQUEST, "invite_expired", "expired accept");
        let (_, session) = body(app.signin("ana@northwind.example", PASSWORD).await).await;
        let owner = User { id: owner.id, token: session["access_token"].as_str().unwrap().to_string() };
        assert_eq!(get_team(&app, &owner).await["invites"][0]["expired"], true);
        assert_refused(lookup(&app, "no-such-token").await, StatusCode::NOT_FOUND, "invite_not_found", "unknown");
        let actions = audit_actions(&app).await;
        assert!(actions.iter().any(|a| a == "team.invite_decline") && actions.iter().any(|a| a == "team.invite_revoke"), "{actions:?}");
        // Every team row names the team (`closewise teams show` finds a team's rows by its id).
        let team_id = get_team(&app, &owner).await["id"].clone();
        for row in app.state.store.audit_log(1000).await.unwrap().into_iter().filter(|r| r.action.starts_with("team.")) {
            let details: Value = serde_json::from_str(&row.details).unwrap();
            assert_eq!(details["team_id"], team_id, "{}: {}", row.action, row.details);
        }
    }
);

both!(
    async fn an_invite_answers_alike_for_known_and_unknown_addresses(app) {
        let owner = user(&app, "ana@northwind.example").await;
        team(&app, &owner, "Northwind Sales", 10).await;
        user(&app, "known@northwind.example").await;
        let mut answers = Vec::new();
        for email in ["known@northwind.example", "unknown@northwind.example"] {
            let res = app.client.post(app.url("/api/team/invites")).bearer_auth(&owner.token)
                .json(&json!({"email": email, "role": "member"})).send().await.unwrap();
            let headers: Vec<(String, String)> = res.headers().iter()
                .filter(|(k, _)| *k != "date")
                .map(|(k, v)| (k.to_string(), v.to_str().unwrap().to_string())).collect();
            answers.push((res.status(), headers, res.text().await.unwrap()));
            assert_eq!(app.mails_to(email).await.iter().filter(|m| m.kind == "team_invite").count(), 1, "{email} is mailed");
        }
        assert_eq!(answers[0], answers[1]);
        assert_eq!(answers[0].0, StatusCode::ACCEPTED);
    }
);

both!(
    /// The refusals' statuses and messages (the rules, no seat taken and nothing sent, are the
    /// core's: `teams::invites` and the last seat's race in `teams` there).
    async fn a_member_again_or_no_seat_left_answers_409(app) {
        let owner = user(&app, "ana@northwind.example").await;
        team(&app, &owner, "Northwind Sales", 10).await;
        join(&app, &owner, "rep@northwind.example", "member").await;
        let got = invite(&app, &owner, "Rep@Northwind.example", "admin").await;
        assert_refused(got.clone(), StatusCode::CONFLICT, "already_member", "a member again");
        assert_eq!(error_message(&got.1), "rep@northwind.example is already a member of this team.");
        // Owner and member hold 2 of 3 seats: the next invite takes the last one.
        crate::helpers::record_seats(&app, owner.id, 3).await;
        assert_eq!(invite(&app, &owner, "x@northwind.example", "member").await.0, StatusCode::ACCEPTED);
        let got = invite(&app, &owner, "y@northwind.example", "member").await;
        assert_refused(got.clone(), StatusCode::CONFLICT, "seats_taken", "no seat left");
        assert_eq!(error_message(&got.1), "All 3 seats are taken. Add seats to invite more people.");
    }
);

both!(
    async fn resends_are_limited_to_one_a_minute_per_address_and_give_a_new_link(app) {
        let owner = user(&app, "ana@northwind.example").await;
        team(&app, &owner, "Northwind Sales", 10).await;
        invite(&app, &owner, "rep@northwind.example", "member").await;
        let first = app.token_from_mail("rep@northwind.example", "team_invite").await;
        let id = invite_id(&app, &owner, "rep@northwind.example").await;
        let path = format!("/api/team/invites/{id}/resend");
        let (status, v) = call(&app, Method::POST, &path, Some(&owner.token), None).await;
        assert_eq!((status, v), (StatusCode::ACCEPTED, json!({})));
        let second = app.token_from_mail("rep@northwind.example", "team_invite").await;
        assert_ne!(first, second);
        assert_refused(lookup(&app, &first).await, StatusCode::NOT_FOUND, "invite_not_found", "the old link");
        assert_eq!(lookup(&app, &second).await.0, StatusCode::OK);
        let res = app.client.post(app.url(&path)).bearer_auth(&owner.token).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
        assert!(res.headers().get("retry-after").is_some());
        let (_, v) = body(res).await;
        assert_eq!(error_code(&v), "rate_limited");
        app.advance(time::Duration::seconds(61));
        assert_eq!(call(&app, Method::POST, &path, Some(&owner.token), None).await.0, StatusCode::ACCEPTED);
        assert!(audit_actions(&app).await.iter().any(|a| a == "team.invite_resend"));
    }
);

both!(
    async fn invites_of_one_address_are_limited_like_other_mail(app) with |s| { s.limits.mail_per_email = 2; } {
        let owner = user(&app, "ana@northwind.example").await;
        team(&app, &owner, "Northwind Sales", 10).await;
        for _ in 0..2 {
            assert_eq!(invite(&app, &owner, "rep@northwind.example", "member").await.0, StatusCode::ACCEPTED);
        }
        assert_refused(invite(&app, &owner, "REP@northwind.example", "member").await, StatusCode::TOO_MANY_REQUESTS, "rate_limited", "third invite");
        assert_eq!(invite(&app, &owner, "other@northwind.example", "member").await.0, StatusCode::ACCEPTED);
    }
);

both!(
    async fn refused_invites_spend_no_ones_mail_limits(app) with |s| { s.limits.mail_per_email = 2; } {
        // Someone in no team, and a member (who may not invite), try an address over and over:
        // every try is refused for who they are, and the real inviter's budget is untouched.
        let owner = user(&app, "ana@northwind.example").await;
        team(&app, &owner, "Northwind Sales", 10).await;
        let stranger = user(&app, "eve@else.example").await;
        invite(&app, &owner, "bo@northwind.example", "member").await;
        let member = user(&app, "bo@northwind.example").await;
        let token = app.token_from_mail("bo@northwind.example", "team_invite").await;
        let (status, v) = call(&app, Method::POST, "/api/team/invites/accept", Some(&member.token), Some(json!({"token": token}))).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        for _ in 0..3 {
            assert_refused(invite(&app, &stranger, "ceo@northwind.example", "member").await, StatusCode::NOT_FOUND, "team_not_found", "no team");
            assert_refused(invite(&app, &member, "ceo@northwind.example", "member").await, StatusCode::FORBIDDEN, "forbidden_role", "a member");
        }
        // Nor by creating a team of one's own (any verified user may): that team's tries spend
        // that team's budget for the address, never another team's.
        team(&app, &stranger, "Eve Co", 0).await;
        for _ in 0..2 {
            assert_refused(invite(&app, &stranger, "ceo@northwind.example", "member").await, StatusCode::CONFLICT, "seats_taken", "no seat");
        }
        assert_eq!(invite(&app, &owner, "ceo@northwind.example", "member").await.0, StatusCode::ACCEPTED);
        let id = invite_id(&app, &owner, "ceo@northwind.example").await;
        let path = format!("/api/team/invites/{id}/resend");
        assert_refused(call(&app, Method::POST, &path, Some(&member.token), None).await, StatusCode::FORBIDDEN, "forbidden_role", "a member resends");
        app.advance(time::Duration::seconds(61));
        assert_eq!(call(&app, Method::POST, &path, Some(&owner.token), None).await.0, StatusCode::ACCEPTED, "the resend budget is untouched");
    }
);
