//! Seats never fall below members: the team's portal offers no quantity
//! change, and a quantity Stripe lowers below the members anyway is recorded as over seats —
//! nobody dropped, nobody new let in (`409 team_over_seats`), the owner told on `/team` and once
//! by mail — until the seats cover the members again.

use closewise_core::store::mail::MailFilter;
use closewise_core::teams::billing::OVER_SEATS_MAIL;

use super::*;

/// Lowers the quantity at Stripe, as its dashboard would; the webhook brings it to the team.
async fn lower_at_stripe(b: &Billing, sub: &str, quantity: u32) {
    let item = b.mock.object(sub).unwrap()["items"]["data"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    stripe_post(
        b,
        &format!("/v1/subscription_items/{item}"),
        &[("quantity", quantity.to_string())],
    )
    .await;
}

async fn wait_for_team(b: &Billing, token: &str, check: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..250 {
        let (status, v) = call(b, reqwest::Method::GET, "/api/team", token, None).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        if check(&v["team"]) {
            return v["team"].clone();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the team never changed");
}

async fn over_seats_mails(b: &Billing, to: &str) -> Vec<closewise_core::store::MailRow> {
    let all = b
        .app
        .state
        .store
        .list_mail(Some(to), MailFilter::All, 100)
        .await
        .unwrap();
    all.into_iter()
        .filter(|m| m.kind == OVER_SEATS_MAIL)
        .collect()
}

/// Waits until every event so far was delivered and answered 2xx (processed, mail included).
async fn settled(b: &Billing) {
    for _ in 0..250 {
        let ids: Vec<String> = b
            .mock
            .events()
            .iter()
            .map(|e| e["id"].as_str().unwrap().to_owned())
            .collect();
        let done = b.mock.deliveries();
        if ids.iter().all(|id| {
            done.iter()
                .any(|d| &d.event_id == id && d.status.is_some_and(|s| (200..300).contains(&s)))
        }) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("webhooks never settled");
}

/// The mail is queued just after the seats are stored: wait for the `n`th.
async fn wait_for_mails(b: &Billing, to: &str, n: usize) -> Vec<closewise_core::store::MailRow> {
    for _ in 0..250 {
        let mails = over_seats_mails(b, to).await;
        if mails.len() >= n {
            return mails;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    over_seats_mails(b, to).await
}

async fn invite(b: &Billing, token: &str, email: &str) -> (StatusCode, Value) {
    call(
        b,
        reqwest::Method::POST,
        "/api/team/invites",
        token,
        Some(json!({"email": email, "role": "member"})),
    )
    .await
}

both!(
    async fn a_webhook_lowering_seats_below_members_keeps_everyone_stops_invites_and_mails_the_owner_once(
        backend: Backend,
    ) {
        let b = spawn_billing(backend).await;
        let owner = owner_with_team(&b, "ana@northwind.example", "Northwind").await;
        buy(&b, &owner.token, 3).await;
        wait_for_entitlements(&b, &owner.token, |e| e["unlimited"] == true).await;
        let rep = join(&b, &owner, "rep@northwind.example", Role::Member).await;
        let adm = join(&b, &owner, "adm@northwind.example", Role::Admin).await;
        let sub = team_row(&b, &owner).await.subscription_id.unwrap();
        let t = wait_for_team(&b, &owner.token, |t| t["seats"]["total"] == 3).await;
        assert_eq!(
            (t["over_seats"].clone(), t["seats_missing"].clone()),
            (json!(false), json!(0))
        );

        lower_at_stripe(&b, &sub, 1).await;
        let t = wait_for_team(&b, &owner.token, |t| t["seats"]["total"] == 1).await;
        assert_eq!(t["over_seats"], true, "{t}");
        assert_eq!(t["seats_missing"], 2);
        assert_eq!(
            t["members"].as_array().unwrap().len(),
            3,
            "nobody was dropped"
        );
        for p in [&owner, &rep, &adm] {
            assert_eq!(entitlements(&b, &p.token).await["unlimited"], true);
        }
        let (_, seen) = call(&b, reqwest::Method::GET, "/api/team", &rep.token, None).await;
        assert_eq!(seen["team"]["over_seats"], true);

        // Nobody new gets in: invites (the owner's and an admin's) and domain-join approvals.
        for token in [&owner.token, &adm.token] {
            let (status, v) = invite(&b, token, "new@northwind.example").await;
            assert_eq!(
                (status, error_code(&v)),
                (StatusCode::CONFLICT, "team_over_seats"),
                "{v}"
            );
            assert_eq!(
                error_message(&v),
                "The team has fewer seats than members (2 missing). Add seats or remove members before anyone else joins."
            );
        }
        crate::helpers::verified_domain(&b.app, owner.id, "northwind.example").await;
        let (status, v) = call(
            &b,
            reqwest::Method::PUT,
            "/api/team/domain-join",
            &owner.token,
            Some(json!({"domain": "northwind.example"})),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let asker = person(&b, "ask@northwind.example").await;
        let team_id = team_row(&b, &owner).await.id;
        let (status, v) = call(
            &b,
            reqwest::Method::POST,
            "/api/team/join-requests",
            &asker.token,
            Some(json!({"team_id": team_id})),
        )
        .await;
        assert_eq!(status, StatusCode::ACCEPTED, "{v}");
        let (_, requests) = call(
            &b,
            reqwest::Method::GET,
            "/api/team/join-requests",
            &owner.token,
            None,
        )
        .await;
        let request = requests["requests"][0]["id"].as_str().unwrap().to_owned();
        let (status, v) = call(
            &b,
            reqwest::Method::POST,
            &format!("/api/team/join-requests/{request}/approve"),
            &owner.token,
            None,
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::CONFLICT, "team_over_seats"),
            "{v}"
        );

        // The owner is mailed once for the episode, not again for a further change while over.
        let mails = wait_for_mails(&b, "ana@northwind.example", 1).await;
        assert_eq!(mails.len(), 1, "{mails:?}");
        assert_eq!(mails[0].subject, "Northwind has fewer seats than members");
        assert!(
            mails[0]
                .text_body
                .contains("1 seat for 3 members: 2 seats missing"),
            "{}",
            mails[0].text_body
        );
        assert!(mails[0].text_body.contains(&format!("{BASE}/team")));
        lower_at_stripe(&b, &sub, 2).await;
        wait_for_team(&b, &owner.token, |t| t["seats_missing"] == 1).await;
        settled(&b).await;
        assert_eq!(over_seats_mails(&b, "ana@northwind.example").await.len(), 1);
        for p in ["rep@northwind.example", "adm@northwind.example"] {
            assert!(over_seats_mails(&b, p).await.is_empty());
        }
        let audit = b
            .app
            .state
            .store
            .audit_of(Some(owner.id), "ana@northwind.example", 50)
            .await
            .unwrap();
        assert_eq!(
            audit
                .iter()
                .filter(|a| a.action == "team.over_seats")
                .count(),
            1,
            "{audit:?}"
        );

        // Raising the seats again clears it; the next drop is a new episode, mailed again.
        let (status, v) = call(
            &b,
            reqwest::Method::PUT,
            "/api/team/seats",
            &owner.token,
            Some(json!({"seats": 4})),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let t = wait_for_team(&b, &owner.token, |t| t["seats"]["total"] == 4).await;
        assert_eq!(
            (t["over_seats"].clone(), t["seats_missing"].clone()),
            (json!(false), json!(0))
        );
        let (status, v) = invite(&b, &owner.token, "new@northwind.example").await;
        assert_eq!(status, StatusCode::ACCEPTED, "{v}");
        lower_at_stripe(&b, &sub, 2).await;
        wait_for_team(&b, &owner.token, |t| t["over_seats"] == true).await;
        assert_eq!(
            wait_for_mails(&b, "ana@northwind.example", 2).await.len(),
            2
        );
    }
);

both!(
    async fn the_teams_portal_is_opened_with_one_configuration_that_offers_no_quantity_change(
        backend: Backend,
    ) {
        let b = spawn_billing(backend).await;
        b.mock.set_webhook_url(None);
        let owner = owner_with_team(&b, "ana@northwind.example", "Northwind").await;
        let session = buy(&b, &owner.token, 2).await;
        let (status, v) = confirm(&b, &owner.token, &session).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let mut configurations = Vec::new();
        for _ in 0..2 {
            let (status, v) = call(
                &b,
                reqwest::Method::POST,
                "/api/team/billing/portal",
                &owner.token,
                None,
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{v}");
            let url = v["url"].as_str().unwrap().to_owned();
            let portal = b.mock.object(url.rsplit('/').next().unwrap()).unwrap();
            let c = &portal["configuration"];
            assert_eq!(
                c["features"]["subscription_update"]["enabled"], false,
                "{c}"
            );
            assert_eq!(c["features"]["subscription_cancel"]["enabled"], true);
            assert_eq!(c["features"]["payment_method_update"]["enabled"], true);
            assert_eq!(c["features"]["invoice_history"]["enabled"], true);
            assert_eq!(c["metadata"]["closewise_portal"], "team_v1");
            let page = b
                .app
                .client
                .get(&url)
                .send()
                .await
                .unwrap()
                .text()
                .await
                .unwrap();
            assert!(
                page.contains("Cancel plan") && !page.contains("Update quantity"),
                "{page}"
            );
            configurations.push(c["id"].as_str().unwrap().to_owned());
        }
        assert_eq!(
            configurations[0], configurations[1],
            "created once, then reused"
        );

        // Another replica (a client that does not know it yet) finds it by its metadata.
        let other =
            closewise_core::billing::StripeClient::new(&b.app.state.settings.stripe.connection())
                .unwrap();
        assert_eq!(
            other.team_portal_configuration().await.unwrap(),
            configurations[0]
        );
        assert_eq!(b.mock.snapshot().portal_configurations.len(), 1);

        // The personal portal keeps Stripe's default configuration.
        let me = person(&b, "solo@else.example").await;
        let customer = stripe_post(
            &b,
            "/v1/customers",
            &[("email", "solo@else.example".to_owned())],
        )
        .await;
        let customer = customer["id"].as_str().unwrap();
        b.app
            .state
            .store
            .save_stripe_customer(me.id, customer, time::OffsetDateTime::now_utc())
            .await
            .unwrap();
        let (status, v) = call(
            &b,
            reqwest::Method::POST,
            "/api/billing/portal",
            &me.token,
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let portal = b
            .mock
            .object(v["url"].as_str().unwrap().rsplit('/').next().unwrap())
            .unwrap();
        assert_eq!(portal["configuration"]["id"], "bpc_closewise_default");
    }
);

both!(
    async fn two_replicas_creating_the_team_configuration_at_once_make_one(backend: Backend) {
        let b = spawn_billing(backend).await;
        let stripe = || {
            closewise_core::billing::StripeClient::new(&b.app.state.settings.stripe.connection())
                .unwrap()
        };
        let (one, two) = (stripe(), stripe());
        let (x, y) = tokio::join!(
            one.team_portal_configuration(),
            two.team_portal_configuration()
        );
        assert_eq!(x.unwrap(), y.unwrap());
        assert_eq!(b.mock.snapshot().portal_configurations.len(), 1);
    }
);
