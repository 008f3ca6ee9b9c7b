//! A checkout that collects the billing address and a tax ID: refused without
//! `customer_update[name]=auto` for an existing customer (as Stripe refuses it), asked for on the
//! hosted page, and written to the customer before the first invoice.

use crate::helpers::*;

async fn business_session(m: &TestMock, customer: &str, update: bool) -> (u16, serde_json::Value) {
    let mut form = vec![
        ("mode", "subscription"),
        ("line_items[0][price]", "price_closewise_monthly"),
        ("line_items[0][quantity]", "3"),
        (
            "success_url",
            "http://app.test/team?session_id={CHECKOUT_SESSION_ID}",
        ),
        ("customer", customer),
        ("billing_address_collection", "required"),
        ("tax_id_collection[enabled]", "true"),
    ];
    if update {
        form.push(("customer_update[name]", "auto"));
        form.push(("customer_update[address]", "auto"));
    }
    let (status, body) = m.post("/v1/checkout/sessions", &form).await;
    (status.as_u16(), body)
}

#[tokio::test]
async fn collecting_a_tax_id_for_an_existing_customer_needs_its_name_updatable() {
    let m = spawn_mock().await;
    let customer = m.create_customer("owner@example.com").await;
    let (status, body) = business_session(&m, &customer, false).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("customer_update[name]"));
    let (status, body) = m
        .post(
            "/v1/checkout/sessions",
            &[
                ("mode", "subscription"),
                ("line_items[0][price]", "price_closewise_monthly"),
                ("line_items[0][quantity]", "1"),
                ("success_url", "http://app.test/ok"),
                ("billing_address_collection", "sometimes"),
            ],
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["param"], "billing_address_collection");
}

#[tokio::test]
async fn the_hosted_page_collects_the_company_and_the_first_invoice_carries_it() {
    let m = spawn_mock().await;
    let customer = m.create_customer("owner@example.com").await;
    let (status, session) = business_session(&m, &customer, true).await;
    assert_eq!(status, 200, "{session}");
    assert_eq!(session["billing_address_collection"], "required");
    assert_eq!(session["tax_id_collection"]["enabled"], true);
    let id = session["id"].as_str().unwrap();
    let page = m
        .http
        .get(m.url(&format!("/c/pay/{id}")))
        .send()
        .await
        .unwrap();
    let html = page.text().await.unwrap();
    for label in ["Billing address", "Business name", "Tax ID"] {
        assert!(html.contains(label), "the page asks for {label}");
    }
    let mut fields = vec![
        ("email", "owner@example.com"),
        ("cardnumber", "4242 4242 4242 4242"),
        ("exp", "12 / 34"),
        ("cvc", "123"),
        ("name", "Ada Owner"),
        ("billing_name", "Ada Owner"),
        ("line1", "Rue du Rhône 1"),
        ("postal_code", "1204"),
        ("city", "Genève"),
        ("country", "ch"),
        ("business_name", "Acme SA"),
        ("tax_id_type", "ch_vat"),
        ("tax_id_value", "CHE-123.456.78"),
    ];
    let resp = m.submit_checkout(id, &fields).await;
    assert_eq!(resp.status(), 400);
    assert_eq!(
        alert(&resp.text().await.unwrap()).as_deref(),
        Some("Your tax ID is invalid.")
    );
    fields.retain(|(k, _)| *k != "tax_id_value");
    fields.push(("tax_id_value", "CHE-123.456.789 TVA"));
    let resp = m.submit_checkout(id, &fields).await;
    assert_eq!(resp.status(), 303, "{}", resp.text().await.unwrap());

    let (_, c) = m
        .get(&format!("/v1/customers/{customer}?expand[]=tax_ids"))
        .await;
    assert_eq!(c["name"], "Acme SA");
    assert_eq!(c["address"]["city"], "Genève");
    assert_eq!(c["address"]["country"], "CH");
    assert_eq!(c["tax_ids"]["data"][0]["value"], "CHE-123.456.789 TVA");
    let (_, s) = m.get(&format!("/v1/checkout/sessions/{id}")).await;
    assert_eq!(s["customer_details"]["name"], "Acme SA");
    assert_eq!(s["customer_details"]["tax_ids"][0]["type"], "ch_vat");
    let (_, list) = m.get(&format!("/v1/invoices?customer={customer}")).await;
    let invoice = &list["data"][0];
    assert_eq!(invoice["customer_name"], "Acme SA");
    assert_eq!(
        invoice["customer_tax_ids"][0]["value"],
        "CHE-123.456.789 TVA"
    );
}
