//! The hosted checkout page (`/c/pay/<cs_id>`).

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use serde_json::Value;

use super::{card_inputs, escape, field, html, money, not_found, page, price_line, today, Shared};
use crate::cards;
use crate::store::{CheckoutSession, Company, Store, TAX_ID_TYPES};
use crate::{form, AppState};

fn session_email(store: &Store, s: &CheckoutSession) -> Option<String> {
    s.customer_email.clone().or_else(|| {
        s.customer
            .as_ref()
            .and_then(|c| store.customers.get(c))
            .and_then(|c| c.email.clone())
    })
}

pub(super) fn render_checkout(
    store: &Store,
    s: &CheckoutSession,
    fields: &Value,
    error: Option<&str>,
) -> String {
    let mut items = String::new();
    let mut heading = String::new();
    for li in &s.line_items {
        let (name, price) = price_line(store, &li.price, li.quantity);
        if heading.is_empty() {
            heading = if s.trial_period_days.is_some() {
                format!("Try {name}")
            } else if s.mode == "subscription" {
                format!("Subscribe to {name}")
            } else {
                format!("Pay for {name}")
            };
        }
        let qty = if li.quantity > 1 {
            format!(" × {}", li.quantity)
        } else {
            String::new()
        };
        items.push_str(&format!(
            "<li><strong>{}</strong>{} — <span class=\"price\">{}</span></li>",
            escape(&name),
            escape(&qty),
            escape(&price)
        ));
    }
    let cancel = s.cancel_url.as_ref().map_or(String::new(), |url| {
        format!(
            "<p><a href=\"{}\"><span aria-hidden=\"true\">←</span> Cancel</a></p>",
            escape(url)
        )
    });
    let alert = error.map_or(String::new(), |e| {
        format!("<div role=\"alert\">{}</div>", escape(e))
    });
    let known_email = session_email(store, s);
    let email = known_email
        .clone()
        .unwrap_or_else(|| field(fields, "email"));
    let readonly = if s.customer.is_some() && known_email.is_some() {
        " readonly"
    } else {
        ""
    };
    let total = money(store.session_amount_total(s), &s.currency);
    if let Some(days) = s.trial_period_days {
        items.push_str(&format!(
            "<li><strong>{days} days free</strong>, then charged each period from the card below</li>"
        ));
    }
    let tax = match store.session_taxes(s) {
        Some(lines) => format!(
            "<p class=\"muted\">Tax: {}</p>",
            escape(&money(lines.iter().sum(), &s.currency))
        ),
        None if s.automatic_tax => {
            "<p class=\"muted\">Tax is added for your billing address.</p>".to_owned()
        }
        None => String::new(),
    };
    let promotion = promotion_section(store, s);
    let button = if s.trial_period_days.is_some() {
        "Start trial"
    } else if s.mode == "subscription" {
        "Subscribe"
    } else {
        "Pay"
    };
    let body = format!(
        "{cancel}<h1>{}</h1><ul>{items}</ul>{tax}<p class=\"muted\">Total due today: {}</p>{alert}{promotion}\
<form method=\"post\" action=\"/c/pay/{}\">\
<label for=\"email\">Email</label><input id=\"email\" name=\"email\" type=\"email\" autocomplete=\"email\" value=\"{}\"{readonly}>\
{}<label for=\"name\">Name on card</label><input id=\"name\" name=\"name\" autocomplete=\"cc-name\" value=\"{}\">\
<button type=\"submit\">{button}</button></form>",
        escape(&heading),
        escape(&total),
        escape(&s.id),
        escape(&email),
        company_inputs(s, fields) + &card_inputs(&field(fields, "cardnumber"), &field(fields, "exp")),
        escape(&field(fields, "name")),
    );
    page(&heading, &body)
}

/// The billing address and the business's tax ID, when the session collects them.
fn company_inputs(s: &CheckoutSession, fields: &Value) -> String {
    let input = |name: &str, label: &str, autocomplete: &str| {
        format!(
            "<label for=\"{name}\">{label}</label><input id=\"{name}\" name=\"{name}\" autocomplete=\"{autocomplete}\" value=\"{}\">",
            escape(&field(fields, name))
        )
    };
    let mut html = String::new();
    if s.page_collects().address {
        html.push_str("<fieldset><legend>Billing address</legend>");
        html.push_str(&input("billing_name", "Full name", "billing name"));
        html.push_str(&input("line1", "Address line 1", "billing address-line1"));
        html.push_str(&input("line2", "Address line 2", "billing address-line2"));
        html.push_str(&input("postal_code", "Postal code", "billing postal-code"));
        html.push_str(&input("city", "City", "billing address-level2"));
        html.push_str(&input("state", "State or region", "billing address-level1"));
        html.push_str(&input(
            "country",
            "Country (two-letter code)",
            "billing country",
        ));
        html.push_str("</fieldset>");
    }
    if s.collect.tax_id {
        let chosen = field(fields, "tax_id_type");
        let options: String = TAX_ID_TYPES
            .iter()
            .map(|(kind, _)| {
                let selected = if *kind == chosen { " selected" } else { "" };
                format!("<option value=\"{kind}\"{selected}>{kind}</option>")
            })
            .collect();
        html.push_str("<fieldset><legend>I'm purchasing as a business</legend>");
        html.push_str(&input("business_name", "Business name", "organization"));
        html.push_str(&format!(
            "<label for=\"tax_id_type\">Tax ID type</label><select id=\"tax_id_type\" name=\"tax_id_type\">{options}</select>"
        ));
        html.push_str(&input("tax_id_value", "Tax ID", "off"));
        html.push_str("</fieldset>");
    }
    html
}

fn closed_page(s: &CheckoutSession) -> String {
    let (title, link) = if s.status == "complete" {
        (
            "This Checkout Session has already been completed.",
            s.success_url
                .as_ref()
                .map(|u| ("Continue", u.replace("{CHECKOUT_SESSION_ID}", &s.id))),
        )
    } else {
        (
            "This Checkout Session is no longer active.",
            s.cancel_url.clone().map(|u| ("Go back", u)),
        )
    };
    let link = link.map_or(String::new(), |(text, url)| {
        format!("<p><a href=\"{}\">{text}</a></p>", escape(&url))
    });
    page(title, &format!("<h1>{}</h1>{link}", escape(title)))
}

pub(super) async fn checkout_page(State(st): State<Shared>, Path(id): Path<String>) -> Response {
    st.mutate(|store, _| match store.sessions.get(&id) {
        None => not_found("This checkout session does not exist."),
        Some(s) if s.status != "open" => html(StatusCode::OK, closed_page(s)),
        Some(s) => html(
            StatusCode::OK,
            render_checkout(store, s, &Value::Null, None),
        ),
    })
}

enum Outcome {
    Redirect(String),
    Page(StatusCode, String),
}

fn attempt_payment(st: &AppState, id: &str, fields: &Value) -> Outcome {
    st.mutate(|store, now| {
        let Some(session) = store.sessions.get(id).cloned() else {
            return Outcome::Page(
                StatusCode::NOT_FOUND,
                page(
                    "Not found",
                    "<h1>This checkout session does not exist.</h1>",
                ),
            );
        };
        if session.status != "open" {
            return Outcome::Page(StatusCode::CONFLICT, closed_page(&session));
        }
        let fail = |store: &Store, status, msg: &str| {
            Outcome::Page(status, render_checkout(store, &session, fields, Some(msg)))
        };
        let email = session_email(store, &session).unwrap_or_else(|| field(fields, "email"));
        let email = email.trim().to_owned();
        if email.is_empty() {
            return fail(store, StatusCode::BAD_REQUEST, "Your email is incomplete.");
        }
        if !email.contains('@') || email.contains(char::is_whitespace) {
            return fail(
                store,
                StatusCode::BAD_REQUEST,
                "Your email address is invalid.",
            );
        }
        let checked = cards::check(
            &field(fields, "cardnumber"),
            &field(fields, "exp"),
            &field(fields, "cvc"),
            today(now),
        );
        let (card, behaviour) = match checked {
            Ok(ok) => ok,
            Err(msg) => return fail(store, StatusCode::BAD_REQUEST, msg),
        };
        let name = Some(field(fields, "name").trim().to_owned()).filter(|n| !n.is_empty());
        let company = match Company::from_form(&session.page_collects(), fields) {
            Ok(company) => company,
            Err(msg) => return fail(store, StatusCode::BAD_REQUEST, &msg),
        };
        if let Some(open) = store.sessions.get_mut(id) {
            open.company = company;
        }
        match store.complete_checkout(id, &email, name, card, behaviour, now) {
            Ok(url) => Outcome::Redirect(url),
            Err(msg) => fail(store, StatusCode::PAYMENT_REQUIRED, &msg),
        }
    })
}

pub(super) async fn checkout_submit(
    State(st): State<Shared>,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    let fields = form::parse(&body);
    match attempt_payment(&st, &id, &fields) {
        Outcome::Redirect(url) => Redirect::to(&url).into_response(),
        Outcome::Page(status, body) => html(status, body),
    }
}

/// What `MockHandle::pay` does: the hosted form with sensible defaults for everything but the card
/// (an address in Berlin where one is asked for, no tax ID).
pub fn pay_directly(st: &AppState, id: &str, card_number: &str) -> Result<String, String> {
    let digits: String = card_number.chars().filter(char::is_ascii_digit).collect();
    let cvc = if digits.starts_with("34") || digits.starts_with("37") {
        "1234"
    } else {
        "123"
    };
    let email = st.mutate(|store, _| {
        store
            .sessions
            .get(id)
            .and_then(|s| session_email(store, s))
            .unwrap_or_else(|| "customer@example.com".to_owned())
    });
    let fields = serde_json::json!({
        "email": email, "cardnumber": card_number, "exp": "12 / 34", "cvc": cvc, "name": "Test Customer",
        "billing_name": "Test Customer", "line1": "1 Test Street", "postal_code": "10115",
        "city": "Berlin", "country": "DE",
    });
    match attempt_payment(st, id, &fields) {
        Outcome::Redirect(url) => Ok(url),
        Outcome::Page(_, body) => Err(alert_text(&body).unwrap_or(body)),
    }
}

/// The message inside `role="alert"` (unescaped), if any.
fn alert_text(body: &str) -> Option<String> {
    let start = body.find("<div role=\"alert\">")? + "<div role=\"alert\">".len();
    let end = body[start..].find("</div>")? + start;
    Some(
        body[start..end]
            .replace("&#39;", "'")
            .replace("&quot;", "\"")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&"),
    )
}

/// The applied code and what it takes off, or the field to type one in.
fn promotion_section(store: &Store, s: &CheckoutSession) -> String {
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
