//! Every finalized invoice has a hosted page and a PDF (company details, tax IDs, lines, totals),
//! linked from `hosted_invoice_url` and `invoice_pdf` like Stripe's.

use crate::helpers::*;

/// The text a PDF reader would show, page by page.
fn pdf_text(bytes: &[u8]) -> String {
    let doc = lopdf::Document::load_mem(bytes).expect("a PDF that parses");
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    assert!(!pages.is_empty(), "the PDF has pages");
    doc.extract_text(&pages).expect("text extracts")
}

/// A customer with company details set through the API, then subscribed: its first invoice
/// carries them.
async fn company_customer(m: &TestMock) -> (String, String) {
    let customer = m.create_customer("finance@example.com").await;
    let (status, body) = m
        .post(
            &format!("/v1/customers/{customer}"),
            &[
                ("name", "Acme Vertrieb GmbH"),
                ("address[line1]", "Hauptstraße 5"),
                ("address[city]", "Berlin"),
                ("address[postal_code]", "10115"),
                ("address[country]", "DE"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = m
        .post(
            &format!("/v1/customers/{customer}/tax_ids"),
            &[("type", "eu_vat"), ("value", "DE123456789")],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let session = m.create_session(Some(&customer)).await;
    m.pay(session["id"].as_str().unwrap(), "4242 4242 4242 4242")
        .await;
    let (_, list) = m.get(&format!("/v1/invoices?customer={customer}")).await;
    let invoice = list["data"][0]["id"].as_str().unwrap().to_owned();
    (customer, invoice)
}

#[tokio::test]
async fn an_invoice_keeps_the_details_it_was_finalized_with() {
    let m = spawn_mock().await;
    let (customer, id) = company_customer(&m).await;
    m.post(
        &format!("/v1/customers/{customer}"),
        &[("name", "Renamed Ltd")],
    )
    .await;
    let (_, invoice) = m.get(&format!("/v1/invoices/{id}")).await;
    assert_eq!(invoice["customer_name"], "Acme Vertrieb GmbH");
    assert_eq!(invoice["customer_address"]["country"], "DE");
    assert_eq!(
        invoice["customer_tax_ids"],
        serde_json::json!([{"type": "eu_vat", "value": "DE123456789"}])
    );
}

#[tokio::test]
async fn a_paid_invoice_links_its_hosted_page_and_its_pdf() {
    let m = spawn_mock().await;
    let (_, id) = company_customer(&m).await;
    let (status, invoice) = m.get(&format!("/v1/invoices/{id}")).await;
    assert_eq!(status, 200, "{invoice}");
    let hosted = invoice["hosted_invoice_url"]
        .as_str()
        .expect("a hosted URL");
    let pdf = invoice["invoice_pdf"].as_str().expect("a PDF URL");
    assert!(
        hosted.starts_with(&m.base) && pdf.starts_with(&m.base),
        "{hosted} {pdf}"
    );
    assert_eq!(invoice["total_taxes"], serde_json::json!([]));
    assert_eq!(invoice["total_discount_amounts"], serde_json::json!([]));
    assert_eq!(invoice["subtotal"], 2000);
    assert_eq!(invoice["total_excluding_tax"], 2000);

    let page = m.http.get(hosted).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    let number = invoice["number"].as_str().unwrap();
    for shown in [
        number,
        "Acme Vertrieb GmbH",
        "DE123456789",
        "$20.00",
        "Paid",
        "Download PDF",
    ] {
        assert!(html.contains(shown), "the page shows {shown}: {html}");
    }
}

#[tokio::test]
async fn the_invoice_pdf_is_a_real_pdf_with_the_company_lines_and_totals() {
    let m = spawn_mock().await;
    let (_, id) = company_customer(&m).await;
    let (_, invoice) = m.get(&format!("/v1/invoices/{id}")).await;
    let resp = m
        .http
        .get(invoice["invoice_pdf"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["content-type"], "application/pdf");
    let disposition = resp.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_owned();
    let number = invoice["number"].as_str().unwrap().to_owned();
    assert!(
        disposition.contains(&format!("Invoice-{number}.pdf")),
        "{disposition}"
    );
    let bytes = resp.bytes().await.unwrap();
    assert!(bytes.starts_with(b"%PDF-"));
    let text = pdf_text(&bytes);
    for shown in [
        number.as_str(),
        "Acme Vertrieb GmbH",
        "Hauptstraße 5",
        "10115 Berlin",
        "DE VAT DE123456789",
        "Unlimited Sales Copilot",
        "Subtotal",
        "Total",
        "Amount paid",
        "$20.00",
    ] {
        assert!(text.contains(shown), "the PDF shows {shown}: {text}");
    }
}

#[tokio::test]
async fn an_unknown_invoice_has_no_page_and_no_pdf() {
    let m = spawn_mock().await;
    for path in ["/i/in_nope", "/i/in_nope/pdf"] {
        let resp = m.http.get(m.url(path)).send().await.unwrap();
        assert_eq!(resp.status(), 404, "{path}");
    }
}
