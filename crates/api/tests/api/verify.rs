use reqwest::StatusCode;
use serde_json::json;

use crate::both;

both!(
    async fn a_verification_link_confirms_the_email_once(app) {
        app.signup("ana@example.com", "sales-pro-2026").await;
        let token = app.token_from_mail("ana@example.com", "verification").await;

        let (status, v) = body(app.post("/api/auth/verify", json!({ "token": token })).await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(v["user"]["email"], "ana@example.com");
        assert!(v["user"]["email_confirmed_at"].is_string());

        let (status, v) = body(app.post("/api/auth/verify", json!({ "token": token })).await).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(error_code(&v), "token_used");
        assert_eq!(error_message(&v), "This verification link has already been used.");
    }
);

both!(
    async fn an_expired_verification_link_is_refused_and_confirms_nothing(app) {
        app.signup("bo@example.com", "sales-pro-2026").await;
        let token = app.token_from_mail("bo@example.com", "verification").await;
        app.advance(time::Duration::hours(24));

        let (status, v) = body(app.post("/api/auth/verify", json!({ "token": token })).await).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(error_code(&v), "token_expired");
        assert_eq!(error_message(&v), "This verification link has expired. Request a new one.");
        let user = app.state.store.user_by_email("bo@example.com").await.unwrap().unwrap();
        assert!(user.email_confirmed_at.is_none());
    }
);

both!(
    async fn an_unknown_verification_token_is_invalid(app) {
        let (status, v) = body(app.post("/api/auth/verify", json!({ "token": "made-up" })).await).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(error_code(&v), "token_invalid");
    }
);

both!(
    async fn resend_answers_alike_for_unknown_emails_and_waits_a_minute_per_address(app) {
        app.signup("cy@example.com", "sales-pro-2026").await;
        let resend = |email: &'static str| app.post("/api/auth/resend", json!({ "email": email, "type": "signup" }));

        let (status, unknown) = body(resend("nobody@example.com").await).await;
        assert_eq!(status, StatusCode::OK);
        let (status, known) = body(resend("cy@example.com").await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(unknown, known, "no account enumeration");
        assert_eq!(app.mails_to("cy@example.com").await.len(), 2, "sign-up mail and the resent one");

        app.advance(time::Duration::seconds(59));
        let res = resend("cy@example.com").await;
        assert_eq!(res.headers()["retry-after"], "1");
        let (status, v) = body(res).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
        assert_eq!(error_code(&v), "over_email_send_rate_limit");
        assert_eq!(error_message(&v), "For security purposes, you can only request this after 1 seconds.");
        // Unknown addresses are limited alike.
        assert_eq!(resend("nobody@example.com").await.status(), StatusCode::TOO_MANY_REQUESTS);

        app.advance(time::Duration::seconds(2)); // the 61st second
        assert_eq!(resend("cy@example.com").await.status(), StatusCode::OK);
        assert_eq!(app.mails_to("cy@example.com").await.len(), 3);

        // The newest link works; so would the older ones until used.
        let token = app.token_from_mail("cy@example.com", "verification").await;
        assert_eq!(app.post("/api/auth/verify", json!({ "token": token })).await.status(), StatusCode::OK);
    }
);

both!(
    async fn resend_sends_nothing_to_a_confirmed_account(app) {
        app.signed_in_user("dee@example.com", "sales-pro-2026").await;
        let before = app.mails_to("dee@example.com").await.len();
        let res = app.post("/api/auth/resend", json!({ "email": "dee@example.com", "type": "signup" })).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(app.mails_to("dee@example.com").await.len(), before);
        let (status, v) = body(app.post("/api/auth/resend", json!({ "email": "dee@example.com", "type": "magic" })).await).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(error_code(&v), "invalid_type");
    }
);
