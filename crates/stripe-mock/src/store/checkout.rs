//! Checkout sessions: creation is in the API; paying (the hosted page) and expiring are here.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{
    add_months, list, new_id, opt_id, Collect, Company, Metadata, Origin, PaymentMethod,
    SessionDiscount, Store, Subscription, SubscriptionItem,
};
use crate::cards::{Behaviour, Card};
use crate::error::ApiError;
use crate::expand::Expand;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LineItem {
    pub id: String,
    pub price: String,
    pub quantity: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CheckoutSession {
    pub id: String,
    pub created: i64,
    pub expires_at: i64,
    pub mode: String,
    pub status: String,
    pub payment_status: String,
    pub customer: Option<String>,
    pub customer_email: Option<String>,
    /// The e-mail typed on the hosted page (Stripe's `customer_details.email`).
    pub details_email: Option<String>,
    pub client_reference_id: Option<String>,
    pub metadata: Metadata,
    pub subscription_metadata: Metadata,
    pub success_url: Option<String>,
    pub cancel_url: Option<String>,
    pub line_items: Vec<LineItem>,
    pub currency: String,
    pub subscription: Option<String>,
    pub invoice: Option<String>,
    pub payment_intent: Option<String>,
    pub url: String,
    #[serde(default)]
    pub collect: Collect,
    /// What the hosted page collected (`store/company.rs`).
    #[serde(default)]
    pub company: Option<Company>,
    /// Whether the hosted page lets the customer type a promotion code.
    #[serde(default)]
    pub allow_promotion_codes: Option<bool>,
    /// At most one: given at creation or typed on the page.
    #[serde(default)]
    pub discounts: Vec<SessionDiscount>,
    /// Stripe Tax computes the tax (`automatic_tax[enabled]`); the page then asks for the
    /// billing address, and the subscription keeps computing it.
    #[serde(default)]
    pub automatic_tax: bool,
    /// `subscription_data[trial_period_days]`: the subscription starts `trialing`, nothing is
    /// charged today and the card is kept for the end of the trial.
    #[serde(default)]
    pub trial_period_days: Option<i64>,
}

impl CheckoutSession {
    /// What the hosted page asks for: the billing address also whenever tax is computed.
    pub fn page_collects(&self) -> Collect {
        let mut collect = self.collect.clone();
        collect.address |= self.automatic_tax;
        collect
    }
}

impl Store {
    pub fn line_item_amount(&self, li: &LineItem) -> i64 {
        self.prices
            .get(&li.price)
            .map_or(0, |p| p.unit_amount * li.quantity as i64)
    }

    /// The tax of each line (after its discount), or `None` when tax is off or the customer's
    /// country is not known yet (Stripe's `requires_location_inputs`).
    pub fn session_taxes(&self, s: &CheckoutSession) -> Option<Vec<i64>> {
        if !s.automatic_tax {
            return None;
        }
        let treatment = self.treatment(s.customer.as_deref(), s.company.as_ref())?;
        let discounts = self.session_line_discounts(s);
        Some(
            s.line_items
                .iter()
                .zip(discounts)
                .map(|(li, off)| treatment.line(self.line_item_amount(li) - off).amount)
                .collect(),
        )
    }

    pub fn session_tax(&self, s: &CheckoutSession) -> i64 {
        self.session_taxes(s).map_or(0, |t| t.iter().sum())
    }

    pub fn render_line_item(&self, s: &CheckoutSession, index: usize) -> Value {
        let li = &s.line_items[index];
        let currency = &s.currency;
        let amount = self.line_item_amount(li);
        let discount = self.session_line_discounts(s)[index];
        let tax = self
            .session_taxes(s)
            .and_then(|t| t.get(index).copied())
            .unwrap_or(0);
        let price = self.prices.get(&li.price);
        let description = price
            .and_then(|p| self.products.get(&p.product))
            .map(|p| p.name.clone());
        json!({
            "id": li.id,
            "object": "item",
            "amount_discount": discount,
            "amount_subtotal": amount,
            "amount_tax": tax,
            "amount_total": amount - discount + tax,
            "currency": currency,
            "description": description,
            "price": price.map(|p| self.render_price(p, &Expand::none())),
            "quantity": li.quantity,
        })
    }

    /// What is charged today: nothing during a trial.
    pub fn session_amount_total(&self, s: &CheckoutSession) -> i64 {
        if s.trial_period_days.is_some() {
            return 0;
        }
        self.session_total(s) - self.session_discount(s) + self.session_tax(s)
    }

    pub fn session_total(&self, s: &CheckoutSession) -> i64 {
        s.line_items
            .iter()
            .map(|li| self.line_item_amount(li))
            .sum()
    }

    pub fn render_session(&self, s: &CheckoutSession, exp: &Expand) -> Value {
        let trial = s.trial_period_days.is_some();
        let subtotal = if trial { 0 } else { self.session_total(s) };
        let discount = if trial { 0 } else { self.session_discount(s) };
        let tax = if trial { 0 } else { self.session_tax(s) };
        let total = self.session_amount_total(s);
        let completed = s.status == "complete";
        let email = s
            .details_email
            .clone()
            .or_else(|| s.customer_email.clone())
            .or_else(|| {
                s.customer
                    .as_ref()
                    .and_then(|c| self.customers.get(c))
                    .and_then(|c| c.email.clone())
            });
        let mut v = json!({
            "id": s.id,
            "object": "checkout.session",
            "adaptive_pricing": null,
            "after_expiration": null,
            "allow_promotion_codes": s.allow_promotion_codes,
            "amount_subtotal": subtotal,
            "amount_total": total,
            "automatic_tax": automatic_tax_of_session(s.automatic_tax, self.session_taxes(s).is_some()),
            "billing_address_collection": if s.collect.address { json!("required") } else { Value::Null },
            "cancel_url": s.cancel_url,
            "client_reference_id": s.client_reference_id,
            "client_secret": null,
            "consent": null,
            "consent_collection": null,
            "created": s.created,
            "currency": s.currency,
            "custom_fields": [],
            "custom_text": { "after_submit": null, "shipping_address": null, "submit": null, "terms_of_service_acceptance": null },
            "customer": self.link(&s.customer, "customer", exp),
            "customer_creation": if s.customer.is_none() || s.mode == "subscription" { json!("always") } else { Value::Null },
            "customer_details": if completed { self.customer_details(s, email) } else { Value::Null },
            "customer_email": s.customer_email,
            "discounts": self.render_session_discounts(s),
            "expires_at": s.expires_at,
            "invoice": self.link(&s.invoice, "invoice", exp),
            "invoice_creation": null,
            "livemode": false,
            "locale": null,
            "metadata": s.metadata,
            "mode": s.mode,
            "payment_intent": opt_id(&s.payment_intent),
            "payment_link": null,
            "payment_method_collection": "always",
            "payment_method_options": {},
            "payment_method_types": ["card"],
            "payment_status": s.payment_status,
            "phone_number_collection": { "enabled": false },
            "recovered_from": null,
            "setup_intent": null,
            "shipping_address_collection": null,
            "shipping_cost": null,
            "shipping_options": [],
            "status": s.status,
            "submit_type": null,
            "tax_id_collection": { "enabled": s.collect.tax_id, "required": "never" },
            "subscription": self.link(&s.subscription, "subscription", exp),
            "success_url": s.success_url,
            "total_details": { "amount_discount": discount, "amount_shipping": 0, "amount_tax": tax },
            "ui_mode": "hosted_page",
            "url": if s.status == "open" { json!(s.url) } else { Value::Null },
        });
        if exp.child("line_items").is_some() {
            let data = (0..s.line_items.len())
                .map(|i| self.render_line_item(s, i))
                .collect();
            v["line_items"] = list(
                data,
                false,
                &format!("/v1/checkout/sessions/{}/line_items", s.id),
            );
        }
        v
    }

    pub fn session(&self, id: &str) -> Result<&CheckoutSession, ApiError> {
        self.sessions
            .get(id)
            .ok_or_else(|| ApiError::no_such("checkout.session", id, "session"))
    }

    /// The hosted checkout page's "Subscribe"/"Pay": charges the card and completes the session.
    /// Returns the success URL to redirect to, or the message to show on the page.
    pub fn complete_checkout(
        &mut self,
        session_id: &str,
        email: &str,
        name: Option<String>,
        card: Card,
        behaviour: Behaviour,
        now: i64,
    ) -> Result<String, String> {
        let session = self
            .sessions
            .get(session_id)
            .cloned()
            .ok_or_else(|| "This checkout session does not exist.".to_owned())?;
        match session.status.as_str() {
            "complete" => return Err("This checkout session is already complete.".to_owned()),
            "expired" => return Err("This checkout session has expired.".to_owned()),
            _ => {}
        }
        // The code may have been used up or expired since it was applied.
        if let Some(code) = session
            .discounts
            .first()
            .and_then(|d| d.promotion_code.as_ref())
        {
            let subtotal = self.session_total(&session);
            self.redeemable_code(
                code,
                "promotion_code",
                session.customer.as_deref(),
                subtotal,
                &session.currency,
                now,
            )
            .map_err(|e| e.message)?;
        }
        let trial = session
            .trial_period_days
            .filter(|_| session.mode == "subscription");
        match behaviour {
            Behaviour::Succeeds => {}
            // A trial charges nothing today: 0341 attaches, and fails at the trial's end.
            Behaviour::AttachesThenFails if trial.is_some() => {}
            // A first charge with 0341 fails just like a plain decline.
            Behaviour::Declined | Behaviour::AttachesThenFails => {
                return Err(crate::cards::DECLINED.to_owned())
            }
            Behaviour::InsufficientFunds => return Err(crate::cards::INSUFFICIENT_FUNDS.to_owned()),
        }
        let origin = Origin::default();
        let email = email.trim().to_owned();
        let customer_id = match &session.customer {
            Some(id) => id.clone(),
            None => self.create_customer(
                Some(email.clone()),
                name.clone(),
                None,
                Metadata::new(),
                &origin,
                now,
            ),
        };
        self.apply_company(&customer_id, &session, now);
        let pm = PaymentMethod {
            id: new_id("pm"),
            created: now,
            customer: Some(customer_id.clone()),
            card,
            name,
            email: Some(email.clone()),
            fails_charges: behaviour == Behaviour::AttachesThenFails,
        };
        let pm_id = pm.id.clone();
        self.payment_methods.insert(pm_id.clone(), pm);

        let mut updated = session.clone();
        updated.customer = Some(customer_id.clone());
        updated.details_email = Some(email);
        updated.status = "complete".to_owned();
        updated.payment_status = if trial.is_some() {
            "no_payment_required"
        } else {
            "paid"
        }
        .to_owned();

        if session.mode == "subscription" {
            let sub = Subscription {
                id: new_id("sub"),
                created: now,
                customer: customer_id.clone(),
                status: if trial.is_some() {
                    "trialing"
                } else {
                    "active"
                }
                .to_owned(),
                cancel_at_period_end: false,
                cancel_at: None,
                canceled_at: None,
                ended_at: None,
                current_period_start: now,
                current_period_end: match trial {
                    Some(days) => now + days * 86_400,
                    None => session
                        .line_items
                        .first()
                        .map_or_else(|| add_months(now, 1), |li| self.period_end(&li.price, now)),
                },
                start_date: now,
                billing_cycle_anchor: now,
                default_payment_method: Some(pm_id.clone()),
                items: session
                    .line_items
                    .iter()
                    .map(|li| SubscriptionItem {
                        id: new_id("si"),
                        created: now,
                        price: li.price.clone(),
                        quantity: li.quantity,
                    })
                    .collect(),
                latest_invoice: None,
                metadata: session.subscription_metadata.clone(),
                currency: session.currency.clone(),
                pending_invoice_items: Vec::new(),
                discounts: Vec::new(),
                automatic_tax: session.automatic_tax,
                cancellation_reason: None,
                trial_start: trial.map(|_| now),
                trial_end: trial.map(|days| now + days * 86_400),
                trial_will_end_sent: false,
                days_until_due: None,
            };
            let sub_id = sub.id.clone();
            self.subscriptions.insert(sub_id.clone(), sub);
            if let Some(wanted) = session.discounts.first() {
                self.start_discount(wanted, &session.id, &sub_id, now)
                    .map_err(|e| e.message)?;
            }
            let invoice_id = if trial.is_some() {
                self.trial_invoice(&sub_id, now)
            } else {
                self.create_invoice(&sub_id, "subscription_create", true, now)
            };
            if let Some(s) = self.subscriptions.get_mut(&sub_id) {
                s.latest_invoice = Some(invoice_id.clone());
            }
            updated.subscription = Some(sub_id.clone());
            updated.invoice = Some(invoice_id.clone());
            let sub_json = self.render_subscription(&self.subscriptions[&sub_id], &Expand::none());
            self.emit(
                "customer.subscription.created",
                sub_json,
                None,
                &origin,
                now,
            );
            let inv_json = self.render_invoice(&self.invoices[&invoice_id], &Expand::none());
            self.emit("invoice.paid", inv_json, None, &origin, now);
        } else {
            updated.payment_intent = Some(new_id("pi"));
        }
        let success = updated
            .success_url
            .clone()
            .unwrap_or_default()
            .replace("{CHECKOUT_SESSION_ID}", &updated.id);
        self.sessions.insert(updated.id.clone(), updated.clone());
        let session_json = self.render_session(&updated, &Expand::none());
        self.emit(
            "checkout.session.completed",
            session_json,
            None,
            &origin,
            now,
        );
        Ok(success)
    }

    /// Expires an open session (API `expire` or the clock passing `expires_at`).
    pub fn expire_session(&mut self, id: &str, origin: &Origin, now: i64) -> Result<(), ApiError> {
        let session = self.session(id)?;
        if session.status != "open" {
            return Err(ApiError::invalid_request(format!(
                "Only Checkout Sessions with a status in [\"open\"] can be expired. This Checkout Session has a status of \"{}\".",
                session.status
            )));
        }
        let session = self.sessions.get_mut(id).expect("checked above");
        session.status = "expired".to_owned();
        let json = self.render_session(&self.sessions[id], &Expand::none());
        self.emit("checkout.session.expired", json, None, origin, now);
        Ok(())
    }
}

/// A session's `automatic_tax` (no `disabled_reason`, unlike an invoice's).
fn automatic_tax_of_session(enabled: bool, located: bool) -> Value {
    let mut v = super::automatic_tax(enabled, located);
    if let Value::Object(m) = &mut v {
        m.remove("disabled_reason");
    }
    v
}
