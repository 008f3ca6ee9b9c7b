//! The hosted invoice (`/i/<in_id>`) and its PDF (`/i/<in_id>/pdf`), the pages Stripe links from
//! `hosted_invoice_url` and `invoice_pdf`. Both are drawn from the invoice as the API renders it,
//! so whatever the API says (lines, discounts, taxes, totals) is what the documents show.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use serde_json::Value;

use super::{card_inputs, escape, field, html, long_date, money, not_found, page, today, Shared};
use crate::expand::Expand;
use crate::store::rate_of;
use crate::{cards, form};

mod pdf;

/// What both documents show.
pub(super) struct Document {
    pub number: String,
    pub status: String,
    pub issued: i64,
    pub period: (i64, i64),
    pub seller: String,
    pub billed_to: Vec<String>,
    pub tax_ids: Vec<String>,
    /// (description, quantity, amount)
    pub lines: Vec<(String, u64, i64)>,
    pub currency: String,
    pub subtotal: i64,
    pub discount: i64,
    /// The discount's row: "Discount (LAUNCH25: Launch, 25% off)", with the promotion code typed.
    pub discount_label: String,
    /// One row per tax rate (label, amount); none where no tax is collected.
    pub taxes: Vec<(String, i64)>,
    /// Some line is reverse-charged: the documents carry the note.
    pub reverse_charge: bool,
    pub total: i64,
    pub paid: i64,
    pub due: i64,
}

impl Document {
    fn of(invoice: &Value) -> Self {
        let text = |k: &str| invoice[k].as_str().unwrap_or_default().to_owned();
        let int = |k: &str| invoice[k].as_i64().unwrap_or(0);
        let sum = |k: &str| {
            invoice[k]
                .as_array()
                .map_or(0, |a| a.iter().filter_map(|d| d["amount"].as_i64()).sum())
        };
        let address = &invoice["customer_address"];
        let town = [&address["postal_code"], &address["city"]]
            .iter()
            .filter_map(|v| v.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        let billed_to = [
            invoice["customer_name"].as_str().map(str::to_owned),
            address["line1"].as_str().map(str::to_owned),
            address["line2"].as_str().map(str::to_owned),
            (!town.is_empty()).then_some(town),
            address["state"].as_str().map(str::to_owned),
            address["country"].as_str().map(str::to_owned),
            invoice["customer_email"].as_str().map(str::to_owned),
        ]
        .into_iter()
        .flatten()
        .collect();
        let tax_ids = invoice["customer_tax_ids"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|t| {
                let value = t["value"].as_str().unwrap_or_default();
                format!(
                    "{} {value}",
                    tax_id_label(t["type"].as_str().unwrap_or_default(), value)
                )
            })
            .collect();
        let lines = invoice["lines"]["data"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|l| {
                (
                    l["description"].as_str().unwrap_or_default().to_owned(),
                    l["quantity"].as_u64().unwrap_or(1),
                    l["amount"].as_i64().unwrap_or(0),
                )
            })
            .collect();
        Self {
            number: text("number"),
            status: text("status"),
            issued: int("created"),
            period: (int("period_start"), int("period_end")),
            seller: text("account_name"),
            billed_to,
            tax_ids,
            lines,
            currency: text("currency"),
            subtotal: int("subtotal"),
            discount: sum("total_discount_amounts"),
            discount_label: "Discount".to_owned(),
            taxes: invoice["total_taxes"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|t| tax_row(t, &text("currency")))
                .collect(),
            reverse_charge: invoice["total_taxes"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|t| t["taxability_reason"] == "reverse_charge"),
            total: int("total"),
            paid: int("amount_paid"),
            due: int("amount_remaining"),
        }
    }

    pub fn money(&self, amount: i64) -> String {
        money(amount, &self.currency)
    }

    /// The totals block: label and amount, in the order an invoice lists them.
    pub fn totals(&self) -> Vec<(String, String)> {
        let mut rows = vec![("Subtotal".to_owned(), self.money(self.subtotal))];
        if self.discount != 0 {
            rows.push((self.discount_label.clone(), self.money(-self.discount)));
        }
        for (label, amount) in &self.taxes {
            rows.push((label.clone(), self.money(*amount)));
        }
        rows.push(("Total".to_owned(), self.money(self.total)));
        rows.push(("Amount paid".to_owned(), self.money(self.paid)));
        rows.push(("Amount due".to_owned(), self.money(self.due)));
        rows
    }

    pub fn status_word(&self) -> &'static str {
        match self.status.as_str() {
            "paid" => "Paid",
            "open" => "Open",
            "void" => "Void",
            "uncollectible" => "Uncollectible",
            _ => "Draft",
        }
    }
}

/// "Discount (LAUNCH25: Launch, 25% off)": the promotion code the customer typed (when one was),
/// the coupon's name and what it takes off, as Stripe's invoice names a discount.
fn discount_label(s: &crate::store::Store, discount_id: &str) -> Option<String> {
    let discount = s.discounts.get(discount_id)?;
    let coupon = s.coupons.get(&discount.coupon)?;
    let off = match (coupon.percent_off, coupon.amount_off) {
        (Some(p), _) => format!("{p}% off"),
        (None, Some(a)) => format!(
            "{} off",
            money(a, coupon.currency.as_deref().unwrap_or("usd"))
        ),
        (None, None) => String::new(),
    };
    let what = [coupon.name.clone(), (!off.is_empty()).then_some(off)]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", ");
    let code = discount
        .promotion_code
        .as_ref()
        .and_then(|id| s.promotion_codes.get(id))
        .map(|p| p.code.clone());
    Some(match (code, what.is_empty()) {
        (Some(code), false) => format!("Discount ({code}: {what})"),
        (Some(code), true) => format!("Discount ({code})"),
        (None, false) => format!("Discount ({what})"),
        (None, true) => "Discount".to_owned(),
    })
}

/// What an invoice says under its totals when the buyer accounts for the VAT itself.
pub(super) const REVERSE_CHARGE_NOTE: &str =
    "Reverse charge: VAT to be accounted for by the recipient (Article 196, Directive 2006/112/EC).";

/// A `total_taxes` entry as a totals row: "VAT DE (19% on $60.00)", "VAT reverse charge (0% on
/// $60.00)"; none where no tax is collected. The rate comes from the table, by the country the
/// tax rate's id names.
fn tax_row(tax: &Value, currency: &str) -> Option<(String, i64)> {
    let reason = tax["taxability_reason"].as_str()?;
    let amount = tax["amount"].as_i64().unwrap_or(0);
    let on = money(tax["taxable_amount"].as_i64().unwrap_or(0), currency);
    let country = tax["tax_rate_details"]["tax_rate"]
        .as_str()?
        .strip_prefix("txr_")?
        .get(..2)?
        .to_uppercase();
    let rate = rate_of(&country)?;
    let kind = rate.tax_type.to_uppercase();
    let label = match reason {
        "reverse_charge" => format!("{kind} reverse charge (0% on {on})"),
        "not_collecting" => return None,
        _ => format!("{kind} {country} ({}% on {on})", rate.percentage()),
    };
    Some((label, amount))
}

/// How Stripe's documents name a tax ID: "DE VAT", "GB VAT", "AU ABN", "US EIN".
fn tax_id_label(kind: &str, value: &str) -> String {
    match kind {
        "eu_vat" => format!("{} VAT", value.get(..2).unwrap_or("EU")),
        other => match other.split_once('_') {
            Some((country, scheme)) => {
                format!("{} {}", country.to_uppercase(), scheme.to_uppercase())
            }
            None => other.to_uppercase(),
        },
    }
}

/// A finalized invoice as the API renders it; previews (drafts) have no documents.
fn finalized(st: &Shared, id: &str) -> Option<Document> {
    st.mutate(|s, _| {
        let invoice = s.invoices.get(id).filter(|i| i.status != "draft")?;
        let mut document = Document::of(&s.render_invoice(invoice, &Expand::none()));
        if let Some(label) = invoice
            .discounts
            .ids
            .first()
            .and_then(|id| discount_label(s, id))
        {
            document.discount_label = label;
        }
        Some(document)
    })
}

pub(super) async fn invoice_page(State(st): State<Shared>, Path(id): Path<String>) -> Response {
    match render_invoice_page(&st, &id, None, &Value::Null) {
        Some(body) => html(StatusCode::OK, body),
        None => not_found("Invoice not found"),
    }
}

/// "Pay" on the hosted page of an open invoice: the card typed is charged; back to the page,
/// paid, or the page again with why not.
pub(super) async fn invoice_pay(
    State(st): State<Shared>,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    let fields = form::parse(&body);
    let outcome = st.mutate(|store, now| {
        let (card, behaviour) = cards::check(
            &field(&fields, "cardnumber"),
            &field(&fields, "exp"),
            &field(&fields, "cvc"),
            today(now),
        )
        .map_err(|msg| (StatusCode::BAD_REQUEST, msg.to_owned()))?;
        store
            .pay_invoice_with_card(&id, card, behaviour, now)
            .map_err(|msg| (StatusCode::PAYMENT_REQUIRED, msg))
    });
    match outcome {
        Ok(()) => Redirect::to(&format!("/i/{id}")).into_response(),
        Err((status, msg)) => match render_invoice_page(&st, &id, Some(&msg), &fields) {
            Some(body) => html(status, body),
            None => not_found("Invoice not found"),
        },
    }
}

fn render_invoice_page(
    st: &Shared,
    id: &str,
    error: Option<&str>,
    fields: &Value,
) -> Option<String> {
    let doc = finalized(st, id)?;
    let due_date = st.mutate(|s, _| s.invoices.get(id).and_then(|i| i.due_date));
    let pay = if doc.status == "open" {
        let due = due_date.map_or(String::new(), |d| {
            format!("<p>Due {}</p>", escape(&long_date(d)))
        });
        let alert = error.map_or(String::new(), |e| {
            format!("<div role=\"alert\">{}</div>", escape(e))
        });
        format!(
            "{due}{alert}<form method=\"post\" action=\"/i/{}/pay\">{}<button type=\"submit\">Pay {}</button></form>",
            escape(id),
            card_inputs(&field(fields, "cardnumber"), &field(fields, "exp")),
            escape(&doc.money(doc.due)),
        )
    } else {
        String::new()
    };
    let list = |items: &[String]| {
        items
            .iter()
            .map(|l| format!("{}<br>", escape(l)))
            .collect::<String>()
    };
    let lines: String = doc
        .lines
        .iter()
        .map(|(d, q, a)| {
            format!(
                "<tr><td>{}</td><td>{q}</td><td>{}</td></tr>",
                escape(d),
                escape(&doc.money(*a))
            )
        })
        .collect();
    let totals: String = doc
        .totals()
        .iter()
        .map(|(label, amount)| {
            format!(
                "<tr><th colspan=\"2\">{label}</th><td>{}</td></tr>",
                escape(amount)
            )
        })
        .collect();
    let body = format!(
        "<h1>Invoice {number}</h1><p>{status} · {issued} · {seller}</p>\
<h2>Billed to</h2><p>{billed}{tax_ids}</p>\
<p class=\"muted\">{start} – {end}</p>\
<table><thead><tr><th>Description</th><th>Qty</th><th>Amount</th></tr></thead>\
<tbody>{lines}</tbody><tfoot>{totals}</tfoot></table>{note}\
{pay}<p><a href=\"/i/{id}/pdf\">Download PDF</a></p>",
        number = escape(&doc.number),
        status = doc.status_word(),
        issued = escape(&long_date(doc.issued)),
        seller = escape(&doc.seller),
        billed = list(&doc.billed_to),
        tax_ids = list(&doc.tax_ids),
        start = escape(&long_date(doc.period.0)),
        end = escape(&long_date(doc.period.1)),
        id = escape(id),
        note = if doc.reverse_charge {
            format!("<p>{}</p>", escape(REVERSE_CHARGE_NOTE))
        } else {
            String::new()
        },
    );
    Some(page(&format!("Invoice {}", doc.number), &body))
}

pub(super) async fn invoice_pdf(State(st): State<Shared>, Path(id): Path<String>) -> Response {
    let Some(doc) = finalized(&st, &id) else {
        return not_found("Invoice not found");
    };
    let disposition = format!("attachment; filename=\"Invoice-{}.pdf\"", doc.number);
    (
        [
            (header::CONTENT_TYPE, "application/pdf".to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        pdf::render(&doc),
    )
        .into_response()
}
