use reqwest::StatusCode;
use serde_json::json;

use crate::both;

both!(
    async fn changing_the_password_keeps_this_session_and_ends_the_others(app) {
        let here = crate::helpers::signed_in_account(&app, "ana@example.com", "sales-pro-2026").await;
        let there = body(app.signin("ana@example.com", "sales-pro-2026").await).await.1;
        let access = here["access_token"].as_str().unwrap();

        let (status, v) = body(app.post_auth("/api/auth/password", access, json!({ "current_password": "wrong-one", "password": "brand-new-pass-7" })).await).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(error_message(&v), "Current password is incorrect");

        let res = app.post_auth("/api/auth/password", access, json!({ "current_password": "sales-pro-2026", "password": "brand-new-pass-7" })).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(app.get_auth("/api/auth/user", access).await.status(), StatusCode::OK);
        assert_eq!(app.get_auth("/api/auth/user", there["access_token"].as_str().unwrap()).await.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(app.mails_to("ana@example.com").await[0].kind, "password_changed");
    }
);

both!(
    async fn deleting_the_account_removes_it_and_everything_it_owns(app) {
        let s = crate::helpers::signed_in_account(&app, "bo@example.com", "sales-pro-2026").await;
        let access = s["access_token"].as_str().unwrap();
        let delete = |password: &'static str| {
            app.client.delete(app.url("/api/account")).bearer_auth(access).json(&json!({ "password": password })).send()
        };
        let (status, v) = body(delete("wrong-one").await.unwrap()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(error_message(&v), "Password is incorrect");

        assert_eq!(delete("sales-pro-2026").await.unwrap().status(), StatusCode::NO_CONTENT);
        assert!(app.state.store.user_by_email("bo@example.com").await.unwrap().is_none());
        assert_eq!(app.get_auth("/api/auth/user", access).await.status(), StatusCode::UNAUTHORIZED);
        // The address can sign up again.
        assert_eq!(app.signup("bo@example.com", "sales-pro-2026").await.status(), StatusCode::OK);
    }
);
