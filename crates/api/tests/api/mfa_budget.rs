//! Every endpoint that checks a second-factor code spends one budget of the account: the sign-in
//! budget of failed checks (`RATE_LIMIT_FAILED_SIGNINS_PER_ACCOUNT`, then a doubling delay). Past
//! it, every one of them answers `429` with `Retry-After`, even for the right code.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::both;
use crate::helpers::*;
use crate::mfa::{code, enrolled, next_step, PASSWORD};

/// The endpoints that check a code.
#[derive(Clone, Copy, Debug)]
enum Check {
    /// `grant_type=mfa`, with an `mfa_token` taken before.
    Grant,
    /// `POST /api/auth/reauthenticate` with the password and the code.
    StepUp,
    /// `POST /api/auth/mfa/recovery-codes`.
    NewRecoveryCodes,
    /// `DELETE /api/auth/mfa/totp`.
    Disable,
}

const CHECKS: [Check; 4] = [
    Check::Grant,
    Check::StepUp,
    Check::NewRecoveryCodes,
    Check::Disable,
];

struct Account {
    token: String,
    secret: String,
    mfa_token: String,
}

async fn account(app: &TestApp, email: &str) -> Account {
    let (token, secret, _) = enrolled(app, email).await;
    let r = app
        .client
        .post(app.url("/api/auth/token?grant_type=password"))
        .json(&json!({ "email": email, "password": PASSWORD }))
        .send()
        .await
        .unwrap();
    let (s, v) = body(r).await;
    assert_eq!(
        (s, error_code(&v)),
        (StatusCode::UNAUTHORIZED, "mfa_required"),
        "{v}"
    );
    Account {
        token,
        secret,
        mfa_token: v["error"]["mfa_token"].as_str().unwrap().to_string(),
    }
}

/// Presents `code` to `check`: the status, the `Retry-After` header and the body.
async fn present(
    app: &TestApp,
    a: &Account,
    check: Check,
    code: &str,
) -> (StatusCode, Option<String>, Value) {
    let req = match check {
        Check::Grant => app
            .client
            .post(app.url("/api/auth/token?grant_type=mfa"))
            .json(&json!({ "mfa_token": a.mfa_token, "code": code })),
        Check::StepUp => app
            .client
            .post(app.url("/api/auth/reauthenticate"))
            .bearer_auth(&a.token)
            .json(&json!({ "password": PASSWORD, "code": code })),
        Check::NewRecoveryCodes => app
            .client
            .post(app.url("/api/auth/mfa/recovery-codes"))
            .bearer_auth(&a.token)
            .json(&json!({ "code": code })),
        Check::Disable => app
            .client
            .delete(app.url("/api/auth/mfa/totp"))
            .bearer_auth(&a.token)
            .json(&json!({ "code": code })),
    };
    let r = req.send().await.unwrap();
    let retry = r
        .headers()
        .get("retry-after")
        .map(|h| h.to_str().unwrap().to_string());
    let (s, v) = body(r).await;
    (s, retry, v)
}

both!(
    async fn every_code_check_spends_the_accounts_one_budget_and_refuses_past_it(app) with |s| {
        s.limits.failed_signins_per_account = 3;
        s.limits.failed_signins_per_account_ip = 100;
    } {
        // Right codes spend nothing: more of them than the budget holds all pass.
        let a = account(&app, "ok@example.com").await;
        for _ in 0..4 {
            let (s, _, v) = present(&app, &a, Check::NewRecoveryCodes, &code(&app, &a.secret, 0)).await;
            assert_eq!(s, StatusCode::OK, "{v}");
            next_step(&app);
        }

        for (i, spender) in CHECKS.into_iter().enumerate() {
            let a = account(&app, &format!("user{i}@example.com")).await;
            // Step-up checks the (right) password first, which spends a check too (refunded): its
            // third attempt finds the account's delay already started.
            let wrong = if matches!(spender, Check::StepUp) { 2 } else { 3 };
            for i in 0..3 {
                let (s, _, v) = present(&app, &a, spender, "000000").await;
                let expected = if i < wrong { "invalid_code" } else { "too_many_attempts" };
                assert_eq!(error_code(&v), expected, "{spender:?} #{i}: {s} {v}");
            }
            let right = code(&app, &a.secret, 0);
            for check in CHECKS {
                let (s, retry, v) = present(&app, &a, check, &right).await;
                assert_eq!(
                    s,
                    StatusCode::TOO_MANY_REQUESTS,
                    "three wrong codes at {spender:?}, the right one at {check:?}: {v}"
                );
                let retry: u64 = retry.expect("Retry-After").parse().unwrap();
                assert!(retry >= 1, "{retry}");
            }
            // The delay runs out: the right code passes again, and was not spent by the refusals.
            app.advance(time::Duration::seconds(1));
            let (s, _, v) = present(&app, &a, Check::NewRecoveryCodes, &right).await;
            assert_eq!(s, StatusCode::OK, "after the wait, {spender:?}: {v}");
        }
    }
);
