//! The hosted checkout page's promotion code: a field shown when the session allows codes,
//! applied to the session (`discounts`) before the customer pays.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use serde_json::Value;

use super::checkout::render_checkout;
use super::{escape, field, html, money, not_found, Shared};
use crate::form;
use crate::store::{CheckoutSession, SessionDiscount, Store};

/// The applied code and what it takes off, or the field to type one in.
pub(super) fn section(store: &Store, s: &CheckoutSession) -> String {
    if let Some(applied) = s.discounts.first() {
        let name = applied
            .promotion_code
            .as_ref()
            .and_then(|id| store.promotion_codes.get(id))
            .map_or_else(|| applied.coupon.clone(), |p| p.code.clone());
        let off = money(store.session_discount(s), &s.currency);
        return format!(
            "<p role=\"status\">Promotion code {} applied: −{}</p>",
            escape(&name),
            escape(&off)
        );
    }
    if s.allow_promotion_codes != Some(true) {
        return String::new();
    }
    format!(
        "<form method=\"post\" action=\"/c/pay/{}/promotion_code\">\
<label for=\"promotion_code\">Promotion code</label>\
<input id=\"promotion_code\" name=\"promotion_code\" autocomplete=\"off\">\
<button type=\"submit\">Apply</button></form>",
        escape(&s.id)
    )
}

pub(super) async fn apply_code(
    State(st): State<Shared>,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    let fields = form::parse(&body);
    let typed = field(&fields, "promotion_code");
    st.mutate(|store, now| {
        let Some(session) = store.sessions.get(&id).cloned() else {
            return not_found("This checkout session does not exist.");
        };
        let refuse = |store: &Store, msg: &str| {
            html(
                StatusCode::BAD_REQUEST,
                render_checkout(store, &session, &Value::Null, Some(msg)),
            )
        };
        if session.status != "open" || session.allow_promotion_codes != Some(true) {
            return refuse(store, "Promotion codes cannot be used with this checkout.");
        }
        let Some(code) = store.code_named(&typed).map(|c| c.id.clone()) else {
            return refuse(store, "This code is invalid.");
        };
        let subtotal = store.session_total(&session);
        let checked = store.redeemable_code(
            &code,
            "promotion_code",
            session.customer.as_deref(),
            subtotal,
            &session.currency,
            now,
        );
        let coupon = match checked {
            Ok(pc) => pc.coupon.clone(),
            Err(e) => return refuse(store, &e.message),
        };
        if let Some(s) = store.sessions.get_mut(&id) {
            s.discounts = vec![SessionDiscount {
                coupon,
                promotion_code: Some(code),
            }];
        }
        Redirect::to(&format!("/c/pay/{id}")).into_response()
    })
}
