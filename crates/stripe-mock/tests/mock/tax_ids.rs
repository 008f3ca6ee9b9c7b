//! Customer tax IDs: created, listed, retrieved and deleted under the customer, each shape
//! checked per type with Stripe's `tax_id_invalid` error.

use serde_json::json;

use crate::helpers::*;

#[tokio::test]
async fn tax_ids_are_created_listed_retrieved_and_deleted_under_the_customer() {
    let m = spawn_mock().await;
    let customer = m.create_customer("finance@example.com").await;
    let path = format!("/v1/customers/{customer}/tax_ids");
    let (status, vat) = m
        .post(&path, &[("type", "eu_vat"), ("value", "de 123 456 789")])
        .await;
    assert_eq!(status, 200, "{vat}");
    assert_eq!(vat["object"], "tax_id");
    assert!(vat["id"].as_str().unwrap().starts_with("txi_"));
    assert_eq!(vat["type"], "eu_vat");
    assert_eq!(
        vat["value"], "DE123456789",
        "stored as Stripe normalises it"
    );
    assert_eq!(vat["country"], "DE");
    assert_eq!(vat["customer"], customer.as_str());
    assert_eq!(vat["verification"]["status"], "pending");
    m.handle.advance_clock(2);
    let (_, ein) = m
        .post(&path, &[("type", "us_ein"), ("value", "12-3456789")])
        .await;

    let (status, list) = m.get(&format!("{path}?limit=1")).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["object"], "list");
    assert_eq!(list["url"], path);
    assert_eq!(list["has_more"], true);
    assert_eq!(list["data"][0]["id"], ein["id"], "newest first");
    let (_, one) = m
        .get(&format!("{path}/{}", vat["id"].as_str().unwrap()))
        .await;
    assert_eq!(one, vat);
    let (_, customer_json) = m
        .get(&format!("/v1/customers/{customer}?expand[]=tax_ids"))
        .await;
    assert_eq!(
        customer_json["tax_ids"]["data"].as_array().unwrap().len(),
        2
    );

    let (status, deleted) = m
        .delete(&format!("{path}/{}", vat["id"].as_str().unwrap()))
        .await;
    assert_eq!(status, 200, "{deleted}");
    assert_eq!(
        deleted,
        json!({"id": vat["id"], "object": "tax_id", "deleted": true})
    );
    let (_, list) = m.get(&path).await;
    assert_eq!(list["data"].as_array().unwrap().len(), 1);
    let (status, gone) = m
        .get(&format!("{path}/{}", vat["id"].as_str().unwrap()))
        .await;
    assert_eq!(status, 404, "{gone}");
    assert_eq!(gone["error"]["code"], "resource_missing");
}

#[tokio::test]
async fn a_malformed_tax_id_is_refused_with_stripes_error_for_each_type() {
    let m = spawn_mock().await;
    let customer = m.create_customer("finance@example.com").await;
    let path = format!("/v1/customers/{customer}/tax_ids");
    let good = [
        ("eu_vat", "FR12345678901"),
        ("gb_vat", "GB123456789"),
        ("ch_vat", "CHE-123.456.789 MWST"),
        ("no_vat", "123456789MVA"),
        ("au_abn", "12345678912"),
        ("nz_gst", "123456789"),
        ("ca_bn", "123456789"),
        ("us_ein", "12-3456789"),
    ];
    for (kind, value) in good {
        let (status, body) = m.post(&path, &[("type", kind), ("value", value)]).await;
        assert_eq!(status, 200, "{kind} {value}: {body}");
    }
    let bad = [
        ("eu_vat", "123456789"),
        ("eu_vat", "US123456789"),
        ("gb_vat", "GB12345"),
        ("ch_vat", "CHE-123.456.789"),
        ("no_vat", "123456789"),
        ("au_abn", "1234567891"),
        ("nz_gst", "12345"),
        ("ca_bn", "12345678"),
        ("us_ein", "123456789x"),
    ];
    for (kind, value) in bad {
        let (status, body) = m.post(&path, &[("type", kind), ("value", value)]).await;
        assert_eq!(status, 400, "{kind} {value}: {body}");
        assert_eq!(
            body["error"]["type"], "invalid_request_error",
            "{kind} {value}"
        );
        assert_eq!(body["error"]["code"], "tax_id_invalid", "{kind} {value}");
        assert_eq!(body["error"]["param"], "value", "{kind} {value}");
        let message = body["error"]["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("Invalid value for {kind}")),
            "{message}"
        );
    }
    let (status, body) = m.post(&path, &[("type", "xx_tax"), ("value", "1")]).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["param"], "type");
    let (status, body) = m.post(&path, &[("type", "eu_vat")]).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["code"], "parameter_missing");
    let (status, body) = m
        .post(
            "/v1/customers/cus_nope/tax_ids",
            &[("type", "us_ein"), ("value", "12-3456789")],
        )
        .await;
    assert_eq!(status, 404, "{body}");
}

#[tokio::test]
async fn a_customer_keeps_its_billing_address() {
    let m = spawn_mock().await;
    let customer = m.create_customer("finance@example.com").await;
    let (status, body) = m
        .post(
            &format!("/v1/customers/{customer}"),
            &[
                ("name", "Acme Ltd"),
                ("address[line1]", "1 High Street"),
                ("address[city]", "London"),
                ("address[postal_code]", "EC1A 1BB"),
                ("address[country]", "GB"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["address"],
        json!({"line1": "1 High Street", "line2": null, "city": "London",
               "postal_code": "EC1A 1BB", "state": null, "country": "GB"})
    );
    let (status, body) = m
        .post(
            &format!("/v1/customers/{customer}"),
            &[("address[country]", "Germany")],
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["param"], "address[country]");
    let (_, body) = m
        .post(&format!("/v1/customers/{customer}"), &[("address", "")])
        .await;
    assert_eq!(
        body["address"],
        serde_json::Value::Null,
        "an empty string clears it"
    );
}
