use reqwest::StatusCode;
use serde_json::json;

use crate::both;

both!(
    async fn a_new_signup_creates_the_user_its_free_plan_and_one_verification_mail(app) {
        let (status, answer) = body(app.signup("  Ana@Example.com ", "sales-pro-2026").await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(answer, json!({ "email": "ana@example.com" }));

        let user = app.state.store.user_by_email("ana@example.com").await.unwrap().expect("user stored");
        assert!(user.email_confirmed_at.is_none());
        assert!(user.password_hash.starts_with("$argon2id$"), "passwords are hashed");
        let plan = app.state.store.plan_for(user.id, app.state.clock.now()).await.unwrap();
        assert_eq!((plan.plan_type.as_str(), plan.status.as_str()), ("free", "active"));
        let mails = app.mails_to("ana@example.com").await;
        assert_eq!(mails.len(), 1);
        assert_eq!(mails[0].kind, "verification");
        assert!(mails[0].text_body.contains("http://127.0.0.1:8080/verify?token="));
    }
);

both!(
    async fn a_duplicate_signup_answers_alike_and_sends_exactly_one_notice(app) {
        app.signed_in_user("bo@example.com", "sales-pro-2026").await;
        let before = app.mails_to("bo@example.com").await.len();

        let (status, answer) = body(app.signup("bo@example.com", "another-pass-99").await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(answer, json!({ "email": "bo@example.com" }), "same answer as a new sign-up");
        let mails = app.mails_to("bo@example.com").await;
        assert_eq!(mails.len(), before + 1, "exactly one notice");
        assert_eq!(mails[0].kind, "already_registered");

        // The password did not change.
        assert_eq!(app.signin("bo@example.com", "sales-pro-2026").await.status(), StatusCode::OK);
    }
);

both!(
    async fn a_duplicate_signup_of_an_unconfirmed_account_resends_its_verification_at_most_once_a_minute(app) {
        app.signup("cy@example.com", "sales-pro-2026").await;
        app.signup("cy@example.com", "sales-pro-2026").await;
        assert_eq!(app.mails_to("cy@example.com").await.len(), 1, "within a minute: no second mail");
        app.advance(time::Duration::seconds(61));
        app.signup("cy@example.com", "sales-pro-2026").await;
        let mails = app.mails_to("cy@example.com").await;
        assert_eq!(mails.len(), 2);
        assert!(mails.iter().all(|m| m.kind == "verification"));
    }
);

both!(
    async fn concurrent_signups_for_one_email_make_one_user_and_one_mail(app) {
        let mut tasks = Vec::new();
        for _ in 0..10 {
            let client = app.client.clone();
            let url = app.url("/api/auth/signup");
            tasks.push(tokio::spawn(async move {
                client.post(url).json(&json!({ "email": "dee@example.com", "password": "sales-pro-2026" })).send().await.unwrap().status()
            }));
        }
        for t in tasks {
            assert_eq!(t.await.unwrap(), StatusCode::OK);
        }
        assert_eq!(app.mails_to("dee@example.com").await.len(), 1);
        assert_eq!(app.state.store.list_users(100).await.unwrap().len(), 1);
    }
);

both!(
    async fn invalid_signups_are_refused_with_the_specs_messages(app) {
        let cases = [
            ("not-an-email", "sales-pro-2026", "invalid_email", "Please enter a valid email address"),
            ("", "sales-pro-2026", "invalid_email", "Email is required"),
            ("ed@example.com", "abc", "weak_password", "Password must be at least 6 characters"),
            ("ed@example.com", "password", "weak_password", "This password is too common. Please choose another one"),
        ];
        for (email, password, code, message) in cases {
            let (status, v) = body(app.signup(email, password).await).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "case {email:?}/{password:?}");
            assert_eq!(error_code(&v), code, "case {email:?}/{password:?}");
            assert_eq!(error_message(&v), message, "case {email:?}/{password:?}");
        }
        let long = "x".repeat(129);
        let (_, v) = body(app.signup("ed@example.com", &long).await).await;
        assert_eq!(error_message(&v), "Password must be at most 128 characters");
        assert!(app.state.store.list_users(10).await.unwrap().is_empty(), "nothing stored");
    }
);

both!(
    async fn the_verification_link_carries_a_same_origin_next_and_drops_any_other(app) {
        let intent = "/pricing?checkout=price_closewise_monthly";
        let signup = |email: &'static str, next: &'static str| {
            app.post("/api/auth/signup", json!({ "email": email, "password": "sales-pro-2026", "next": next }))
        };
        let (status, answer) = body(signup("ana@example.com", intent).await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(answer, json!({ "email": "ana@example.com" }), "next changes nothing in the answer");
        let link = app.mails_to("ana@example.com").await[0].link.clone().expect("a link");
        assert!(
            link.starts_with("http://127.0.0.1:8080/verify?token=")
                && link.ends_with("&next=%2Fpricing%3Fcheckout%3Dprice_closewise_monthly"),
            "{link}"
        );

        for (email, next) in [("bo@example.com", "//evil.example/"), ("cy@example.com", "https://evil.example/")] {
            let (status, _) = body(signup(email, next).await).await;
            assert_eq!(status, StatusCode::OK, "{next} is ignored, not refused");
            let link = app.mails_to(email).await[0].link.clone().expect("a link");
            assert!(!link.contains("next="), "{next} is dropped: {link}");
        }

        // Resend carries it too.
        app.advance(time::Duration::seconds(61));
        let res = app
            .post("/api/auth/resend", json!({ "email": "ana@example.com", "type": "signup", "next": intent }))
            .await;
        assert_eq!(res.status(), StatusCode::OK);
        let link = app.mails_to("ana@example.com").await[0].link.clone().expect("a link");
        assert!(link.ends_with("&next=%2Fpricing%3Fcheckout%3Dprice_closewise_monthly"), "{link}");
    }
);
