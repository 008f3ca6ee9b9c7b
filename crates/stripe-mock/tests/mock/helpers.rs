use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::Router;
use serde_json::Value;
use stripe_mock::{Config, MockHandle, DEFAULT_SECRET_KEY};

pub const KEY: &str = DEFAULT_SECRET_KEY;

pub struct TestMock {
    pub handle: MockHandle,
    pub base: String,
    pub http: reqwest::Client,
}

pub fn fast_config() -> Config {
    Config {
        webhook_retry_delays: [20, 40, 80, 160, 320]
            .into_iter()
            .map(Duration::from_millis)
            .collect(),
        webhook_timeout: Duration::from_secs(2),
        ..Config::default()
    }
}

pub async fn spawn_mock() -> TestMock {
    spawn_with(fast_config()).await
}

pub async fn spawn_with(config: Config) -> TestMock {
    let (addr, handle) = stripe_mock::spawn(config).await.expect("mock starts");
    TestMock {
        handle,
        base: format!("http://{addr}"),
        http: reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap(),
    }
}

pub type Form<'a> = &'a [(&'a str, &'a str)];

impl TestMock {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub async fn post(&self, path: &str, form: Form<'_>) -> (StatusCode, Value) {
        let resp = self
            .http
            .post(self.url(path))
            .bearer_auth(KEY)
            .form(form)
            .send()
            .await
            .unwrap();
        json_of(resp).await
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        let resp = self
            .http
            .get(self.url(path))
            .bearer_auth(KEY)
            .send()
            .await
            .unwrap();
        json_of(resp).await
    }

    pub async fn delete(&self, path: &str) -> (StatusCode, Value) {
        let resp = self
            .http
            .delete(self.url(path))
            .bearer_auth(KEY)
            .send()
            .await
            .unwrap();
        json_of(resp).await
    }

    pub async fn create_customer(&self, email: &str) -> String {
        let (status, body) = self.post("/v1/customers", &[("email", email)]).await;
        assert_eq!(status, 200, "{body}");
        body["id"].as_str().unwrap().to_owned()
    }

    /// A subscription-mode session for the seeded price, optionally for a customer.
    pub async fn create_session(&self, customer: Option<&str>) -> Value {
        let mut form = vec![
            ("mode", "subscription"),
            ("line_items[0][price]", "price_closewise_monthly"),
            ("line_items[0][quantity]", "1"),
            (
                "success_url",
                "http://app.test/success?session_id={CHECKOUT_SESSION_ID}",
            ),
            ("cancel_url", "http://app.test/pricing"),
            ("metadata[user_id]", "user-42"),
            ("client_reference_id", "user-42"),
        ];
        if let Some(c) = customer {
            form.push(("customer", c));
        } else {
            form.push(("customer_email", "buyer@example.com"));
        }
        let (status, body) = self.post("/v1/checkout/sessions", &form).await;
        assert_eq!(status, 200, "{body}");
        body
    }

    /// POSTs the hosted checkout form.
    pub async fn submit_checkout(&self, session_id: &str, fields: Form<'_>) -> reqwest::Response {
        self.http
            .post(self.url(&format!("/c/pay/{session_id}")))
            .form(fields)
            .send()
            .await
            .unwrap()
    }

    /// Pays with a card through the hosted form; returns the redirect location.
    pub async fn pay(&self, session_id: &str, card: &str) -> String {
        let resp = self
            .submit_checkout(
                session_id,
                &[
                    ("email", "buyer@example.com"),
                    ("cardnumber", card),
                    ("exp", "12 / 34"),
                    ("cvc", "123"),
                    ("name", "Ada Buyer"),
                ],
            )
            .await;
        assert_eq!(resp.status(), 303, "{}", resp.text().await.unwrap());
        resp.headers()["location"].to_str().unwrap().to_owned()
    }

    /// Customer, session and a paid subscription; returns (customer, session id, subscription id).
    pub async fn subscribed(&self) -> (String, String, String) {
        let customer = self.create_customer("buyer@example.com").await;
        let session = self.create_session(Some(&customer)).await;
        let id = session["id"].as_str().unwrap().to_owned();
        self.pay(&id, "4242 4242 4242 4242").await;
        let (_, s) = self.get(&format!("/v1/checkout/sessions/{id}")).await;
        let sub = s["subscription"].as_str().unwrap().to_owned();
        (customer, id, sub)
    }

    pub fn event_types(&self) -> Vec<String> {
        self.handle
            .events()
            .iter()
            .map(|e| e["type"].as_str().unwrap().to_owned())
            .collect()
    }
}

pub async fn json_of(resp: reqwest::Response) -> (StatusCode, Value) {
    let status = StatusCode::from_u16(resp.status().as_u16()).unwrap();
    let text = resp.text().await.unwrap();
    let value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}"));
    (status, value)
}

/// The text inside the page's `role="alert"`, unescaped.
pub fn alert(html: &str) -> Option<String> {
    let start = html.find("<div role=\"alert\">")? + "<div role=\"alert\">".len();
    let end = html[start..].find("</div>")? + start;
    Some(html[start..end].replace("&#39;", "'").replace("&amp;", "&"))
}

/// A webhook endpoint that records what it receives and fails the first `fail_first` calls.
#[derive(Clone, Default)]
pub struct Receiver {
    pub received: Arc<Mutex<Vec<(HeaderMap, String)>>>,
    pub calls: Arc<Mutex<u32>>,
    pub fail_first: u32,
}

impl Receiver {
    pub async fn start(fail_first: u32) -> (Receiver, String) {
        let receiver = Receiver {
            fail_first,
            ..Default::default()
        };
        let r = receiver.clone();
        let app = Router::new().route(
            "/hook",
            post(move |headers: HeaderMap, body: String| {
                let r = r.clone();
                async move {
                    let n = {
                        let mut calls = r.calls.lock().unwrap();
                        *calls += 1;
                        *calls
                    };
                    if n <= r.fail_first {
                        return StatusCode::INTERNAL_SERVER_ERROR;
                    }
                    r.received.lock().unwrap().push((headers, body));
                    StatusCode::OK
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        (receiver, format!("http://{addr}/hook"))
    }

    pub fn bodies(&self) -> Vec<Value> {
        self.received
            .lock()
            .unwrap()
            .iter()
            .map(|(_, b)| serde_json::from_str(b).unwrap())
            .collect()
    }

    /// Waits until `n` events arrived (or panics after 5 s).
    pub async fn wait_for(&self, n: usize) -> Vec<Value> {
        for _ in 0..250 {
            if self.received.lock().unwrap().len() >= n {
                return self.bodies();
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!(
            "expected {n} webhooks, got {:?}",
            self.bodies()
                .iter()
                .map(|b| b["type"].clone())
                .collect::<Vec<_>>()
        );
    }
}
