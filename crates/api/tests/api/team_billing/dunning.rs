//! A team's failed payment on stripe-mock's clock: the team says past due with Stripe's next try,
//! its owner (never a plain member) is mailed on each failure, the seats stay paid through the
//! retries, and the retries exhausted end the seats with a mail to the owner.

use super::*;

const DAY: i64 = 86_400;

/// Sets a card in the team's billing portal (the owner's), as the portal's form does.
async fn team_portal_card(b: &Billing, owner: &Person, card: &str) {
    let (status, v) = call(
        b,
        reqwest::Method::POST,
        "/api/team/billing/portal",
        &owner.token,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let resp = b
        .app
        .client
        .post(format!("{}/card", v["url"].as_str().unwrap()))
        .form(&[("cardnumber", card), ("exp", "12 / 34"), ("cvc", "123")])
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::SEE_OTHER);
}

async fn team_of(b: &Billing, token: &str) -> Value {
    let (status, v) = call(b, reqwest::Method::GET, "/api/team", token, None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v["team"].clone()
}

async fn wait_for_team(b: &Billing, token: &str, check: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..250 {
        let team = team_of(b, token).await;
        if check(&team) {
            return team;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the team never got there: {}", team_of(b, token).await);
}

both!(
    async fn a_teams_failed_renewal_is_mailed_to_its_owner_until_the_retries_end_the_seats(
        backend: Backend,
    ) {
        let b = spawn_billing(backend).await;
        let owner_email = "ana@northwind.example";
        let owner = owner_with_team(&b, owner_email, "Northwind Sales").await;
        let session_id = buy(&b, &owner.token, 2).await;
        confirm(&b, &owner.token, &session_id).await;
        let member = join(&b, &owner, "rep@northwind.example", Role::Member).await;
        team_portal_card(&b, &owner, "4000 0000 0000 0341").await;
        let end = team_of(&b, &owner.token).await["subscription"]["current_period_end"]
            .as_i64()
            .unwrap();
        b.mock.advance_clock(end - b.mock.now() + 60);

        let team = wait_for_team(&b, &owner.token, |t| {
            t["subscription"]["attempt_count"] == 1
        })
        .await;
        let sub = &team["subscription"];
        assert_eq!(sub["status"], "past_due");
        assert_eq!(team["payment_failed"], true);
        let since = sub["past_due_since"].as_i64().unwrap();
        assert_eq!(sub["next_payment_attempt"], json!(since + DAY), "{sub}");
        let e = entitlements(&b, &member.token).await;
        assert_eq!(
            (e["unlimited"].as_bool(), e["warning"].as_str()),
            (Some(true), Some("payment_failed")),
            "seats stay paid through the retries, with the desktop's warning: {e}"
        );
        let mails = b.app.mails_to(owner_email).await;
        let failed: Vec<_> = mails
            .iter()
            .filter(|m| m.kind == "payment_failed")
            .collect();
        assert_eq!(failed.len(), 1);
        assert!(
            failed[0].subject.starts_with("Northwind Sales"),
            "{}",
            failed[0].subject
        );
        assert!(failed[0]
            .text_body
            .contains(&format!("{BASE}/team#update-card")));
        assert!(
            b.app
                .mails_to("rep@northwind.example")
                .await
                .iter()
                .all(|m| m.kind != "payment_failed"),
            "never a plain member"
        );
        let past_due = b.app.state.billing.past_due().await.unwrap();
        assert_eq!(past_due.len(), 1);
        assert_eq!(past_due[0].email.as_deref(), Some(owner_email));
        assert_eq!(past_due[0].team.as_deref(), Some("Northwind Sales"));

        b.mock.advance_clock(8 * DAY);
        let team = wait_for_team(&b, &owner.token, |t| {
            t["subscription"]["status"] == "canceled"
                && t["subscription"]["past_due_since"].is_null()
        })
        .await;
        assert_eq!(team["payment_failed"], false);
        let ended = wait_for_mail(&b, owner_email, "subscription_ended_unpaid").await;
        assert!(ended.text_body.contains(&format!("{BASE}/team")));
        let e = entitlements(&b, &member.token).await;
        assert_eq!(e["unlimited"], false, "{e}");
    }
);

async fn wait_for_mail(b: &Billing, to: &str, kind: &str) -> closewise_core::store::MailRow {
    for _ in 0..250 {
        if let Some(m) = b
            .app
            .mails_to(to)
            .await
            .into_iter()
            .find(|m| m.kind == kind)
        {
            return m;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("no {kind} mail to {to}");
}
