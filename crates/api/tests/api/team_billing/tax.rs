//! With `STRIPE_AUTOMATIC_TAX=true` the team's checkout asks Stripe for automatic tax, and the
//! paid invoice carries it: in the team's invoice list and on stripe-mock's invoice.

use super::*;
use crate::billing::spawn_billing_with;

both!(
    async fn a_team_checkout_with_automatic_tax_ends_with_a_paid_invoice_and_its_tax(
        backend: Backend,
    ) {
        let b = spawn_billing_with(backend, |s| s.stripe.automatic_tax = true).await;
        let owner = owner_with_team(&b, "ana@northwind.example", "Northwind Sales").await;
        // Paid on stripe-mock's page with its billing address in Berlin: German VAT, 19 %.
        let session_id = buy(&b, &owner.token, 3).await;
        let (status, v) = confirm(&b, &owner.token, &session_id).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let session = b.mock.object(&session_id).unwrap();
        assert_eq!(session["automatic_tax"]["enabled"], true, "{session}");
        assert_eq!(session["total_details"]["amount_tax"], 1140);

        let (status, page) = call(
            &b,
            reqwest::Method::GET,
            "/api/team/billing/invoices",
            &owner.token,
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{page}");
        let invoice = &page["invoices"][0];
        assert_eq!(invoice["status"], "paid");
        assert_eq!(invoice["subtotal"], 6000, "three seats of $20");
        assert_eq!(invoice["tax"], 1140, "{invoice}");
        assert_eq!(invoice["amount"], 7140);
        assert_eq!(invoice["amount_paid"], 7140);

        let stored = b.mock.object(invoice["id"].as_str().unwrap()).unwrap();
        assert_eq!(stored["automatic_tax"]["enabled"], true);
        assert_eq!(
            stored["total_taxes"][0]["taxability_reason"],
            "standard_rated"
        );
        let sub = b
            .mock
            .object(session["subscription"].as_str().unwrap())
            .unwrap();
        assert_eq!(
            sub["automatic_tax"]["enabled"], true,
            "renewals are taxed too"
        );

        // A seat change is previewed and made with automatic tax; the next invoice is taxed.
        let (status, p) = call(
            &b,
            reqwest::Method::GET,
            "/api/team/seats/preview?seats=4",
            &owner.token,
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{p}");
        // The preview says what will be paid, tax included: four seats of $20 and 19 %.
        assert_eq!(p["next_total"], 9520, "{p}");
        let due_now = p["amount_due_now"].as_i64().unwrap();
        let (status, v) = call(
            &b,
            reqwest::Method::PUT,
            "/api/team/seats",
            &owner.token,
            Some(json!({"seats": 4, "proration_date": p["proration_date"]})),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        b.mock.advance_clock(31 * 86_400);
        let (status, page) = call(
            &b,
            reqwest::Method::GET,
            "/api/team/billing/invoices?limit=1",
            &owner.token,
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{page}");
        let renewal = &page["invoices"][0];
        let subtotal = renewal["subtotal"].as_i64().unwrap();
        let tax = renewal["tax"].as_i64().unwrap();
        assert!(subtotal > 8000, "four seats and the proration: {renewal}");
        // 19 % of each line, rounded line by line (three lines at most).
        assert!((tax * 100 - subtotal * 19).abs() <= 300, "{renewal}");
        assert_eq!(renewal["amount"].as_i64().unwrap(), subtotal + tax);
        // The renewal is the next period's four seats and the change's prorations: what the
        // preview said, tax included, to the cent.
        assert_eq!(
            renewal["amount"].as_i64().unwrap(),
            9520 + due_now,
            "preview {p}, renewal {renewal}"
        );
    }
);

both!(
    async fn without_automatic_tax_the_checkout_asks_for_none(backend: Backend) {
        let b = spawn_billing(backend).await;
        let owner = owner_with_team(&b, "ana@northwind.example", "Northwind Sales").await;
        let session_id = buy(&b, &owner.token, 2).await;
        let session = b.mock.object(&session_id).unwrap();
        assert_eq!(session["automatic_tax"]["enabled"], false);
        assert_eq!(session["total_details"]["amount_tax"], 0);
    }
);
