//! What the mock does not implement is refused the way Stripe refuses an unknown
//! parameter (400 `invalid_request_error`, `parameter_unknown`, naming it), never ignored; and
//! the README's table says exactly what each endpoint takes.

use axum::http::StatusCode;
use serde_json::Value;
use stripe_mock::{endpoints, Endpoint};

use crate::helpers::*;

/// `/v1/customers/{id}` → `/v1/customers/x_missing`.
fn concrete(path: &str) -> String {
    path.replace("{id}", "x_missing")
}

/// A key the pattern accepts: `line_items[][price]` → `line_items[0][price]`, `metadata[*]` →
/// `metadata[k]`.
fn sample_key(pattern: &str) -> String {
    pattern.replace("[]", "[0]").replace("[*]", "[k]")
}

async fn send(m: &TestMock, ep: &Endpoint, form: &[(&str, &str)]) -> (StatusCode, Value) {
    let url = m.url(&concrete(ep.path));
    let req = match ep.method {
        "GET" => m.http.get(url).query(form),
        "DELETE" => m.http.delete(url).query(form),
        "POST" => m.http.post(url).form(form),
        other => panic!("unexpected method {other}"),
    };
    json_of(req.bearer_auth(KEY).send().await.unwrap()).await
}

fn assert_unknown(status: StatusCode, body: &Value, param: &str, case: &str) {
    assert_eq!(status, 400, "{case}: {body}");
    let e = &body["error"];
    assert_eq!(e["type"], "invalid_request_error", "{case}");
    assert_eq!(e["code"], "parameter_unknown", "{case}");
    assert_eq!(e["param"], param, "{case}");
    assert_eq!(
        e["message"],
        format!("Received unknown parameter: {param}"),
        "{case}"
    );
}

#[tokio::test]
async fn a_subscription_price_change_to_an_unknown_price_is_refused_not_ignored() {
    let m = spawn_mock().await;
    let (_, _, sub) = m.subscribed().await;
    let (_, before) = m.get(&format!("/v1/subscriptions/{sub}")).await;
    let item = before["items"]["data"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (status, body) = m
        .post(
            &format!("/v1/subscriptions/{sub}"),
            &[("items[0][id]", &item), ("items[0][price]", "price_other")],
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(
        body["error"]["code"], "resource_missing",
        "a price change to a price that does not exist: {body}"
    );
    let (_, after) = m.get(&format!("/v1/subscriptions/{sub}")).await;
    assert_eq!(after, before, "nothing changed");
}

#[tokio::test]
async fn every_endpoint_refuses_an_unknown_parameter() {
    let m = spawn_mock().await;
    let all = endpoints();
    for wanted in [
        ("GET", "/v1/products"),
        ("GET", "/v1/invoices"),
        ("GET", "/v1/invoices/{id}/lines"),
        ("POST", "/v1/invoices/create_preview"),
    ] {
        assert!(
            all.iter().any(|e| (e.method, e.path) == wanted),
            "{wanted:?} is listed"
        );
    }
    for ep in &all {
        let case = format!("{} {}", ep.method, ep.path);
        let (status, body) = send(&m, ep, &[("closewise_unknown", "1")]).await;
        assert_unknown(status, &body, "closewise_unknown", &case);
    }
}

#[tokio::test]
async fn every_listed_parameter_gets_past_the_check() {
    let m = spawn_mock().await;
    for ep in endpoints() {
        for pattern in ep.accepted() {
            let key = sample_key(pattern);
            let (_, body) = send(&m, &ep, &[(&key, "1")]).await;
            assert_ne!(
                body["error"]["code"], "parameter_unknown",
                "{} {} refused its own {key}: {body}",
                ep.method, ep.path
            );
        }
    }
}

/// (path, form, the parameter refused)
type Case<'a> = (&'a str, Vec<(&'a str, &'a str)>, &'a str);

#[tokio::test]
async fn unknown_nested_parameters_are_named_in_full() {
    let m = spawn_mock().await;
    let session = [
        ("mode", "subscription"),
        ("success_url", "http://app.test/ok"),
        ("line_items[0][price]", "price_closewise_monthly"),
        ("line_items[0][quantity]", "1"),
    ];
    let cases: [Case; 5] = [
        (
            "/v1/checkout/sessions",
            [
                &session[..],
                &[("line_items[0][adjustable_quantity][enabled]", "true")],
            ]
            .concat(),
            "line_items[0][adjustable_quantity][enabled]",
        ),
        (
            "/v1/checkout/sessions",
            [&session[..], &[("subscription_data[trial_end]", "7")]].concat(),
            "subscription_data[trial_end]",
        ),
        (
            "/v1/checkout/sessions",
            [
                &session[..],
                &[("line_items[0][price_data][tax_behavior]", "exclusive")],
            ]
            .concat(),
            "line_items[0][price_data][tax_behavior]",
        ),
        (
            "/v1/customers",
            vec![
                ("email", "a@example.com"),
                ("invoice_settings[footer]", "x"),
            ],
            "invoice_settings[footer]",
        ),
        (
            "/v1/prices",
            vec![
                ("currency", "usd"),
                ("unit_amount", "100"),
                ("product", "prod_closewise_unlimited"),
                ("recurring[usage_type]", "metered"),
            ],
            "recurring[usage_type]",
        ),
    ];
    for (path, form, param) in cases {
        let (status, body) = m.post(path, &form).await;
        assert_unknown(status, &body, param, param);
    }
    assert!(
        m.handle.snapshot().sessions.is_empty(),
        "a refused request creates nothing"
    );
}

#[tokio::test]
async fn a_value_where_a_hash_or_an_array_is_expected_is_invalid() {
    let m = spawn_mock().await;
    let (status, body) = m
        .post(
            "/v1/checkout/sessions",
            &[
                ("mode", "subscription"),
                ("success_url", "http://app.test/ok"),
                ("line_items", "price_closewise_monthly"),
            ],
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["code"], "parameter_invalid");
    assert_eq!(body["error"]["param"], "line_items");
    let (status, body) = m
        .get("/v1/prices/price_closewise_monthly?expand=product")
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["param"], "expand");
    // An empty `metadata` is how Stripe clears a hash: accepted.
    let c = m.create_customer("a@example.com").await;
    let (status, body) = m
        .post(&format!("/v1/customers/{c}"), &[("metadata", "")])
        .await;
    assert_eq!(status, 200, "{body}");
}

/// `| \`POST /v1/customers\` | \`email\`, \`name\` | … |` rows of the README's parameter table.
fn readme_table() -> Vec<(String, String, Vec<String>)> {
    let readme = include_str!("../../README.md");
    let mut rows = Vec::new();
    for line in readme.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 4 {
            continue;
        }
        let Some(endpoint) = cells[1].strip_prefix('`').and_then(|c| c.strip_suffix('`')) else {
            continue;
        };
        let Some((method, path)) = endpoint.split_once(' ') else {
            continue;
        };
        if !matches!(method, "GET" | "POST" | "DELETE") || !path.starts_with("/v1/") {
            continue;
        }
        let params = cells[2]
            .split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_owned)
            .collect();
        rows.push((method.to_owned(), path.to_owned(), params));
    }
    rows
}

#[test]
fn the_readme_table_lists_exactly_what_each_endpoint_accepts() {
    let rows = readme_table();
    let code = endpoints();
    for ep in &code {
        let row = rows
            .iter()
            .find(|(m, p, _)| m == ep.method && p == ep.path)
            .unwrap_or_else(|| panic!("README has no row for {} {}", ep.method, ep.path));
        let mut readme: Vec<&str> = row.2.iter().map(String::as_str).collect();
        let mut accepted: Vec<&str> = ep.params.to_vec();
        readme.sort_unstable();
        accepted.sort_unstable();
        assert_eq!(readme, accepted, "{} {}", ep.method, ep.path);
    }
    for (method, path, _) in &rows {
        assert!(
            code.iter().any(|e| e.method == method && e.path == path),
            "README lists {method} {path}, which the mock does not serve"
        );
    }
}
