//! Team billing on both databases: checkout of seats, the preview and seat changes on stripe-mock.
//! The API's integration suite: every test runs on SQLite and on PostgreSQL.

use std::time::Duration;

use closewise_domain::teams::Role;
use reqwest::StatusCode;
use serde_json::{json, Value};
use uuid::Uuid;

use crate::billing::{spawn_billing, Billing};
use crate::both;
use crate::helpers::*;
use closewise_testkit::Backend;

mod cancel;
mod company_purchase;
mod discount;
mod dunning;
mod flow;
mod interval;
mod invoices;
mod open_checkout;
mod over_seats;
mod reclaim;
mod seats;
mod tax;
mod trial_invoice;
mod who_pays;

const PASSWORD: &str = "sales-pro-2026";
const BASE: &str = "http://127.0.0.1:8080";
const CARD_OK: &str = "4242 4242 4242 4242";

/// A signed-in, verified user.
struct Person {
    id: Uuid,
    token: String,
}

async fn person(b: &Billing, email: &str) -> Person {
    let s = b.app.signed_in_user(email, PASSWORD).await;
    Person {
        id: s["user"]["id"].as_str().unwrap().parse().unwrap(),
        token: s["access_token"].as_str().unwrap().to_owned(),
    }
}

/// An owner with a new team (no seats bought yet).
async fn owner_with_team(b: &Billing, email: &str, name: &str) -> Person {
    let owner = person(b, email).await;
    b.app
        .state
        .teams
        .create(&closewise_core::actor::Actor::member(owner.id, email), name)
        .await
        .unwrap();
    owner
}

/// The person as the actor of a change (their address names them on the audit row).
async fn as_member(b: &Billing, p: &Person) -> closewise_core::actor::Actor {
    let user = b.app.state.store.user_by_id(p.id).await.unwrap().unwrap();
    closewise_core::actor::Actor::member(p.id, user.email)
}

/// Invites `email` with `role` and accepts as them.
async fn join(b: &Billing, inviter: &Person, email: &str, role: Role) -> Person {
    let p = person(b, email).await;
    let invitation = b
        .app
        .state
        .teams
        .invite(&as_member(b, inviter).await, email, role)
        .await
        .unwrap();
    b.app
        .state
        .teams
        .accept(
            &closewise_core::actor::Actor::member(p.id, email),
            &invitation.token,
        )
        .await
        .unwrap();
    p
}

fn checkout_body(seats: i64) -> Value {
    json!({
        "seats": seats,
        "success_url": format!("{BASE}/team?checkout=success&session_id={{CHECKOUT_SESSION_ID}}"),
        "cancel_url": format!("{BASE}/team"),
    })
}

async fn call(
    b: &Billing,
    method: reqwest::Method,
    path: &str,
    token: &str,
    json: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = b
        .app
        .client
        .request(method, b.app.url(path))
        .bearer_auth(token);
    if let Some(json) = json {
        req = req.json(&json);
    }
    body(req.send().await.unwrap()).await
}

async fn start_checkout(b: &Billing, token: &str, seats: i64) -> (StatusCode, Value) {
    body(
        b.app
            .post_auth("/api/team/checkout", token, checkout_body(seats))
            .await,
    )
    .await
}

/// Checks out `seats` and pays on stripe-mock; returns the session id.
async fn buy(b: &Billing, token: &str, seats: i64) -> String {
    let (status, v) = start_checkout(b, token, seats).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let session_id = v["url"]
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .to_owned();
    b.mock.pay(&session_id, CARD_OK).expect("paid");
    session_id
}

async fn confirm(b: &Billing, token: &str, session_id: &str) -> (StatusCode, Value) {
    body(
        b.app
            .post_auth(
                "/api/team/checkout/confirm",
                token,
                json!({ "session_id": session_id }),
            )
            .await,
    )
    .await
}

async fn entitlements(b: &Billing, token: &str) -> Value {
    let (status, v) = body(b.app.get_auth("/api/entitlements", token).await).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

async fn wait_for_entitlements(b: &Billing, token: &str, check: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..250 {
        let e = entitlements(b, token).await;
        if check(&e) {
            return e;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!(
        "entitlements never changed: {}",
        entitlements(b, token).await
    );
}

async fn team_row(b: &Billing, owner: &Person) -> closewise_core::store::teams::TeamRow {
    let (team_id, _) = b
        .app
        .state
        .store
        .membership_of(owner.id)
        .await
        .unwrap()
        .unwrap();
    b.app
        .state
        .store
        .team_by_id(team_id)
        .await
        .unwrap()
        .unwrap()
}

/// The quantity stripe-mock holds on the subscription's item.
fn stripe_quantity(b: &Billing, subscription_id: &str) -> u64 {
    let sub = b.mock.object(subscription_id).expect("subscription");
    sub["items"]["data"][0]["quantity"].as_u64().unwrap()
}

/// A POST to stripe-mock's API with the shared secret key.
async fn stripe_post(b: &Billing, path: &str, form: &[(&str, String)]) -> Value {
    let res = b
        .app
        .client
        .post(format!("{}{path}", b.mock_url))
        .bearer_auth(closewise_api::config::DEV_STRIPE_SECRET_KEY)
        .form(form)
        .send()
        .await
        .unwrap();
    let status = res.status();
    let v: Value = res.json().await.unwrap();
    assert!(status.is_success(), "{path}: {v}");
    v
}

/// A coupon of `percent_off` % off forever, named `name`, and the promotion code `code` for it.
async fn promotion_code(b: &Billing, code: &str, percent_off: u32, name: &str) {
    let coupon = stripe_post(
        b,
        "/v1/coupons",
        &[
            ("percent_off", percent_off.to_string()),
            ("duration", "forever".into()),
            ("name", name.into()),
        ],
    )
    .await;
    let coupon_id = coupon["id"].as_str().unwrap().to_owned();
    stripe_post(
        b,
        "/v1/promotion_codes",
        &[
            ("promotion[type]", "coupon".into()),
            ("promotion[coupon]", coupon_id),
            ("code", code.into()),
        ],
    )
    .await;
}
