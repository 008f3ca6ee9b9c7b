//! The Devices list: the caller's signed-in desktop apps, and signing one out.

use reqwest::StatusCode;

use crate::both;
use crate::device_signin::device_session;
use crate::helpers::*;

async fn devices(app: &TestApp, token: &str) -> serde_json::Value {
    let (status, v) = body(app.get_auth("/api/auth/devices", token).await).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

async fn delete(app: &TestApp, token: &str, id: &str) -> (StatusCode, serde_json::Value) {
    let res = app
        .client
        .delete(app.url(&format!("/api/auth/devices/{id}")))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    body(res).await
}

both!(
    async fn the_list_shows_each_device_newest_first_and_which_is_current(app) {
        let web = crate::helpers::signed_in_account(&app, "bo@example.com", "sales-pro-2026").await;
        let web_token = web["access_token"].as_str().unwrap();
        let (first, _) = device_session(&app, web_token).await;
        app.advance(time::Duration::seconds(1));
        let (second, _) = device_session(&app, web_token).await;
        // The web session is not a device.
        let list = devices(&app, web_token).await;
        let list = list["devices"].as_array().unwrap();
        assert_eq!(list.len(), 2);
        assert!(list.iter().all(|d| d["name"] == "Bo's PC" && d["platform"] == "windows" && d["current"] == false));
        assert!(list.iter().all(|d| d["created_at"].is_string() && d["last_seen_at"].is_string()));
        let seen_by_second = devices(&app, &second).await;
        assert_eq!(seen_by_second["devices"][0]["current"], true);
        assert_eq!(seen_by_second["devices"][1]["current"], false);
        let seen_by_first = devices(&app, &first).await;
        assert_eq!(seen_by_first["devices"][1]["current"], true);
    }
);

both!(
    async fn a_refresh_updates_last_seen_at_most_once_a_minute(app) {
        let web = crate::helpers::signed_in_account(&app, "bo@example.com", "sales-pro-2026").await;
        let (access, refresh) = device_session(&app, web["access_token"].as_str().unwrap()).await;
        let before = devices(&app, &access).await["devices"][0]["last_seen_at"].clone();
        app.advance(time::Duration::minutes(2));
        let (status, s) = body(app.refresh(&refresh).await).await;
        assert_eq!(status, StatusCode::OK, "{s}");
        let after = devices(&app, &access).await["devices"][0]["last_seen_at"].clone();
        assert_ne!(before, after);
        let parse = |v: &serde_json::Value| time::OffsetDateTime::parse(v.as_str().unwrap(), &time::format_description::well_known::Rfc3339).unwrap();
        assert_eq!(parse(&after) - parse(&before), time::Duration::minutes(2));
    }
);

both!(
    async fn signing_a_device_out_ends_its_refresh_chain_and_access_token_at_once(app) {
        let web = crate::helpers::signed_in_account(&app, "bo@example.com", "sales-pro-2026").await;
        let web_token = web["access_token"].as_str().unwrap();
        let (access, refresh) = device_session(&app, web_token).await;
        let id = devices(&app, web_token).await["devices"][0]["id"].as_str().unwrap().to_string();
        let (status, _) = delete(&app, web_token, &id).await;
        assert_eq!(status, StatusCode::NO_CONTENT);
        assert_eq!(app.get_auth("/api/auth/user", &access).await.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(app.refresh(&refresh).await.status(), StatusCode::UNAUTHORIZED);
        assert!(devices(&app, web_token).await["devices"].as_array().unwrap().is_empty());
        assert_eq!(app.get_auth("/api/auth/user", web_token).await.status(), StatusCode::OK, "the web session goes on");
        let (status, v) = delete(&app, web_token, &id).await;
        assert_eq!((status, error_code(&v)), (StatusCode::NOT_FOUND, "device_not_found"), "an ended device");
    }
);

both!(
    async fn another_users_device_a_web_session_or_an_unknown_id_is_not_found(app) {
        let bo = crate::helpers::signed_in_account(&app, "bo@example.com", "sales-pro-2026").await;
        let bo_token = bo["access_token"].as_str().unwrap();
        let (bo_device, _) = device_session(&app, bo_token).await;
        let bo_device_id = devices(&app, bo_token).await["devices"][0]["id"].as_str().unwrap().to_string();
        let cy = crate::helpers::signed_in_account(&app, "cy@example.com", "sales-pro-2026").await;
        let cy_token = cy["access_token"].as_str().unwrap();
        let bo_web_session = app.state.store.sessions_of(bo["user"]["id"].as_str().unwrap().parse().unwrap()).await.unwrap()
            .into_iter().find(|s| s.id.to_string() != bo_device_id).unwrap().id.to_string();
        for id in [bo_device_id.as_str(), "0192f0c4-0000-7000-8000-000000000000", "not-a-uuid"] {
            let (status, v) = delete(&app, cy_token, id).await;
            assert_eq!((status, error_code(&v)), (StatusCode::NOT_FOUND, "device_not_found"), "{id}");
        }
        let (status, _) = delete(&app, bo_token, &bo_web_session).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "a web session is not a device");
        assert_eq!(app.get_auth("/api/auth/user", &bo_device).await.status(), StatusCode::OK);
        assert_eq!(app.get_auth("/api/auth/user", bo_token).await.status(), StatusCode::OK);
    }
);
