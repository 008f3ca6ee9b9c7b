//! Checkout load for the kill test: users who sign up, start a checkout and pay on stripe-mock's
//! hosted page, all through the proxy, with Stripe's webhooks going to the proxy too. A payment
//! is acknowledged when the hosted page answers 303 (Stripe took the money): from then on the
//! plan must turn monthly, once, whichever replica the webhook reaches and whatever is killed.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{json, Value};
use sqlx::Connection;

use crate::checkout_body;
use crate::cluster::Cluster;
use crate::support::{bounded, scalar};

#[derive(Clone)]
struct Front {
    client: reqwest::Client,
    base: String,
    database_url: String,
}

impl Front {
    async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Option<Value> {
        let mut req = self.client.post(format!("{}{path}", self.base)).json(&body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let res = req.timeout(Duration::from_secs(10)).send().await.ok()?;
        if res.status() != StatusCode::OK {
            return None;
        }
        res.json().await.ok()
    }

    /// Signs up, verifies, signs in, checks out and pays; `Some` once the payment is taken.
    async fn subscribe(&self, email: &str) -> Option<()> {
        let creds = json!({ "email": email, "password": "Closewise-replicas-7f3" });
        self.post("/api/auth/signup", None, creds.clone()).await?;
        let mut db = sqlx::PgConnection::connect(&self.database_url).await.ok()?;
        sqlx::query("UPDATE users SET email_confirmed_at = now() WHERE email = $1")
            .bind(email)
            .execute(&mut db)
            .await
            .ok()?;
        let session = self
            .post("/api/auth/token?grant_type=password", None, creds)
            .await?;
        let token = session["access_token"].as_str()?.to_owned();
        let checkout = self
            .post("/api/checkout", Some(&token), checkout_body())
            .await?;
        let url = checkout["url"].as_str()?.to_owned();
        let paid = self
            .client
            .post(&url)
            .form(&[
                ("email", "buyer@example.com"),
                ("cardnumber", "4242 4242 4242 4242"),
                ("exp", "12 / 34"),
                ("cvc", "123"),
                ("name", "Ana Buyer"),
            ])
            .send()
            .await
            .ok()?;
        (paid.status() == StatusCode::SEE_OTHER).then_some(())
    }
}

/// Two clients paying in a loop until `stop`; the e-mails whose payment was taken.
pub fn checkout_load(
    c: &Cluster,
    stop: Arc<AtomicBool>,
    paid: Arc<Mutex<Vec<String>>>,
) -> Vec<tokio::task::JoinHandle<()>> {
    c.mock.set_webhook_url(Some(c.url("/api/stripe/webhook")));
    let front = Front {
        client: c.client.clone(),
        base: c.url(""),
        database_url: c.database_url.clone(),
    };
    (0..2)
        .map(|worker| {
            let (front, stop, paid) = (front.clone(), stop.clone(), paid.clone());
            tokio::spawn(async move {
                let mut i = 0;
                while !stop.load(Ordering::Relaxed) {
                    let email = format!("payer{worker}-{i}@example.com");
                    i += 1;
                    if front.subscribe(&email).await.is_some() {
                        paid.lock().unwrap().push(email);
                    }
                }
            })
        })
        .collect()
}

/// Every taken payment ends as a monthly plan (Stripe retries webhooks that hit the killed
/// replica), and no plan was activated twice across both replicas' logs.
pub async fn assert_every_payment_activated_once(c: &Cluster, paid: &[String]) {
    assert!(!paid.is_empty(), "payments were taken under the load");
    let list = paid
        .iter()
        .map(|e| format!("'{e}'"))
        .collect::<Vec<_>>()
        .join(", ");
    let sql = format!(
        "SELECT COUNT(*) FROM user_plans p JOIN users u ON u.id = p.user_id \
         WHERE p.plan_type = 'monthly' AND u.email IN ({list})"
    );
    bounded(30, "every taken payment to activate its plan", async {
        while (scalar(&c.database_url, &sql).await as usize) < paid.len() {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await;
    let mut changes: HashMap<String, usize> = HashMap::new();
    for i in 0..2 {
        for line in c.log(i).lines().filter(|l| l.contains("plan changed")) {
            if let Some(at) = line.find("user_id=") {
                let id: String = line[at + 8..].chars().take(36).collect();
                *changes.entry(id).or_default() += 1;
            }
        }
    }
    let twice: Vec<_> = changes.iter().filter(|(_, n)| **n > 1).collect();
    assert!(twice.is_empty(), "activated more than once: {twice:?}");
}
