//! The team endpoints on both databases (docs/api.md, "Teams"): the role table through the API,
//! another team's anything is not found, the last seat, invitations and their mail, domain join,
//! audit rows and bad input.

mod adoption;
mod decisions;
mod domain_join;
mod domains;
mod invites;
mod invites_to_me;
mod manage;
mod may;
pub mod removal;
mod roles;
mod scale;
pub mod scim;
mod streams;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use uuid::Uuid;

use crate::helpers::*;

pub const PASSWORD: &str = "sales-pro-2026";

/// A signed-in, verified user.
#[derive(Clone, Debug)]
pub struct User {
    pub id: Uuid,
    pub token: String,
}

pub async fn user(app: &TestApp, email: &str) -> User {
    let session = crate::helpers::signed_in_account(app, email, PASSWORD).await;
    User {
        id: session["user"]["id"].as_str().unwrap().parse().unwrap(),
        token: session["access_token"].as_str().unwrap().to_string(),
    }
}

/// Any call: `body` None sends no body.
pub async fn call(
    app: &TestApp,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = app.client.request(method, app.url(path));
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    if let Some(b) = body {
        req = req.json(&b);
    }
    body_of(req.send().await.unwrap()).await
}

async fn body_of(res: reqwest::Response) -> (StatusCode, Value) {
    body(res).await
}

pub async fn get_team(app: &TestApp, u: &User) -> Value {
    let (status, v) = call(app, Method::GET, "/api/team", Some(&u.token), None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v["team"].clone()
}

/// Creates a team owned by `owner` and records `seats` seats for it (0: none).
pub async fn team(app: &TestApp, owner: &User, name: &str, seats: u32) -> Value {
    let (status, v) = call(
        app,
        Method::POST,
        "/api/team",
        Some(&owner.token),
        Some(json!({ "name": name })),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    if seats > 0 {
        crate::helpers::record_seats(app, owner.id, seats).await;
    }
    v["team"].clone()
}

pub async fn invite(app: &TestApp, by: &User, email: &str, role: &str) -> (StatusCode, Value) {
    call(
        app,
        Method::POST,
        "/api/team/invites",
        Some(&by.token),
        Some(json!({ "email": email, "role": role })),
    )
    .await
}

/// The open invite of `email` in `by`'s team, by id.
pub async fn invite_id(app: &TestApp, by: &User, email: &str) -> String {
    let team = get_team(app, by).await;
    team["invites"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["email"] == email)
        .unwrap_or_else(|| panic!("no invite of {email}: {team}"))["id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Invites `email` with `role` as `by`, signs the invitee up and accepts through the mail's link.
pub async fn join(app: &TestApp, by: &User, email: &str, role: &str) -> User {
    let (status, v) = invite(app, by, email, role).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    let token = app.token_from_mail(email, "team_invite").await;
    let u = user(app, email).await;
    let (status, v) = call(
        app,
        Method::POST,
        "/api/team/invites/accept",
        Some(&u.token),
        Some(json!({ "token": token })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    u
}

/// A team of five with 10 seats: the owner, two admins and two members (`prefix` keeps the
/// addresses of several crews in one app apart).
pub struct Crew {
    pub owner: User,
    pub admins: [User; 2],
    pub members: [User; 2],
}

impl Crew {
    pub fn by(&self, role: &str, second: bool) -> &User {
        let i = usize::from(second);
        match role {
            "owner" => &self.owner,
            "admin" => &self.admins[i],
            _ => &self.members[i],
        }
    }
}

pub async fn crew(app: &TestApp, prefix: &str) -> Crew {
    let owner = user(app, &format!("{prefix}-owner@northwind.example")).await;
    team(app, &owner, &format!("{prefix} Sales"), 10).await;
    let mut admins = Vec::new();
    let mut members = Vec::new();
    for i in 0..2 {
        admins.push(
            join(
                app,
                &owner,
                &format!("{prefix}-admin{i}@northwind.example"),
                "admin",
            )
            .await,
        );
        members.push(
            join(
                app,
                &owner,
                &format!("{prefix}-member{i}@northwind.example"),
                "member",
            )
            .await,
        );
    }
    Crew {
        owner,
        admins: admins.try_into().unwrap(),
        members: members.try_into().unwrap(),
    }
}

/// The actions of the audit trail, oldest first.
pub async fn audit_actions(app: &TestApp) -> Vec<String> {
    let mut rows = app.state.store.audit_log(1000).await.unwrap();
    rows.reverse();
    rows.into_iter().map(|r| r.action).collect()
}

pub fn assert_refused(got: (StatusCode, Value), status: StatusCode, code: &str, case: &str) {
    assert_eq!(
        (got.0, error_code(&got.1)),
        (status, code),
        "{case}: {}",
        got.1
    );
}
