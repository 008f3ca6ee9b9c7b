//! `teams streams list` and `teams streams deliveries`: an operator sees a team's event streams
//! (never a secret or token) and one stream's last deliveries.

use closewise_core::clock::Clock;
use closewise_core::mfa::SecretBox;
use closewise_core::store::streams::DeliveryRow;
use closewise_core::streams::{StreamInput, Streams};
use closewise_core::teams::Teams;
use closewise_domain::sso::ProviderReach;
use closewise_testkit::both;
use time::Duration;
use uuid::Uuid;

use crate::helpers::{stderr, TestDb};

/// Ana's team "Contoso" with an https stream (one delivery logged) and a Datadog one: their ids.
async fn contoso(db: &TestDb) -> (Uuid, Uuid) {
    let store = db.store().await;
    let ana = store
        .user_by_email("ana@example.com")
        .await
        .unwrap()
        .unwrap()
        .id;
    let owner = closewise_core::actor::Actor::member(ana, "ana@example.com");
    let mail = closewise_core::mail::Composer::new("http://localhost");
    Teams::new(
        store.clone(),
        Clock::System,
        mail.clone(),
        closewise_core::limits::unlimited(),
    )
    .create(&owner, "Contoso")
    .await
    .unwrap();
    let streams = Streams::new(
        store.clone(),
        Clock::System,
        mail,
        SecretBox::new(&[3; 32]),
        ProviderReach::Local,
    );
    let add = |kind: &str, url: &str, token: Option<&str>| StreamInput {
        kind: kind.into(),
        url: url.into(),
        token: token.map(String::from),
        events: Some(vec!["audit".into()]),
    };
    let https = streams
        .create(&owner, &add("https", "http://127.0.0.1:9/hooks", None))
        .await
        .unwrap();
    let datadog = streams
        .create(
            &owner,
            &add(
                "datadog",
                "https://http-intake.logs.datadoghq.com/api/v2/logs",
                Some("dd-key-secret"),
            ),
        )
        .await
        .unwrap();
    let now = Clock::System.now();
    let until = now + Duration::minutes(1);
    store
        .lease_stream(https.stream.id, "cli-test", now, until)
        .await
        .unwrap()
        .unwrap();
    let delivery = DeliveryRow {
        id: Uuid::now_v7(),
        stream_id: https.stream.id,
        attempted_at: now,
        events: 1,
        first_seq: 1,
        last_seq: 1,
        status: "delivered".into(),
        response_code: Some(200),
        latency_ms: 12,
        error: None,
        next_retry_at: None,
    };
    assert!(store
        .stream_delivered("cli-test", &delivery, until)
        .await
        .unwrap());
    store.close().await;
    (https.stream.id, datadog.stream.id)
}

both!(
    async fn streams_list_and_deliveries_show_the_teams_streams_without_secrets(db: TestDb) from TestDb::new {
        let db = db.seeded().await;
        let (https, datadog) = contoso(&db).await;
        let v = db.json(&["teams", "streams", "list", "Contoso"]).await;
        assert_eq!(v["team"], "Contoso");
        let streams = v["streams"].as_array().unwrap();
        assert_eq!(streams.len(), 2, "{v}");
        assert_eq!((streams[0]["id"].as_str(), streams[0]["kind"].as_str()), (Some(https.to_string().as_str()), Some("https")));
        assert_eq!(streams[0]["url"], "http://127.0.0.1:9/hooks");
        assert_eq!(streams[0]["status"], "active");
        assert_eq!(streams[0]["events"], serde_json::json!(["audit"]));
        assert_eq!((streams[1]["id"].as_str(), streams[1]["kind"].as_str()), (Some(datadog.to_string().as_str()), Some("datadog")));
        assert!(!v.to_string().contains("whsec_") && !v.to_string().contains("dd-key-secret"), "{v}");

        let text = db.ok(&["teams", "streams", "list", "Contoso"]).await;
        assert!(text.contains("http://127.0.0.1:9/hooks") && text.contains("datadog"), "{text}");

        let v = db.json(&["teams", "streams", "deliveries", "Contoso", &https.to_string()]).await;
        let deliveries = v["deliveries"].as_array().unwrap();
        assert_eq!(deliveries.len(), 1, "{v}");
        assert_eq!((deliveries[0]["status"].as_str(), deliveries[0]["response_code"].as_i64()), (Some("delivered"), Some(200)));
        assert_eq!(deliveries[0]["latency_ms"], 12);
        let text = db.ok(&["teams", "streams", "deliveries", "Contoso", &https.to_string()]).await;
        assert!(text.contains("delivered") && text.contains("200"), "{text}");

        let missing = db.run(&["teams", "streams", "deliveries", "Contoso", &Uuid::now_v7().to_string()]).await;
        assert_ne!(missing.status.code(), Some(0));
        assert!(stderr(&missing).contains("no such event stream"), "{}", stderr(&missing));
    }
);
