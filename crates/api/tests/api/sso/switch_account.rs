//! Login CSRF through a provider that approves at once: a page that sends a browser signed in to
//! one account through `/api/auth/sso/start?email=mallory@…` must not replace that session
//! silently. The callback keeps the new session aside and sends the browser to `/sso/confirm`;
//! only our own page, at the person's word, switches (`POST /api/auth/sso/switch`) or drops it
//! (`DELETE`).

use super::*;

async fn password_in(app: &TestApp, browser: &Browser, email: &str) {
    let res = browser
        .client
        .post(app.url("/api/auth/token?grant_type=password"))
        .header("origin", &app.state.settings.base_url)
        .json(&json!({ "email": email, "password": PASSWORD }))
        .send()
        .await
        .unwrap();
    let (s, v) = body(res).await;
    assert_eq!(s, StatusCode::OK, "{v}");
}

async fn switch(
    app: &TestApp,
    browser: &Browser,
    method: Method,
    origin: Option<&str>,
) -> (StatusCode, Value) {
    let mut req = browser
        .client
        .request(method, app.url("/api/auth/sso/switch"));
    if let Some(origin) = origin {
        req = req.header("origin", origin);
    }
    let res = req.send().await.unwrap();
    if res.status() == StatusCode::NO_CONTENT {
        return (StatusCode::NO_CONTENT, Value::Null);
    }
    body(res).await
}

async fn signed_in_as(app: &TestApp, browser: &Browser) -> String {
    let (s, v) = browser.session(app).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v["user"]["email"].as_str().unwrap().to_string()
}

both!(
    async fn sso_asks_before_replacing_another_accounts_session_and_only_our_page_switches(app) {
        let owner = owner_with_domain(&app, 5).await;
        let mallory = format!("mallory@{DOMAIN}");
        let idp = Idp::start(&app, &[(&mallory, true)]).await;
        connect(&app, &owner, &idp, false).await;
        let victim = "vic@elsewhere.example";
        user(&app, victim).await;
        let ours = app.state.settings.base_url.clone();

        let browser = Browser::new();
        password_in(&app, &browser, victim).await;
        // The attacker's page navigates the signed-in browser through the provider.
        let landed = browser.follow(&app, &start(&app, &mallory, "/team")).await;
        assert_eq!(landed, "/sso/confirm", "asked, not switched");
        assert_eq!(signed_in_as(&app, &browser).await, victim, "still the victim's session");
        let (s, v) = switch(&app, &browser, Method::GET, Some(&ours)).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v, json!({ "current_email": victim, "email": mallory, "next": "/team" }));

        // Only our own page may switch or cancel.
        for origin in [None, Some("https://evil.example")] {
            let (s, v) = switch(&app, &browser, Method::POST, origin).await;
            assert_eq!((s, error_code(&v)), (StatusCode::FORBIDDEN, "cross_site_request"), "{origin:?}: {v}");
            let (s, v) = switch(&app, &browser, Method::DELETE, origin).await;
            assert_eq!((s, error_code(&v)), (StatusCode::FORBIDDEN, "cross_site_request"), "{origin:?}: {v}");
        }
        assert_eq!(signed_in_as(&app, &browser).await, victim);

        // Cancel: the waiting session ends, the victim's stays.
        let (s, _) = switch(&app, &browser, Method::DELETE, Some(&ours)).await;
        assert_eq!(s, StatusCode::NO_CONTENT);
        assert_eq!(signed_in_as(&app, &browser).await, victim);
        let (s, v) = switch(&app, &browser, Method::GET, Some(&ours)).await;
        assert_eq!((s, error_code(&v)), (StatusCode::FORBIDDEN, "sso_login_expired"), "{v}");
        let (s, v) = switch(&app, &browser, Method::POST, Some(&ours)).await;
        assert_eq!((s, error_code(&v)), (StatusCode::FORBIDDEN, "sso_login_expired"), "{v}");

        // Continue, from our page: now the SSO account's session.
        assert_eq!(browser.follow(&app, &start(&app, &mallory, "/team")).await, "/sso/confirm");
        let (s, v) = switch(&app, &browser, Method::POST, Some(&ours)).await;
        assert_eq!((s, v), (StatusCode::OK, json!({ "next": "/team" })));
        assert_eq!(signed_in_as(&app, &browser).await, mallory);

        // Signing in again to the same account, or from a browser with no session, asks nothing.
        assert_eq!(browser.follow(&app, &start(&app, &mallory, "/team")).await, "/team");
        let fresh = Browser::new();
        assert_eq!(fresh.follow(&app, &start(&app, &mallory, "/team")).await, "/team");
        assert_eq!(signed_in_as(&app, &fresh).await, mallory);
    }
);
