//! The billing portal (`/p/session/<bps_id>`): plan, status, cancel or renew, the card, the
//! quantity and the invoices — each only when the session's configuration allows it, on the page
//! and again when the form is posted.

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;
use serde_json::Value;

use super::{
    card_inputs, escape, field, html, long_date, money, not_found, page, price_line, today, Shared,
};
use crate::cards::{self, Behaviour};
use crate::store::{
    Change, PortalConfiguration, ProrationBehavior, QuantityChange, Store, Subscription,
};
use crate::{form, AppState};

/// The subscription the portal shows: the newest one still running, else the newest.
fn portal_subscription<'a>(store: &'a Store, customer: &str) -> Option<&'a Subscription> {
    let mut subs: Vec<&Subscription> = store
        .subscriptions
        .values()
        .filter(|s| s.customer == customer)
        .collect();
    subs.sort_by(|a, b| b.created.cmp(&a.created).then(b.id.cmp(&a.id)));
    subs.iter()
        .find(|s| s.status != "canceled")
        .or(subs.first())
        .copied()
}

#[derive(Deserialize)]
pub(super) struct Flash {
    done: Option<String>,
}

fn render_portal(
    store: &Store,
    session_id: &str,
    error: Option<&str>,
    notice: Option<&str>,
    fields: &Value,
) -> Option<String> {
    let session = store.portal_sessions.get(session_id)?;
    let back = session.return_url.as_ref().map_or(String::new(), |url| {
        format!(
            "<p><a href=\"{}\"><span aria-hidden=\"true\">←</span> Return to Closewise</a></p>",
            escape(url)
        )
    });
    let alert = error.map_or(String::new(), |e| {
        format!("<div role=\"alert\">{}</div>", escape(e))
    });
    let notice = notice.map_or(String::new(), |n| {
        format!("<div role=\"status\">{}</div>", escape(n))
    });
    let email = store
        .customers
        .get(&session.customer)
        .and_then(|c| c.email.clone())
        .unwrap_or_default();
    let mut body = format!(
        "{back}<h1>Billing</h1><p class=\"muted\">{}</p>{notice}{alert}",
        escape(&email)
    );
    let action = |path: &str| format!("/p/session/{}/{path}", escape(session_id));
    let features = store.session_configuration(session).features;
    match portal_subscription(store, &session.customer) {
        None => body.push_str("<h2>Current plan</h2><p>No active subscription.</p>"),
        Some(sub) => {
            let (name, price) = sub
                .items
                .first()
                .map(|i| {
                    let (name, price) = price_line(store, &i.price, i.quantity);
                    match i.quantity {
                        0 | 1 => (name, price),
                        seats => (format!("{name} × {seats}"), price),
                    }
                })
                .unwrap_or_default();
            let status_line = match (sub.status.as_str(), sub.cancel_at_period_end) {
                ("canceled", _) => format!(
                    "Canceled on {}",
                    long_date(sub.ended_at.unwrap_or(sub.current_period_end))
                ),
                (_, true) => format!("Cancels on {}", long_date(sub.current_period_end)),
                ("past_due", _) => "Payment failed. Update your card to keep your plan.".to_owned(),
                _ => format!("Renews on {}", long_date(sub.current_period_end)),
            };
            body.push_str(&format!(
                "<h2>Current plan</h2><p><strong>{}</strong></p><p class=\"price\">{}</p>\
<p>Status: <span data-status=\"{}\">{}</span></p><p>{}</p>",
                escape(&name),
                escape(&price),
                escape(&sub.status),
                escape(&sub.status.replace('_', " ")),
                escape(&status_line)
            ));
            if sub.status != "canceled" {
                if sub.cancel_at_period_end {
                    body.push_str(&format!(
                        "<form method=\"post\" action=\"{}\"><button type=\"submit\">Renew plan</button></form>",
                        action("renew")
                    ));
                } else if features.subscription_cancel {
                    body.push_str(&format!(
                        "<form method=\"post\" action=\"{}\"><button type=\"submit\">Cancel plan</button></form>",
                        action("cancel")
                    ));
                }
            }
            if sub.status != "canceled" && features.quantity_changes() {
                let quantity = sub.items.first().map_or(1, |i| i.quantity);
                body.push_str(&format!(
                    "<form method=\"post\" action=\"{}\"><h3>Quantity</h3><label for=\"quantity\">Quantity</label>\
<input id=\"quantity\" name=\"quantity\" type=\"number\" min=\"1\" value=\"{quantity}\"><button type=\"submit\">Update quantity</button></form>",
                    action("quantity")
                ));
            }
            body.push_str("<h2>Payment method</h2>");
            match sub.default_payment_method.as_ref().and_then(|pm| store.payment_methods.get(pm)) {
                Some(pm) => body.push_str(&format!(
                    "<p><span data-brand=\"{}\">{}</span> •••• {}</p><p class=\"muted\">Expires {:02}/{}</p>",
                    escape(&pm.card.brand),
                    escape(&brand_name(&pm.card.brand)),
                    escape(&pm.card.last4),
                    pm.card.exp_month,
                    pm.card.exp_year
                )),
                None => body.push_str("<p>No card on file.</p>"),
            }
            if sub.status != "canceled" && features.payment_method_update {
                body.push_str(&format!(
                    "<form method=\"post\" action=\"{}\"><h3>Update card</h3>{}<button type=\"submit\">Update card</button></form>",
                    action("card"),
                    card_inputs(&field(fields, "cardnumber"), &field(fields, "exp"))
                ));
            }
        }
    }
    if features.invoice_history {
        body.push_str(&invoice_history(store, &session.customer));
    }
    Some(page("Billing", &body))
}

/// The customer's invoices, newest first.
fn invoice_history(store: &Store, customer: &str) -> String {
    let mut invoices: Vec<_> = store
        .invoices
        .values()
        .filter(|i| i.customer == customer)
        .collect();
    invoices.sort_by(|a, b| b.created.cmp(&a.created).then(b.id.cmp(&a.id)));
    let rows: String = invoices
        .iter()
        .map(|i| {
            format!(
                "<li>{} — {} — <span data-invoice-status=\"{}\">{}</span></li>",
                escape(&long_date(i.created)),
                escape(&money(i.total, &i.currency)),
                escape(&i.status),
                escape(&i.status)
            )
        })
        .collect();
    if rows.is_empty() {
        "<h2>Invoice history</h2><p>No invoices yet.</p>".to_owned()
    } else {
        format!("<h2>Invoice history</h2><ul>{rows}</ul>")
    }
}

/// The session and its configuration.
fn session_and_configuration(
    store: &Store,
    id: &str,
) -> Option<(crate::store::PortalSession, PortalConfiguration)> {
    let session = store.portal_sessions.get(id).cloned()?;
    let configuration = store.session_configuration(&session);
    Some((session, configuration))
}

/// A posted action the session's configuration does not offer.
fn not_offered(what: &str) -> Response {
    html(
        StatusCode::FORBIDDEN,
        page(
            "Billing",
            &format!(
                "<h1>Billing</h1><div role=\"alert\">{}</div>",
                escape(&format!("This billing portal does not allow {what}."))
            ),
        ),
    )
}

fn brand_name(brand: &str) -> String {
    match brand {
        "visa" => "Visa".to_owned(),
        "mastercard" => "Mastercard".to_owned(),
        "amex" => "American Express".to_owned(),
        other => other.to_owned(),
    }
}

pub(super) async fn portal_page(
    State(st): State<Shared>,
    Path(id): Path<String>,
    Query(flash): Query<Flash>,
) -> Response {
    let notice = match flash.done.as_deref() {
        Some("canceled") => Some(
            "Your plan has been canceled. It stays active until the end of the billing period.",
        ),
        Some("renewed") => Some("Your plan has been renewed."),
        Some("card") => Some("Your card has been updated."),
        Some("quantity") => Some("Your quantity has been updated."),
        _ => None,
    };
    st.mutate(
        |store, _| match render_portal(store, &id, None, notice, &Value::Null) {
            Some(body) => html(StatusCode::OK, body),
            None => not_found("This billing portal session does not exist."),
        },
    )
}

fn portal_action(st: &AppState, id: &str, cancel: bool) -> Response {
    st.mutate(|store, now| {
        let (session, configuration) = match session_and_configuration(store, id) {
            Some(found) => found,
            None => return not_found("This billing portal session does not exist."),
        };
        if cancel && !configuration.features.subscription_cancel {
            return not_offered("cancelling the plan");
        }
        let Some(sub_id) = portal_subscription(store, &session.customer).map(|s| s.id.clone())
        else {
            return not_found("No active subscription.");
        };
        let origin = crate::store::Origin::default();
        match store.set_cancel_at_period_end(&sub_id, cancel, &origin, now) {
            Ok(()) => {
                let done = if cancel { "canceled" } else { "renewed" };
                Redirect::to(&format!("/p/session/{id}?done={done}")).into_response()
            }
            Err(e) => html(
                StatusCode::CONFLICT,
                render_portal(store, id, Some(&e.message), None, &Value::Null).unwrap_or_default(),
            ),
        }
    })
}

pub(super) async fn portal_cancel(State(st): State<Shared>, Path(id): Path<String>) -> Response {
    portal_action(&st, &id, true)
}

pub(super) async fn portal_renew(State(st): State<Shared>, Path(id): Path<String>) -> Response {
    portal_action(&st, &id, false)
}

pub(super) async fn portal_card(
    State(st): State<Shared>,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    let fields = form::parse(&body);
    st.mutate(|store, now| {
        let (session, configuration) = match session_and_configuration(store, &id) {
            Some(found) => found,
            None => return not_found("This billing portal session does not exist."),
        };
        if !configuration.features.payment_method_update {
            return not_offered("updating the card");
        }
        let Some(sub_id) = portal_subscription(store, &session.customer).map(|s| s.id.clone())
        else {
            return not_found("No active subscription.");
        };
        let fail = |store: &Store, status, msg: &str| {
            html(
                status,
                render_portal(store, &id, Some(msg), None, &fields).unwrap_or_default(),
            )
        };
        let (card, behaviour) = match cards::check(
            &field(&fields, "cardnumber"),
            &field(&fields, "exp"),
            &field(&fields, "cvc"),
            today(now),
        ) {
            Ok(ok) => ok,
            Err(msg) => return fail(store, StatusCode::BAD_REQUEST, msg),
        };
        let status = if matches!(
            behaviour,
            Behaviour::Succeeds | Behaviour::AttachesThenFails
        ) {
            StatusCode::BAD_REQUEST
        } else {
            StatusCode::PAYMENT_REQUIRED
        };
        match store.replace_card(&sub_id, card, behaviour, now) {
            Ok(()) => Redirect::to(&format!("/p/session/{id}?done=card")).into_response(),
            Err(msg) => fail(store, status, &msg),
        }
    })
}

/// A new quantity for the subscription's first item, when the configuration allows quantity
/// changes (`subscription_update` with `quantity`), prorated as it says.
pub(super) async fn portal_quantity(
    State(st): State<Shared>,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    let fields = form::parse(&body);
    st.mutate(|store, now| {
        let (session, configuration) = match session_and_configuration(store, &id) {
            Some(found) => found,
            None => return not_found("This billing portal session does not exist."),
        };
        if !configuration.features.quantity_changes() {
            return not_offered("changing the quantity");
        }
        let Some(sub) = portal_subscription(store, &session.customer).cloned() else {
            return not_found("No active subscription.");
        };
        let fail = |store: &Store, msg: &str| {
            html(
                StatusCode::BAD_REQUEST,
                render_portal(store, &id, Some(msg), None, &Value::Null).unwrap_or_default(),
            )
        };
        let quantity = match field(&fields, "quantity").trim().parse::<u64>() {
            Ok(q) if q >= 1 => q,
            _ => return fail(store, "Enter a quantity of at least 1."),
        };
        let (Some(item), false) = (sub.items.first(), sub.status == "canceled") else {
            return not_found("No active subscription.");
        };
        let behavior = ProrationBehavior::parse(
            Some(configuration.features.update_proration_behavior.as_str()),
            "proration_behavior",
        )
        .unwrap_or_default();
        let change = Change {
            items: vec![QuantityChange {
                item: item.id.clone(),
                quantity: Some(quantity),
                price: None,
                param: "quantity".to_owned(),
            }],
            behavior,
            proration_date: None,
        };
        match store.change_quantities(&sub.id, &change, &crate::store::Origin::default(), now) {
            Ok(()) => Redirect::to(&format!("/p/session/{id}?done=quantity")).into_response(),
            Err(e) => fail(store, &e.message),
        }
    })
}
