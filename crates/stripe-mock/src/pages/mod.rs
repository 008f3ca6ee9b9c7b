//! The hosted pages: checkout (`/c/pay/<cs_id>`), the billing portal (`/p/session/<bps_id>`) and
//! invoices (`/i/<in_id>`, `/i/<in_id>/pdf`).
//! Plain HTML forms posted to the server, no JavaScript; every value is HTML-escaped.

use std::sync::Arc;

use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::Value;

use crate::store::Store;
use crate::AppState;

mod checkout;
mod invoice;
mod portal;
mod promotion_codes;

pub use checkout::pay_directly;

type Shared = Arc<AppState>;

pub fn router(state: Shared) -> Router {
    Router::new()
        .route(
            "/c/pay/{id}",
            get(checkout::checkout_page).post(checkout::checkout_submit),
        )
        .route("/i/{id}", get(invoice::invoice_page))
        .route("/i/{id}/pay", post(invoice::invoice_pay))
        .route("/i/{id}/pdf", get(invoice::invoice_pdf))
        .route(
            "/c/pay/{id}/promotion_code",
            post(promotion_codes::apply_code),
        )
        .route("/p/session/{id}", get(portal::portal_page))
        .route("/p/session/{id}/cancel", post(portal::portal_cancel))
        .route("/p/session/{id}/renew", post(portal::portal_renew))
        .route("/p/session/{id}/card", post(portal::portal_card))
        .route("/p/session/{id}/quantity", post(portal::portal_quantity))
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
    // A credit or a discount reads "-$150.00" (the sign before the symbol), "-$0.50" included.
    let sign = if amount < 0 { "-" } else { "" };
    let amount = amount.unsigned_abs();
    let number = if zero_decimal {
        amount.to_string()
    } else {
        format!("{}.{:02}", amount / 100, amount % 100)
    };
    match symbol {
        Some(sym) => format!("{sign}{sym}{number}"),
        None => format!("{sign}{number} {}", currency.to_uppercase()),
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

/// A price's product name and what it costs: "$20.00 per month"; for `quantity` > 1 the unit
/// price and the line's: "$20.00 per month each, $60.00 per month".
fn price_line(store: &Store, price_id: &str, quantity: u64) -> (String, String) {
    let Some(price) = store.prices.get(price_id) else {
        return (price_id.to_owned(), String::new());
    };
    let name = store
        .products
        .get(&price.product)
        .map_or_else(|| price.product.clone(), |p| p.name.clone());
    let text = |amount: i64| {
        let amount = money(amount, &price.currency);
        match &price.recurring {
            Some(r) if r.interval_count == 1 => format!("{amount} per {}", r.interval),
            Some(r) => format!("{amount} every {} {}s", r.interval_count, r.interval),
            None => amount,
        }
    };
    let unit = text(price.unit_amount);
    if quantity > 1 {
        let line = text(price.unit_amount * quantity as i64);
        (name, format!("{unit} each, {line}"))
    } else {
        (name, unit)
    }
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

fn not_found(what: &str) -> Response {
    html(
        StatusCode::NOT_FOUND,
        page(what, &format!("<h1>{}</h1>", escape(what))),
    )
}

#[cfg(test)]
mod tests {
    use super::money;

    #[test]
    fn amounts_read_with_their_sign_before_the_symbol() {
        assert_eq!(money(2000, "usd"), "$20.00");
        assert_eq!(money(-15000, "usd"), "-$150.00");
        assert_eq!(money(-50, "eur"), "-€0.50");
        assert_eq!(money(-1000, "jpy"), "-1000 JPY");
        assert_eq!(money(705, "chf"), "7.05 CHF");
    }
}
