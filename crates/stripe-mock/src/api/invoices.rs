//! `/v1/invoices`: subscription invoices (list, retrieve, lines) and the upcoming-invoice preview.

use axum::extract::{Path, State};
use axum::Json;
use serde_json::Value;

use super::list::page;
use super::params::Params;
use super::subscription_items::{proration_date, quantity_changes};
use super::{ApiResult, Endpoint, Routes, Shared};
use crate::error::ApiError;
use crate::store::{Change, ProrationBehavior, Subscription};

static RETRIEVE: Endpoint = Endpoint::get("/v1/invoices/{id}", &[]);
static LIST: Endpoint = Endpoint::list("/v1/invoices", &["customer", "subscription", "status"]);
static LINES: Endpoint = Endpoint::list("/v1/invoices/{id}/lines", &[]);
static PAY: Endpoint = Endpoint::post("/v1/invoices/{id}/pay", &["payment_method"]);
static PREVIEW: Endpoint = Endpoint::post(
    "/v1/invoices/create_preview",
    &[
        "customer",
        "subscription",
        "subscription_details[items][][id]",
        "subscription_details[items][][quantity]",
        "subscription_details[items][][price]",
        "subscription_details[proration_behavior]",
        "subscription_details[proration_date]",
        "automatic_tax[enabled]",
    ],
);

pub(super) fn routes(r: Routes) -> Routes {
    r.add(&RETRIEVE, get_invoice)
        .add(&LIST, list_invoices)
        .add(&LINES, invoice_lines)
        .add(&PAY, pay_invoice)
        .add(&PREVIEW, create_preview)
}

async fn get_invoice(State(st): State<Shared>, Path(id): Path<String>, p: Params) -> ApiResult {
    st.mutate(|s, _| Ok(Json(s.render_invoice(s.invoice(&id)?, &p.expand))))
}

async fn list_invoices(State(st): State<Shared>, p: Params) -> ApiResult {
    let customer = p.str("customer")?;
    let subscription = p.str("subscription")?;
    let status = p.str("status")?;
    st.mutate(|s, _| {
        page(
            &p,
            "/v1/invoices",
            s.invoices.values(),
            |i| {
                customer.as_ref().is_none_or(|c| &i.customer == c)
                    && (subscription.is_none() || i.subscription == subscription)
                    && status.as_ref().is_none_or(|st| &i.status == st)
            },
            |i, exp| s.render_invoice(i, exp),
        )
    })
}

async fn invoice_lines(State(st): State<Shared>, Path(id): Path<String>, p: Params) -> ApiResult {
    st.mutate(|s, _| {
        let invoice = s.invoice(&id)?;
        page(
            &p,
            &format!("/v1/invoices/{id}/lines"),
            &invoice.lines,
            |_| true,
            |l, _| s.render_invoice_line(invoice, l),
        )
    })
}

async fn pay_invoice(State(st): State<Shared>, Path(id): Path<String>, p: Params) -> ApiResult {
    let payment_method = p.str("payment_method")?.filter(|pm| !pm.is_empty());
    st.mutate(|s, now| {
        s.pay_invoice(&id, payment_method, &p.origin, now)?;
        Ok(Json(s.render_invoice(&s.invoices[&id], &p.expand)))
    })
}

/// The next invoice of a subscription (or of the customer's running one), as of the mock clock,
/// with the quantity changes of `subscription_details` applied (and prorated) if given.
async fn create_preview(State(st): State<Shared>, p: Params) -> ApiResult {
    let customer = p.str("customer")?.filter(|c| !c.is_empty());
    let subscription = p.str("subscription")?.filter(|s| !s.is_empty());
    let automatic_tax = p.automatic_tax()?;
    let change = match p.values.get("subscription_details") {
        None => None,
        Some(Value::Object(d)) => {
            let text = |k: &str| d.get(k).and_then(Value::as_str);
            Some(Change {
                items: quantity_changes(d.get("items"), "subscription_details[items]")?,
                behavior: ProrationBehavior::parse(
                    text("proration_behavior"),
                    "subscription_details[proration_behavior]",
                )?,
                proration_date: proration_date(
                    text("proration_date"),
                    "subscription_details[proration_date]",
                )?,
            })
        }
        Some(_) => {
            return Err(ApiError::invalid_param(
                "subscription_details",
                "Invalid hash",
            ))
        }
    };
    st.mutate(|s, now| {
        let sub_id = match (&subscription, &customer) {
            (None, None) => return Err(ApiError::missing_param("customer")),
            (Some(sub), customer) => {
                let owner = &s.subscription(sub)?.customer;
                if customer.as_ref().is_some_and(|c| c != owner) {
                    return Err(ApiError::invalid_param(
                        "subscription",
                        format!("The subscription {sub} does not belong to the customer."),
                    ));
                }
                sub.clone()
            }
            (None, Some(customer)) => {
                s.customer(customer, "customer")?;
                let mut running: Vec<&Subscription> = s
                    .subscriptions
                    .values()
                    .filter(|sub| &sub.customer == customer && sub.status != "canceled")
                    .collect();
                running.sort_by(|a, b| b.created.cmp(&a.created).then(b.id.cmp(&a.id)));
                match running.first() {
                    Some(sub) => sub.id.clone(),
                    None => return Err(ApiError::no_upcoming_invoice(customer)),
                }
            }
        };
        let preview = s.preview_invoice(&sub_id, change.as_ref(), automatic_tax, now)?;
        Ok(Json(s.render_invoice(&preview, &p.expand)))
    })
}
