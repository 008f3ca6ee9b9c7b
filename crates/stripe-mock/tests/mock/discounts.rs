//! Coupons and promotion codes: created, listed and refused like Stripe's; taken at checkout
//! (by the API or typed on the hosted page) and taken off every invoice while they last.

use serde_json::Value;

use crate::helpers::*;

const MONTH: i64 = 31 * 86_400;

async fn coupon(m: &TestMock, form: Form<'_>) -> String {
    let (status, body) = m.post("/v1/coupons", form).await;
    assert_eq!(status, 200, "{body}");
    body["id"].as_str().unwrap().to_owned()
}

async fn promo(m: &TestMock, coupon: &str, code: &str, extra: Form<'_>) -> Value {
    let mut form = vec![
        ("promotion[type]", "coupon"),
        ("promotion[coupon]", coupon),
        ("code", code),
    ];
    form.extend_from_slice(extra);
    let (status, body) = m.post("/v1/promotion_codes", &form).await;
    assert_eq!(status, 200, "{body}");
    body
}

/// A subscription checkout for the seeded price with `extra` params.
async fn session_with(m: &TestMock, customer: &str, extra: Form<'_>) -> (u16, Value) {
    let mut form = vec![
        ("mode", "subscription"),
        ("line_items[0][price]", "price_closewise_monthly"),
        ("line_items[0][quantity]", "1"),
        ("success_url", "http://app.test/success"),
        ("customer", customer),
    ];
    form.extend_from_slice(extra);
    let (status, body) = m.post("/v1/checkout/sessions", &form).await;
    (status.as_u16(), body)
}

/// Pays a checkout with the code `code` given by the API; returns the subscription.
async fn subscribe_with(m: &TestMock, promo_id: &str) -> String {
    let customer = m.create_customer("buyer@example.com").await;
    let (status, session) =
        session_with(m, &customer, &[("discounts[0][promotion_code]", promo_id)]).await;
    assert_eq!(status, 200, "{session}");
    let id = session["id"].as_str().unwrap();
    m.pay(id, "4242 4242 4242 4242").await;
    let (_, s) = m.get(&format!("/v1/checkout/sessions/{id}")).await;
    s["subscription"].as_str().unwrap().to_owned()
}

async fn latest_invoice(m: &TestMock, sub: &str) -> Value {
    let (_, s) = m
        .get(&format!("/v1/subscriptions/{sub}?expand[]=latest_invoice"))
        .await;
    s["latest_invoice"].clone()
}

#[tokio::test]
async fn coupons_are_created_retrieved_and_listed_like_stripe() {
    let m = spawn_mock().await;
    let id = coupon(
        &m,
        &[
            ("id", "LAUNCH20"),
            ("percent_off", "20"),
            ("duration", "repeating"),
            ("duration_in_months", "3"),
            ("max_redemptions", "100"),
        ],
    )
    .await;
    assert_eq!(id, "LAUNCH20");
    m.handle.advance_clock(5);
    coupon(&m, &[("amount_off", "500"), ("currency", "USD")]).await;

    let (status, c) = m.get("/v1/coupons/LAUNCH20").await;
    assert_eq!(status, 200);
    assert_eq!(c["object"], "coupon");
    assert_eq!(c["percent_off"], 20.0);
    assert_eq!(c["duration_in_months"], 3);
    assert_eq!(c["valid"], true);
    assert_eq!(c["times_redeemed"], 0);

    let (_, list) = m.get("/v1/coupons?limit=1").await;
    assert_eq!(list["object"], "list");
    assert_eq!(list["url"], "/v1/coupons");
    assert_eq!(list["has_more"], true);
    assert_eq!(list["data"][0]["amount_off"], 500, "newest first");
    assert_eq!(list["data"][0]["currency"], "usd");
    assert_eq!(list["data"][0]["duration"], "once", "Stripe's default");

    let (status, e) = m.get("/v1/coupons/NOPE").await;
    assert_eq!(status, 404);
    assert_eq!(e["error"]["code"], "resource_missing");
}

#[tokio::test]
async fn a_coupon_stripe_would_refuse_is_refused_naming_the_parameter() {
    let m = spawn_mock().await;
    let cases: &[(&str, Form, Option<&str>)] = &[
        ("neither amount", &[("duration", "once")], None),
        (
            "both amounts",
            &[
                ("percent_off", "10"),
                ("amount_off", "100"),
                ("currency", "usd"),
            ],
            None,
        ),
        (
            "amount without currency",
            &[("amount_off", "100")],
            Some("currency"),
        ),
        (
            "percent over 100",
            &[("percent_off", "120")],
            Some("percent_off"),
        ),
        (
            "percent of nothing",
            &[("percent_off", "0")],
            Some("percent_off"),
        ),
        (
            "unknown duration",
            &[("percent_off", "10"), ("duration", "weekly")],
            Some("duration"),
        ),
        (
            "repeating without months",
            &[("percent_off", "10"), ("duration", "repeating")],
            Some("duration_in_months"),
        ),
        (
            "months without repeating",
            &[("percent_off", "10"), ("duration_in_months", "2")],
            Some("duration_in_months"),
        ),
        (
            "redeem_by in the past",
            &[("percent_off", "10"), ("redeem_by", "1000")],
            Some("redeem_by"),
        ),
        (
            "unknown parameter",
            &[("percent_off", "10"), ("applies", "x")],
            Some("applies"),
        ),
    ];
    for (case, form, param) in cases {
        let (status, e) = m.post("/v1/coupons", form).await;
        assert_eq!(status, 400, "{case}: {e}");
        assert_eq!(e["error"]["type"], "invalid_request_error", "{case}");
        assert_eq!(e["error"]["param"].as_str(), *param, "{case}: {e}");
    }
}

#[tokio::test]
async fn promotion_codes_are_listed_by_code_and_active_and_deactivated() {
    let m = spawn_mock().await;
    let c = coupon(&m, &[("percent_off", "20"), ("duration", "forever")]).await;
    let code = promo(&m, &c, "SPRING", &[("max_redemptions", "5")]).await;
    assert_eq!(code["object"], "promotion_code");
    assert_eq!(code["promotion"]["type"], "coupon");
    assert_eq!(code["promotion"]["coupon"], c.as_str());
    assert_eq!(code["restrictions"]["first_time_transaction"], false);
    promo(&m, &c, "OTHER", &[]).await;

    let (_, found) = m.get("/v1/promotion_codes?code=spring&active=true").await;
    assert_eq!(found["url"], "/v1/promotion_codes");
    let data = found["data"].as_array().unwrap();
    assert_eq!(data.len(), 1, "{found}");
    assert_eq!(data[0]["id"], code["id"]);

    let id = code["id"].as_str().unwrap();
    let (status, off) = m
        .post(&format!("/v1/promotion_codes/{id}"), &[("active", "false")])
        .await;
    assert_eq!(status, 200, "{off}");
    assert_eq!(off["active"], false);
    let (_, found) = m.get("/v1/promotion_codes?code=SPRING&active=true").await;
    assert_eq!(found["data"], serde_json::json!([]));
    let (_, expanded) = m
        .get(&format!(
            "/v1/promotion_codes/{id}?expand[]=promotion.coupon"
        ))
        .await;
    assert_eq!(expanded["promotion"]["coupon"]["percent_off"], 20.0);
    assert_eq!(
        m.event_types()
            .iter()
            .filter(|t| t.starts_with("promotion_code."))
            .count(),
        3
    );
}

#[tokio::test]
async fn a_promotion_code_stripe_would_refuse_is_refused() {
    let m = spawn_mock().await;
    let c = coupon(&m, &[("percent_off", "20")]).await;
    promo(&m, &c, "TAKEN", &[]).await;
    let cs = c.as_str();
    let cases: &[(&str, Form, &str)] = &[
        (
            "active code taken",
            &[
                ("promotion[type]", "coupon"),
                ("promotion[coupon]", cs),
                ("code", "taken"),
            ],
            "code",
        ),
        (
            "no coupon",
            &[("promotion[type]", "coupon"), ("code", "X1")],
            "promotion[coupon]",
        ),
        (
            "unknown coupon",
            &[
                ("promotion[type]", "coupon"),
                ("promotion[coupon]", "NOPE"),
                ("code", "X2"),
            ],
            "promotion[coupon]",
        ),
        (
            "bad characters",
            &[
                ("promotion[type]", "coupon"),
                ("promotion[coupon]", cs),
                ("code", "NO SPACES"),
            ],
            "code",
        ),
        (
            "minimum without currency",
            &[
                ("promotion[type]", "coupon"),
                ("promotion[coupon]", cs),
                ("code", "X3"),
                ("restrictions[minimum_amount]", "1000"),
            ],
            "restrictions[minimum_amount_currency]",
        ),
        (
            "expired already",
            &[
                ("promotion[type]", "coupon"),
                ("promotion[coupon]", cs),
                ("code", "X4"),
                ("expires_at", "1000"),
            ],
            "expires_at",
        ),
    ];
    for (case, form, param) in cases {
        let (status, e) = m.post("/v1/promotion_codes", form).await;
        assert!(status == 400 || status == 404, "{case}: {status} {e}");
        assert_eq!(e["error"]["param"], *param, "{case}: {e}");
    }
}

#[tokio::test]
async fn a_checkout_takes_allow_promotion_codes_or_one_discount_never_both() {
    let m = spawn_mock().await;
    let customer = m.create_customer("buyer@example.com").await;
    let c = coupon(&m, &[("percent_off", "25")]).await;
    let code = promo(&m, &c, "QUARTER", &[]).await;
    let id = code["id"].as_str().unwrap();

    let (status, e) = session_with(
        &m,
        &customer,
        &[
            ("allow_promotion_codes", "true"),
            ("discounts[0][promotion_code]", id),
        ],
    )
    .await;
    assert_eq!(status, 400, "{e}");
    assert!(e["error"]["message"]
        .as_str()
        .unwrap()
        .contains("allow_promotion_codes"));

    let (status, s) = session_with(&m, &customer, &[("discounts[0][promotion_code]", id)]).await;
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["amount_subtotal"], 2000);
    assert_eq!(s["amount_total"], 1500);
    assert_eq!(s["total_details"]["amount_discount"], 500);
    assert_eq!(s["discounts"][0]["promotion_code"], id);

    let (status, s) = session_with(&m, &customer, &[("allow_promotion_codes", "true")]).await;
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["allow_promotion_codes"], true);

    let (status, e) = session_with(
        &m,
        &customer,
        &[("discounts[0][promotion_code]", "promo_nope")],
    )
    .await;
    assert_eq!(status, 404, "{e}");
    assert_eq!(e["error"]["param"], "discounts[0][promotion_code]");
}

#[tokio::test]
async fn a_used_up_or_expired_code_is_refused_at_checkout() {
    let m = spawn_mock().await;
    let c = coupon(&m, &[("percent_off", "10"), ("duration", "forever")]).await;
    let once = promo(&m, &c, "ONCE", &[("max_redemptions", "1")]).await;
    let once = once["id"].as_str().unwrap();
    subscribe_with(&m, once).await;
    let (_, used) = m.get(&format!("/v1/promotion_codes/{once}")).await;
    assert_eq!(used["times_redeemed"], 1);

    let customer = m.create_customer("late@example.com").await;
    let (status, e) = session_with(&m, &customer, &[("discounts[0][promotion_code]", once)]).await;
    assert_eq!(status, 400, "{e}");
    assert_eq!(e["error"]["code"], "parameter_invalid");

    let soon = (stripe_mock::Clock::wall() + 3600).to_string();
    let short = promo(&m, &c, "SHORT", &[("expires_at", &soon)]).await;
    m.handle.advance_clock(7200);
    let (status, e) = session_with(
        &m,
        &customer,
        &[(
            "discounts[0][promotion_code]",
            short["id"].as_str().unwrap(),
        )],
    )
    .await;
    assert_eq!(status, 400, "{e}");
}

#[tokio::test]
async fn a_repeating_discount_comes_off_each_invoice_until_its_months_are_over() {
    let m = spawn_mock().await;
    let c = coupon(
        &m,
        &[
            ("percent_off", "20"),
            ("duration", "repeating"),
            ("duration_in_months", "2"),
        ],
    )
    .await;
    let code = promo(&m, &c, "TWOMONTHS", &[]).await;
    let sub = subscribe_with(&m, code["id"].as_str().unwrap()).await;

    let (_, s) = m
        .get(&format!(
            "/v1/subscriptions/{sub}?expand[]=discounts.source.coupon"
        ))
        .await;
    let discount = &s["discounts"][0];
    assert_eq!(discount["object"], "discount");
    assert_eq!(discount["source"]["type"], "coupon");
    assert_eq!(discount["source"]["coupon"]["id"], c.as_str());
    assert_eq!(discount["source"]["coupon"]["duration"], "repeating");
    assert_eq!(discount["promotion_code"], code["id"]);
    assert!(discount["end"].as_i64().unwrap() > discount["start"].as_i64().unwrap());

    let first = latest_invoice(&m, &sub).await;
    assert_eq!(first["subtotal"], 2000);
    assert_eq!(first["total"], 1600);
    assert_eq!(first["amount_paid"], 1600);
    assert_eq!(first["total_discount_amounts"][0]["amount"], 400);
    assert_eq!(
        first["lines"]["data"][0]["discount_amounts"][0]["amount"],
        400
    );

    let (_, preview) = m
        .post("/v1/invoices/create_preview", &[("subscription", &sub)])
        .await;
    assert_eq!(preview["total"], 1600, "the second month is discounted too");

    m.handle.advance_clock(MONTH);
    assert_eq!(latest_invoice(&m, &sub).await["total"], 1600);
    m.handle.advance_clock(MONTH);
    let third = latest_invoice(&m, &sub).await;
    assert_eq!(third["total"], 2000, "{third}");
    assert_eq!(third["discounts"], serde_json::json!([]));
    let (_, s) = m.get(&format!("/v1/subscriptions/{sub}")).await;
    assert_eq!(s["discounts"], serde_json::json!([]));
    assert!(m
        .event_types()
        .contains(&"customer.discount.deleted".to_owned()));
}

#[tokio::test]
async fn a_once_discount_comes_off_the_first_invoice_only_and_amounts_off_cap_at_the_total() {
    let m = spawn_mock().await;
    let c = coupon(&m, &[("amount_off", "2500"), ("currency", "usd")]).await;
    let code = promo(&m, &c, "BIGONCE", &[]).await;
    let sub = subscribe_with(&m, code["id"].as_str().unwrap()).await;
    let first = latest_invoice(&m, &sub).await;
    assert_eq!(first["total"], 0, "never below zero");
    assert_eq!(first["total_discount_amounts"][0]["amount"], 2000);
    m.handle.advance_clock(MONTH);
    assert_eq!(latest_invoice(&m, &sub).await["total"], 2000);
}

#[tokio::test]
async fn the_hosted_page_takes_a_typed_code_when_the_session_allows_codes() {
    let m = spawn_mock().await;
    let customer = m.create_customer("buyer@example.com").await;
    let c = coupon(&m, &[("percent_off", "50"), ("duration", "forever")]).await;
    promo(&m, &c, "HALF", &[]).await;
    let (_, plain) = session_with(&m, &customer, &[]).await;
    let page = m
        .http
        .get(plain["url"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert!(!page.text().await.unwrap().contains("Promotion code"));

    let (_, s) = session_with(&m, &customer, &[("allow_promotion_codes", "true")]).await;
    let id = s["id"].as_str().unwrap();
    let html = m
        .http
        .get(s["url"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(html.contains("<label for=\"promotion_code\">Promotion code</label>"));

    let apply = |code: &'static str| {
        m.http
            .post(m.url(&format!("/c/pay/{id}/promotion_code")))
            .form(&[("promotion_code", code)])
            .send()
    };
    let wrong = apply("NOTACODE").await.unwrap();
    assert_eq!(wrong.status(), 400);
    assert_eq!(
        alert(&wrong.text().await.unwrap()).as_deref(),
        Some("This code is invalid.")
    );

    let ok = apply("half").await.unwrap();
    assert_eq!(ok.status(), 303);
    let html = m
        .http
        .get(s["url"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        html.contains("Promotion code HALF applied: −$10.00"),
        "{html}"
    );
    assert!(html.contains("Total due today: $10.00"), "{html}");

    m.pay(id, "4242 4242 4242 4242").await;
    let (_, done) = m.get(&format!("/v1/checkout/sessions/{id}")).await;
    assert_eq!(done["amount_total"], 1000);
    let sub = done["subscription"].as_str().unwrap();
    assert_eq!(latest_invoice(&m, sub).await["total"], 1000);
}
