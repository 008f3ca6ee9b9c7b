//! Event streams over HTTP on both databases (docs/api.md "Event streams"): the owner adds one
//! (its secret answered once), lists it, sends a test event the worker delivers (a delivery with
//! its status, code and latency), rotates the secret, replays, retries and removes it; the URL
//! policy answers `422 invalid_stream_url`; everyone but the owner is refused.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::*;
use crate::both;

/// A destination answering 204 to anything, on a free loopback port.
async fn sink() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut buf = vec![0u8; 1 << 16];
                let mut seen = Vec::new();
                // Read the head and the body its content-length names, then answer.
                loop {
                    let Ok(n) = socket.read(&mut buf).await else {
                        return;
                    };
                    if n == 0 {
                        return;
                    }
                    seen.extend_from_slice(&buf[..n]);
                    let text = String::from_utf8_lossy(&seen).to_string();
                    if let Some(end) = text.find("\r\n\r\n") {
                        let len = text[..end]
                            .lines()
                            .find_map(|l| {
                                l.to_ascii_lowercase()
                                    .strip_prefix("content-length:")
                                    .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                            })
                            .unwrap_or(0);
                        if seen.len() >= end + 4 + len {
                            break;
                        }
                    }
                }
                let _ = socket
                    .write_all(b"HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n")
                    .await;
            });
        }
    });
    format!("http://127.0.0.1:{port}/hook")
}

both!(
    async fn the_owner_adds_tests_rotates_replays_and_removes_a_stream(app) {
        let crew = crew(&app, "streams").await;
        let owner = &crew.owner;
        let url = sink().await;
        let (status, created) = call(&app, Method::POST, "/api/team/streams", Some(&owner.token),
            Some(json!({ "kind": "https", "url": url, "events": ["audit", "member.added"] }))).await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        assert!(created["secret"].as_str().unwrap().starts_with("whsec_"));
        assert_eq!(created["events"], json!(["audit", "member.added"]));
        let id = created["id"].as_str().unwrap().to_owned();

        let (status, list) = call(&app, Method::GET, "/api/team/streams", Some(&owner.token), None).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(list["streams"][0]["id"], id.as_str());
        assert!(list["streams"][0].get("secret").is_none(), "never listed: {list}");

        let (status, sent) = call(&app, Method::POST, &format!("/api/team/streams/{id}/test"), Some(&owner.token), None).await;
        assert_eq!(status, StatusCode::ACCEPTED, "{sent}");
        // The worker delivers it (and the stream's own creation) within its interval.
        let mut deliveries = Value::Null;
        for _ in 0..100 {
            let (_, d) = call(&app, Method::GET, &format!("/api/team/streams/{id}/deliveries"), Some(&owner.token), None).await;
            if d["deliveries"].as_array().is_some_and(|a| !a.is_empty()) {
                deliveries = d;
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let first = &deliveries["deliveries"][0];
        assert_eq!(first["status"], "delivered", "{deliveries}");
        assert_eq!(first["response_code"], 204);
        assert!(first["latency_ms"].is_i64());

        let (status, rotated) = call(&app, Method::POST, &format!("/api/team/streams/{id}/secret"), Some(&owner.token), None).await;
        assert_eq!(status, StatusCode::OK, "{rotated}");
        assert_ne!(rotated["secret"], created["secret"]);

        let (status, replayed) = call(&app, Method::POST, &format!("/api/team/streams/{id}/replay"), Some(&owner.token), Some(json!({ "since": "2020-01-01" }))).await;
        assert_eq!(status, StatusCode::ACCEPTED, "{replayed}");
        assert!(replayed["events"].as_i64().unwrap() >= 2);
        let (status, bad) = call(&app, Method::POST, &format!("/api/team/streams/{id}/replay"), Some(&owner.token), Some(json!({ "since": "soon" }))).await;
        assert_refused((status, bad), StatusCode::UNPROCESSABLE_ENTITY, "invalid_since", "since");

        let (status, retried) = call(&app, Method::POST, &format!("/api/team/streams/{id}/retry"), Some(&owner.token), None).await;
        assert_eq!(status, StatusCode::OK, "{retried}");
        assert_eq!(retried["id"], id.as_str());

        let (status, _) = call(&app, Method::DELETE, &format!("/api/team/streams/{id}"), Some(&owner.token), None).await;
        assert_eq!(status, StatusCode::NO_CONTENT);
        let got = call(&app, Method::DELETE, &format!("/api/team/streams/{id}"), Some(&owner.token), None).await;
        assert_refused(got, StatusCode::NOT_FOUND, "stream_not_found", "deleted");
        let actions = audit_actions(&app).await;
        for action in ["team.stream_create", "team.stream_secret_rotate", "team.stream_replay", "team.stream_retry", "team.stream_delete"] {
            assert!(actions.iter().any(|a| a == action), "{action} audited: {actions:?}");
        }
    }
);

both!(
    async fn bad_destinations_and_other_roles_are_refused(app) {
        let crew = crew(&app, "streams-refused").await;
        let owner = &crew.owner;
        for (body, code) in [
            (json!({ "kind": "https", "url": "http://siem.example.com/hook" }), "invalid_stream_url"),
            (json!({ "kind": "https", "url": "ftp://siem.example.com/" }), "invalid_stream_url"),
            (json!({ "kind": "kafka", "url": "https://siem.example.com/" }), "invalid_stream_kind"),
            (json!({ "kind": "datadog", "url": "https://http-intake.logs.datadoghq.com/api/v2/logs" }), "stream_token_required"),
            (json!({ "kind": "https", "url": "https://siem.example.com/", "events": ["user.created"] }), "invalid_stream_events"),
        ] {
            let got = call(&app, Method::POST, "/api/team/streams", Some(&owner.token), Some(body.clone())).await;
            assert_refused(got, StatusCode::UNPROCESSABLE_ENTITY, code, &body.to_string());
        }
        for who in [crew.by("admin", false), crew.by("member", false)] {
            let got = call(&app, Method::GET, "/api/team/streams", Some(&who.token), None).await;
            assert_refused(got, StatusCode::FORBIDDEN, "forbidden_role", "list");
            let got = call(&app, Method::POST, "/api/team/streams", Some(&who.token),
                Some(json!({ "kind": "https", "url": "https://siem.example.com/" }))).await;
            assert_refused(got, StatusCode::FORBIDDEN, "forbidden_role", "create");
        }
        let got = call(&app, Method::GET, "/api/team/streams/not-a-uuid/deliveries", Some(&owner.token), None).await;
        assert_refused(got, StatusCode::NOT_FOUND, "stream_not_found", "bad id");
    }
);
