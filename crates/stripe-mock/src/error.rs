//! Stripe-shaped errors: `{"error": {"type", "code", "message", "param"}}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    pub status: StatusCode,
    pub kind: &'static str,
    pub code: Option<&'static str>,
    pub message: String,
    pub param: Option<String>,
    /// For card errors: why the bank said no (`generic_decline`, `insufficient_funds`).
    pub decline_code: Option<&'static str>,
}

impl ApiError {
    pub fn missing_param(param: &str) -> Self {
        Self {
            status: StatusCode::BAD_REQUEST,
            kind: "invalid_request_error",
            code: Some("parameter_missing"),
            message: format!("Missing required param: {param}."),
            param: Some(param.to_owned()),
            decline_code: None,
        }
    }

    pub fn invalid_param(param: &str, message: impl Into<String>) -> Self {
        Self {
            status: StatusCode::BAD_REQUEST,
            kind: "invalid_request_error",
            code: Some("parameter_invalid"),
            message: message.into(),
            param: Some(param.to_owned()),
            decline_code: None,
        }
    }

    /// What Stripe answers for a parameter an endpoint does not take.
    pub fn unknown_param(param: &str) -> Self {
        Self {
            status: StatusCode::BAD_REQUEST,
            kind: "invalid_request_error",
            code: Some("parameter_unknown"),
            message: format!("Received unknown parameter: {param}"),
            param: Some(param.to_owned()),
            decline_code: None,
        }
    }

    /// A 404 for an id that does not exist; `what` is Stripe's noun ("customer", "price").
    pub fn no_such(what: &str, id: &str, param: &str) -> Self {
        Self {
            status: StatusCode::NOT_FOUND,
            kind: "invalid_request_error",
            code: Some("resource_missing"),
            message: format!("No such {what}: '{id}'"),
            param: Some(param.to_owned()),
            decline_code: None,
        }
    }

    /// The same error answered with 400, as Stripe does for an id named in a parameter of a
    /// request on another object.
    pub fn bad_request(mut self) -> Self {
        self.status = StatusCode::BAD_REQUEST;
        self
    }

    /// Stripe's answer when a subscription will not renew (or the customer has none).
    pub fn no_upcoming_invoice(customer: &str) -> Self {
        Self {
            status: StatusCode::NOT_FOUND,
            kind: "invalid_request_error",
            code: Some("invoice_upcoming_none"),
            message: format!("No upcoming invoices for customer: {customer}"),
            param: None,
            decline_code: None,
        }
    }

    /// A tax ID whose value does not have its type's shape.
    pub fn tax_id_invalid(kind: &str) -> Self {
        Self {
            status: StatusCode::BAD_REQUEST,
            kind: "invalid_request_error",
            code: Some("tax_id_invalid"),
            message: format!("Invalid value for {kind}."),
            param: Some("value".to_owned()),
            decline_code: None,
        }
    }

    /// What Stripe answers when the card is declined (a `StripeCardError` in its libraries).
    pub fn card_declined(message: &str, decline_code: &'static str) -> Self {
        Self {
            status: StatusCode::PAYMENT_REQUIRED,
            kind: "card_error",
            code: Some("card_declined"),
            message: message.to_owned(),
            param: None,
            decline_code: Some(decline_code),
        }
    }

    pub fn invalid_request(message: impl Into<String>) -> Self {
        Self {
            status: StatusCode::BAD_REQUEST,
            kind: "invalid_request_error",
            code: None,
            message: message.into(),
            param: None,
            decline_code: None,
        }
    }

    /// A mistake of the mock's own (Stripe's `api_error`).
    pub fn internal(message: impl Into<String>) -> Self {
        Self {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            kind: "api_error",
            code: None,
            message: message.into(),
            param: None,
            decline_code: None,
        }
    }

    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self {
            status: StatusCode::UNAUTHORIZED,
            kind: "invalid_request_error",
            code: None,
            message: message.into(),
            param: None,
            decline_code: None,
        }
    }

    pub fn unknown_route(method: &str, path: &str) -> Self {
        Self {
            status: StatusCode::NOT_FOUND,
            kind: "invalid_request_error",
            code: None,
            message: format!(
                "Unrecognized request URL ({method}: {path}). This mock implements only part of Stripe's API; see crates/stripe-mock/README.md."
            ),
            param: None,
            decline_code: None,
        }
    }

    pub fn body(&self) -> Value {
        let mut error = json!({
            "type": self.kind,
            "message": self.message,
        });
        if let Some(code) = self.code {
            error["code"] = json!(code);
            error["doc_url"] = json!(format!(
                "https://stripe.com/docs/error-codes/{}",
                code.replace('_', "-")
            ));
        }
        if let Some(decline_code) = self.decline_code {
            error["decline_code"] = json!(decline_code);
        }
        if let Some(param) = &self.param {
            error["param"] = json!(param);
        }
        json!({ "error": error })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body())).into_response()
    }
}
