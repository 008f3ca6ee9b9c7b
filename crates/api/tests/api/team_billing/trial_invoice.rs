//! A team's free trial (the card up front, once, the owner mailed three days before its end, the
//! first charge at its end) and seats paid by invoice (active at once, the invoice sent, overdue
//! past its due date), on stripe-mock's clock.

use closewise_core::store::mail::MailFilter;
use closewise_core::teams::billing::TRIAL_ENDS_MAIL;

use super::*;

const DAY: i64 = 86_400;

async fn wait_for_team(b: &Billing, token: &str, check: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..250 {
        let (status, v) = call(b, reqwest::Method::GET, "/api/team", token, None).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        if check(&v["team"]) {
            return v["team"].clone();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (_, v) = call(b, reqwest::Method::GET, "/api/team", token, None).await;
    panic!("the team never changed: {v}");
}

async fn trial_mails(b: &Billing, to: &str) -> Vec<closewise_core::store::MailRow> {
    let all = b
        .app
        .state
        .store
        .list_mail(Some(to), MailFilter::All, 100)
        .await
        .unwrap();
    all.into_iter()
        .filter(|m| m.kind == TRIAL_ENDS_MAIL)
        .collect()
}

fn trial_body(seats: i64) -> Value {
    let mut body = checkout_body(seats);
    body["trial"] = json!(true);
    body
}

fn invoice_body(seats: i64, interval: &str) -> Value {
    json!({"seats": seats, "interval": interval, "collection": "invoice"})
}

async fn post_checkout(b: &Billing, token: &str, body: Value) -> (StatusCode, Value) {
    call(
        b,
        reqwest::Method::POST,
        "/api/team/checkout",
        token,
        Some(body),
    )
    .await
}

both!(
    async fn a_team_trial_takes_the_card_mails_the_owner_and_converts_at_its_end(backend: Backend) {
        let b = spawn_billing(backend).await;
        let owner = owner_with_team(&b, "ana@northwind.example", "Northwind Sales").await;
        let (status, team) = call(&b, reqwest::Method::GET, "/api/team", &owner.token, None).await;
        assert_eq!(status, StatusCode::OK, "{team}");
        assert_eq!(team["team"]["may"]["start_trial"], true);
        assert_eq!(team["team"]["invoice_min_seats"], 10);

        let (status, v) = post_checkout(&b, &owner.token, trial_body(3)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["collection"], "card");
        assert_eq!(v["seats_active"], false);
        let session_id = v["url"].as_str().unwrap().rsplit('/').next().unwrap();
        let session = b.mock.object(session_id).unwrap();
        assert_eq!(session["amount_total"], 0, "nothing is charged today");
        b.mock.pay(session_id, CARD_OK).expect("the card is taken");
        let (status, v) = confirm(&b, &owner.token, session_id).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let sub = &v["team"]["subscription"];
        assert_eq!(sub["status"], "trialing");
        let trial_end = sub["trial_end"].as_i64().expect("trial_end");
        assert!((trial_end - (b.mock.now() + 14 * DAY)).abs() <= 5, "{sub}");
        assert_eq!(v["team"]["paid"], true);
        assert_eq!(v["team"]["may"]["start_trial"], false, "one trial");
        let member = join(&b, &owner, "rep@northwind.example", Role::Member).await;
        let e = entitlements(&b, &member.token).await;
        assert_eq!(
            (e["unlimited"].clone(), e["source"].clone()),
            (json!(true), json!("team"))
        );

        // Three days before the end, the owner is told once.
        b.mock.advance_clock(11 * DAY + 60);
        for _ in 0..250 {
            if !trial_mails(&b, "ana@northwind.example").await.is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let mails = trial_mails(&b, "ana@northwind.example").await;
        assert_eq!(mails.len(), 1, "{mails:?}");
        assert!(
            mails[0]
                .subject
                .starts_with("The free trial of Northwind Sales ends on "),
            "{}",
            mails[0].subject
        );
        assert!(mails[0].text_body.contains("its 3 seats are charged"));
        assert!(trial_mails(&b, "rep@northwind.example").await.is_empty());

        // At its end the card is charged: active.
        b.mock.advance_clock(3 * DAY);
        let t = wait_for_team(&b, &owner.token, |t| {
            t["subscription"]["status"] == "active"
        })
        .await;
        assert!(t["subscription"]["trial_end"].is_null(), "{t}");
        assert_eq!(t["paid"], true);
        assert_eq!(trial_mails(&b, "ana@northwind.example").await.len(), 1);
    }
);

both!(
    async fn a_second_trial_is_refused_for_the_team_and_a_trial_is_never_by_invoice(
        backend: Backend,
    ) {
        let b = spawn_billing(backend).await;
        let owner = owner_with_team(&b, "ana@northwind.example", "Northwind Sales").await;
        let (status, v) = post_checkout(&b, &owner.token, {
            let mut body = invoice_body(12, "year");
            body["trial"] = json!(true);
            body
        })
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::UNPROCESSABLE_ENTITY, "trial_needs_card"),
            "{v}"
        );
        let (_, v) = post_checkout(&b, &owner.token, trial_body(2)).await;
        let session_id = v["url"].as_str().unwrap().rsplit('/').next().unwrap();
        b.mock.pay(session_id, CARD_OK).unwrap();
        let (_, v) = confirm(&b, &owner.token, session_id).await;
        let sub_id = team_row(&b, &owner).await.subscription_id.unwrap();
        assert_eq!(v["team"]["subscription"]["status"], "trialing");
        // The trial is cancelled at Stripe: the team may buy again, but not try again.
        let res = b
            .app
            .client
            .delete(format!("{}/v1/subscriptions/{sub_id}", b.mock_url))
            .bearer_auth(closewise_api::config::DEV_STRIPE_SECRET_KEY)
            .send()
            .await
            .unwrap();
        assert!(res.status().is_success());
        let t = wait_for_team(&b, &owner.token, |t| {
            t["subscription"]["status"] == "canceled"
        })
        .await;
        assert_eq!(
            (
                t["may"]["buy_seats"].clone(),
                t["may"]["start_trial"].clone()
            ),
            (json!(true), json!(false))
        );
        let (status, v) = post_checkout(&b, &owner.token, trial_body(2)).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "trial_already_used"),
            "{v}"
        );
        assert_eq!(
            error_message(&v),
            "Your team has already had its free trial. Buy seats to keep going."
        );
        let (status, v) = start_checkout(&b, &owner.token, 2).await;
        assert_eq!(status, StatusCode::OK, "buying is fine: {v}");
    }
);

both!(
    async fn ten_yearly_seats_paid_by_invoice_are_active_at_once_and_past_due_when_overdue(
        backend: Backend,
    ) {
        let b = spawn_billing(backend).await;
        let owner = owner_with_team(&b, "ana@northwind.example", "Northwind Sales").await;
        for body in [invoice_body(9, "year"), invoice_body(12, "month")] {
            let (status, v) = post_checkout(&b, &owner.token, body).await;
            assert_eq!(
                (status, error_code(&v)),
                (StatusCode::UNPROCESSABLE_ENTITY, "invoice_not_allowed"),
                "{v}"
            );
            assert_eq!(
                error_message(&v),
                "Paying by invoice needs at least 10 seats, billed yearly."
            );
        }
        let (status, v) = post_checkout(
            &b,
            &owner.token,
            json!({"seats": 12, "interval": "year", "collection": "cheque"}),
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_REQUEST, "invalid_collection"),
            "{v}"
        );

        let (status, v) = post_checkout(&b, &owner.token, invoice_body(12, "year")).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["collection"], "invoice");
        assert_eq!(v["seats_active"], true);
        let invoice = &v["invoice"];
        assert_eq!(invoice["amount_due"], 12 * 20_000);
        assert_eq!(invoice["url"], v["url"]);
        let due = invoice["due_date"].as_i64().unwrap();
        assert!((due - (b.mock.now() + 30 * DAY)).abs() <= 5, "{invoice}");
        let sub_id = team_row(&b, &owner)
            .await
            .subscription_id
            .expect("stored at once");
        let sub = b.mock.object(&sub_id).unwrap();
        assert_eq!(sub["collection_method"], "send_invoice");
        assert_eq!(sub["days_until_due"], 30);
        let (_, t) = call(&b, reqwest::Method::GET, "/api/team", &owner.token, None).await;
        assert_eq!(t["team"]["subscription"]["status"], "active");
        assert_eq!(t["team"]["subscription"]["interval"], "year");
        assert_eq!(t["team"]["seats"]["total"], 12);
        let e = entitlements(&b, &owner.token).await;
        assert_eq!(e["unlimited"], true, "{e}");
        // Stripe sent it to the team's billing address.
        let sent: Value = b
            .app
            .client
            .get(format!("{}/_mock/sent_invoices", b.mock_url))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert_eq!(sent["data"][0]["invoice"], invoice["id"]);
        assert_eq!(sent["data"][0]["to"], "ana@northwind.example");
        // A second purchase is refused while it runs.
        let (status, v) = post_checkout(&b, &owner.token, invoice_body(12, "year")).await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "team_already_subscribed"),
            "{v}"
        );

        // Unpaid past its due date: past due.
        b.mock.advance_clock(31 * DAY);
        let t = wait_for_team(&b, &owner.token, |t| {
            t["subscription"]["status"] == "past_due"
        })
        .await;
        assert_eq!(t["payment_failed"], true, "{t}");
    }
);
