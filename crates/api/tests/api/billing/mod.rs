//! Billing against stripe-mock in-process (`flow`, `subscription`, `attacks`) and against wiremock
//! standing in for a failing Stripe (`faults`). Every test runs on SQLite and on PostgreSQL. This
//! file is the harness they share: the app wired to a fresh stripe-mock, and typed steps of the
//! flow.

use std::time::{Duration, Instant};

use closewise_api::config::{DEV_STRIPE_SECRET_KEY, DEV_STRIPE_WEBHOOK_SECRET};
use closewise_core::billing::signature::sign;
use reqwest::StatusCode;
use serde_json::{json, Value};
use stripe_mock::MockHandle;

use crate::helpers::*;

const PASSWORD: &str = "sales-pro-2026";
const PRICE: &str = "price_closewise_monthly";
const BASE: &str = "http://127.0.0.1:8080";
const CARD_OK: &str = "4242 4242 4242 4242";
const CARD_DECLINED: &str = "4000 0000 0000 0002";

/// The app talking to a fresh stripe-mock, whose webhooks go to the app.
pub struct Billing {
    pub app: TestApp,
    pub mock: MockHandle,
    pub mock_url: String,
}

pub async fn spawn_billing(backend: Backend) -> Billing {
    spawn_billing_with(backend, |_| {}).await
}

/// The same, with the app's settings changed by `configure` (e.g. automatic tax on).
pub async fn spawn_billing_with(
    backend: Backend,
    configure: impl FnOnce(&mut closewise_testkit::app::Settings) + Send + 'static,
) -> Billing {
    let config = stripe_mock::Config {
        secret_key: DEV_STRIPE_SECRET_KEY.into(),
        webhook_secret: DEV_STRIPE_WEBHOOK_SECRET.into(),
        webhook_retry_delays: [50, 100, 200]
            .into_iter()
            .map(Duration::from_millis)
            .collect(),
        webhook_timeout: Duration::from_secs(5),
        ..stripe_mock::Config::default()
    };
    let (addr, mock) = stripe_mock::spawn(config)
        .await
        .expect("stripe-mock starts");
    let mock_url = format!("http://{addr}");
    let api_base = mock_url.clone();
    let app = spawn_app_with(backend, move |s| {
        s.stripe.api_base = api_base;
        configure(s);
    })
    .await;
    mock.set_webhook_url(Some(app.url("/api/stripe/webhook")));
    Billing {
        app,
        mock,
        mock_url,
    }
}

pub(crate) fn checkout_body() -> Value {
    json!({
        "price_id": PRICE,
        "mode": "subscription",
        "success_url": format!("{BASE}/success?session_id={{CHECKOUT_SESSION_ID}}"),
        "cancel_url": format!("{BASE}/pricing"),
    })
}

fn access(session: &Value) -> String {
    session["access_token"].as_str().unwrap().to_owned()
}

impl Billing {
    /// A verified, signed-in user's access token.
    async fn user(&self, email: &str) -> String {
        access(&crate::helpers::signed_in_account(&self.app, email, PASSWORD).await)
    }

    /// Starts a checkout; returns the hosted page URL.
    async fn checkout(&self, token: &str) -> String {
        let (status, v) = body(
            self.app
                .post_auth("/api/checkout", token, checkout_body())
                .await,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let url = v["url"].as_str().unwrap().to_owned();
        assert!(url.starts_with(&self.mock_url), "{url}");
        url
    }

    fn session_id(url: &str) -> String {
        url.rsplit('/').next().unwrap().to_owned()
    }

    /// Pays on the hosted page as a browser would; returns the response.
    async fn pay(&self, url: &str, card: &str) -> reqwest::Response {
        self.app
            .client
            .post(url)
            .form(&[
                ("email", "buyer@example.com"),
                ("cardnumber", card),
                ("exp", "12 / 34"),
                ("cvc", "123"),
                ("name", "Ana Buyer"),
            ])
            .send()
            .await
            .unwrap()
    }

    async fn confirm(&self, token: &str, session_id: &str) -> (StatusCode, Value) {
        body(
            self.app
                .post_auth(
                    "/api/checkout/confirm",
                    token,
                    json!({ "session_id": session_id }),
                )
                .await,
        )
        .await
    }

    async fn plan(&self, token: &str) -> Value {
        let (status, v) = body(self.app.get_auth("/api/plan", token).await).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        v
    }

    async fn subscription(&self, token: &str) -> Value {
        let (status, v) = body(self.app.get_auth("/api/subscription", token).await).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        v["subscription"].clone()
    }

    /// Waits until `check` holds for the caller's plan (webhooks arrive asynchronously).
    async fn wait_for_plan(&self, token: &str, check: impl Fn(&Value) -> bool) -> Value {
        for _ in 0..250 {
            let plan = self.plan(token).await;
            if check(&plan) {
                return plan;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!(
            "the plan never reached the expected state: {}",
            self.plan(token).await
        );
    }

    async fn wait_for_subscription(&self, token: &str, check: impl Fn(&Value) -> bool) -> Value {
        for _ in 0..250 {
            let sub = self.subscription(token).await;
            if check(&sub) {
                return sub;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!(
            "the subscription never reached the expected state: {}",
            self.subscription(token).await
        );
    }

    /// Waits until the mock has delivered every event it has and the app accepted them.
    async fn wait_for_deliveries(&self) {
        for _ in 0..250 {
            let events = self.mock.events();
            let deliveries = self.mock.deliveries();
            let all_ok = events.iter().all(|e| {
                deliveries
                    .iter()
                    .any(|d| d.event_id == e["id"].as_str().unwrap() && d.status == Some(200))
            });
            if all_ok {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("webhooks not delivered: {:?}", self.mock.deliveries());
    }

    /// POSTs an event to the webhook as Stripe would, signed at the app's now.
    async fn deliver(&self, event: &Value) -> (StatusCode, Value) {
        let raw = serde_json::to_string(event).unwrap();
        let t = self.app.state.clock.now().unix_timestamp();
        self.post_webhook(&raw, &sign(DEV_STRIPE_WEBHOOK_SECRET, t, raw.as_bytes()))
            .await
    }

    async fn post_webhook(&self, raw: &str, signature: &str) -> (StatusCode, Value) {
        body(
            self.app
                .client
                .post(self.app.url("/api/stripe/webhook"))
                .header("content-type", "application/json")
                .header("stripe-signature", signature)
                .body(raw.to_owned())
                .send()
                .await
                .unwrap(),
        )
        .await
    }

    fn events_of_type(&self, kind: &str) -> Vec<Value> {
        self.mock
            .events()
            .into_iter()
            .filter(|e| e["type"] == kind)
            .collect()
    }

    /// A verified user with a paid, active subscription (webhooks delivered); returns the token.
    async fn subscribed_user(&self, email: &str) -> String {
        let token = self.user(email).await;
        let url = self.checkout(&token).await;
        assert_eq!(
            self.pay(&url, CARD_OK).await.status(),
            StatusCode::SEE_OTHER
        );
        self.wait_for_plan(&token, |p| p["plan_type"] == "monthly")
            .await;
        token
    }
}

mod attacks;
mod cancel;
mod discounts;
mod dunning;
mod faults;
mod flow;
mod interval;
mod limits;
mod promotions;
mod replicas;
mod subscription;
mod tax;
