//! How a company buys: a yearly team checkout with a promotion code, paid on Stripe's page with
//! the company's name, address and VAT number, ends with a paid invoice whose PDF shows them all
//! (with automatic tax, a German business buying from an Irish seller is reverse-charged).

use super::*;
use crate::billing::spawn_billing_with;

/// The text a PDF reader would show.
fn pdf_text(bytes: &[u8]) -> String {
    let doc = lopdf::Document::load_mem(bytes).expect("a PDF that parses");
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    doc.extract_text(&pages).expect("text extracts")
}

both!(
    async fn a_yearly_team_checkout_with_a_code_and_a_vat_number_ends_with_an_invoice_showing_them(
        backend: Backend,
    ) {
        let b = spawn_billing_with(backend, |s| s.stripe.automatic_tax = true).await;
        let owner = owner_with_team(&b, "ana@northwind.example", "Northwind Sales").await;
        promotion_code(&b, "LAUNCH25", 25, "Launch").await;
        let mut order = checkout_body(3);
        order["interval"] = json!("year");
        order["promotion_code"] = json!("LAUNCH25");
        let (status, v) = body(
            b.app
                .post_auth("/api/team/checkout", &owner.token, order)
                .await,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let url = v["url"].as_str().unwrap().to_owned();
        let session_id = url.rsplit('/').next().unwrap().to_owned();

        // The finance team types the company's details on Stripe's page.
        let paid = b
            .app
            .client
            .post(&url)
            .form(&[
                ("email", "ana@northwind.example"),
                ("cardnumber", CARD_OK),
                ("exp", "12 / 34"),
                ("cvc", "123"),
                ("name", "Ana Lindqvist"),
                ("billing_name", "Ana Lindqvist"),
                ("business_name", "Northwind Vertrieb GmbH"),
                ("line1", "Hauptstraße 5"),
                ("postal_code", "10115"),
                ("city", "Berlin"),
                ("country", "DE"),
                ("tax_id_type", "eu_vat"),
                ("tax_id_value", "DE123456789"),
            ])
            .send()
            .await
            .unwrap();
        let (paid_status, page) = (paid.status(), paid.text().await.unwrap());
        assert!(
            paid_status.is_success() || paid_status.is_redirection(),
            "{paid_status}: {page}"
        );
        let (status, v) = confirm(&b, &owner.token, &session_id).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["team"]["subscription"]["interval"], "year", "{v}");

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
        assert_eq!(invoice["status"], "paid", "{invoice}");
        assert_eq!(invoice["subtotal"], 60_000, "three seats at $200 a year");
        assert_eq!(invoice["discount"], 15_000, "25 % off");
        assert_eq!(invoice["tax"], 0, "reverse charge: {invoice}");
        assert_eq!(invoice["amount_paid"], 45_000);

        let pdf = b
            .app
            .client
            .get(invoice["invoice_pdf"].as_str().unwrap())
            .send()
            .await
            .unwrap();
        assert_eq!(pdf.status(), 200);
        let text = pdf_text(&pdf.bytes().await.unwrap());
        for shown in [
            "Northwind Vertrieb GmbH",
            "Hauptstraße 5",
            "10115 Berlin",
            "DE VAT DE123456789",
            "Discount (LAUNCH25: Launch, 25% off)",
            "-$150.00",
            "$450.00",
        ] {
            assert!(text.contains(shown), "the PDF shows {shown}: {text}");
        }
        assert!(
            text.to_lowercase().contains("reverse charge"),
            "the PDF says the reverse charge: {text}"
        );
    }
);
