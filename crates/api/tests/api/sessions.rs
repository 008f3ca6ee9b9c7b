//! The session endpoints against the browser's attacks (items 1–4): login CSRF, the
//! refresh token kept out of page scripts, sign-out with dead credentials, and the absolute
//! session lifetime.

use reqwest::StatusCode;
use serde_json::json;

use crate::both;
use crate::helpers::*;

const PASSWORD: &str = "sales-pro-2026";
const SITE: &str = "http://127.0.0.1:8080";

fn cookie_of(res: &reqwest::Response) -> Option<String> {
    res.headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .find(|c| c.starts_with("cw_refresh="))
}

async fn verified(app: &TestApp, email: &str) {
    assert_eq!(app.signup(email, PASSWORD).await.status(), StatusCode::OK);
    let token = app.token_from_mail(email, "verification").await;
    app.post("/api/auth/verify", json!({ "token": token }))
        .await;
}

both!(
    async fn a_grant_whose_body_is_not_json_is_refused_with_415(app) {
        verified(&app, "ana@example.com").await;
        // What a cross-site `<form enctype="text/plain">` sends: JSON-looking text, another type.
        let form_body = r#"{"email":"ana@example.com","password":"sales-pro-2026","x":"="}"#;
        for (content_type, grant) in [
            (Some("text/plain"), "password"),
            (Some("application/x-www-form-urlencoded"), "password"),
            (None, "password"),
            (Some("text/plain"), "refresh_token"),
        ] {
            let mut req = app
                .client
                .post(app.url(&format!("/api/auth/token?grant_type={grant}")))
                .body(form_body);
            if let Some(t) = content_type {
                req = req.header("content-type", t);
            }
            let res = req.send().await.unwrap();
            assert!(cookie_of(&res).is_none(), "{content_type:?}: no cookie");
            let (status, v) = body(res).await;
            assert_eq!(
                (status, error_code(&v)),
                (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type"),
                "{content_type:?} {grant}: {v}"
            );
        }
    }
);

both!(
    async fn a_cross_site_sign_in_is_refused_and_sets_no_cookie(app) {
        verified(&app, "bo@example.com").await;
        for (header, value) in [
            ("origin", "https://evil.example"),
            ("origin", "null"),
            ("origin", "http://127.0.0.1:8080.evil.example"),
            ("sec-fetch-site", "cross-site"),
            ("sec-fetch-site", "same-site"),
            ("sec-fetch-site", "none"),
        ] {
            let res = app
                .client
                .post(app.url("/api/auth/token?grant_type=password"))
                .header(header, value)
                .json(&json!({"email": "bo@example.com", "password": PASSWORD}))
                .send()
                .await
                .unwrap();
            assert!(cookie_of(&res).is_none(), "{header}: {value}");
            let (status, v) = body(res).await;
            assert_eq!(
                (status, error_code(&v)),
                (StatusCode::FORBIDDEN, "cross_site_request"),
                "{header}: {value}"
            );
        }
    }
);

both!(
    async fn our_own_pages_get_the_cookie_and_never_the_refresh_token_in_the_body(app) {
        verified(&app, "cy@example.com").await;
        for (header, value) in [("origin", SITE), ("sec-fetch-site", "same-origin")] {
            let res = app
                .client
                .post(app.url("/api/auth/token?grant_type=password"))
                .header(header, value)
                .json(&json!({"email": "cy@example.com", "password": PASSWORD}))
                .send()
                .await
                .unwrap();
            let cookie = cookie_of(&res).expect("the refresh cookie");
            let (status, s) = body(res).await;
            assert_eq!(status, StatusCode::OK, "{s}");
            assert!(s.get("refresh_token").is_none(), "{header}: no refresh token in {s}");
            assert!(s["access_token"].is_string());

            // Refreshing by cookie from our page: a new cookie, still nothing in the body.
            let res = app
                .client
                .post(app.url("/api/auth/token?grant_type=refresh_token"))
                .header(header, value)
                .header("cookie", cookie.split(';').next().unwrap())
                .json(&json!({}))
                .send()
                .await
                .unwrap();
            assert!(cookie_of(&res).is_some(), "the cookie rotates");
            let (status, next) = body(res).await;
            assert_eq!(status, StatusCode::OK, "{next}");
            assert!(next.get("refresh_token").is_none(), "{next}");
        }
    }
);

both!(
    async fn the_desktop_app_gets_its_tokens_in_the_body_and_no_cookie(app) {
        verified(&app, "dee@example.com").await;
        let res = app.signin("dee@example.com", PASSWORD).await;
        assert!(cookie_of(&res).is_none(), "no cookie without Origin or Sec-Fetch-Site");
        let (status, s) = body(res).await;
        assert_eq!(status, StatusCode::OK, "{s}");
        let refresh = s["refresh_token"].as_str().expect("the refresh token in the body");
        let res = app.refresh(refresh).await;
        assert!(cookie_of(&res).is_none());
        let (status, next) = body(res).await;
        assert_eq!(status, StatusCode::OK, "{next}");
        assert!(next["refresh_token"].is_string());
        // A cookie sent without any same-site proof is not read.
        let res = app
            .client
            .post(app.url("/api/auth/token?grant_type=refresh_token"))
            .header("cookie", format!("cw_refresh={}", next["refresh_token"].as_str().unwrap()))
            .json(&json!({}))
            .send()
            .await
            .unwrap();
        let (status, v) = body(res).await;
        assert_eq!((status, error_code(&v)), (StatusCode::UNAUTHORIZED, "no_session"));
    }
);

both!(
    async fn a_cross_site_sign_out_is_refused_and_ends_nothing(app) {
        let s = app.signed_in_user("ed@example.com", PASSWORD).await;
        let access = s["access_token"].as_str().unwrap();
        let res = app
            .client
            .post(app.url("/api/auth/logout?scope=global"))
            .bearer_auth(access)
            .header("origin", "https://evil.example")
            .send()
            .await
            .unwrap();
        let (status, v) = body(res).await;
        assert_eq!((status, error_code(&v)), (StatusCode::FORBIDDEN, "cross_site_request"));
        assert_eq!(app.get_auth("/api/auth/user", access).await.status(), StatusCode::OK);
    }
);

both!(
    async fn signing_out_needs_a_live_token_of_an_active_session(app) {
        let s = app.signed_in_user("flo@example.com", PASSWORD).await;
        let first = s["refresh_token"].as_str().unwrap().to_string();
        let (_, next) = body(app.refresh(&first).await).await;
        let access = next["access_token"].as_str().unwrap().to_string();
        let logout_with_cookie = |token: String, scope: &'static str| {
            app.client
                .post(app.url(&format!("/api/auth/logout?scope={scope}")))
                .header("origin", SITE)
                .header("cookie", format!("cw_refresh={token}"))
                .send()
        };
        // A rotated refresh token (even global), an unknown one: 401, and nothing ends.
        for (token, scope) in [(first.clone(), "global"), (first.clone(), "local"), ("made-up".into(), "global")] {
            let (status, v) = body(logout_with_cookie(token, scope).await.unwrap()).await;
            assert_eq!((status, error_code(&v)), (StatusCode::UNAUTHORIZED, "not_signed_in"), "{v}");
        }
        assert_eq!(app.get_auth("/api/auth/user", &access).await.status(), StatusCode::OK);

        // An expired refresh token: 401 too.
        let other = body(app.signin("flo@example.com", PASSWORD).await).await.1;
        app.advance(time::Duration::days(31));
        let (status, _) = body(
            logout_with_cookie(other["refresh_token"].as_str().unwrap().into(), "global").await.unwrap(),
        )
        .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);

        // A revoked session's access token cannot sign anything out either.
        let s2 = body(app.signin("flo@example.com", PASSWORD).await).await.1;
        let s3 = body(app.signin("flo@example.com", PASSWORD).await).await.1;
        let a2 = s2["access_token"].as_str().unwrap();
        assert_eq!(app.post_auth("/api/auth/logout", a2, json!({})).await.status(), StatusCode::NO_CONTENT);
        let res = app.post_auth("/api/auth/logout?scope=global", a2, json!({})).await;
        assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(
            app.get_auth("/api/auth/user", s3["access_token"].as_str().unwrap()).await.status(),
            StatusCode::OK,
            "the global sign-out with a dead token ended nothing"
        );
        // The live token still signs out.
        let res = app
            .post_auth("/api/auth/logout?scope=global", s3["access_token"].as_str().unwrap(), json!({}))
            .await;
        assert_eq!(res.status(), StatusCode::NO_CONTENT);
    }
);

both!(
    async fn a_session_ends_after_its_absolute_lifetime_however_often_it_refreshes(app) with |s| {
        s.session_max_age = std::time::Duration::from_secs(90 * 24 * 3600);
    } {
        let s = app.signed_in_user("gil@example.com", PASSWORD).await;
        let mut token = s["refresh_token"].as_str().unwrap().to_string();
        // Every 20 days a refresh: each would extend a sliding 30-day window forever.
        for _ in 0..4 {
            app.advance(time::Duration::days(20));
            let (status, next) = body(app.refresh(&token).await).await;
            assert_eq!(status, StatusCode::OK, "{next}");
            token = next["refresh_token"].as_str().unwrap().to_string();
        }
        // Day 80: the new refresh token lives only to day 90, not day 110.
        app.advance(time::Duration::days(10));
        let (status, v) = body(app.refresh(&token).await).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::UNAUTHORIZED, "invalid_refresh_token"),
            "day 90: sign in again"
        );
    }
);

both!(
    async fn the_absolute_lifetime_is_a_setting(app) with |s| {
        s.session_max_age = std::time::Duration::from_secs(24 * 3600);
    } {
        let s = app.signed_in_user("hal@example.com", PASSWORD).await;
        app.advance(time::Duration::hours(23));
        let (status, next) = body(app.refresh(s["refresh_token"].as_str().unwrap()).await).await;
        assert_eq!(status, StatusCode::OK, "{next}");
        app.advance(time::Duration::hours(1));
        let (status, _) = body(app.refresh(next["refresh_token"].as_str().unwrap()).await).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
);

type Headers = Vec<(&'static str, String)>;

// The Origin is ours only when it is the configured base URL. A page reached
// under another name (a tunnel, a rebinding DNS name that points here) sends that name as both
// `Host` and `Origin`, and is same-origin with itself.
both!(
    async fn the_origin_is_compared_with_the_base_url_never_with_the_host(app) {
        verified(&app, "rae@example.com").await;
        let port = app.address.rsplit(':').next().unwrap().to_string();
        let rebound = format!("rebind.evil.example:{port}");
        let cases: [(&str, Headers, bool); 5] = [
            ("forged host and origin", vec![("host", rebound.clone()), ("origin", format!("http://{rebound}"))], false),
            ("same-origin to itself", vec![
                ("host", rebound.clone()),
                ("origin", format!("http://{rebound}")),
                ("sec-fetch-site", "same-origin".into()),
            ], false),
            ("this host under another name", vec![("origin", app.address.clone())], false),
            ("the base URL, any host", vec![("host", rebound.clone()), ("origin", SITE.into())], true),
            ("the base URL", vec![("origin", SITE.into()), ("sec-fetch-site", "same-origin".into())], true),
        ];
        for (case, headers, ours) in cases {
            let mut req = app
                .client
                .post(app.url("/api/auth/token?grant_type=password"))
                .json(&json!({"email": "rae@example.com", "password": PASSWORD}));
            for (name, value) in &headers {
                req = req.header(*name, value.as_str());
            }
            let res = req.send().await.unwrap();
            let cookie = cookie_of(&res);
            let (status, v) = body(res).await;
            if ours {
                assert_eq!(status, StatusCode::OK, "{case}: {v}");
                assert!(cookie.is_some(), "{case}");
            } else {
                assert_eq!((status, error_code(&v)), (StatusCode::FORBIDDEN, "cross_site_request"), "{case}: {v}");
                assert!(cookie.is_none(), "{case}");
            }
        }
    }
);
