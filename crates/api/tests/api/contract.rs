//! The OpenAPI document as a contract: every operation has its own `operationId`, and a
//! request body is marked required exactly when the handler refuses a request without one.

use crate::both;
use crate::helpers::*;
use reqwest::StatusCode;
use serde_json::Value;
use std::collections::BTreeMap;

/// The document's operations: (method, path, operation).
fn operations(document: &Value) -> Vec<(String, String, Value)> {
    let mut out = Vec::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("path item") {
            if ["get", "put", "post", "delete", "patch"].contains(&method.as_str()) {
                out.push((method.clone(), path.clone(), op.clone()));
            }
        }
    }
    out
}

fn document() -> Value {
    serde_json::from_str(&closewise_api::openapi::json()).expect("the document is JSON")
}

#[test]
fn every_operation_has_its_own_operation_id() {
    let mut seen: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (method, path, op) in operations(&document()) {
        let id = op["operationId"]
            .as_str()
            .unwrap_or_else(|| panic!("{method} {path} has no operationId"));
        seen.entry(id.to_owned())
            .or_default()
            .push(format!("{method} {path}"));
    }
    let shared: Vec<_> = seen.iter().filter(|(_, ops)| ops.len() > 1).collect();
    assert!(
        shared.is_empty(),
        "operationIds shared by several operations (name them with `operation_id = \"…\"`): {shared:?}"
    );
}

/// The token endpoint's body depends on its `grant_type` and the webhook's on Stripe's signature:
/// neither reads the body as the other operations do.
const NOT_PLAIN_JSON: [&str; 2] = ["/api/auth/token", "/api/stripe/webhook"];

both!(
    async fn a_request_body_is_required_exactly_when_a_request_without_one_is_refused(app) {
        let session = app.signed_in_user("cora@example.com", "sales-pro-2026").await;
        let token = session["access_token"].as_str().unwrap().to_owned();
        let mut wrong = Vec::new();
        for (method, path, op) in operations(&document()) {
            let Some(request_body) = op.get("requestBody") else { continue };
            if NOT_PLAIN_JSON.contains(&path.as_str()) {
                continue;
            }
            // utoipa's optional body is `oneOf: [null, T]`; the document promises no `null` body.
            assert!(
                request_body.pointer("/content/application~1json/schema/oneOf").is_none(),
                "{method} {path}: an optional body is absent, not null: {request_body}"
            );
            if request_body.pointer("/content/application~1json").is_none() {
                // A form post (the SAML ACS): its body is the identity provider's, not JSON.
                continue;
            }
            let required = request_body["required"].as_bool().unwrap_or(false);
            let url = app.url(
                &path
                    .replace("{id}", &uuid::Uuid::new_v4().to_string())
                    .replace("{user_id}", &uuid::Uuid::new_v4().to_string()),
            );
            let res = app
                .client
                .request(method.to_uppercase().parse().unwrap(), url)
                .bearer_auth(&token)
                .header("content-type", "application/json")
                .header("origin", app.state.settings.base_url.clone())
                .send()
                .await
                .unwrap();
            let (status, answer) = body(res).await;
            let refused_for_the_body = status == StatusCode::BAD_REQUEST
                && error_code(&answer) == "invalid_json";
            if required != refused_for_the_body {
                wrong.push(format!(
                    "{method} {path}: marked {} but without a body answers {status} {answer}",
                    if required { "required" } else { "optional" }
                ));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }
);
