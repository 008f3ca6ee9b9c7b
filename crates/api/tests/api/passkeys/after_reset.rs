//! A password reset removes no factor (that takes a sign-in with one, or support), so a passkey
//! someone else added would outlive it: the reset answers the account's passkeys and the desktop
//! apps it signed out, for the page to show with the way to remove them.

use reqwest::StatusCode;
use serde_json::json;

use super::*;
use crate::both;
use crate::helpers::*;

both!(
    async fn a_reset_answers_the_passkeys_that_still_sign_in_and_the_devices_it_signed_out(app) {
        let token = signed_in(&app, "reset@example.com").await;
        let mut authn = our_authenticator(&app);
        register(&app, &token, &mut authn, "Not mine").await;
        crate::device_signin::device_session(&app, &token).await;

        app.post("/api/auth/recover", json!({ "email": "reset@example.com" })).await;
        let link = app.token_from_mail("reset@example.com", "reset").await;
        let (status, v) = body(app.post("/api/auth/reset", json!({ "token": link, "password": "brand-new-pass-7" })).await).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let names: Vec<&str> = v["passkeys"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["Not mine"], "{v}");
        assert!(v["passkeys"][0]["id"].is_string(), "{v}");
        let devices = v["devices_signed_out"].as_array().unwrap();
        assert_eq!(devices.len(), 1, "{v}");
        assert!(devices[0]["name"].is_string() && devices[0]["platform"].is_string(), "{v}");

        // Signed out for real: the device list of a new session is empty, the passkey still listed.
        let (_, c) = challenge(&app, json!({})).await;
        let answer = authn.sign_in(&c["options"]);
        let (status, s) = grant(&app, json!({ "challenge_id": c["challenge_id"], "credential": answer })).await;
        assert_eq!(status, StatusCode::OK, "the passkey outlives the reset until it is removed: {s}");
        let fresh = s["access_token"].as_str().unwrap();
        let (_, d) = body(app.get_auth("/api/auth/devices", fresh).await).await;
        assert_eq!(d["devices"], json!([]), "{d}");
    }
);
