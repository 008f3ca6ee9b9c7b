use reqwest::StatusCode;
use serde_json::json;

use crate::both;

both!(
    async fn signing_in_answers_a_session_and_sets_the_refresh_cookie(app) {
        app.signup("ana@example.com", "sales-pro-2026").await;
        let token = app.token_from_mail("ana@example.com", "verification").await;
        app.post("/api/auth/verify", json!({ "token": token })).await;

        let res = app.signin_from_site("ANA@example.com", "sales-pro-2026").await;
        let cookie = res.headers()["set-cookie"].to_str().unwrap().to_string();
        let (status, s) = body(res).await;
        assert_eq!(status, StatusCode::OK, "{s}");
        assert_eq!(s["token_type"], "bearer");
        assert_eq!(s["expires_in"], 3600);
        let now = app.state.clock.now().unix_timestamp();
        assert_eq!(s["expires_at"].as_i64().unwrap(), now + 3600);
        assert_eq!(s["user"]["email"], "ana@example.com");
        assert!(s.get("refresh_token").is_none(), "the page never sees the refresh token: {s}");
        assert!(cookie.starts_with("cw_refresh=") && cookie.len() > 40, "{cookie}");
        for part in ["HttpOnly", "SameSite=Strict", "Path=/api/auth", "Max-Age=2592000"] {
            assert!(cookie.contains(part), "cookie has {part}: {cookie}");
        }
        assert!(!cookie.contains("Secure"), "plain-HTTP localhost needs no Secure flag");

        let (status, u) = body(app.get_auth("/api/auth/user", s["access_token"].as_str().unwrap()).await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(u["user"]["email"], "ana@example.com");
    }
);

both!(
    async fn the_cookie_is_secure_off_localhost(app) with |s| { s.base_url = "https://closewise.app".into(); } {
        app.signup("ana@example.com", "sales-pro-2026").await;
        app.execute("UPDATE users SET email_confirmed_at = created_at").await;
        let res = app.signin_from_site("ana@example.com", "sales-pro-2026").await;
        assert_eq!(res.status(), StatusCode::OK);
        assert!(res.headers()["set-cookie"].to_str().unwrap().contains("Secure"));
    }
);

both!(
    async fn a_wrong_password_and_an_unknown_email_answer_alike(app) {
        app.signed_in_user("bo@example.com", "sales-pro-2026").await;
        let (s1, wrong) = body(app.signin("bo@example.com", "not-the-password").await).await;
        let (s2, unknown) = body(app.signin("nobody@example.com", "not-the-password").await).await;
        let (s3, malformed) = body(app.signin("not an email", "not-the-password").await).await;
        assert_eq!(s1, StatusCode::BAD_REQUEST);
        assert_eq!((s1, &wrong), (s2, &unknown));
        assert_eq!((s1, &wrong), (s3, &malformed));
        assert_eq!(error_message(&wrong), "Invalid login credentials");
    }
);

both!(
    async fn an_unconfirmed_email_with_the_right_password_is_told_so(app) {
        app.signup("cy@example.com", "sales-pro-2026").await;
        let (status, v) = body(app.signin("cy@example.com", "sales-pro-2026").await).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(error_code(&v), "email_not_confirmed");
        assert_eq!(error_message(&v), "Email not confirmed");
        // The wrong password still says only "Invalid login credentials".
        let (_, v) = body(app.signin("cy@example.com", "wrong-password").await).await;
        assert_eq!(error_code(&v), "invalid_credentials");
    }
);

both!(
    async fn a_setting_lets_unverified_users_sign_in(app) with |s| { s.allow_unverified_signin = true; } {
        app.signup("dee@example.com", "sales-pro-2026").await;
        let (status, v) = body(app.signin("dee@example.com", "sales-pro-2026").await).await;
        assert_eq!(status, StatusCode::OK);
        assert!(v["user"]["email_confirmed_at"].is_null());
    }
);

both!(
    async fn signing_out_ends_the_session_at_once(app) {
        let s = app.signed_in_user("ed@example.com", "sales-pro-2026").await;
        let access = s["access_token"].as_str().unwrap();
        let other = body(app.signin("ed@example.com", "sales-pro-2026").await).await.1;

        let res = app
            .client
            .post(app.url("/api/auth/logout"))
            .bearer_auth(access)
            .header("origin", "http://127.0.0.1:8080")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::NO_CONTENT);
        assert!(res.headers()["set-cookie"].to_str().unwrap().contains("Max-Age=0"), "cookie cleared");
        let (status, v) = body(app.get_auth("/api/auth/user", access).await).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_eq!(error_message(&v), "Authentication required. Please sign in again.");
        assert_eq!(app.refresh(s["refresh_token"].as_str().unwrap()).await.status(), StatusCode::UNAUTHORIZED);
        // The other session lives on.
        assert_eq!(app.get_auth("/api/auth/user", other["access_token"].as_str().unwrap()).await.status(), StatusCode::OK);

        let res = app.post_auth("/api/auth/logout?scope=global", other["access_token"].as_str().unwrap(), json!({})).await;
        assert_eq!(res.status(), StatusCode::NO_CONTENT);
        assert_eq!(app.get_auth("/api/auth/user", other["access_token"].as_str().unwrap()).await.status(), StatusCode::UNAUTHORIZED);
    }
);

both!(
    async fn an_expired_or_missing_access_token_is_refused(app) {
        let s = app.signed_in_user("fa@example.com", "sales-pro-2026").await;
        let (status, v) = body(app.client.get(app.url("/api/auth/user")).send().await.unwrap()).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_eq!(error_code(&v), "not_signed_in");
        assert_eq!(error_message(&v), "Please sign in to continue");
        let (_, v) = body(app.get_auth("/api/auth/user", "garbage").await).await;
        assert_eq!(error_code(&v), "invalid_token");
        app.advance(time::Duration::hours(1));
        let (status, v) = body(app.get_auth("/api/auth/user", s["access_token"].as_str().unwrap()).await).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert_eq!(error_code(&v), "invalid_token");
    }
);

both!(
    async fn signing_out_without_a_session_is_unauthorised_whatever_the_scope(app) {
        for path in ["/api/auth/logout", "/api/auth/logout?scope=", "/api/auth/logout?scope=everyone"] {
            let (status, v) = body(app.client.post(app.url(path)).send().await.unwrap()).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}: {v}");
            assert_eq!(error_code(&v), "not_signed_in", "{path}");
        }
    }
);

/// A password hash as stored with older parameters: OWASP's 19 MiB, t=2 in one lane (`p=1`), of
/// "Legacy-password-42".
const LEGACY_HASH: &str =
    "$argon2id$v=19$m=19456,t=2,p=1$qWv8n6bnoYJXfGgaJVx6JA$K7JPSyfbqgBuudCk47cgQN6gPCLYBq80m9cHX//7VLc";

async fn stored_hash(app: &crate::helpers::TestApp, email: &str) -> String {
    app.state
        .store
        .user_by_email(email)
        .await
        .unwrap()
        .unwrap()
        .password_hash
}

both!(
    async fn a_password_hashed_with_older_parameters_is_hashed_again_at_sign_in(app) {
        app.signed_in_user("dee@example.com", "sales-pro-2026").await;
        app.execute(&format!("UPDATE users SET password_hash = '{LEGACY_HASH}' WHERE email = 'dee@example.com'"))
            .await;

        // A wrong password changes nothing.
        let (status, _) = body(app.signin("dee@example.com", "sales-pro-2026").await).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(stored_hash(&app, "dee@example.com").await, LEGACY_HASH);

        // The right one signs in with the old hash, which is then replaced by one with the
        // hasher's parameters, of the same password.
        let (status, s) = body(app.signin("dee@example.com", "Legacy-password-42").await).await;
        assert_eq!(status, StatusCode::OK, "{s}");
        let rehashed = stored_hash(&app, "dee@example.com").await;
        assert_ne!(rehashed, LEGACY_HASH);
        assert!(!app.state.hasher.is_outdated(&rehashed), "{rehashed}");
        let (status, s) = body(app.signin("dee@example.com", "Legacy-password-42").await).await;
        assert_eq!(status, StatusCode::OK, "{s}");
        assert_eq!(stored_hash(&app, "dee@example.com").await, rehashed, "hashed again once only");
        let (status, _) = body(app.signin("dee@example.com", "sales-pro-2026").await).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
    }
);

both!(
    async fn a_password_hashed_with_older_parameters_is_hashed_again_at_reauthentication(app) {
        let s = app.signed_in_user("eve@example.com", "sales-pro-2026").await;
        let access = s["access_token"].as_str().unwrap().to_owned();
        app.execute(&format!("UPDATE users SET password_hash = '{LEGACY_HASH}' WHERE email = 'eve@example.com'"))
            .await;

        // A wrong password changes nothing.
        let (status, v) = body(app.post_auth("/api/auth/reauthenticate", &access, json!({ "password": "sales-pro-2026" })).await).await;
        assert_ne!(status, StatusCode::OK, "{v}");
        assert_eq!(stored_hash(&app, "eve@example.com").await, LEGACY_HASH);

        // The right one opens the window, and the hash is renewed: the account no longer
        // stands out by its older parameters.
        let (status, v) = body(app.post_auth("/api/auth/reauthenticate", &access, json!({ "password": "Legacy-password-42" })).await).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let rehashed = stored_hash(&app, "eve@example.com").await;
        assert_ne!(rehashed, LEGACY_HASH);
        assert!(!app.state.hasher.is_outdated(&rehashed), "{rehashed}");
        let (status, v) = body(app.signin("eve@example.com", "Legacy-password-42").await).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
);
