use reqwest::StatusCode;
use serde_json::json;

use crate::both;

both!(
    async fn a_refresh_token_rotates(app) {
        let s = app.signed_in_user("ana@example.com", "sales-pro-2026").await;
        let first = s["refresh_token"].as_str().unwrap();
        app.advance(time::Duration::minutes(50));
        let (status, next) = body(app.refresh(first).await).await;
        assert_eq!(status, StatusCode::OK, "{next}");
        let second = next["refresh_token"].as_str().unwrap();
        assert_ne!(first, second);
        assert_eq!(next["expires_at"].as_i64().unwrap(), app.state.clock.now().unix_timestamp() + 3600);
        assert_eq!(app.get_auth("/api/plan", next["access_token"].as_str().unwrap()).await.status(), StatusCode::OK);
    }
);

both!(
    async fn the_cookie_alone_refreshes_from_our_own_pages_only(app) {
        let s = app.signed_in_user("bo@example.com", "sales-pro-2026").await;
        let cookie = format!("cw_refresh={}", s["refresh_token"].as_str().unwrap());
        let cross = app.client.post(app.url("/api/auth/token?grant_type=refresh_token"))
            .header("cookie", &cookie).header("origin", "https://evil.example").send().await.unwrap();
        let (status, v) = body(cross).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert_eq!(error_code(&v), "cross_site_request");

        let ours = app.client.post(app.url("/api/auth/token?grant_type=refresh_token"))
            .header("cookie", &cookie).header("origin", "http://127.0.0.1:8080").json(&json!({})).send().await.unwrap();
        let set = ours.headers()["set-cookie"].to_str().unwrap().to_string();
        let (status, next) = body(ours).await;
        assert_eq!(status, StatusCode::OK, "{next}");
        assert!(next.get("refresh_token").is_none(), "{next}");
        let next_cookie = set.split(';').next().unwrap().to_string();
        assert!(next_cookie.starts_with("cw_refresh=") && next_cookie != cookie);

        // This host under a name other than the base URL's is not us: the
        // `Origin` is compared with `APP_BASE_URL`, never with `Host`.
        let own_host = app.address.clone();
        let res = app.client.post(app.url("/api/auth/token?grant_type=refresh_token"))
            .header("cookie", &next_cookie).header("origin", own_host).json(&json!({})).send().await.unwrap();
        let (status, v) = body(res).await;
        assert_eq!((status, error_code(&v)), (StatusCode::FORBIDDEN, "cross_site_request"), "{v}");
        let res = app.client.post(app.url("/api/auth/token?grant_type=refresh_token"))
            .header("cookie", &next_cookie).header("origin", "http://127.0.0.1:8080").json(&json!({})).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);

        let none = app.client.post(app.url("/api/auth/token?grant_type=refresh_token")).json(&json!({})).send().await.unwrap();
        let (status, v) = body(none).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_eq!(error_code(&v), "no_session");
    }
);

both!(
    async fn a_replay_within_ten_seconds_gets_the_same_successor(app) {
        let s = app.signed_in_user("cy@example.com", "sales-pro-2026").await;
        let first = s["refresh_token"].as_str().unwrap();
        let a = body(app.refresh(first).await).await.1;
        app.advance(time::Duration::seconds(5));
        let (status, b) = body(app.refresh(first).await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(a["refresh_token"], b["refresh_token"], "two tabs refreshing at once share one chain");
    }
);

both!(
    async fn a_replay_after_the_grace_revokes_the_whole_session(app) {
        let s = app.signed_in_user("dee@example.com", "sales-pro-2026").await;
        let first = s["refresh_token"].as_str().unwrap();
        let next = body(app.refresh(first).await).await.1;
        app.advance(time::Duration::seconds(11));

        let (status, v) = body(app.refresh(first).await).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_eq!(error_code(&v), "refresh_token_reused");
        assert_eq!(error_message(&v), "Your session has ended. Please sign in again.");
        // Every token of the session is dead: the thief's and the owner's.
        let (status, v) = body(app.refresh(next["refresh_token"].as_str().unwrap()).await).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_eq!(error_code(&v), "invalid_refresh_token");
        assert_eq!(app.get_auth("/api/auth/user", next["access_token"].as_str().unwrap()).await.status(), StatusCode::UNAUTHORIZED);
    }
);

both!(
    async fn concurrent_refreshes_with_one_token_leave_one_chain(app) {
        let s = app.signed_in_user("ed@example.com", "sales-pro-2026").await;
        let first = s["refresh_token"].as_str().unwrap().to_string();
        let mut tasks = Vec::new();
        for _ in 0..10 {
            let (client, url, token) = (app.client.clone(), app.url("/api/auth/token?grant_type=refresh_token"), first.clone());
            tasks.push(tokio::spawn(async move {
                let res = client.post(url).json(&json!({ "refresh_token": token })).send().await.unwrap();
                assert_eq!(res.status(), StatusCode::OK);
                res.json::<serde_json::Value>().await.unwrap()["refresh_token"].as_str().unwrap().to_string()
            }));
        }
        let mut successors = std::collections::HashSet::new();
        for t in tasks {
            successors.insert(t.await.unwrap());
        }
        assert_eq!(successors.len(), 1, "one successor for all");
    }
);

both!(
    async fn unknown_and_expired_refresh_tokens_are_refused(app) {
        let (status, v) = body(app.refresh("made-up").await).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_eq!(error_code(&v), "invalid_refresh_token");
        let s = app.signed_in_user("fa@example.com", "sales-pro-2026").await;
        app.advance(time::Duration::days(31));
        let (_, v) = body(app.refresh(s["refresh_token"].as_str().unwrap()).await).await;
        assert_eq!(error_code(&v), "invalid_refresh_token");
    }
);
