//! Subscription invoices.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{
    list, new_id, opt_id, Address, InvoiceDiscounts, InvoiceTaxes, Origin, Store, Subscription,
};
use crate::cards::DECLINED;
use crate::error::ApiError;
use crate::expand::Expand;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct InvoiceLine {
    pub id: String,
    pub price: String,
    pub quantity: u64,
    pub amount: i64,
    /// Set for prorations ("Unused time on …"); otherwise "<quantity> × <product>".
    #[serde(default)]
    pub description: Option<String>,
    /// A proration (its id is the invoice item's, `ii_…`).
    #[serde(default)]
    pub proration: bool,
    /// (start, end); otherwise the invoice's period.
    #[serde(default)]
    pub period: Option<(i64, i64)>,
    #[serde(default)]
    pub subscription_item: Option<String>,
}

/// Who an invoice is addressed to, copied from the customer when it is finalized (Stripe's
/// `customer_name`, `customer_address`, `customer_tax_ids`): later edits do not rewrite it.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct BilledTo {
    pub name: Option<String>,
    pub email: Option<String>,
    pub address: Option<Address>,
    /// (type, value)
    pub tax_ids: Vec<(String, String)>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Invoice {
    pub id: String,
    pub number: String,
    pub created: i64,
    pub customer: String,
    pub subscription: Option<String>,
    pub status: String,
    pub billing_reason: String,
    pub currency: String,
    pub total: i64,
    /// The customer's credit (negative) applied to this invoice; it lowers `amount_due`.
    #[serde(default)]
    pub starting_balance: i64,
    pub amount_paid: i64,
    pub attempt_count: u64,
    pub period_start: i64,
    pub period_end: i64,
    pub paid_at: Option<i64>,
    pub payment_method: Option<String>,
    pub lines: Vec<InvoiceLine>,
    /// `None` for a preview, which shows the customer as it is now.
    #[serde(default)]
    pub billed_to: Option<BilledTo>,
    /// What the subscription's discounts took off; `total` is after them.
    #[serde(default)]
    pub discounts: InvoiceDiscounts,
    /// Automatic tax, on the lines after discounts; `total` includes it.
    #[serde(default)]
    pub taxes: InvoiceTaxes,
    /// When an open invoice is charged again (Smart Retries); None when no retry is left.
    #[serde(default)]
    pub next_payment_attempt: Option<i64>,
    /// Set for an invoice sent to be paid (`collection_method=send_invoice`): when it is due.
    #[serde(default)]
    pub due_date: Option<i64>,
    /// `invoice.overdue` was sent.
    #[serde(default)]
    pub overdue: bool,
}

impl Invoice {
    pub fn collection_method(&self) -> &'static str {
        if self.due_date.is_some() {
            "send_invoice"
        } else {
            "charge_automatically"
        }
    }

    /// What is charged: the total less the customer's credit, never below zero.
    pub fn amount_due(&self) -> i64 {
        (self.total + self.starting_balance).max(0)
    }

    /// The customer's balance after this invoice: what is left of the credit (or of a negative
    /// total), zero or negative.
    pub fn ending_balance(&self) -> i64 {
        (self.total + self.starting_balance).min(0)
    }

    /// The total before tax (Stripe's `total_excluding_tax`).
    pub fn total_excluding_tax(&self) -> i64 {
        self.total - self.taxes.total()
    }
}

impl Store {
    /// The credit (a negative balance, else 0) a new invoice of the customer starts with.
    pub(crate) fn credit_of(&self, customer: &str) -> i64 {
        self.customers.get(customer).map_or(0, |c| c.balance.min(0))
    }

    /// One line of an invoice (Stripe's `line_item` inside `invoice.lines`).
    pub fn render_invoice_line(&self, i: &Invoice, l: &InvoiceLine) -> Value {
        let price = self.prices.get(&l.price);
        let product_name = price
            .and_then(|p| self.products.get(&p.product))
            .map_or(String::new(), |p| p.name.clone());
        let description = l
            .description
            .clone()
            .unwrap_or_else(|| format!("{} × {}", l.quantity, product_name));
        let (start, end) = l.period.unwrap_or((i.period_start, i.period_end));
        let item = l.subscription_item.clone().or_else(|| {
            i.subscription
                .as_ref()
                .and_then(|sub| self.subscriptions.get(sub))
                .and_then(|s| s.items.iter().find(|it| it.price == l.price))
                .map(|it| it.id.clone())
        });
        json!({
            "id": l.id,
            "object": "line_item",
            "amount": l.amount,
            "currency": i.currency,
            "description": description,
            "discount_amounts": i.discounts.render_line(&l.id),
            "discountable": true,
            "discounts": i.discounts.per_line.get(&l.id).map_or_else(Vec::new, |v| v.iter().map(|(d, _)| d.clone()).collect()),
            "invoice": i.id,
            "livemode": false,
            "metadata": {},
            "parent": i.subscription.as_ref().map(|sub| json!({
                "type": "subscription_item_details",
                "invoice_item_details": null,
                "subscription_item_details": {
                    "invoice_item": if l.proration { json!(l.id) } else { Value::Null },
                    "proration": l.proration, "proration_details": { "credited_items": null },
                    "subscription": sub, "subscription_item": item,
                },
            })),
            "period": { "end": end, "start": start },
            "pretax_credit_amounts": [],
            "pricing": { "type": "price_details", "price_details": { "price": l.price, "product": price.map(|p| p.product.clone()) }, "unit_amount_decimal": price.map(|p| p.unit_amount.to_string()) },
            "quantity": l.quantity,
            "subtotal": l.amount,
            "taxes": i.taxes.render_line(&l.id),
        })
    }

    /// The customer's details as an invoice finalized now would keep them.
    pub(crate) fn billed_to(&self, customer: &str) -> BilledTo {
        let Some(c) = self.customers.get(customer) else {
            return BilledTo::default();
        };
        BilledTo {
            name: c.name.clone(),
            email: c.email.clone(),
            address: c.address.clone(),
            tax_ids: self
                .tax_ids_of(customer)
                .into_iter()
                .map(|t| (t.kind.clone(), t.value.clone()))
                .collect(),
        }
    }

    pub fn render_invoice(&self, i: &Invoice, exp: &Expand) -> Value {
        let lines: Vec<Value> = i
            .lines
            .iter()
            .map(|l| self.render_invoice_line(i, l))
            .collect();
        let billed = i
            .billed_to
            .clone()
            .unwrap_or_else(|| self.billed_to(&i.customer));
        let paid = i.status == "paid";
        // A preview: not finalized, no number yet, charged when it is created.
        let draft = i.status == "draft";
        let link =
            |suffix: &str| (!draft).then(|| format!("{}/i/{}{suffix}", self.public_url, i.id));
        json!({
            "id": i.id,
            "object": "invoice",
            "account_country": self.seller_country(),
            "account_name": "Closewise (stripe-mock)",
            "amount_due": i.amount_due(),
            "amount_overpaid": 0,
            "amount_paid": i.amount_paid,
            "amount_remaining": i.amount_due() - i.amount_paid,
            "amount_shipping": 0,
            "attempt_count": i.attempt_count,
            "attempted": i.attempt_count > 0,
            "auto_advance": !paid && i.due_date.is_none(),
            "automatic_tax": i.taxes.render_automatic(),
            "billing_reason": i.billing_reason,
            "collection_method": i.collection_method(),
            "created": i.created,
            "currency": i.currency,
            "customer": self.link(&Some(i.customer.clone()), "customer", exp),
            "customer_address": billed.address.as_ref().map(Address::render),
            "customer_email": billed.email,
            "customer_name": billed.name,
            "customer_tax_exempt": "none",
            "customer_tax_ids": billed.tax_ids.iter().map(|(kind, value)| json!({ "type": kind, "value": value })).collect::<Vec<_>>(),
            "default_payment_method": null,
            "default_source": null,
            "default_tax_rates": [],
            "description": null,
            "discounts": i.discounts.ids,
            "due_date": i.due_date,
            "ending_balance": if draft { Value::Null } else { json!(i.ending_balance()) },
            "hosted_invoice_url": link(""),
            "invoice_pdf": link("/pdf"),
            "issuer": { "type": "self" },
            "last_finalization_error": null,
            "lines": list(lines, false, &format!("/v1/invoices/{}/lines", i.id)),
            "livemode": false,
            "metadata": {},
            "next_payment_attempt": if draft { json!(i.created) } else { json!(i.next_payment_attempt) },
            "number": if draft { Value::Null } else { json!(i.number) },
            "paid": paid,
            "parent": i.subscription.as_ref().map(|sub| json!({
                "type": "subscription_details",
                "quote_details": null,
                "subscription_details": { "metadata": {}, "subscription": sub },
            })),
            "payment_settings": { "default_mandate": null, "payment_method_options": null, "payment_method_types": null },
            "period_end": i.period_end,
            "period_start": i.period_start,
            "post_payment_credit_notes_amount": 0,
            "pre_payment_credit_notes_amount": 0,
            "starting_balance": i.starting_balance,
            "status": i.status,
            "status_transitions": {
                "finalized_at": if draft { Value::Null } else { json!(i.created) }, "marked_uncollectible_at": null,
                "paid_at": i.paid_at, "voided_at": null,
            },
            "subscription": opt_id(&i.subscription),
            "subtotal": i.total_excluding_tax() + i.discounts.total(),
            "subtotal_excluding_tax": i.total_excluding_tax() + i.discounts.total(),
            "total": i.total,
            "total_excluding_tax": i.total_excluding_tax(),
            "total_discount_amounts": i.discounts.totals().into_iter().map(|(d, a)| json!({ "amount": a, "discount": d })).collect::<Vec<_>>(),
            "total_taxes": i.taxes.render_totals(),
        })
    }

    pub(crate) fn next_invoice_number(&mut self) -> String {
        self.invoice_counter += 1;
        format!("CW-{:06}", self.invoice_counter)
    }

    /// The subscription's items at today's prices, for the period `(start, end)`.
    pub(crate) fn invoice_lines(&self, sub: &Subscription, period: (i64, i64)) -> Vec<InvoiceLine> {
        sub.items
            .iter()
            .map(|it| InvoiceLine {
                id: new_id("il"),
                price: it.price.clone(),
                quantity: it.quantity,
                amount: self
                    .prices
                    .get(&it.price)
                    .map_or(0, |p| p.unit_amount * it.quantity as i64),
                description: None,
                proration: false,
                period: Some(period),
                subscription_item: Some(it.id.clone()),
            })
            .collect()
    }

    /// A subscription invoice, paid when the card can be charged: the pending invoice items
    /// (prorations) and, unless it is a `subscription_update` invoice (prorations billed at once),
    /// the items for the current period.
    pub(crate) fn create_invoice(
        &mut self,
        sub_id: &str,
        reason: &str,
        paid: bool,
        now: i64,
    ) -> String {
        self.invoice_with(sub_id, reason, paid, now, reason != "subscription_update")
    }

    /// A subscription invoice of the pending invoice items and, with `period`, the items for
    /// the current period (a change of interval bills its new period at once).
    pub(crate) fn invoice_with(
        &mut self,
        sub_id: &str,
        reason: &str,
        paid: bool,
        now: i64,
        period: bool,
    ) -> String {
        let sub = self.subscriptions[sub_id].clone();
        let mut lines = std::mem::take(
            &mut self
                .subscriptions
                .get_mut(sub_id)
                .expect("checked above")
                .pending_invoice_items,
        );
        let (period_start, period_end) = if !period {
            (now, now)
        } else {
            let period = (sub.current_period_start, sub.current_period_end);
            lines.extend(self.invoice_lines(&sub, period));
            period
        };
        let discounts = self.take_discounts(sub_id, &lines, now);
        let taxes = self.invoice_taxes(sub.automatic_tax, &sub.customer, &lines, &discounts);
        let total: i64 =
            lines.iter().map(|l| l.amount).sum::<i64>() - discounts.total() + taxes.total();
        let starting_balance = self.credit_of(&sub.customer);
        let mut invoice = Invoice {
            id: new_id("in"),
            number: self.next_invoice_number(),
            created: now,
            customer: sub.customer.clone(),
            subscription: Some(sub.id.clone()),
            status: if paid { "paid" } else { "open" }.to_owned(),
            billing_reason: reason.to_owned(),
            currency: sub.currency.clone(),
            total,
            starting_balance,
            amount_paid: 0,
            attempt_count: 1,
            period_start,
            period_end,
            paid_at: paid.then_some(now),
            payment_method: sub.default_payment_method.clone(),
            lines,
            billed_to: Some(self.billed_to(&sub.customer)),
            discounts,
            taxes,
            // A first charge that failed is retried on the schedule.
            next_payment_attempt: if paid { None } else { self.next_retry(now, 1) },
            due_date: None,
            overdue: false,
        };
        invoice.amount_paid = if paid { invoice.amount_due() } else { 0 };
        let balance = invoice.ending_balance();
        let id = invoice.id.clone();
        self.invoices.insert(id.clone(), invoice);
        self.set_balance(&sub.customer, balance, now);
        id
    }

    /// The automatic tax of invoice lines, each on its amount after `discounts`.
    pub(crate) fn invoice_taxes(
        &self,
        enabled: bool,
        customer: &str,
        lines: &[InvoiceLine],
        discounts: &InvoiceDiscounts,
    ) -> InvoiceTaxes {
        let off = |id: &str| -> i64 {
            discounts
                .per_line
                .get(id)
                .map_or(0, |v| v.iter().map(|(_, a)| a).sum())
        };
        self.taxes_for(
            enabled,
            customer,
            lines.iter().map(|l| (l.id.clone(), l.amount - off(&l.id))),
        )
    }

    /// Sets a customer's balance (emitting `customer.updated` when it changes).
    fn set_balance(&mut self, customer: &str, balance: i64, now: i64) {
        let Some(c) = self.customers.get_mut(customer) else {
            return;
        };
        let previous = c.balance;
        if previous == balance {
            return;
        }
        c.balance = balance;
        let json = self.render_customer(&self.customers[customer], &Expand::none());
        let previous = serde_json::json!({ "balance": previous });
        self.emit(
            "customer.updated",
            json,
            Some(previous),
            &Origin::default(),
            now,
        );
    }

    pub fn invoice(&self, id: &str) -> Result<&Invoice, ApiError> {
        self.invoices
            .get(id)
            .ok_or_else(|| ApiError::no_such("invoice", id, "invoice"))
    }

    /// Charges an open invoice again (API `pay`): with `payment_method`, else the subscription's
    /// card, else the one the invoice was tried with. A card that fails charges is declined and
    /// the attempt is counted; a paid invoice brings a past-due subscription back to active.
    pub fn pay_invoice(
        &mut self,
        id: &str,
        payment_method: Option<String>,
        origin: &Origin,
        now: i64,
    ) -> Result<(), ApiError> {
        let invoice = self.invoice(id)?.clone();
        match invoice.status.as_str() {
            "open" => {}
            "paid" => return Err(ApiError::invalid_request("Invoice is already paid")),
            other => {
                return Err(ApiError::invalid_request(format!(
                    "You can only pay an invoice whose status is open, not {other}."
                )))
            }
        }
        let from_subscription = invoice
            .subscription
            .as_ref()
            .and_then(|sub| self.subscriptions.get(sub))
            .and_then(|sub| sub.default_payment_method.clone());
        let pm_id = payment_method
            .or(from_subscription)
            .or(invoice.payment_method.clone())
            .ok_or_else(|| {
                ApiError::invalid_request(
                    "This customer has no attached payment source or default payment method.",
                )
            })?;
        let pm = self
            .payment_methods
            .get(&pm_id)
            .filter(|pm| pm.customer.as_deref() == Some(invoice.customer.as_str()))
            .ok_or_else(|| ApiError::no_such("PaymentMethod", &pm_id, "payment_method"))?;
        let declined = pm.fails_charges;
        let stored = self.invoices.get_mut(id).expect("checked above");
        stored.attempt_count += 1;
        stored.payment_method = Some(pm_id);
        if declined {
            let json = self.render_invoice(&self.invoices[id], &Expand::none());
            self.emit("invoice.payment_failed", json, None, origin, now);
            return Err(ApiError::card_declined(DECLINED, "generic_decline"));
        }
        stored.status = "paid".to_owned();
        stored.amount_paid = stored.amount_due();
        stored.paid_at = Some(now);
        stored.next_payment_attempt = None;
        let json = self.render_invoice(&self.invoices[id], &Expand::none());
        self.emit("invoice.paid", json, None, origin, now);
        if let Some(sub) = invoice.subscription.as_deref() {
            if self
                .subscriptions
                .get(sub)
                .is_some_and(|s| matches!(s.status.as_str(), "past_due" | "unpaid"))
            {
                self.update_subscription(sub, origin, now, |s| s.status = "active".to_owned())?;
            }
        }
        Ok(())
    }
}
