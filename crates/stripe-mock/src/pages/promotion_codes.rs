//! The hosted checkout page's promotion code: a field shown when the session allows codes,
//! applied to the session (`discounts`) before the customer pays.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use serde_json::Value;

use super::checkout::render_checkout;
use super::{field, html, not_found, Shared};
use crate::form;
use crate::store::{SessionDiscount, Store};

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
