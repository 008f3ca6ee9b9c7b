//! Automatic tax (`automatic_tax[enabled]=true`): the standard VAT/GST rate of the customer's
//! country from the vendored table, the reverse charge for a business elsewhere in the EU with an
//! `eu_vat` ID, nothing where the table has no rate; on the session, the invoice and its lines,
//! the preview, the hosted invoice page and the PDF.

use serde_json::Value;

use crate::helpers::*;

/// A customer with an address in `country` and, optionally, a tax ID.
async fn customer_in(m: &TestMock, country: &str, tax_id: Option<(&str, &str)>) -> String {
    let customer = m.create_customer("finance@example.com").await;
    let (status, body) = m
        .post(
            &format!("/v1/customers/{customer}"),
            &[
                ("name", "Acme Buyer"),
                ("address[line1]", "1 Main Street"),
                ("address[city]", "Capital"),
                ("address[postal_code]", "1000"),
                ("address[country]", country),
            ],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    if let Some((kind, value)) = tax_id {
        let (status, body) = m
            .post(
                &format!("/v1/customers/{customer}/tax_ids"),
                &[("type", kind), ("value", value)],
            )
            .await;
        assert_eq!(status, 200, "{body}");
    }
    customer
}

/// A taxed session of 3 × the monthly price (6000) for `customer`.
async fn taxed_session(m: &TestMock, customer: &str) -> Value {
    let (status, body) = m
        .post(
            "/v1/checkout/sessions",
            &[
                ("mode", "subscription"),
                ("line_items[0][price]", "price_closewise_monthly"),
                ("line_items[0][quantity]", "3"),
                ("success_url", "http://app.test/ok"),
                ("customer", customer),
                ("customer_update[address]", "auto"),
                ("automatic_tax[enabled]", "true"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body
}

/// Pays on the hosted page with a billing address in `country`; returns the first invoice.
async fn pay_from(m: &TestMock, session: &Value, country: &str) -> Value {
    let id = session["id"].as_str().unwrap();
    let resp = m
        .submit_checkout(
            id,
            &[
                ("email", "finance@example.com"),
                ("cardnumber", "4242 4242 4242 4242"),
                ("exp", "12 / 34"),
                ("cvc", "123"),
                ("name", "Ada Buyer"),
                ("billing_name", "Ada Buyer"),
                ("line1", "1 Main Street"),
                ("postal_code", "1000"),
                ("city", "Capital"),
                ("country", country),
            ],
        )
        .await;
    assert_eq!(resp.status(), 303, "{}", resp.text().await.unwrap());
    let (_, s) = m.get(&format!("/v1/checkout/sessions/{id}")).await;
    let (status, invoice) = m
        .get(&format!("/v1/invoices/{}", s["invoice"].as_str().unwrap()))
        .await;
    assert_eq!(status, 200, "{invoice}");
    let parsed: Result<stripe_shared::Invoice, _> = miniserde::json::from_str(&invoice.to_string());
    assert!(
        parsed.is_ok(),
        "async-stripe reads the taxed invoice: {invoice:#}"
    );
    invoice
}

fn only_tax(v: &Value) -> &Value {
    let taxes = v.as_array().expect("a list of taxes");
    assert_eq!(taxes.len(), 1, "{v:#}");
    &taxes[0]
}

#[tokio::test]
async fn a_german_customer_pays_19_percent_on_the_session_the_invoice_and_the_preview() {
    let m = spawn_mock().await;
    let customer = customer_in(&m, "DE", None).await;
    let session = taxed_session(&m, &customer).await;
    assert_eq!(session["automatic_tax"]["enabled"], true);
    assert_eq!(session["automatic_tax"]["status"], "complete");
    assert_eq!(session["amount_subtotal"], 6000);
    assert_eq!(session["total_details"]["amount_tax"], 1140);
    assert_eq!(session["amount_total"], 7140);
    let parsed: Result<stripe_checkout::CheckoutSession, _> =
        miniserde::json::from_str(&session.to_string());
    assert!(
        parsed.is_ok(),
        "async-stripe reads the session: {session:#}"
    );

    let invoice = pay_from(&m, &session, "DE").await;
    assert_eq!(invoice["automatic_tax"]["enabled"], true);
    assert_eq!(invoice["automatic_tax"]["status"], "complete");
    assert_eq!(invoice["subtotal"], 6000);
    assert_eq!(invoice["total_excluding_tax"], 6000);
    assert_eq!(invoice["total"], 7140);
    assert_eq!(invoice["amount_due"], 7140);
    assert_eq!(invoice["amount_paid"], 7140);
    let tax = only_tax(&invoice["total_taxes"]);
    assert_eq!(tax["amount"], 1140);
    assert_eq!(tax["taxable_amount"], 6000);
    assert_eq!(tax["taxability_reason"], "standard_rated");
    assert_eq!(tax["tax_behavior"], "exclusive");
    assert_eq!(tax["type"], "tax_rate_details");
    assert!(tax["tax_rate_details"]["tax_rate"]
        .as_str()
        .unwrap()
        .starts_with("txr_"));
    let line = &invoice["lines"]["data"][0];
    assert_eq!(only_tax(&line["taxes"])["amount"], 1140);
    let page = m
        .http
        .get(invoice["hosted_invoice_url"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("VAT DE (19% on $60.00)"), "{page}");
    assert!(page.contains("$71.40"), "{page}");
    assert!(!page.contains("Reverse charge"), "{page}");
    let pdf = m
        .http
        .get(invoice["invoice_pdf"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    let doc = lopdf::Document::load_mem(&pdf).expect("a PDF");
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    let text = doc.extract_text(&pages).unwrap();
    assert!(text.contains("VAT DE (19% on $60.00)"), "{text}");
    assert!(text.contains("$11.40") && text.contains("$71.40"), "{text}");

    let (_, s) = m
        .get(&format!(
            "/v1/checkout/sessions/{}",
            session["id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(s["total_details"]["amount_tax"], 1140);
    let sub = s["subscription"].as_str().unwrap();
    let (_, sub_json) = m.get(&format!("/v1/subscriptions/{sub}")).await;
    assert_eq!(sub_json["automatic_tax"]["enabled"], true);

    // The renewal is taxed the same way, and so is its preview.
    let (status, preview) = m
        .post("/v1/invoices/create_preview", &[("customer", &customer)])
        .await;
    assert_eq!(status, 200, "{preview}");
    assert_eq!(only_tax(&preview["total_taxes"])["amount"], 1140);
    assert_eq!(preview["total"], 7140);
    assert_eq!(preview["amount_due"], 7140);
}

#[tokio::test]
async fn a_french_business_with_a_vat_id_is_reverse_charged_and_the_documents_say_so() {
    let m = spawn_mock().await;
    let customer = customer_in(&m, "FR", Some(("eu_vat", "FRAB123456789"))).await;
    let session = taxed_session(&m, &customer).await;
    assert_eq!(session["total_details"]["amount_tax"], 0);
    assert_eq!(session["amount_total"], 6000);
    let invoice = pay_from(&m, &session, "FR").await;
    let tax = only_tax(&invoice["total_taxes"]);
    assert_eq!(tax["amount"], 0);
    assert_eq!(tax["taxable_amount"], 6000);
    assert_eq!(tax["taxability_reason"], "reverse_charge");
    assert_eq!(invoice["total"], 6000);

    let page = m
        .http
        .get(invoice["hosted_invoice_url"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("Reverse charge"), "{page}");
    let pdf = m
        .http
        .get(invoice["invoice_pdf"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    let doc = lopdf::Document::load_mem(&pdf).expect("a PDF");
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    let text = doc.extract_text(&pages).unwrap();
    assert!(text.contains("Reverse charge"), "{text}");
}

#[tokio::test]
async fn a_business_in_the_sellers_own_country_pays_its_vat() {
    // The default seller is in Ireland: an Irish business is charged Irish VAT.
    let m = spawn_mock().await;
    let customer = customer_in(&m, "IE", Some(("eu_vat", "IE1234567T"))).await;
    let session = taxed_session(&m, &customer).await;
    assert_eq!(session["total_details"]["amount_tax"], 1380);
    // With the seller in Germany, a German business is charged and an Irish one is not.
    let m = spawn_with(stripe_mock::Config {
        seller_country: "DE".to_owned(),
        ..fast_config()
    })
    .await;
    let german = customer_in(&m, "DE", Some(("eu_vat", "DE123456789"))).await;
    let irish = customer_in(&m, "IE", Some(("eu_vat", "IE1234567T"))).await;
    assert_eq!(
        taxed_session(&m, &german).await["total_details"]["amount_tax"],
        1140
    );
    assert_eq!(
        taxed_session(&m, &irish).await["total_details"]["amount_tax"],
        0
    );
}

#[tokio::test]
async fn a_us_customer_is_not_taxed() {
    let m = spawn_mock().await;
    let customer = customer_in(&m, "US", None).await;
    let session = taxed_session(&m, &customer).await;
    assert_eq!(session["total_details"]["amount_tax"], 0);
    let invoice = pay_from(&m, &session, "US").await;
    let tax = only_tax(&invoice["total_taxes"]);
    assert_eq!(tax["amount"], 0);
    assert_eq!(tax["taxability_reason"], "not_collecting");
    assert_eq!(invoice["total"], 6000);
}

#[tokio::test]
async fn a_uk_address_typed_on_the_page_is_taxed_20_percent() {
    let m = spawn_mock().await;
    let customer = m.create_customer("buyer@example.com").await;
    let session = taxed_session(&m, &customer).await;
    // No address yet: Stripe waits for the page to collect one.
    assert_eq!(
        session["automatic_tax"]["status"],
        "requires_location_inputs"
    );
    assert_eq!(session["total_details"]["amount_tax"], 0);
    let id = session["id"].as_str().unwrap();
    let html = m
        .http
        .get(m.url(&format!("/c/pay/{id}")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        html.contains("Billing address"),
        "the page asks for the address"
    );
    let invoice = pay_from(&m, &session, "gb").await;
    assert_eq!(only_tax(&invoice["total_taxes"])["amount"], 1200);
    assert_eq!(invoice["total"], 7200);
    assert_eq!(invoice["customer_address"]["country"], "GB");
    let (_, s) = m.get(&format!("/v1/checkout/sessions/{id}")).await;
    assert_eq!(s["total_details"]["amount_tax"], 1200);
    assert_eq!(s["amount_total"], 7200);
}

#[tokio::test]
async fn tax_is_rounded_per_line_like_stripe() {
    // 8.1 % (Switzerland) of 2 × 1999 = 323.838 → 324.
    let m = spawn_mock().await;
    let customer = customer_in(&m, "CH", None).await;
    let (status, session) = m
        .post(
            "/v1/checkout/sessions",
            &[
                ("mode", "subscription"),
                ("line_items[0][price_data][currency]", "usd"),
                ("line_items[0][price_data][unit_amount]", "1999"),
                (
                    "line_items[0][price_data][product]",
                    "prod_closewise_unlimited",
                ),
                ("line_items[0][price_data][recurring][interval]", "month"),
                ("line_items[0][quantity]", "2"),
                ("success_url", "http://app.test/ok"),
                ("customer", &customer),
                ("customer_update[address]", "auto"),
                ("automatic_tax[enabled]", "true"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{session}");
    assert_eq!(session["total_details"]["amount_tax"], 324);
    let invoice = pay_from(&m, &session, "CH").await;
    assert_eq!(only_tax(&invoice["total_taxes"])["amount"], 324);
    assert_eq!(invoice["total"], 3998 + 324);
}

#[tokio::test]
async fn an_existing_customer_without_an_address_needs_it_saved_from_checkout() {
    let m = spawn_mock().await;
    let customer = m.create_customer("buyer@example.com").await;
    let (status, body) = m
        .post(
            "/v1/checkout/sessions",
            &[
                ("mode", "subscription"),
                ("line_items[0][price]", "price_closewise_monthly"),
                ("line_items[0][quantity]", "1"),
                ("success_url", "http://app.test/ok"),
                ("customer", &customer),
                ("automatic_tax[enabled]", "true"),
            ],
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("customer_update[address]"));
    // Without automatic tax nothing changes.
    let (status, body) = m
        .post(
            "/v1/checkout/sessions",
            &[
                ("mode", "subscription"),
                ("line_items[0][price]", "price_closewise_monthly"),
                ("line_items[0][quantity]", "1"),
                ("success_url", "http://app.test/ok"),
                ("customer", &customer),
                ("automatic_tax[enabled]", "false"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["automatic_tax"]["enabled"], false);
}

#[tokio::test]
async fn a_seat_change_preview_with_automatic_tax_taxes_its_prorations() {
    let m = spawn_mock().await;
    let customer = customer_in(&m, "DE", None).await;
    let session = taxed_session(&m, &customer).await;
    pay_from(&m, &session, "DE").await;
    let (_, s) = m
        .get(&format!(
            "/v1/checkout/sessions/{}",
            session["id"].as_str().unwrap()
        ))
        .await;
    let sub = s["subscription"].as_str().unwrap();
    let (_, sub_json) = m.get(&format!("/v1/subscriptions/{sub}")).await;
    let item = sub_json["items"]["data"][0]["id"].as_str().unwrap();
    let (status, preview) = m
        .post(
            "/v1/invoices/create_preview",
            &[
                ("customer", &customer),
                ("subscription", sub),
                ("subscription_details[items][0][id]", item),
                ("subscription_details[items][0][quantity]", "4"),
                ("automatic_tax[enabled]", "true"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{preview}");
    let lines = preview["lines"]["data"].as_array().unwrap();
    let mut expected = 0;
    for line in lines {
        let amount = line["amount"].as_i64().unwrap();
        let tax = only_tax(&line["taxes"])["amount"].as_i64().unwrap();
        // 19 %, rounded half away from zero, line by line.
        let exact = amount * 19;
        let rounded = (exact.abs() + 50) / 100 * exact.signum();
        assert_eq!(tax, rounded, "{line:#}");
        expected += tax;
    }
    assert_eq!(only_tax(&preview["total_taxes"])["amount"], expected);
    // The same preview told not to compute tax has none.
    let (_, untaxed) = m
        .post(
            "/v1/invoices/create_preview",
            &[
                ("customer", &customer),
                ("subscription", sub),
                ("automatic_tax[enabled]", "false"),
            ],
        )
        .await;
    assert_eq!(untaxed["total_taxes"], serde_json::json!([]));
    assert_eq!(untaxed["total"], 6000);
}
