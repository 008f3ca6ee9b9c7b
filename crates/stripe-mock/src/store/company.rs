//! What a checkout collects about a business buyer (`billing_address_collection=required`,
//! `tax_id_collection[enabled]=true`) and where it goes when the session completes: the
//! session's `customer_details`, and the customer itself (a new one always; an existing one as
//! `customer_update[name|address]=auto` allow), before the first invoice is finalized so that
//! invoice carries them.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{normalise_tax_id, Address, CheckoutSession, Store};

/// What the session was asked to collect and may write to an existing customer.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Collect {
    pub address: bool,
    pub tax_id: bool,
    pub update_name: bool,
    pub update_address: bool,
}

/// What the buyer typed on the hosted page.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Company {
    /// The business name when buying as a business, else the billing name.
    pub name: Option<String>,
    pub address: Option<Address>,
    /// (type, value) as Stripe normalises it.
    pub tax_id: Option<(String, String)>,
}

impl Company {
    /// `Some` when the form collected something; `Err` is the page's message.
    pub fn from_form(collect: &Collect, fields: &Value) -> Result<Option<Company>, String> {
        if !collect.address && !collect.tax_id {
            return Ok(None);
        }
        let text = |k: &str| {
            fields
                .get(k)
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
        };
        let address = if collect.address {
            let country = text("country").map(|c| c.to_uppercase());
            if text("line1").is_none() || text("city").is_none() {
                return Err("Your billing address is incomplete.".to_owned());
            }
            if !country
                .as_deref()
                .is_some_and(|c| c.len() == 2 && c.bytes().all(|b| b.is_ascii_uppercase()))
            {
                return Err("Choose your country (a two-letter code, such as DE).".to_owned());
            }
            Some(Address {
                line1: text("line1"),
                line2: text("line2"),
                city: text("city"),
                postal_code: text("postal_code"),
                state: text("state"),
                country,
            })
        } else {
            None
        };
        let tax_id = match (collect.tax_id, text("tax_id_value")) {
            (true, Some(value)) => {
                let kind = text("tax_id_type").unwrap_or_else(|| "eu_vat".to_owned());
                let (value, _) = normalise_tax_id(&kind, &value)
                    .ok_or_else(|| "Your tax ID is invalid.".to_owned())?;
                Some((kind, value))
            }
            _ => None,
        };
        let business = text("business_name").filter(|_| collect.tax_id);
        if tax_id.is_some() && business.is_none() {
            return Err("Enter your business name with your tax ID.".to_owned());
        }
        Ok(Some(Company {
            name: business.or_else(|| text("billing_name")),
            address,
            tax_id,
        }))
    }
}

impl Store {
    /// Writes what the buyer typed to the customer (`new` one: all of it).
    pub(crate) fn apply_company(&mut self, customer: &str, session: &CheckoutSession, now: i64) {
        let Some(company) = &session.company else {
            return;
        };
        let new = session.customer.is_none();
        if let Some(c) = self.customers.get_mut(customer) {
            if new || session.collect.update_name {
                if let Some(name) = &company.name {
                    c.name = Some(name.clone());
                }
            }
            if new || session.collect.update_address {
                if let Some(address) = &company.address {
                    c.address = Some(address.clone());
                }
            }
        }
        if let Some((kind, value)) = &company.tax_id {
            let known = self
                .tax_ids_of(customer)
                .iter()
                .any(|t| &t.kind == kind && &t.value == value);
            if !known {
                let _ = self.create_tax_id(customer, kind, value, now);
            }
        }
    }

    /// Stripe's `customer_details` of a completed session.
    pub(crate) fn customer_details(&self, s: &CheckoutSession, email: Option<String>) -> Value {
        let company = s.company.clone().unwrap_or_default();
        json!({
            "address": company.address.as_ref().map(Address::render),
            "email": email,
            "name": company.name,
            "phone": null,
            "tax_exempt": "none",
            "tax_ids": company.tax_id.map(|(kind, value)| vec![json!({ "type": kind, "value": value })]).unwrap_or_default(),
        })
    }
}
