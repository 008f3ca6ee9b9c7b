//! The hosted pages: checkout (`/c/pay/<cs_id>`) and the billing portal (`/p/session/<bps_id>`).
//! Plain HTML forms posted to the server, no JavaScript; every value is HTML-escaped.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::Deserialize;
use serde_json::Value;

use crate::cards::{self, Behaviour};
use crate::store::{CheckoutSession, Store, Subscription};
use crate::{form, AppState};

type Shared = Arc<AppState>;

pub fn router(state: Shared) -> Router {
    Router::new()
        .route("/c/pay/{id}", get(checkout_page).post(checkout_submit))
        .route("/p/session/{id}", get(portal_page))
        .route("/p/session/{id}/cancel", post(portal_cancel))
        .route("/p/session/{id}/renew", post(portal_renew))
        .route("/p/session/{id}/card", post(portal_card))
        .with_state(state)
}

pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `$20.00`, `€9.50`, `1,000 JPY`-style amounts from minor units.
pub fn money(amount: i64, currency: &str) -> String {
    let zero_decimal = matches!(currency, "jpy" | "krw" | "vnd" | "clp" | "isk" | "ugx");
    let symbol = match currency {
        "usd" => Some("$"),
        "eur" => Some("€"),
        "gbp" => Some("£"),
        _ => None,
    };
    let number = if zero_decimal {
        amount.to_string()
    } else {
        format!("{}.{:02}", amount / 100, (amount % 100).abs())
    };
    match symbol {
        Some(sym) => format!("{sym}{number}"),
        None => format!("{number} {}", currency.to_uppercase()),
    }
}

/// "November 22, 2026".
pub fn long_date(ts: i64) -> String {
    let fmt = time::macros::format_description!("[month repr:long] [day padding:none], [year]");
    time::OffsetDateTime::from_unix_timestamp(ts)
        .ok()
        .and_then(|d| d.format(&fmt).ok())
        .unwrap_or_else(|| ts.to_string())
}

fn price_line(store: &Store, price_id: &str) -> (String, String) {
    let Some(price) = store.prices.get(price_id) else {
        return (price_id.to_owned(), String::new());
    };
    let name = store
        .products
        .get(&price.product)
        .map_or_else(|| price.product.clone(), |p| p.name.clone());
    let amount = money(price.unit_amount, &price.currency);
    let text = match &price.recurring {
        Some(r) if r.interval_count == 1 => format!("{amount} per {}", r.interval),
        Some(r) => format!("{amount} every {} {}s", r.interval_count, r.interval),
        None => amount,
    };
    (name, text)
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;background:#f6f8fa;color:#1a1f36;margin:0}\
main{max-width:28rem;margin:2rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 3px #0002}\
label{display:block;margin-top:1rem;font-size:.9rem}input{display:block;width:100%;box-sizing:border-box;padding:.5rem;margin-top:.25rem;font-size:1rem}\
.row{display:flex;gap:1rem}.row>div{flex:1}button{margin-top:1.5rem;width:100%;padding:.75rem;font-size:1rem;background:#635bff;color:#fff;border:0;border-radius:6px;cursor:pointer}\
[role=alert]{background:#fdecea;color:#b3261e;padding:.75rem;border-radius:6px;margin-top:1rem}[role=status]{background:#e6f4ea;padding:.75rem;border-radius:6px;margin-top:1rem}\
.muted{color:#697386;font-size:.85rem}.price{font-size:1.6rem;font-weight:600}a{color:#635bff}";

fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>{}</title><style>{STYLE}</style></head><body><main>{body}<p class=\"muted\">Test mode — stripe-mock</p></main></body></html>",
        escape(title)
    )
}

fn html(status: StatusCode, body: String) -> Response {
    (status, Html(body)).into_response()
}

fn field(fields: &Value, name: &str) -> String {
    fields
        .get(name)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

fn today(now: i64) -> (i64, i64) {
    time::OffsetDateTime::from_unix_timestamp(now)
        .map(|d| (i64::from(d.year()), i64::from(u8::from(d.month()))))
        .unwrap_or((1970, 1))
}

fn card_inputs(number: &str, exp: &str) -> String {
    format!(
        "<label for=\"cardnumber\">Card number</label>\
<input id=\"cardnumber\" name=\"cardnumber\" inputmode=\"numeric\" autocomplete=\"cc-number\" placeholder=\"1234 1234 1234 1234\" value=\"{}\">\
<div class=\"row\"><div><label for=\"exp\">Expiration</label>\
<input id=\"exp\" name=\"exp\" autocomplete=\"cc-exp\" placeholder=\"MM / YY\" value=\"{}\"></div>\
<div><label for=\"cvc\">CVC</label><input id=\"cvc\" name=\"cvc\" inputmode=\"numeric\" autocomplete=\"cc-csc\" placeholder=\"CVC\"></div></div>",
        escape(number),
        escape(exp)
    )
}

// ------------------------------------------------------------------ checkout

fn session_email(store: &Store, s: &CheckoutSession) -> Option<String> {
    s.customer_email.clone().or_else(|| {
        s.customer
            .as_ref()
            .and_then(|c| store.customers.get(c))
            .and_then(|c| c.email.clone())
    })
}

fn render_checkout(
    store: &Store,
    s: &CheckoutSession,
    fields: &Value,
    error: Option<&str>,
) -> String {
    let mut items = String::new();
    let mut heading = String::new();
    for li in &s.line_items {
        let (name, price) = price_line(store, &li.price);
        if heading.is_empty() {
            heading = if s.mode == "subscription" {
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
    let total = money(store.session_total(s), &s.currency);
    let button = if s.mode == "subscription" {
        "Subscribe"
    } else {
        "Pay"
    };
    let body = format!(
        "{cancel}<h1>{}</h1><ul>{items}</ul><p class=\"muted\">Total due today: {}</p>{alert}\
<form method=\"post\" action=\"/c/pay/{}\">\
<label for=\"email\">Email</label><input id=\"email\" name=\"email\" type=\"email\" autocomplete=\"email\" value=\"{}\"{readonly}>\
{}<label for=\"name\">Name on card</label><input id=\"name\" name=\"name\" autocomplete=\"cc-name\" value=\"{}\">\
<button type=\"submit\">{button}</button></form>",
        escape(&heading),
        escape(&total),
        escape(&s.id),
        escape(&email),
        card_inputs(&field(fields, "cardnumber"), &field(fields, "exp")),
        escape(&field(fields, "name")),
    );
    page(&heading, &body)
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

fn not_found(what: &str) -> Response {
    html(
        StatusCode::NOT_FOUND,
        page(what, &format!("<h1>{}</h1>", escape(what))),
    )
}

async fn checkout_page(State(st): State<Shared>, Path(id): Path<String>) -> Response {
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
        match store.complete_checkout(id, &email, name, card, behaviour, now) {
            Ok(url) => Outcome::Redirect(url),
            Err(msg) => fail(store, StatusCode::PAYMENT_REQUIRED, &msg),
        }
    })
}

async fn checkout_submit(
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

/// What `MockHandle::pay` does: the hosted form with sensible defaults for everything but the card.
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

// ------------------------------------------------------------------ billing portal

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
struct Flash {
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
    match portal_subscription(store, &session.customer) {
        None => body.push_str("<h2>Current plan</h2><p>No active subscription.</p>"),
        Some(sub) => {
            let (name, price) = sub
                .items
                .first()
                .map(|i| price_line(store, &i.price))
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
                } else {
                    body.push_str(&format!(
                        "<form method=\"post\" action=\"{}\"><button type=\"submit\">Cancel plan</button></form>",
                        action("cancel")
                    ));
                }
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
            if sub.status != "canceled" {
                body.push_str(&format!(
                    "<form method=\"post\" action=\"{}\"><h3>Update card</h3>{}<button type=\"submit\">Update card</button></form>",
                    action("card"),
                    card_inputs(&field(fields, "cardnumber"), &field(fields, "exp"))
                ));
            }
        }
    }
    Some(page("Billing", &body))
}

fn brand_name(brand: &str) -> String {
    match brand {
        "visa" => "Visa".to_owned(),
        "mastercard" => "Mastercard".to_owned(),
        "amex" => "American Express".to_owned(),
        other => other.to_owned(),
    }
}

async fn portal_page(
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
        let Some(session) = store.portal_sessions.get(id).cloned() else {
            return not_found("This billing portal session does not exist.");
        };
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

async fn portal_cancel(State(st): State<Shared>, Path(id): Path<String>) -> Response {
    portal_action(&st, &id, true)
}

async fn portal_renew(State(st): State<Shared>, Path(id): Path<String>) -> Response {
    portal_action(&st, &id, false)
}

async fn portal_card(State(st): State<Shared>, Path(id): Path<String>, body: Bytes) -> Response {
    let fields = form::parse(&body);
    st.mutate(|store, now| {
        let Some(session) = store.portal_sessions.get(&id).cloned() else {
            return not_found("This billing portal session does not exist.");
        };
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
