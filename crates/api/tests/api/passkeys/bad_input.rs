//! Bad passkey input: each a clear error, and nothing changed (no passkey stored, no mail, no
//! session, the counter and last use as they were).

use reqwest::StatusCode;
use serde_json::{json, Value};

use super::*;
use crate::both;

fn assert_invalid((status, v): (StatusCode, Value), case: &str) {
    assert_eq!(status, StatusCode::BAD_REQUEST, "{case}: {v}");
    assert_eq!(error_code(&v), "invalid_passkey", "{case}: {v}");
    assert_eq!(
        error_message(&v),
        "This passkey could not be verified. Try again.",
        "{case}"
    );
}

async fn nothing_registered(app: &TestApp, token: &str, email: &str) {
    assert!(list(app, token).await.is_empty());
    let mails = app.mails_to(email).await;
    assert!(!mails.iter().any(|m| m.kind == "passkey_added"), "no mail");
}

both!(
    async fn a_registration_for_another_challenge_origin_or_account_is_refused(app) {
        let token = signed_in(&app, "ana@example.com").await;
        let mut authn = our_authenticator(&app);
        let (_, first) = registration_options(&app, &token, "Key").await;
        let (_, second) = registration_options(&app, &token, "Key").await;
        // Answers the first challenge, sent with the second's id.
        let answer = authn.register(&first["options"]);
        assert_invalid(finish_registration(&app, &token, &second["challenge_id"], "Key", answer).await, "another challenge");

        // Another origin (a look-alike site relaying our options).
        let (_, o) = registration_options(&app, &token, "Key").await;
        let mut phished = Authenticator::new("https://closewise.example.net", &app.state.passkeys.relying_party().id);
        assert_invalid(finish_registration(&app, &token, &o["challenge_id"], "Key", phished.register(&o["options"])).await, "another origin");
        // Another RP id.
        let (_, o) = registration_options(&app, &token, "Key").await;
        let mut other_rp = Authenticator::new(&app.state.passkeys.relying_party().origin, "example.net");
        assert_invalid(finish_registration(&app, &token, &o["challenge_id"], "Key", other_rp.register(&o["options"])).await, "another RP id");

        // Another account's challenge.
        let bo = signed_in(&app, "bo@example.com").await;
        let (_, o) = registration_options(&app, &token, "Key").await;
        let answer = authn.register(&o["options"]);
        assert_invalid(finish_registration(&app, &bo, &o["challenge_id"], "Key", answer).await, "another account's challenge");

        nothing_registered(&app, &token, "ana@example.com").await;
        nothing_registered(&app, &bo, "bo@example.com").await;
    }
);

both!(
    async fn a_registration_challenge_answers_once_and_for_five_minutes(app) {
        let token = signed_in(&app, "ana@example.com").await;
        let mut authn = our_authenticator(&app);
        let (_, o) = registration_options(&app, &token, "Key").await;
        let answer = authn.register(&o["options"]);
        let (status, v) = finish_registration(&app, &token, &o["challenge_id"], "Key", answer.clone()).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        assert_invalid(finish_registration(&app, &token, &o["challenge_id"], "Key", answer).await, "replayed");

        let (_, o) = registration_options(&app, &token, "Other").await;
        app.advance(time::Duration::minutes(5));
        let mut late = our_authenticator(&app);
        let (status, v) = finish_registration(&app, &token, &o["challenge_id"], "Other", late.register(&o["options"])).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "challenge_expired"), "{v}");
        assert_eq!(list(&app, &token).await.len(), 1);

        // The same credential again (to this account or another) is refused.
        let bo = signed_in(&app, "bo@example.com").await;
        let (_, o) = registration_options(&app, &bo, "Stolen").await;
        assert_invalid(finish_registration(&app, &bo, &o["challenge_id"], "Stolen", authn.register(&o["options"])).await, "registered already");
        nothing_registered(&app, &bo, "bo@example.com").await;
    }
);

both!(
    async fn malformed_requests_answer_clear_errors(app) {
        let token = signed_in(&app, "ana@example.com").await;
        let (status, v) = registration_options(&app, &token, "   ").await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_passkey_name"), "{v}");
        let (status, v) = registration_options(&app, &token, &"x".repeat(65)).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_passkey_name"), "{v}");

        let (_, o) = registration_options(&app, &token, "Key").await;
        let mut answer = our_authenticator(&app).register(&o["options"]);
        answer["response"]["attestationObject"] = json!("%%% not base64 %%%");
        assert_invalid(finish_registration(&app, &token, &o["challenge_id"], "Key", answer).await, "bad base64");
        let (_, o) = registration_options(&app, &token, "Key").await;
        assert_invalid(finish_registration(&app, &token, &o["challenge_id"], "Key", json!("a string")).await, "not an object");
        assert_invalid(finish_registration(&app, &token, &json!("not-a-uuid"), "Key", json!({})).await, "bad challenge id");
        let res = app
            .client
            .post(app.url("/api/auth/passkeys"))
            .bearer_auth(&token)
            .header("content-type", "application/json")
            .body("{not json")
            .send()
            .await
            .unwrap();
        let (status, v) = body(res).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_json"), "{v}");

        let res = app
            .client
            .post(app.url("/api/auth/token?grant_type=passkey"))
            .header("content-type", "application/json")
            .body("[1,")
            .send()
            .await
            .unwrap();
        let (status, v) = body(res).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_json"), "{v}");
        assert_invalid(grant(&app, json!({ "challenge_id": "nope", "credential": {} })).await, "grant with nothing");
        // A body that is JSON but not an object is refused, not read as "no fields" (schemathesis
        // found `[]` accepted by the challenge).
        for not_an_object in [json!([]), json!("text"), json!(1)] {
            let (status, v) = challenge(&app, not_an_object.clone()).await;
            assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_json"), "{not_an_object}: {v}");
            let (status, v) = body(app.post_auth("/api/auth/passkeys/registration", &token, not_an_object.clone()).await).await;
            assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "invalid_json"), "{not_an_object}: {v}");
        }
        nothing_registered(&app, &token, "ana@example.com").await;
    }
);

/// (token, authenticator) of an account with one passkey, and its `last_used_at` column.
async fn with_passkey(app: &TestApp, email: &str) -> (String, Authenticator) {
    let token = signed_in(app, email).await;
    let mut authn = our_authenticator(app);
    register(app, &token, &mut authn, "Key").await;
    (token, authn)
}

both!(
    async fn a_sign_in_answer_is_refused_for_another_challenge_origin_or_a_replay(app) {
        let (token, mut authn) = with_passkey(&app, "ana@example.com").await;
        let (_, c1) = challenge(&app, json!({})).await;
        let (_, c2) = challenge(&app, json!({})).await;
        let answer = authn.sign_in(&c1["options"]);
        assert_invalid(grant(&app, json!({ "challenge_id": c2["challenge_id"], "credential": answer })).await, "another challenge");

        let (_, c) = challenge(&app, json!({})).await;
        let mut phished = Authenticator::new("https://closewise.example.net", &authn.rp_id);
        phished.credential_id = authn.credential_id.clone();
        assert_invalid(grant(&app, json!({ "challenge_id": c["challenge_id"], "credential": phished.sign_in(&c["options"]) })).await, "another origin, another key");

        // A registration challenge does not sign in.
        let (_, r) = registration_options(&app, &token, "Key 2").await;
        let mut answer_for_registration = authn.sign_in(&r["options"]);
        answer_for_registration["response"]["userHandle"] = Value::Null;
        assert_invalid(grant(&app, json!({ "challenge_id": r["challenge_id"], "credential": answer_for_registration })).await, "registration challenge");

        let (_, c) = challenge(&app, json!({})).await;
        let answer = authn.sign_in(&c["options"]);
        let (status, v) = grant(&app, json!({ "challenge_id": c["challenge_id"], "credential": answer })).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_invalid(grant(&app, json!({ "challenge_id": c["challenge_id"], "credential": answer })).await, "replayed");

        let (_, c) = challenge(&app, json!({})).await;
        app.advance(time::Duration::minutes(5));
        let (status, v) = grant(&app, json!({ "challenge_id": c["challenge_id"], "credential": authn.sign_in(&c["options"]) })).await;
        assert_eq!((status, error_code(&v)), (StatusCode::BAD_REQUEST, "challenge_expired"), "{v}");
    }
);

both!(
    async fn a_counter_that_goes_backwards_is_refused_and_changes_nothing(app) {
        let (token, mut authn) = with_passkey(&app, "ana@example.com").await;
        let (_, c) = challenge(&app, json!({})).await;
        let (status, v) = grant(&app, json!({ "challenge_id": c["challenge_id"], "credential": authn.sign_in(&c["options"]) })).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let used = list(&app, &token).await[0]["last_used_at"].clone();

        app.advance(time::Duration::minutes(1));
        authn.counter -= 2; // A clone a step behind.
        let (_, c) = challenge(&app, json!({})).await;
        assert_invalid(grant(&app, json!({ "challenge_id": c["challenge_id"], "credential": authn.sign_in(&c["options"]) })).await, "counter backwards");
        assert_eq!(list(&app, &token).await[0]["last_used_at"], used);
        // The genuine authenticator, counting on, still signs in.
        authn.counter += 5;
        let (_, c) = challenge(&app, json!({})).await;
        let (status, v) = grant(&app, json!({ "challenge_id": c["challenge_id"], "credential": authn.sign_in(&c["options"]) })).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
);

both!(
    async fn a_passkey_is_not_accepted_for_another_account(app) {
        let (_, mut ana) = with_passkey(&app, "ana@example.com").await;
        let (_, bo) = with_passkey(&app, "bo@example.com").await;
        // Ana's credential answering with Bo's user handle: refused.
        let (_, c) = challenge(&app, json!({})).await;
        let mut answer = ana.sign_in(&c["options"]);
        answer["response"]["userHandle"] = json!(bo.user_handle);
        assert_invalid(grant(&app, json!({ "challenge_id": c["challenge_id"], "credential": answer })).await, "another user handle");
        // An unknown or spent mfa_token (the second-factor path) is refused before any passkey.
        let (_, c) = challenge(&app, json!({})).await;
        let (status, v) = grant(&app, json!({ "challenge_id": c["challenge_id"], "credential": ana.sign_in(&c["options"]), "mfa_token": "made-up" })).await;
        assert_eq!((status, error_code(&v)), (StatusCode::UNAUTHORIZED, "invalid_mfa_token"), "{v}");
        let (status, v) = challenge(&app, json!({ "mfa_token": "made-up" })).await;
        assert_eq!((status, error_code(&v)), (StatusCode::UNAUTHORIZED, "invalid_mfa_token"), "{v}");
    }
);
