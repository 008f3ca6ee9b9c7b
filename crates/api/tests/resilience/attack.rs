//! Forged tokens, cross-site use of the refresh cookie, forged and replayed webhooks, and
//! security headers on every kind of answer.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use closewise_core::sessions::tokens::{AccessClaims as Claims, Keys, ACCESS_AUDIENCE as AUDIENCE};
use reqwest::StatusCode;
use serde_json::json;

use crate::both;
use crate::helpers::{body, error_code, TestApp};

const PASSWORD: &str = "Closewise-resilience-7f3";

fn claims_of(app: &TestApp, token: &str) -> Claims {
    let payload = token.split('.').nth(1).unwrap();
    let _ = app;
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap()
}

async fn refused(app: &TestApp, token: &str, what: &str) {
    let (status, answer) = body(app.get_auth("/api/auth/user", token).await).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{what}: {answer}");
    assert_eq!(error_code(&answer), "invalid_token", "{what}: {answer}");
    let (status, _) = body(app.get_auth("/api/plan", token).await).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{what} on /api/plan");
}

both!(async fn forged_access_tokens_are_refused(app) {
    let session = app.signed_in_user("victim@example.com", PASSWORD).await;
    let good = session["access_token"].as_str().unwrap().to_string();
    assert_eq!(app.get_auth("/api/auth/user", &good).await.status(), StatusCode::OK);
    let claims = claims_of(&app, &good);
    let parts: Vec<&str> = good.split('.').collect();

    // Tampered: another user's id in the payload, the original signature kept.
    let mut other = claims.clone();
    other.sub = uuid::Uuid::now_v7();
    let forged_payload = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&other).unwrap());
    refused(&app, &format!("{}.{}.{}", parts[0], forged_payload, parts[2]), "tampered payload").await;
    // Tampered: one signature byte flipped.
    let mut sig = URL_SAFE_NO_PAD.decode(parts[2]).unwrap();
    sig[0] ^= 1;
    refused(
        &app,
        &format!("{}.{}.{}", parts[0], parts[1], URL_SAFE_NO_PAD.encode(sig)),
        "flipped signature",
    )
    .await;

    // Expired, though signed with our key.
    let now = app.state.clock.now().unix_timestamp();
    let mut expired = claims.clone();
    expired.iat = now - 7200;
    expired.exp = now - 1;
    refused(&app, &app.state.keys.issue(&expired).unwrap(), "expired").await;

    // Signed with another key (right issuer and audience).
    let theirs = Keys::generate(app.state.keys.issuer()).unwrap();
    refused(&app, &theirs.issue(&claims).unwrap(), "wrong key").await;

    // Our key, but another audience or issuer.
    let mut aud = claims.clone();
    aud.aud = "someone-else".into();
    refused(&app, &app.state.keys.issue(&aud).unwrap(), "wrong audience").await;
    let mut iss = claims.clone();
    iss.iss = "https://evil.example".into();
    refused(&app, &app.state.keys.issue(&iss).unwrap(), "wrong issuer").await;

    // alg: none, with and without a trailing signature part.
    let none = URL_SAFE_NO_PAD.encode(br#"{"alg":"none","typ":"JWT"}"#);
    refused(&app, &format!("{none}.{}.", parts[1]), "alg none").await;
    refused(&app, &format!("{none}.{}", parts[1]), "alg none, two parts").await;
    // HS256 keyed with the public key (algorithm confusion).
    let jwks = app.state.keys.jwks();
    let public = jwks["keys"][0]["x"].as_str().unwrap().to_string();
    let hs = jsonwebtoken::encode(
        &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256),
        &claims,
        &jsonwebtoken::EncodingKey::from_secret(public.as_bytes()),
    )
    .unwrap();
    refused(&app, &hs, "HS256 with the public key").await;
    // Garbage.
    refused(&app, "not.a.token", "garbage").await;
    assert_eq!(AUDIENCE, "closewise");

    // And the genuine token still works; after the clock passes its expiry, it does not.
    assert_eq!(app.get_auth("/api/auth/user", &good).await.status(), StatusCode::OK);
    app.advance(time::Duration::hours(1) + time::Duration::seconds(1));
    refused(&app, &good, "expired by time").await;
});

both!(async fn a_signed_out_sessions_token_is_refused_at_once(app) {
    let session = app.signed_in_user("leaver@example.com", PASSWORD).await;
    let token = session["access_token"].as_str().unwrap();
    let res = app
        .client
        .post(app.url("/api/auth/logout?scope=global"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    refused(&app, token, "signed out").await;
});

both!(async fn a_cross_site_request_cannot_use_the_refresh_cookie(app) {
    assert_eq!(app.signup("cookie@example.com", PASSWORD).await.status(), StatusCode::OK);
    let token = app.token_from_mail("cookie@example.com", "verification").await;
    app.post("/api/auth/verify", json!({ "token": token })).await;
    let res = app.signin_from_site("cookie@example.com", PASSWORD).await;
    assert_eq!(res.status(), StatusCode::OK);
    let set_cookie = res
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .find(|c| c.starts_with("cw_refresh="))
        .expect("the refresh cookie");
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/api/auth"] {
        assert!(set_cookie.contains(attribute), "{attribute} in {set_cookie}");
    }
    let cookie = set_cookie.split(';').next().unwrap().to_string();
    let cookie_refresh = |origin: Option<&'static str>| {
        let mut req = app
            .client
            .post(app.url("/api/auth/token?grant_type=refresh_token"))
            .json(&json!({}))
            .header("cookie", cookie.clone());
        if let Some(o) = origin {
            req = req.header("origin", o);
        }
        req.send()
    };
    for evil in ["https://evil.example", "http://127.0.0.1:8080.evil.example", "null"] {
        let (status, body) = body(cookie_refresh(Some(evil)).await.unwrap()).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{evil}: {body}");
        assert_eq!(error_code(&body), "cross_site_request");
    }
    // The refused calls spent nothing: our own page still refreshes with the same cookie.
    let (status, body) = body(cookie_refresh(Some("http://127.0.0.1:8080")).await.unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
});

fn webhook_event() -> Vec<u8> {
    serde_json::to_vec(&json!({
        "id": "evt_resilience_1",
        "object": "event",
        "type": "customer.created",
        "created": 1_795_000_000,
        "livemode": false,
        "data": { "object": { "id": "cus_resilience", "object": "customer" } }
    }))
    .unwrap()
}

both!(async fn a_webhook_with_a_bad_or_stale_signature_is_refused(app) {
    use closewise_core::billing::signature::{sign, TOLERANCE_SECS};
    use secrecy::ExposeSecret;
    let secret = app.state.settings.stripe.webhook_secret.expose_secret().to_string();
    let payload = webhook_event();
    let now = app.state.clock.now().unix_timestamp();
    let send = |signature: Option<String>, payload: Vec<u8>| {
        let mut req = app
            .client
            .post(app.url("/api/stripe/webhook"))
            .header("content-type", "application/json")
            .body(payload);
        if let Some(s) = signature {
            req = req.header("stripe-signature", s);
        }
        req.send()
    };
    let cases = [
        ("no signature", None, payload.clone()),
        ("another secret", Some(sign("whsec_not_ours", now, &payload)), payload.clone()),
        ("stale", Some(sign(&secret, now - TOLERANCE_SECS - 60, &payload)), payload.clone()),
        ("from the future", Some(sign(&secret, now + TOLERANCE_SECS + 60, &payload)), payload.clone()),
        ("body changed after signing", Some(sign(&secret, now, &payload)), {
            let mut p = payload.clone();
            p.extend_from_slice(b" ");
            p
        }),
        ("garbage header", Some("t=abc,v1=zz".to_string()), payload.clone()),
        ("v0 only", Some(sign(&secret, now, &payload).replace("v1=", "v0=")), payload.clone()),
    ];
    for (what, signature, body_bytes) in cases {
        let (status, body) = body(send(signature, body_bytes).await.unwrap()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{what}: {body}");
        assert_eq!(error_code(&body), "invalid_signature", "{what}: {body}");
    }
    // Nothing was recorded from the refused deliveries; the genuine one is received.
    let (status, body) = body(send(Some(sign(&secret, now, &payload)), payload.clone()).await.unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
});

both!(async fn security_headers_are_on_every_kind_of_answer(app) {
    let session = app.signed_in_user("headers@example.com", PASSWORD).await;
    let token = session["access_token"].as_str().unwrap().to_string();
    let c = &app.client;
    let big = vec![b'a'; 70 * 1024];
    let requests: Vec<(&str, reqwest::RequestBuilder)> = vec![
        ("healthz", c.get(app.url("/healthz"))),
        ("readyz", c.get(app.url("/readyz"))),
        ("jwks", c.get(app.url("/.well-known/jwks.json"))),
        ("openapi", c.get(app.url("/api/openapi.json"))),
        ("products", c.get(app.url("/api/products"))),
        ("user 200", c.get(app.url("/api/auth/user")).bearer_auth(&token)),
        ("user 401", c.get(app.url("/api/auth/user"))),
        ("plan 200", c.get(app.url("/api/plan")).bearer_auth(&token)),
        ("bad json 400", c.post(app.url("/api/auth/signup")).header("content-type", "application/json").body("{")),
        ("no content type 415", c.post(app.url("/api/auth/signup")).body("{}")),
        ("too large 413", c.post(app.url("/api/auth/signup")).header("content-type", "application/json").body(big)),
        ("invalid e-mail 422", c.post(app.url("/api/auth/signup")).json(&json!({"email": "x", "password": PASSWORD}))),
        ("unknown api 404", c.get(app.url("/api/nope"))),
        ("wrong method 405", c.delete(app.url("/api/auth/user"))),
        ("web page", c.get(app.url("/"))),
        ("web 404", c.get(app.url("/no/such/page"))),
        ("dev mail", c.get(app.url("/dev/mail"))),
    ];
    for (what, req) in requests {
        let res = req.send().await.unwrap();
        let status = res.status();
        let h = res.headers();
        let get = |name: &str| h.get(name).and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
        assert_eq!(get("x-content-type-options"), "nosniff", "{what} ({status})");
        assert_eq!(get("x-frame-options"), "DENY", "{what} ({status})");
        assert!(!get("referrer-policy").is_empty(), "{what} ({status})");
        let csp = get("content-security-policy");
        assert!(csp.contains("frame-ancestors 'none'"), "{what} ({status}): {csp}");
        if status.is_server_error() {
            panic!("{what} answered {status}");
        }
    }
});

both!(async fn a_rate_limited_answer_also_carries_the_headers(app) with |s| {
    s.limits.mail_per_ip = 1;
} {
    app.signup("one@example.com", PASSWORD).await;
    let res = app.signup("two@example.com", PASSWORD).await;
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(res.headers().contains_key("retry-after"));
    assert_eq!(res.headers()["x-content-type-options"], "nosniff");
    assert_eq!(res.headers()["x-frame-options"], "DENY");
});
