//! Billing against stripe-mock in-process (the whole flow, the attacks) and against wiremock
//! standing in for a failing Stripe. Every test runs on SQLite and on PostgreSQL.

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

/// Runs a test body once on SQLite and once on PostgreSQL; the body spawns what it needs.
macro_rules! each_backend {
    (async fn $name:ident($backend:ident) $body:block) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            async fn run($backend: Backend) $body
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                run(Backend::Sqlite).await
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                run(Backend::Postgres).await
            }
        }
    };
}

/// The app talking to a fresh stripe-mock, whose webhooks go to the app.
pub struct Billing {
    pub app: TestApp,
    pub mock: MockHandle,
    pub mock_url: String,
}

pub async fn spawn_billing(backend: Backend) -> Billing {
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
    let app = spawn_app_with(backend, move |s| s.stripe.api_base = api_base).await;
    mock.set_webhook_url(Some(app.url("/api/stripe/webhook")));
    Billing {
        app,
        mock,
        mock_url,
    }
}

fn checkout_body() -> Value {
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
        access(&self.app.signed_in_user(email, PASSWORD).await)
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

each_backend!(
    async fn pay_then_webhook_then_confirm_activates_the_plan_once(backend) {
        let b = spawn_billing(backend).await;
        let token = b.user("ana@example.com").await;
        assert!(b.subscription(&token).await.is_null());
        let url = b.checkout(&token).await;
        let session_id = Billing::session_id(&url);

        let paid = b.pay(&url, CARD_OK).await;
        assert_eq!(paid.status(), StatusCode::SEE_OTHER);
        assert_eq!(
            paid.headers()["location"].to_str().unwrap(),
            format!("{BASE}/success?session_id={session_id}")
        );

        // The webhooks arrive on their own and activate the plan.
        b.wait_for_deliveries().await;
        let plan = b.wait_for_plan(&token, |p| p["plan_type"] == "monthly").await;
        assert_eq!(plan["status"], "active");
        assert!(plan["stripe_subscription_id"].as_str().unwrap().starts_with("sub_"));
        assert!(plan["stripe_customer_id"].as_str().unwrap().starts_with("cus_"));
        assert_eq!(plan["subscription_id"], plan["stripe_subscription_id"]);

        // Then the success page confirms, twice, a minute later: same plan, not touched again.
        b.app.advance(time::Duration::minutes(1));
        for _ in 0..2 {
            let (status, v) = b.confirm(&token, &session_id).await;
            assert_eq!(status, StatusCode::OK, "{v}");
            assert_eq!(v["plan"]["plan_type"], "monthly");
            assert_eq!(v["plan"]["plan_started_at"], plan["plan_started_at"]);
            assert_eq!(v["subscription"]["subscription_status"], "active");
        }
        // And every event arrives a second time: nothing changes.
        for event in b.mock.events() {
            let (status, v) = b.deliver(&event).await;
            assert_eq!(status, StatusCode::OK, "{v}");
            assert_eq!(v, json!({ "received": true }));
        }
        let again = b.plan(&token).await;
        assert_eq!(again, plan, "the plan was activated exactly once");

        let sub = b.subscription(&token).await;
        assert_eq!(sub["price_id"], PRICE);
        assert_eq!(sub["subscription_status"], "active");
        assert_eq!(sub["cancel_at_period_end"], false);
        assert_eq!(sub["payment_method_brand"], "visa");
        assert_eq!(sub["payment_method_last4"], "4242");
        let period_end = sub["current_period_end"].as_i64().unwrap();
        let now = b.mock.now();
        assert!(period_end > now + 27 * 86_400 && period_end < now + 32 * 86_400, "{period_end} vs {now}");

        // Each event is recorded once, delivered twice.
        let recorded = b.app.state.store.webhook_events(100).await.unwrap();
        assert_eq!(recorded.len(), b.mock.events().len());
        assert!(recorded.iter().all(|e| e.processed_at.is_some() && e.attempts == 2 && e.error.is_none()), "{recorded:?}");
    }
);

each_backend!(
    async fn a_paid_checkouts_events_are_linked_to_its_user_newest_first(backend) {
        let b = spawn_billing(backend).await;
        b.subscribed_user("ana@example.com").await;
        b.subscribed_user("bob@example.com").await;
        b.wait_for_deliveries().await;
        let store = &b.app.state.store;
        let ana_id = store.user_by_email("ana@example.com").await.unwrap().unwrap().id;
        let bob_id = store.user_by_email("bob@example.com").await.unwrap().unwrap().id;
        // The mock's events about each user's checkout session and subscription.
        let events_of = |customer: &str| -> Vec<String> {
            b.mock
                .events()
                .into_iter()
                .filter(|e| {
                    let kind = e["type"].as_str().unwrap();
                    (kind == "checkout.session.completed"
                        || kind.starts_with("customer.subscription."))
                        && e["data"]["object"]["customer"] == customer
                })
                .map(|e| e["id"].as_str().unwrap().to_owned())
                .collect()
        };
        let ana_customer = store.stripe_customer_of(ana_id).await.unwrap().unwrap();
        let bob_customer = store.stripe_customer_of(bob_id).await.unwrap().unwrap();
        let (ana_expected, bob_expected) = (events_of(&ana_customer), events_of(&bob_customer));
        assert!(ana_expected.len() >= 2, "{:?}", b.mock.events());

        let linked = store.webhook_events_for_user(ana_id, 50).await.unwrap();
        let linked_ids: Vec<&str> = linked.iter().map(|e| e.event_id.as_str()).collect();
        for id in &ana_expected {
            assert!(linked_ids.contains(&id.as_str()), "{id} not linked: {linked_ids:?}");
        }
        assert!(bob_expected.iter().all(|id| !linked_ids.contains(&id.as_str())));
        assert!(linked.iter().any(|e| e.kind == "checkout.session.completed"));
        assert!(linked.iter().all(|e| e.processed_at.is_some() && e.error.is_none()));
        assert!(
            linked.windows(2).all(|w| w[0].received_at >= w[1].received_at),
            "newest first: {linked:?}"
        );
        let bobs = store.webhook_events_for_user(bob_id, 50).await.unwrap();
        assert!(bobs.iter().all(|e| !ana_expected.contains(&e.event_id)));
        assert!(bob_expected.iter().all(|id| bobs.iter().any(|e| &e.event_id == id)));
        // The limit holds.
        assert_eq!(store.webhook_events_for_user(ana_id, 1).await.unwrap().len(), 1);
        // A stranger has none.
        assert!(store.webhook_events_for_user(uuid::Uuid::now_v7(), 10).await.unwrap().is_empty());
    }
);

each_backend!(
    async fn confirm_before_the_webhooks_activates_the_plan_once(backend) {
        let b = spawn_billing(backend).await;
        // Stripe's webhooks are late: nothing is sent until we deliver them by hand.
        b.mock.set_webhook_url(None);
        let token = b.user("ana@example.com").await;
        let url = b.checkout(&token).await;
        let session_id = Billing::session_id(&url);
        assert_eq!(b.pay(&url, CARD_OK).await.status(), StatusCode::SEE_OTHER);
        assert_eq!(b.plan(&token).await["plan_type"], "free", "paying alone grants nothing here");

        let (status, first) = b.confirm(&token, &session_id).await;
        assert_eq!(status, StatusCode::OK, "{first}");
        assert_eq!(first["plan"]["plan_type"], "monthly");
        assert_eq!(first["subscription"]["payment_method_last4"], "4242");
        b.app.advance(time::Duration::minutes(1));
        let (status, second) = b.confirm(&token, &session_id).await;
        assert_eq!(status, StatusCode::OK, "{second}");
        assert_eq!(second["plan"], first["plan"]);

        // Now the webhooks, twice each, in reverse order.
        let events: Vec<Value> = b.mock.events();
        assert!(!events.is_empty());
        for _ in 0..2 {
            for event in &events {
                let (status, v) = b.deliver(event).await;
                assert_eq!(status, StatusCode::OK, "{v}");
            }
        }
        assert_eq!(b.plan(&token).await, first["plan"], "the plan was activated exactly once");
        assert_eq!(b.subscription(&token).await["subscription_status"], "active");
    }
);

each_backend!(
    async fn confirm_and_webhook_racing_end_with_one_monthly_plan(backend) {
        let b = spawn_billing(backend).await;
        b.mock.set_webhook_url(None);
        let token = b.user("ana@example.com").await;
        let url = b.checkout(&token).await;
        let session_id = Billing::session_id(&url);
        assert_eq!(b.pay(&url, CARD_OK).await.status(), StatusCode::SEE_OTHER);
        let completed = b.events_of_type("checkout.session.completed").remove(0);
        let created = b.events_of_type("customer.subscription.created").remove(0);
        let (c1, c2, w1, w2) = tokio::join!(
            b.confirm(&token, &session_id),
            b.confirm(&token, &session_id),
            b.deliver(&completed),
            b.deliver(&created),
        );
        for (status, v) in [c1, c2, w1, w2] {
            assert_eq!(status, StatusCode::OK, "{v}");
        }
        let plan = b.plan(&token).await;
        assert_eq!(plan["plan_type"], "monthly");
        b.app.advance(time::Duration::minutes(1));
        let (_, again) = b.confirm(&token, &session_id).await;
        assert_eq!(again["plan"], plan);
    }
);

each_backend!(
    async fn a_declined_card_leaves_the_plan_free(backend) {
        let b = spawn_billing(backend).await;
        let token = b.user("ana@example.com").await;
        let url = b.checkout(&token).await;
        let declined = b.pay(&url, CARD_DECLINED).await;
        assert_eq!(declined.status(), StatusCode::PAYMENT_REQUIRED);
        assert!(declined.text().await.unwrap().contains("Your card was declined."));

        let (status, v) = b.confirm(&token, &Billing::session_id(&url)).await;
        assert_eq!(status, StatusCode::CONFLICT, "{v}");
        assert_eq!(error_code(&v), "session_not_paid");
        assert_eq!(error_message(&v), "Plan activation failed, but you can contact support.");
        b.wait_for_deliveries().await;
        assert_eq!(b.plan(&token).await["plan_type"], "free");
        assert!(b.subscription(&token).await.is_null());
    }
);

each_backend!(
    async fn the_portal_cancels_at_period_end_and_the_clock_ends_the_plan(backend) {
        let b = spawn_billing(backend).await;
        let token = b.subscribed_user("ana@example.com").await;

        let (status, v) = body(b.app.post_auth("/api/billing/portal", &token, json!({})).await).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let portal = v["url"].as_str().unwrap().to_owned();
        assert!(portal.starts_with(&b.mock_url), "{portal}");
        let page = b.app.client.get(&portal).send().await.unwrap().text().await.unwrap();
        assert!(page.contains(&format!("{BASE}/dashboard")), "the portal returns to the dashboard");

        let canceled = b.app.client.post(format!("{portal}/cancel")).send().await.unwrap();
        assert!(canceled.status().is_success() || canceled.status().is_redirection(), "{}", canceled.status());
        let sub = b.wait_for_subscription(&token, |s| s["cancel_at_period_end"] == true).await;
        assert_eq!(sub["subscription_status"], "active");
        assert_eq!(b.plan(&token).await["plan_type"], "monthly", "paid until the period ends");

        // Stripe's clock passes the period end: the subscription ends and so does the plan.
        b.mock.advance_clock(32 * 86_400);
        let plan = b.wait_for_plan(&token, |p| p["plan_type"] == "free").await;
        assert_eq!(plan["status"], "active");
        assert!(plan["stripe_subscription_id"].is_null());
        assert_eq!(b.subscription(&token).await["subscription_status"], "canceled");

        // A new checkout is allowed again, with the same customer.
        let customer = plan["stripe_customer_id"].clone();
        b.checkout(&token).await;
        assert_eq!(b.plan(&token).await["stripe_customer_id"], customer);
    }
);

each_backend!(
    async fn a_renewal_keeps_the_plan_and_moves_the_period_end(backend) {
        let b = spawn_billing(backend).await;
        let token = b.subscribed_user("ana@example.com").await;
        let before = b.subscription(&token).await["current_period_end"].as_i64().unwrap();
        b.mock.advance_clock(32 * 86_400);
        let sub = b
            .wait_for_subscription(&token, |s| s["current_period_end"].as_i64() > Some(before))
            .await;
        assert_eq!(sub["subscription_status"], "active");
        assert_eq!(b.plan(&token).await["plan_type"], "monthly");
    }
);

each_backend!(
    async fn a_checkout_started_outside_the_api_is_fulfilled_by_its_webhook(backend) {
        let b = spawn_billing(backend).await;
        let token = b.user("ana@example.com").await;
        let (_, me) = body(b.app.get_auth("/api/auth/user", &token).await).await;
        let uid = me["user"]["id"].as_str().unwrap().to_owned();
        // A customer and session made straight at Stripe, naming our user.
        let stripe = |path: &str, form: Vec<(&str, &str)>| {
            b.app
                .client
                .post(format!("{}{path}", b.mock_url))
                .bearer_auth(DEV_STRIPE_SECRET_KEY)
                .form(&form)
                .send()
        };
        let customer: Value = stripe("/v1/customers", vec![("email", "ana@example.com")])
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let session: Value = stripe(
            "/v1/checkout/sessions",
            vec![
                ("mode", "subscription"),
                ("customer", customer["id"].as_str().unwrap()),
                ("line_items[0][price]", PRICE),
                ("line_items[0][quantity]", "1"),
                ("success_url", "http://127.0.0.1:8080/success"),
                ("metadata[user_id]", &uid),
                ("client_reference_id", &uid),
            ],
        )
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
        let url = session["url"].as_str().unwrap();
        assert_eq!(b.pay(url, CARD_OK).await.status(), StatusCode::SEE_OTHER);
        let plan = b.wait_for_plan(&token, |p| p["plan_type"] == "monthly").await;
        assert_eq!(plan["stripe_customer_id"], customer["id"]);
        // Its later events find the user through the customer now remembered.
        b.wait_for_deliveries().await;
        let sub_id = plan["stripe_subscription_id"].as_str().unwrap();
        let resp = b
            .app
            .client
            .post(format!("{}/v1/subscriptions/{sub_id}", b.mock_url))
            .bearer_auth(DEV_STRIPE_SECRET_KEY)
            .form(&[("cancel_at_period_end", "true")])
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        b.wait_for_subscription(&token, |s| s["cancel_at_period_end"] == true)
            .await;
    }
);

each_backend!(
    async fn the_checkout_preconditions_are_checked_in_the_specs_order(backend) {
        let b = spawn_billing(backend).await;
        let app = &b.app;
        // Not signed in, even with a body that is wrong in every way.
        let (status, v) = body(app.post("/api/checkout", json!({"price_id": 5})).await).await;
        assert_eq!((status, error_code(&v)), (StatusCode::UNAUTHORIZED, "not_signed_in"));
        assert_eq!(error_message(&v), "Please sign in to continue");
        // A token that is not valid.
        let (status, v) = body(app.post_auth("/api/checkout", "not-a-token", json!({})).await).await;
        assert_eq!((status, error_code(&v)), (StatusCode::UNAUTHORIZED, "invalid_token"));
        assert_eq!(error_message(&v), "Authentication required. Please sign in again.");
        // A token whose session was signed out.
        let token = b.user("ana@example.com").await;
        let out = app.post_auth("/api/auth/logout?scope=local", &token, json!({})).await;
        assert!(out.status().is_success());
        let (status, v) = body(app.post_auth("/api/checkout", &token, checkout_body()).await).await;
        assert_eq!((status, error_code(&v)), (StatusCode::UNAUTHORIZED, "invalid_token"));

        // A verified user: bad input is refused before Stripe is asked.
        let token = access(&app.signin("ana@example.com", PASSWORD).await.json::<Value>().await.unwrap());
        let mut foreign = checkout_body();
        foreign["success_url"] = json!("https://evil.example/success?session_id={CHECKOUT_SESSION_ID}");
        let (status, v) = body(app.post_auth("/api/checkout", &token, foreign).await).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_redirect_url"));
        let mut foreign = checkout_body();
        foreign["cancel_url"] = json!("//evil.example/pricing");
        let (status, v) = body(app.post_auth("/api/checkout", &token, foreign).await).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_redirect_url"));
        let mut unknown = checkout_body();
        unknown["price_id"] = json!("price_free_lunch");
        let (status, v) = body(app.post_auth("/api/checkout", &token, unknown).await).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "unknown_price"));
        let (status, v) = body(app.post_auth("/api/checkout", &token, json!({"price_id": PRICE})).await).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_json"));
        assert!(b.mock.snapshot().customers.is_empty(), "Stripe was not asked");

        // Subscribed: the same price is refused.
        let url = b.checkout(&token).await;
        assert_eq!(b.pay(&url, CARD_OK).await.status(), StatusCode::SEE_OTHER);
        b.wait_for_plan(&token, |p| p["plan_type"] == "monthly").await;
        let (status, v) = body(app.post_auth("/api/checkout", &token, checkout_body()).await).await;
        assert_eq!((status, error_code(&v)), (StatusCode::CONFLICT, "already_subscribed"));
        assert_eq!(error_message(&v), "You already have this subscription");
        assert_eq!(b.mock.snapshot().customers.len(), 1, "one customer, reused");
    }
);

mod unverified {
    use super::*;

    async fn run(backend: Backend) {
        let app = spawn_app_with(backend, |s| s.allow_unverified_signin = true).await;
        assert_eq!(
            app.signup("bo@example.com", PASSWORD).await.status(),
            StatusCode::OK
        );
        let (status, session) = body(app.signin("bo@example.com", PASSWORD).await).await;
        assert_eq!(status, StatusCode::OK, "{session}");
        let (status, v) = body(
            app.post_auth("/api/checkout", &access(&session), checkout_body())
                .await,
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::FORBIDDEN, "email_not_verified")
        );
        assert_eq!(
            error_message(&v),
            "Please verify your email address before subscribing"
        );
        // Whatever the body says.
        let (status, v) = body(
            app.post_auth("/api/checkout", &access(&session), json!({"price_id": 1}))
                .await,
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::FORBIDDEN, "email_not_verified")
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_unverified_email_may_not_check_out_sqlite() {
        run(Backend::Sqlite).await
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_unverified_email_may_not_check_out_postgres() {
        run(Backend::Postgres).await
    }
}

each_backend!(
    async fn nobody_can_confirm_someone_elses_session(backend) {
        let b = spawn_billing(backend).await;
        b.mock.set_webhook_url(None);
        let ana = b.user("ana@example.com").await;
        let eve = b.user("eve@example.com").await;
        let url = b.checkout(&ana).await;
        assert_eq!(b.pay(&url, CARD_OK).await.status(), StatusCode::SEE_OTHER);
        let (status, v) = b.confirm(&eve, &Billing::session_id(&url)).await;
        assert_eq!((status, error_code(&v)), (StatusCode::FORBIDDEN, "session_not_yours"));
        assert_eq!(error_message(&v), "Plan activation failed, but you can contact support.");
        assert_eq!(b.plan(&eve).await["plan_type"], "free");
        assert!(b.subscription(&eve).await.is_null());
        // Eve having a customer of her own changes nothing.
        b.checkout(&eve).await;
        let (status, _) = b.confirm(&eve, &Billing::session_id(&url)).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert_eq!(b.plan(&eve).await["plan_type"], "free");
    }
);

each_backend!(
    async fn unpaid_expired_and_made_up_sessions_activate_nothing(backend) {
        let b = spawn_billing(backend).await;
        let token = b.user("ana@example.com").await;
        let unpaid = Billing::session_id(&b.checkout(&token).await);
        let (status, v) = b.confirm(&token, &unpaid).await;
        assert_eq!((status, error_code(&v)), (StatusCode::CONFLICT, "session_not_paid"));

        let expired = Billing::session_id(&b.checkout(&token).await);
        let resp = b.app.client.post(format!("{}/v1/checkout/sessions/{expired}/expire", b.mock_url))
            .bearer_auth(DEV_STRIPE_SECRET_KEY).send().await.unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        let (status, v) = b.confirm(&token, &expired).await;
        assert_eq!((status, error_code(&v)), (StatusCode::CONFLICT, "session_not_paid"));

        for made_up in ["cs_test_madeup0000000000", "../v1/customers", "", "cs_test_a?b=c"] {
            let (status, v) = b.confirm(&token, made_up).await;
            assert_eq!((status, error_code(&v)), (StatusCode::NOT_FOUND, "session_not_found"), "{made_up:?}");
            assert_eq!(error_message(&v), "Plan activation failed, but you can contact support.");
        }
        let (status, v) = body(b.app.post("/api/checkout/confirm", json!({"session_id": unpaid})).await).await;
        assert_eq!((status, error_code(&v)), (StatusCode::UNAUTHORIZED, "not_signed_in"));
        assert_eq!(b.plan(&token).await["plan_type"], "free");
        assert!(b.subscription(&token).await.is_null());
    }
);

each_backend!(
    async fn webhooks_with_a_bad_or_stale_signature_are_refused(backend) {
        let b = spawn_billing(backend).await;
        b.mock.set_webhook_url(None);
        let token = b.user("ana@example.com").await;
        let url = b.checkout(&token).await;
        assert_eq!(b.pay(&url, CARD_OK).await.status(), StatusCode::SEE_OTHER);
        let event = b.events_of_type("checkout.session.completed").remove(0);
        let raw = serde_json::to_string(&event).unwrap();
        let now = b.app.state.clock.now().unix_timestamp();

        let forged = sign("whsec_someone_else", now, raw.as_bytes());
        let tampered_body = raw.replace("complete", "completf");
        let stale = sign(DEV_STRIPE_WEBHOOK_SECRET, now - 301, raw.as_bytes());
        let future = sign(DEV_STRIPE_WEBHOOK_SECRET, now + 301, raw.as_bytes());
        let good = sign(DEV_STRIPE_WEBHOOK_SECRET, now, raw.as_bytes());
        let cases = [
            (raw.as_str(), forged.as_str()),
            (tampered_body.as_str(), good.as_str()),
            (raw.as_str(), stale.as_str()),
            (raw.as_str(), future.as_str()),
            (raw.as_str(), "t=1,v1=zz"),
            (raw.as_str(), ""),
        ];
        for (payload, signature) in cases {
            let (status, v) = b.post_webhook(payload, signature).await;
            assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_signature"), "{signature}");
        }
        let no_header = b.app.client.post(b.app.url("/api/stripe/webhook")).body(raw.clone()).send().await.unwrap();
        assert_eq!(no_header.status(), StatusCode::BAD_REQUEST);
        assert!(b.app.state.store.webhook_events(10).await.unwrap().is_empty(), "nothing recorded");
        assert_eq!(b.plan(&token).await["plan_type"], "free");

        // Several v1 values (a secret being rolled): one matching is enough.
        let rolled = format!("{},v1={}", sign("whsec_old", now, raw.as_bytes()), good.split("v1=").nth(1).unwrap());
        let (status, v) = b.post_webhook(&raw, &rolled).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(b.plan(&token).await["plan_type"], "monthly");
    }
);

each_backend!(
    async fn a_replayed_event_changes_nothing(backend) {
        let b = spawn_billing(backend).await;
        b.mock.set_webhook_url(None);
        let token = b.user("ana@example.com").await;
        let url = b.checkout(&token).await;
        assert_eq!(b.pay(&url, CARD_OK).await.status(), StatusCode::SEE_OTHER);
        let event = b.events_of_type("customer.subscription.created").remove(0);
        let (status, _) = b.deliver(&event).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(b.plan(&token).await["plan_type"], "monthly");

        // Had the replay been processed, it would have read Stripe again and put this back.
        b.app.execute("UPDATE subscriptions SET status = 'past_due'").await;
        let (status, v) = b.deliver(&event).await;
        assert_eq!((status, v), (StatusCode::OK, json!({ "received": true })));
        assert_eq!(b.subscription(&token).await["subscription_status"], "past_due");
        let recorded = b.app.state.store.webhook_events(10).await.unwrap();
        assert_eq!(recorded.len(), 1);
        assert_eq!((recorded[0].attempts, recorded[0].kind.as_str()), (2, "customer.subscription.created"));

        // A malformed but signed payload is refused without being recorded.
        let raw = "{\"type\": \"invoice.paid\"}";
        let t = b.app.state.clock.now().unix_timestamp();
        let (status, v) = b.post_webhook(raw, &sign(DEV_STRIPE_WEBHOOK_SECRET, t, raw.as_bytes())).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_payload"));
    }
);

each_backend!(
    async fn events_of_strangers_and_unknown_types_are_acknowledged(backend) {
        let b = spawn_billing(backend).await;
        let token = b.user("ana@example.com").await;
        for event in [
            json!({"id": "evt_x1", "type": "customer.created", "data": {"object": {"id": "cus_nobody"}}}),
            json!({"id": "evt_x2", "type": "customer.subscription.updated", "data": {"object": {"id": "sub_nobody"}}}),
            json!({"id": "evt_x3", "type": "checkout.session.completed", "data": {"object": {"id": "cs_nobody"}}}),
        ] {
            let (status, v) = b.deliver(&event).await;
            assert_eq!(status, StatusCode::OK, "{v}");
        }
        assert_eq!(b.plan(&token).await["plan_type"], "free");
        let recorded = b.app.state.store.webhook_events(10).await.unwrap();
        assert!(recorded.iter().all(|e| e.processed_at.is_some()), "{recorded:?}");
    }
);

each_backend!(
    async fn the_portal_needs_a_customer_and_a_return_url_of_ours(backend) {
        let b = spawn_billing(backend).await;
        let token = b.user("ana@example.com").await;
        let (status, v) = body(b.app.post_auth("/api/billing/portal", &token, json!({})).await).await;
        assert_eq!((status, error_code(&v)), (StatusCode::NOT_FOUND, "no_customer"));
        assert_eq!(error_message(&v), "No billing account yet. Start a subscription first.");
        b.checkout(&token).await;
        let (status, v) = body(b.app.post_auth("/api/billing/portal", &token, json!({"return_url": "https://evil.example/"})).await).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_redirect_url"));
        // No body at all is the default return address.
        let resp = b.app.client.post(b.app.url("/api/billing/portal")).bearer_auth(&token).send().await.unwrap();
        let (status, v) = body(resp).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (status, _) = body(b.app.client.post(b.app.url("/api/billing/portal")).send().await.unwrap()).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
);

each_backend!(
    async fn deleting_the_account_cancels_the_subscription(backend) {
        let b = spawn_billing(backend).await;
        let token = b.subscribed_user("ana@example.com").await;
        let sub_id = b.plan(&token).await["stripe_subscription_id"].as_str().unwrap().to_owned();
        let resp = b.app.client.delete(b.app.url("/api/account")).bearer_auth(&token)
            .json(&json!({"password": PASSWORD})).send().await.unwrap();
        let (status, v) = body(resp).await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{v}");
        let sub = b.mock.object(&sub_id).unwrap();
        assert_eq!(sub["status"], "canceled");
        // The deleted user's last events are acknowledged and grant nothing.
        b.wait_for_deliveries().await;
    }
);

// ---- Stripe failing: wiremock stands in for it ----

mod faults {
    use super::*;
    use wiremock::matchers::{method, path, path_regex};
    use wiremock::{Mock, MockServer, ResponseTemplate};

    async fn app_against(backend: Backend, server: &MockServer, timeout_secs: u64) -> TestApp {
        let uri = server.uri();
        spawn_app_with(backend, move |s| {
            s.stripe.api_base = uri;
            s.stripe.timeout = Duration::from_secs(timeout_secs);
        })
        .await
    }

    async fn user_id(app: &TestApp, token: &str) -> String {
        let (_, me) = body(app.get_auth("/api/auth/user", token).await).await;
        me["user"]["id"].as_str().unwrap().to_owned()
    }

    /// Checkout fails with the spec's message, quickly, and leaves nothing behind.
    async fn assert_checkout_fails(app: &TestApp, token: &str, within: Duration) {
        let started = Instant::now();
        let (status, v) = body(app.post_auth("/api/checkout", token, checkout_body()).await).await;
        let took = started.elapsed();
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_GATEWAY, "checkout_failed"),
            "{v}"
        );
        assert_eq!(error_message(&v), "Failed to create checkout session");
        assert!(took < within, "took {took:?}");
        let (_, plan) = body(app.get_auth("/api/plan", token).await).await;
        assert_eq!(plan["plan_type"], "free");
        let (_, sub) = body(app.get_auth("/api/subscription", token).await).await;
        assert!(sub["subscription"].is_null());
    }

    each_backend!(
        async fn stripe_errors_and_garbage_fail_the_checkout_cleanly(backend) {
            let server = MockServer::start().await;
            let app = app_against(backend, &server, 2).await;
            let token = access(&app.signed_in_user("ana@example.com", PASSWORD).await);
            let uid = user_id(&app, &token).await;

            Mock::given(method("POST")).and(path("/v1/customers"))
                .respond_with(ResponseTemplate::new(500).set_body_json(json!({"error": {"type": "api_error", "message": "boom"}})))
                .up_to_n_times(1).mount(&server).await;
            assert_checkout_fails(&app, &token, Duration::from_secs(2)).await;
            Mock::given(method("POST")).and(path("/v1/customers"))
                .respond_with(ResponseTemplate::new(200).set_body_string("<html>not json</html>"))
                .up_to_n_times(1).mount(&server).await;
            assert_checkout_fails(&app, &token, Duration::from_secs(2)).await;
            Mock::given(method("POST")).and(path("/v1/customers"))
                .respond_with(ResponseTemplate::new(200).set_body_json(json!({"id": 42})))
                .mount(&server).await;
            assert_checkout_fails(&app, &token, Duration::from_secs(2)).await;
            assert!(app.state.store.stripe_customer_of(uid.parse().unwrap()).await.unwrap().is_none(), "no customer remembered");

            // A known customer, and the session creation fails: still nothing half-made.
            app.execute(
                "INSERT INTO stripe_customers (user_id, customer_id, created_at) \
                 SELECT id, 'cus_known', created_at FROM users WHERE email = 'ana@example.com'",
            )
            .await;
            Mock::given(method("POST")).and(path("/v1/checkout/sessions"))
                .respond_with(ResponseTemplate::new(502).set_body_string("bad gateway"))
                .up_to_n_times(1).mount(&server).await;
            assert_checkout_fails(&app, &token, Duration::from_secs(2)).await;
            Mock::given(method("POST")).and(path("/v1/checkout/sessions"))
                .respond_with(ResponseTemplate::new(200).set_body_json(json!({"object": "checkout.session"})))
                .mount(&server).await;
            assert_checkout_fails(&app, &token, Duration::from_secs(2)).await;
        }
    );

    each_backend!(
        async fn a_hanging_stripe_fails_the_checkout_after_the_timeout(backend) {
            let server = MockServer::start().await;
            Mock::given(method("POST")).and(path_regex("^/v1/.*"))
                .respond_with(ResponseTemplate::new(200).set_delay(Duration::from_secs(3)))
                .mount(&server).await;
            let app = app_against(backend, &server, 1).await;
            let token = access(&app.signed_in_user("ana@example.com", PASSWORD).await);
            assert_checkout_fails(&app, &token, Duration::from_secs(3)).await;
            let uid = user_id(&app, &token).await;
            assert!(app.state.store.stripe_customer_of(uid.parse().unwrap()).await.unwrap().is_none());
        }
    );

    each_backend!(
        async fn an_account_with_a_live_subscription_is_kept_when_stripe_cannot_cancel_it(backend) {
            let server = MockServer::start().await;
            Mock::given(method("DELETE"))
                .and(path("/v1/subscriptions/sub_live"))
                .respond_with(ResponseTemplate::new(503).set_body_string("down"))
                .mount(&server)
                .await;
            let app = app_against(backend, &server, 1).await;
            let token = access(&app.signed_in_user("ana@example.com", PASSWORD).await);
            let uid: uuid::Uuid = user_id(&app, &token).await.parse().unwrap();
            let record = closewise_core::store::SubscriptionRecord {
                customer_id: "cus_live".into(),
                subscription_id: "sub_live".into(),
                price_id: Some(PRICE.into()),
                status: closewise_domain::subscription::SubscriptionStatus::Active,
                cancel_at_period_end: false,
                current_period_end: Some(2_000_000_000),
                payment_method_brand: Some("visa".into()),
                payment_method_last4: Some("4242".into()),
            };
            app.state
                .store
                .apply_subscription(uid, &record, app.state.clock.now())
                .await
                .unwrap();
            let resp = app
                .client
                .delete(app.url("/api/account"))
                .bearer_auth(&token)
                .json(&json!({ "password": PASSWORD }))
                .send()
                .await
                .unwrap();
            let (status, v) = body(resp).await;
            assert_eq!((status, error_code(&v)), (StatusCode::BAD_GATEWAY, "stripe_unavailable"));
            assert_eq!(
                app.signin("ana@example.com", PASSWORD).await.status(),
                StatusCode::OK,
                "the account is kept"
            );
            let (_, plan) = body(app.get_auth("/api/plan", &token).await).await;
            assert_eq!(plan["plan_type"], "monthly");
        }
    );

    each_backend!(
        async fn an_older_answer_from_stripe_never_overwrites_a_newer_one(backend) {
            // Real Stripe objects, from stripe-mock: a paid session and its subscription.
            let (addr, mock) = stripe_mock::spawn(stripe_mock::Config::default()).await.unwrap();
            let mock_url = format!("http://{addr}");
            let server = MockServer::start().await;
            let app = app_against(backend, &server, 3).await;
            let token = access(&app.signed_in_user("ana@example.com", PASSWORD).await);
            let uid = user_id(&app, &token).await;
            let http = reqwest::Client::new();
            let post = |path: String, form: Vec<(&'static str, String)>| {
                http.post(format!("{mock_url}{path}"))
                    .bearer_auth(DEV_STRIPE_SECRET_KEY)
                    .form(&form)
                    .send()
            };
            let get = |path: String| {
                http.get(format!("{mock_url}{path}"))
                    .bearer_auth(DEV_STRIPE_SECRET_KEY)
                    .send()
            };
            let customer: Value = post("/v1/customers".into(), vec![("email", "ana@example.com".into())])
                .await.unwrap().json().await.unwrap();
            let cus = customer["id"].as_str().unwrap().to_owned();
            let session: Value = post("/v1/checkout/sessions".into(), vec![
                ("mode", "subscription".into()),
                ("customer", cus.clone()),
                ("line_items[0][price]", PRICE.into()),
                ("line_items[0][quantity]", "1".into()),
                ("success_url", format!("{BASE}/success")),
                ("metadata[user_id]", uid.clone()),
                ("client_reference_id", uid.clone()),
            ]).await.unwrap().json().await.unwrap();
            let cs = session["id"].as_str().unwrap().to_owned();
            mock.pay(&cs, CARD_OK).unwrap();
            let stale: Value = get(format!(
                "/v1/checkout/sessions/{cs}?expand[]=subscription&expand[]=subscription.default_payment_method"
            )).await.unwrap().json().await.unwrap();
            let sub = stale["subscription"]["id"].as_str().unwrap().to_owned();
            let mut fresh: Value = get(format!("/v1/subscriptions/{sub}?expand[]=default_payment_method"))
                .await.unwrap().json().await.unwrap();
            fresh["cancel_at_period_end"] = json!(true);
            app.state
                .store
                .save_stripe_customer(uid.parse().unwrap(), &cus, app.state.clock.now())
                .await
                .unwrap();

            // The confirm call reads first but slowly (the session, before the cancel); the
            // webhook reads later and fast (after the cancel).
            Mock::given(method("GET")).and(path(format!("/v1/checkout/sessions/{cs}")))
                .respond_with(ResponseTemplate::new(200).set_body_json(&stale).set_delay(Duration::from_millis(1200)))
                .mount(&server).await;
            Mock::given(method("GET")).and(path(format!("/v1/subscriptions/{sub}")))
                .respond_with(ResponseTemplate::new(200).set_body_json(&fresh))
                .mount(&server).await;
            let event = json!({"id": "evt_cancel", "type": "customer.subscription.updated",
                "data": {"object": {"id": sub, "customer": cus}}});
            let raw = event.to_string();
            let t = app.state.clock.now().unix_timestamp();
            let confirm = app.post_auth("/api/checkout/confirm", &token, json!({ "session_id": cs }));
            let webhook = async {
                tokio::time::sleep(Duration::from_millis(300)).await;
                app.client.post(app.url("/api/stripe/webhook"))
                    .header("stripe-signature", sign(DEV_STRIPE_WEBHOOK_SECRET, t, raw.as_bytes()))
                    .body(raw.clone()).send().await.unwrap()
            };
            let (confirmed, hooked) = tokio::join!(confirm, webhook);
            assert_eq!(confirmed.status(), StatusCode::OK);
            assert_eq!(hooked.status(), StatusCode::OK);
            let (_, v) = body(app.get_auth("/api/subscription", &token).await).await;
            assert_eq!(v["subscription"]["cancel_at_period_end"], true, "{v}");
            let (_, plan) = body(app.get_auth("/api/plan", &token).await).await;
            assert_eq!(plan["plan_type"], "monthly");
        }
    );

    each_backend!(
        async fn confirm_and_webhook_say_stripe_is_unavailable(backend) {
            let server = MockServer::start().await;
            Mock::given(method("GET")).and(path_regex("^/v1/.*"))
                .respond_with(ResponseTemplate::new(500).set_body_json(json!({"error": {"type": "api_error"}})))
                .mount(&server).await;
            let app = app_against(backend, &server, 1).await;
            let token = access(&app.signed_in_user("ana@example.com", PASSWORD).await);
            let started = Instant::now();
            let (status, v) = body(app.post_auth("/api/checkout/confirm", &token, json!({"session_id": "cs_test_x"})).await).await;
            assert_eq!((status, error_code(&v)), (StatusCode::BAD_GATEWAY, "stripe_unavailable"));
            assert_eq!(error_message(&v), "Plan activation failed, but you can contact support.");
            assert!(started.elapsed() < Duration::from_secs(2));

            // A webhook whose subject cannot be read back is not lost: Stripe is asked to retry.
            let raw = json!({"id": "evt_1", "type": "customer.subscription.updated", "data": {"object": {"id": "sub_1"}}}).to_string();
            let t = app.state.clock.now().unix_timestamp();
            let resp = app.client.post(app.url("/api/stripe/webhook"))
                .header("stripe-signature", sign(DEV_STRIPE_WEBHOOK_SECRET, t, raw.as_bytes()))
                .body(raw).send().await.unwrap();
            assert_eq!(resp.status(), StatusCode::SERVICE_UNAVAILABLE);
            let recorded = app.state.store.webhook_events(10).await.unwrap();
            assert_eq!(recorded.len(), 1);
            assert!(recorded[0].processed_at.is_none());
            assert!(recorded[0].error.as_deref().unwrap_or("").contains("unavailable"), "{recorded:?}");
        }
    );
}
