//! The API down while Stripe sends webhooks: stripe-mock retries with back-off, and once the API
//! is back the retried event is processed — the plan turns monthly without the success page.

use std::time::Duration;

use closewise_api::config::{DEV_STRIPE_SECRET_KEY, DEV_STRIPE_WEBHOOK_SECRET};
use closewise_api::{Application, BuildOptions};
use closewise_core::clock::Clock;
use closewise_core::password::Hasher;
use closewise_core::sessions::tokens::Keys;
use reqwest::StatusCode;
use serde_json::json;

use crate::both;
use crate::helpers::{body, spawn_app_with, test_settings, Backend};
use crate::support::{bounded, free_port, own_loopback};

both!(
    async fn webhooks_sent_while_the_api_is_down_are_processed_when_it_returns(backend: Backend) {
        let config = stripe_mock::Config {
            secret_key: DEV_STRIPE_SECRET_KEY.into(),
            webhook_secret: DEV_STRIPE_WEBHOOK_SECRET.into(),
            webhook_retry_delays: [300, 600, 1200, 2400, 4800, 9600]
                .into_iter()
                .map(Duration::from_millis)
                .collect(),
            webhook_timeout: Duration::from_secs(5),
            ..stripe_mock::Config::default()
        };
        let (mock_addr, mock) = stripe_mock::spawn(config)
            .await
            .expect("stripe-mock starts");
        let mock_url = format!("http://{mock_addr}");
        let api_base = mock_url.clone();
        let app = spawn_app_with(backend, move |s| s.stripe.api_base = api_base).await;

        // Webhooks go to a port where no API listens yet.
        let port = free_port();
        mock.set_webhook_url(Some(format!(
            "http://{}:{port}/api/stripe/webhook",
            own_loopback()
        )));

        let session = app
            .signed_in_user("ana@example.com", "sales-pro-2026")
            .await;
        let token = session["access_token"].as_str().unwrap();
        let (status, v) = body(
            app.post_auth(
                "/api/checkout",
                token,
                json!({
                    "price_id": "price_closewise_monthly",
                    "mode": "subscription",
                    "success_url": "http://127.0.0.1:8080/success?session_id={CHECKOUT_SESSION_ID}",
                    "cancel_url": "http://127.0.0.1:8080/pricing",
                }),
            )
            .await,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let pay = app
            .client
            .post(v["url"].as_str().unwrap())
            .form(&[
                ("email", "ana@example.com"),
                ("cardnumber", "4242 4242 4242 4242"),
                ("exp", "12 / 34"),
                ("cvc", "123"),
                ("name", "Ana"),
            ])
            .send()
            .await
            .unwrap();
        assert!(
            pay.status().is_redirection(),
            "payment accepted: {}",
            pay.status()
        );

        // Deliveries fail while the API is away; the plan stays free.
        bounded(20, "a failed delivery", async {
            while !mock.deliveries().iter().any(|d| d.status.is_none()) {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        })
        .await;
        let plan = body(app.get_auth("/api/plan", token).await).await.1;
        assert_eq!(plan["plan_type"], "free");

        // The API comes back on the webhook port, on the same database.
        let mut settings = test_settings(
            std::path::Path::new(&std::env::temp_dir()),
            app.database_url.clone(),
        );
        settings.addr = (own_loopback(), port).into();
        settings.stripe.api_base = mock_url.clone();
        settings.data_dir =
            std::env::temp_dir().join(format!("closewise-returning-{}", uuid::Uuid::now_v7()));
        let returning = Application::build_with(
            settings,
            BuildOptions {
                clock: Clock::System,
                hasher: Hasher::fast_for_tests(),
                keys: Some(Keys::generate("http://127.0.0.1:8080").unwrap()),
            },
        )
        .await
        .expect("the API starts again");
        tokio::spawn(returning.run());

        bounded(40, "the retried webhook to activate the plan", async {
            loop {
                let plan = body(app.get_auth("/api/plan", token).await).await.1;
                if plan["plan_type"] == "monthly" {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        })
        .await;
        assert!(
            mock.deliveries().iter().any(|d| d.status == Some(200)),
            "a retry was delivered"
        );
        let (_, sub) = body(app.get_auth("/api/subscription", token).await).await;
        assert_eq!(sub["subscription"]["subscription_status"], "active");
    }
);
