use reqwest::StatusCode;
use serde_json::json;

use crate::both;

both!(
    async fn recovery_answers_alike_and_a_reset_link_works_once_and_signs_out_everywhere(app) {
        let s = app.signed_in_user("ana@example.com", "sales-pro-2026").await;
        let (s1, known) = body(app.post("/api/auth/recover", json!({ "email": "ana@example.com" })).await).await;
        let (s2, unknown) = body(app.post("/api/auth/recover", json!({ "email": "nobody@example.com" })).await).await;
        assert_eq!((s1, &known), (s2, &unknown));
        assert_eq!(s1, StatusCode::OK);

        let token = app.token_from_mail("ana@example.com", "reset").await;
        let (status, v) = body(app.post("/api/auth/reset", json!({ "token": token, "password": "abc" })).await).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(error_message(&v), "Password must be at least 6 characters");

        let res = app.post("/api/auth/reset", json!({ "token": token, "password": "brand-new-pass-7" })).await;
        assert_eq!(res.status(), StatusCode::OK);
        let (status, v) = body(app.post("/api/auth/reset", json!({ "token": token, "password": "brand-new-pass-8" })).await).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(error_code(&v), "token_used");

        assert_eq!(app.get_auth("/api/auth/user", s["access_token"].as_str().unwrap()).await.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(app.refresh(s["refresh_token"].as_str().unwrap()).await.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(app.mails_to("ana@example.com").await[0].kind, "password_changed");
        assert_eq!(app.signin("ana@example.com", "sales-pro-2026").await.status(), StatusCode::BAD_REQUEST);
        assert_eq!(app.signin("ana@example.com", "brand-new-pass-7").await.status(), StatusCode::OK);
    }
);

both!(
    async fn a_reset_link_expires_after_an_hour(app) {
        app.signed_in_user("bo@example.com", "sales-pro-2026").await;
        app.post("/api/auth/recover", json!({ "email": "bo@example.com" })).await;
        let token = app.token_from_mail("bo@example.com", "reset").await;
        app.advance(time::Duration::hours(1));
        let (status, v) = body(app.post("/api/auth/reset", json!({ "token": token, "password": "brand-new-pass-7" })).await).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(error_code(&v), "token_expired");
        assert_eq!(error_message(&v), "This reset link has expired. Request a new one.");
    }
);

both!(
    async fn a_reset_confirms_an_unverified_email(app) {
        app.signup("cy@example.com", "sales-pro-2026").await;
        app.post("/api/auth/recover", json!({ "email": "cy@example.com" })).await;
        let token = app.token_from_mail("cy@example.com", "reset").await;
        app.post("/api/auth/reset", json!({ "token": token, "password": "brand-new-pass-7" })).await;
        assert_eq!(app.signin("cy@example.com", "brand-new-pass-7").await.status(), StatusCode::OK);
    }
);
