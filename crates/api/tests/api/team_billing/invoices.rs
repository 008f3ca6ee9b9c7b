//! The team's invoices (owner and admins) and the company details on them (the owner writes
//! them to the team's Stripe customer), on stripe-mock.

use super::*;

const MONTH: i64 = 31 * 86_400;

both!(
    async fn the_team_checkout_collects_the_company_and_its_invoices_list_for_owner_and_admins(
        backend: Backend,
    ) {
        let b = spawn_billing(backend).await;
        let owner = owner_with_team(&b, "ana@northwind.example", "Northwind Sales").await;
        let session_id = buy(&b, &owner.token, 3).await;
        confirm(&b, &owner.token, &session_id).await;
        let admin = join(&b, &owner, "finance@northwind.example", Role::Admin).await;
        let member = join(&b, &owner, "rep@northwind.example", Role::Member).await;
        let session = b.mock.object(&session_id).unwrap();
        assert_eq!(session["billing_address_collection"], "required");
        assert_eq!(session["tax_id_collection"]["enabled"], true);
        b.mock.advance_clock(MONTH);

        let (status, page) = call(
            &b,
            reqwest::Method::GET,
            "/api/team/billing/invoices?limit=1",
            &owner.token,
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{page}");
        let first = &page["invoices"][0];
        assert_eq!(first["status"], "paid");
        assert_eq!(first["amount"], 6000, "three seats of $20");
        assert_eq!(first["tax"], 0);
        assert_eq!(first["discount"], 0);
        assert_eq!(first["currency"], "usd");
        assert!(
            first["number"].as_str().unwrap().starts_with("CW-"),
            "{first}"
        );
        assert!(first["period_end"].as_i64() > first["period_start"].as_i64());
        let cursor = page["next_cursor"]
            .as_str()
            .expect("a second page")
            .to_owned();
        let (status, rest) = call(
            &b,
            reqwest::Method::GET,
            &format!("/api/team/billing/invoices?limit=1&cursor={cursor}"),
            &admin.token,
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{rest}");
        assert_eq!(rest["invoices"].as_array().unwrap().len(), 1);
        assert!(rest["next_cursor"].is_null());
        assert_ne!(rest["invoices"][0]["id"], first["id"]);

        let pdf = b
            .app
            .client
            .get(first["invoice_pdf"].as_str().unwrap())
            .send()
            .await
            .unwrap();
        assert_eq!(pdf.status(), 200);
        assert_eq!(pdf.headers()["content-type"], "application/pdf");
        assert!(pdf.bytes().await.unwrap().starts_with(b"%PDF-"));

        let (status, v) = call(
            &b,
            reqwest::Method::GET,
            "/api/team/billing/invoices",
            &member.token,
            None,
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::FORBIDDEN, "forbidden_role"),
            "{v}"
        );
        let (status, v) = call(
            &b,
            reqwest::Method::GET,
            "/api/team/billing/invoices?cursor=cs_nope",
            &owner.token,
            None,
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_REQUEST, "invalid_cursor"),
            "{v}"
        );
        let (status, v) = call(
            &b,
            reqwest::Method::GET,
            "/api/team/billing/invoices?limit=0",
            &owner.token,
            None,
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::BAD_REQUEST, "invalid_limit"),
            "{v}"
        );
    }
);

both!(
    async fn the_owner_writes_the_company_details_to_stripe_and_a_bad_tax_id_is_refused_by_its_field(
        backend: Backend,
    ) {
        let b = spawn_billing(backend).await;
        let owner = owner_with_team(&b, "ana@northwind.example", "Northwind Sales").await;
        let details = json!({
            "name": "Northwind Vertrieb GmbH",
            "address": {"line1": "Hauptstraße 5", "postal_code": "10115", "city": "Berlin", "country": "de"},
            "tax_ids": [{"type": "eu_vat", "value": "DE 123 456 789"}],
        });
        let (status, v) = call(
            &b,
            reqwest::Method::PUT,
            "/api/team/billing/details",
            &owner.token,
            Some(details.clone()),
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::NOT_FOUND, "no_customer"),
            "before any checkout: {v}"
        );
        let session_id = buy(&b, &owner.token, 2).await;
        confirm(&b, &owner.token, &session_id).await;
        let admin = join(&b, &owner, "finance@northwind.example", Role::Admin).await;
        let customer = b.mock.object(&session_id).unwrap()["customer"]
            .as_str()
            .unwrap()
            .to_owned();

        let (status, saved) = call(
            &b,
            reqwest::Method::PUT,
            "/api/team/billing/details",
            &owner.token,
            Some(details.clone()),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{saved}");
        assert_eq!(saved["name"], "Northwind Vertrieb GmbH");
        assert_eq!(saved["address"]["country"], "DE");
        assert_eq!(
            saved["tax_ids"],
            json!([{"type": "eu_vat", "value": "DE123456789"}])
        );
        let at_stripe = b.mock.object(&customer).unwrap();
        assert_eq!(at_stripe["name"], "Northwind Vertrieb GmbH");
        assert_eq!(at_stripe["address"]["city"], "Berlin");
        let (status, read) = call(
            &b,
            reqwest::Method::GET,
            "/api/team/billing/details",
            &admin.token,
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{read}");
        assert_eq!(read, saved);
        // Saving the same again keeps the one tax ID; a new list replaces it.
        let (_, again) = call(
            &b,
            reqwest::Method::PUT,
            "/api/team/billing/details",
            &owner.token,
            Some(details.clone()),
        )
        .await;
        assert_eq!(again["tax_ids"].as_array().unwrap().len(), 1, "{again}");
        let audit = b.app.state.store.audit_log(100).await.unwrap();
        assert!(
            audit.iter().any(|a| a.action == "team.billing_details"),
            "audited"
        );

        let (status, v) = call(
            &b,
            reqwest::Method::PUT,
            "/api/team/billing/details",
            &admin.token,
            Some(details.clone()),
        )
        .await;
        assert_eq!(
            (status, error_code(&v)),
            (StatusCode::FORBIDDEN, "forbidden_role"),
            "{v}"
        );
        for (change, code) in [
            (
                json!({"tax_ids": [{"type": "eu_vat", "value": "123"}]}),
                "invalid_tax_id",
            ),
            (
                json!({"tax_ids": [{"type": "xx_tax", "value": "123"}]}),
                "invalid_tax_id",
            ),
            (json!({"name": " "}), "invalid_billing_name"),
            (
                json!({"address": {"country": "Germany"}}),
                "invalid_country",
            ),
        ] {
            let mut bad = details.clone();
            for (k, v) in change.as_object().unwrap() {
                bad[k] = v.clone();
            }
            let (status, v) = call(
                &b,
                reqwest::Method::PUT,
                "/api/team/billing/details",
                &owner.token,
                Some(bad),
            )
            .await;
            assert_eq!(
                (status, error_code(&v)),
                (StatusCode::BAD_REQUEST, code),
                "{change}: {v}"
            );
        }
        let (_, v) = call(&b, reqwest::Method::PUT, "/api/team/billing/details", &owner.token,
            Some(json!({"name": "N", "address": {"country": "DE"}, "tax_ids": [{"type": "eu_vat", "value": "DE1"}]}))).await;
        assert_eq!(
            error_message(&v),
            "This is not a valid EU VAT number. It looks like DE123456789."
        );
    }
);

both!(
    async fn a_user_lists_their_own_invoices_and_none_before_a_first_checkout(backend: Backend) {
        let b = spawn_billing(backend).await;
        let buyer = person(&b, "solo@example.com").await;
        let (status, v) = call(
            &b,
            reqwest::Method::GET,
            "/api/billing/invoices",
            &buyer.token,
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v, json!({"invoices": [], "next_cursor": null}));
        let (status, v) = body(
            b.app
                .post_auth(
                    "/api/checkout",
                    &buyer.token,
                    crate::billing::checkout_body(),
                )
                .await,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let session = v["url"]
            .as_str()
            .unwrap()
            .rsplit('/')
            .next()
            .unwrap()
            .to_owned();
        b.mock.pay(&session, CARD_OK).expect("paid");
        let (status, v) = call(
            &b,
            reqwest::Method::GET,
            "/api/billing/invoices",
            &buyer.token,
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let invoice = &v["invoices"][0];
        assert_eq!(invoice["amount"], 2000);
        assert_eq!(invoice["status"], "paid");
        assert!(invoice["hosted_invoice_url"]
            .as_str()
            .unwrap()
            .starts_with(&b.mock_url));
        let (status, _) = call(
            &b,
            reqwest::Method::GET,
            "/api/billing/invoices",
            "not-a-token",
            None,
        )
        .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
);
