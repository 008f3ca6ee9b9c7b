//! Reclaiming idle seats: the usage report's offer, the dry run priced by Stripe's
//! preview, the confirmed reclaim removing the members and lowering the seats with proration, its
//! refusals, and the weekly idle-seats mail once a week.

use closewise_core::teams::idle_mail::{IdleSeatMails, IDLE_SEATS_MAIL};

use super::*;

async fn paid_team(b: &Billing, email: &str, seats: i64) -> (Person, String) {
    let owner = owner_with_team(b, email, "Northwind Sales").await;
    let session_id = buy(b, &owner.token, seats).await;
    let (status, v) = confirm(b, &owner.token, &session_id).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let sub = team_row(b, &owner).await.subscription_id.unwrap();
    (owner, sub)
}

async fn reclaim(b: &Billing, token: &str, body: Value) -> (StatusCode, Value) {
    call(
        b,
        reqwest::Method::POST,
        "/api/team/reclaim",
        token,
        Some(body),
    )
    .await
}

/// `email` joined the team at `at` (RFC 3339, long ago) and has not used a session since.
async fn long_idle(b: &Billing, email: &str, at: &str) {
    let user = format!("(SELECT id FROM users WHERE email = '{email}')");
    b.app
        .execute(&format!(
            "UPDATE team_members SET joined_at = '{at}' WHERE user_id = {user}"
        ))
        .await;
    b.app
        .execute(&format!(
            "UPDATE sessions SET refreshed_at = '{at}', last_seen_at = NULL WHERE user_id = {user}"
        ))
        .await;
}

both!(
    async fn reclaiming_an_idle_member_removes_them_and_lowers_seats_with_proration(
        backend: Backend,
    ) {
        let b = spawn_billing(backend).await;
        let (mut owner, sub) = paid_team(&b, "ana@northwind.example", 3).await;
        let idle = join(&b, &owner, "idle@northwind.example", Role::Member).await;
        let mut admin = join(&b, &owner, "dee@northwind.example", Role::Admin).await;
        b.mock.advance_clock(10 * 86_400);
        b.app.advance(time::Duration::days(10));
        // Both joined long ago and have not signed in since; the owner signs in today.
        long_idle(&b, "idle@northwind.example", "2000-01-01T00:00:00Z").await;
        long_idle(&b, "dee@northwind.example", "2000-01-02T00:00:00Z").await;
        let (_, session) = body(b.app.signin("ana@northwind.example", PASSWORD).await).await;
        owner.token = session["access_token"].as_str().unwrap().to_owned();

        // The report offers it: the two members idle (in the team over 30 days, no call, no
        // sign-in), both removable, down to one seat.
        let (status, u) = call(
            &b,
            reqwest::Method::GET,
            "/api/team/adoption",
            &owner.token,
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{u}");
        assert_eq!(u["may_reclaim"], true);
        assert_eq!(
            u["reclaim"],
            json!({"idle_members": 2, "seats": 1, "seats_freed": 2, "monthly_saving": 4000, "currency": "usd", "user_ids": [idle.id, admin.id]})
        );
        let (_, session) = body(b.app.signin("dee@northwind.example", PASSWORD).await).await;
        admin.token = session["access_token"].as_str().unwrap().to_owned();

        // Refusals: the owner cannot be removed, seats never go up, nor below those left.
        let (status, v) = reclaim(
            &b,
            &owner.token,
            json!({"user_ids": [owner.id], "seats": 2, "dry_run": true}),
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::FORBIDDEN, "forbidden_role"),
            "{v}"
        );
        let (status, v) = reclaim(
            &b,
            &owner.token,
            json!({"user_ids": [idle.id], "seats": 4, "dry_run": true}),
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_REQUEST, "invalid_seats"),
            "{v}"
        );
        let (status, v) = reclaim(
            &b,
            &owner.token,
            json!({"user_ids": [idle.id], "seats": 1, "dry_run": true}),
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "seats_in_use"),
            "{v}"
        );
        let (status, v) = reclaim(
            &b,
            &owner.token,
            json!({"user_ids": [Uuid::now_v7()], "seats": 2, "dry_run": true}),
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_REQUEST, "not_a_member"),
            "{v}"
        );
        // Admins see usage but do not change seats.
        let (status, v) = reclaim(
            &b,
            &admin.token,
            json!({"user_ids": [idle.id], "seats": 2, "dry_run": true}),
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::FORBIDDEN, "forbidden_role"),
            "{v}"
        );

        // The dry run prices it as the seat change's preview does, and changes nothing.
        let (status, p) = reclaim(
            &b,
            &owner.token,
            json!({"user_ids": [idle.id], "seats": 2, "dry_run": true}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{p}");
        assert_eq!(p["dry_run"], true);
        assert_eq!(
            p["removed"],
            json!([{"user_id": idle.id, "email": "idle@northwind.example"}])
        );
        assert_eq!(p["team"], Value::Null);
        let preview = &p["preview"];
        assert_eq!(preview["next_total"], 4000, "{p}");
        let due = preview["amount_due_now"].as_i64().unwrap();
        assert!(
            due < 0 && due > -2000,
            "a credit for the unused part of the month: {p}"
        );
        assert_eq!(stripe_quantity(&b, &sub), 3);
        assert!(b
            .app
            .state
            .store
            .membership_of(idle.id)
            .await
            .unwrap()
            .is_some());

        // Confirmed with the preview's date: the member is gone, every session of theirs ended,
        // and the seats lowered at Stripe.
        let idle_sessions = crate::team::removal::sessions(&b.app, "idle@northwind.example").await;
        let proration_date = preview["proration_date"].as_i64().unwrap();
        let (status, v) = reclaim(
            &b,
            &owner.token,
            json!({"user_ids": [idle.id], "seats": 2, "proration_date": proration_date}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(
            (v["dry_run"].as_bool(), v["seats"].as_u64()),
            (Some(false), Some(2))
        );
        assert_eq!(
            v["team"]["seats"],
            json!({"total": 2, "used": 2, "free": 0})
        );
        assert_eq!(v["team"]["members"].as_array().unwrap().len(), 2);
        assert_eq!(stripe_quantity(&b, &sub), 2);
        assert_eq!(team_row(&b, &owner).await.seats, 2);
        assert!(b
            .app
            .state
            .store
            .membership_of(idle.id)
            .await
            .unwrap()
            .is_none());
        crate::team::removal::assert_locked_out(&b.app, &idle_sessions, "reclaimed").await;
        // The next invoice carries exactly the proration that was shown.
        let customer = team_row(&b, &owner).await.stripe_customer_id.unwrap();
        let next = stripe_post(
            &b,
            "/v1/invoices/create_preview",
            &[("customer", customer), ("subscription", sub.clone())],
        )
        .await;
        let prorated: i64 = next["lines"]["data"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["parent"]["subscription_item_details"]["proration"] == true)
            .map(|l| l["amount"].as_i64().unwrap())
            .sum();
        assert_eq!(prorated, due, "{next}");

        // Both steps are on the team's activity, by the owner.
        let (status, a) = call(
            &b,
            reqwest::Method::GET,
            "/api/team/audit?action=team.member_remove,team.seats",
            &owner.token,
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{a}");
        let entries = a["entries"].as_array().unwrap();
        assert_eq!(entries[0]["action"], "team.seats");
        assert_eq!(
            entries[0]["details"]["seats"],
            json!({"before": 3, "after": 2})
        );
        assert_eq!(entries[1]["action"], "team.member_remove");
        assert_eq!(entries[1]["target_email"], "idle@northwind.example");
        assert_eq!(entries[1]["details"]["reclaim"], true);
        assert!(entries
            .iter()
            .all(|e| e["actor"] == "ana@northwind.example"));
    }
);

both!(
    async fn the_owner_is_mailed_idle_seats_once_a_week(backend: Backend) {
        let b = spawn_billing(backend).await;
        let (owner, _) = paid_team(&b, "ana@northwind.example", 3).await;
        join(&b, &owner, "idle@northwind.example", Role::Member).await;
        join(&b, &owner, "new@northwind.example", Role::Member).await;
        long_idle(&b, "idle@northwind.example", "2000-01-01T00:00:00Z").await;
        let mails = IdleSeatMails::new(
            b.app.state.store.clone(),
            b.app.state.clock.clone(),
            b.app.state.mail.clone(),
        );
        let idle_mails = |all: Vec<closewise_core::store::MailRow>| {
            all.into_iter()
                .filter(|m| m.kind == IDLE_SEATS_MAIL)
                .collect::<Vec<_>>()
        };

        assert_eq!(mails.send_due().await.unwrap(), 1);
        // Again the same week (another sweep, another replica): nothing more.
        assert_eq!(mails.send_due().await.unwrap(), 0);
        let sent = idle_mails(b.app.mails_to("ana@northwind.example").await);
        assert_eq!(sent.len(), 1);
        let m = &sent[0];
        assert!(m.subject.contains("Northwind Sales"), "{}", m.subject);
        // Idle's seat only (the new member keeps theirs), 20 USD.
        assert!(
            m.text_body.contains("idle@northwind.example"),
            "{}",
            m.text_body
        );
        assert!(
            m.text_body
                .contains("lowers the team's seats by 1 and saves 20.00 USD a month"),
            "{}",
            m.text_body
        );
        assert!(
            m.text_body.contains("/team#team-adoption"),
            "{}",
            m.text_body
        );
        assert!(
            !m.text_body.contains("ana@northwind.example"),
            "the owner is never idle-listed"
        );
        assert!(
            !m.text_body.contains("new@northwind.example"),
            "a member who joined this month is not idle"
        );

        b.app.advance(time::Duration::days(7));
        assert_eq!(mails.send_due().await.unwrap(), 1, "a new week");
        assert_eq!(
            idle_mails(b.app.mails_to("ana@northwind.example").await).len(),
            2
        );
    }
);
