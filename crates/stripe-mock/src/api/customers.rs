//! `/v1/customers`.

use axum::extract::{Path, State};
use axum::Json;
use serde_json::Value;

use super::list::page;
use super::params::{changed_fields, merge_metadata, valid_email, Params};
use super::{ApiResult, Endpoint, Routes, Shared};
use crate::error::ApiError;
use crate::expand::Expand;
use crate::store::Address;

static CREATE: Endpoint = Endpoint::post(
    "/v1/customers",
    &[
        "email",
        "name",
        "description",
        "metadata[*]",
        "address",
        "address[line1]",
        "address[line2]",
        "address[city]",
        "address[postal_code]",
        "address[state]",
        "address[country]",
    ],
);
static RETRIEVE: Endpoint = Endpoint::get("/v1/customers/{id}", &[]);
static UPDATE: Endpoint = Endpoint::post(
    "/v1/customers/{id}",
    &[
        "email",
        "name",
        "description",
        "metadata[*]",
        "invoice_settings[default_payment_method]",
        "address",
        "address[line1]",
        "address[line2]",
        "address[city]",
        "address[postal_code]",
        "address[state]",
        "address[country]",
    ],
);
static LIST: Endpoint = Endpoint::list("/v1/customers", &["email"]);

pub(super) fn routes(r: Routes) -> Routes {
    r.add(&CREATE, create_customer)
        .add(&RETRIEVE, get_customer)
        .add(&UPDATE, update_customer)
        .add(&LIST, list_customers)
}

async fn create_customer(State(st): State<Shared>, p: Params) -> ApiResult {
    let email = p.str("email")?.filter(|s| !s.is_empty());
    if let Some(email) = &email {
        if !valid_email(email) {
            return Err(ApiError::invalid_param(
                "email",
                format!("Invalid email address: {email}"),
            ));
        }
    }
    let name = p.str("name")?;
    let description = p.str("description")?;
    let metadata = p.metadata()?.unwrap_or_default();
    let address = address(&p)?.flatten();
    Ok(Json(st.mutate(|s, now| {
        let id = s.create_customer(email, name, description, metadata, &p.origin, now);
        if let Some(c) = s.customers.get_mut(&id) {
            c.address = address;
        }
        s.render_customer(&s.customers[&id], &p.expand)
    })))
}

async fn get_customer(State(st): State<Shared>, Path(id): Path<String>, p: Params) -> ApiResult {
    st.mutate(|s, _| Ok(Json(s.render_customer(s.customer(&id, "id")?, &p.expand))))
}

async fn update_customer(State(st): State<Shared>, Path(id): Path<String>, p: Params) -> ApiResult {
    let email = p.str("email")?;
    if let Some(email) = email.as_deref().filter(|e| !e.is_empty()) {
        if !valid_email(email) {
            return Err(ApiError::invalid_param(
                "email",
                format!("Invalid email address: {email}"),
            ));
        }
    }
    let name = p.str("name")?;
    let description = p.str("description")?;
    let clear_metadata = matches!(p.values.get("metadata"), Some(Value::String(s)) if s.is_empty());
    let metadata = p.metadata()?;
    let address = address(&p)?;
    let default_pm = match p.values.get("invoice_settings") {
        Some(Value::Object(m)) => m
            .get("default_payment_method")
            .and_then(Value::as_str)
            .map(str::to_owned),
        _ => None,
    };
    st.mutate(|s, now| {
        let before = s.render_customer(s.customer(&id, "id")?, &Expand::none());
        if let Some(pm) = default_pm.as_deref().filter(|pm| !pm.is_empty()) {
            let owned = s
                .payment_methods
                .get(pm)
                .is_some_and(|m| m.customer.as_deref() == Some(id.as_str()));
            if !owned {
                return Err(ApiError::no_such(
                    "PaymentMethod",
                    pm,
                    "invoice_settings[default_payment_method]",
                ));
            }
        }
        let c = s.customers.get_mut(&id).expect("checked");
        if let Some(email) = email {
            c.email = (!email.is_empty()).then_some(email);
        }
        if let Some(name) = name {
            c.name = (!name.is_empty()).then_some(name);
        }
        if let Some(d) = description {
            c.description = (!d.is_empty()).then_some(d);
        }
        if let Some(m) = metadata {
            merge_metadata(&mut c.metadata, m, clear_metadata);
        }
        if let Some(address) = address {
            c.address = address;
        }
        let new_card = default_pm.as_ref().is_some_and(|pm| !pm.is_empty());
        if let Some(pm) = default_pm {
            c.default_payment_method = (!pm.is_empty()).then_some(pm);
        }
        let after = s.render_customer(&s.customers[&id], &Expand::none());
        let previous = changed_fields(&before, &after);
        if let Some(previous) = previous {
            s.emit("customer.updated", after, Some(previous), &p.origin, now);
        }
        if new_card {
            s.use_customer_default_card(&id, &p.origin, now);
        }
        Ok(Json(s.render_customer(&s.customers[&id], &p.expand)))
    })
}

async fn list_customers(State(st): State<Shared>, p: Params) -> ApiResult {
    let email = p.str("email")?;
    st.mutate(|s, _| {
        page(
            &p,
            "/v1/customers",
            s.customers.values(),
            |c| email.is_none() || c.email == email,
            |c, exp| s.render_customer(c, exp),
        )
    })
}

/// `address[…]`: `None` when not sent, `Some(None)` for an empty string (which clears it), else
/// the whole address (Stripe replaces it, it does not merge).
fn address(p: &Params) -> Result<Option<Option<Address>>, ApiError> {
    let parts = match p.values.get("address") {
        None => return Ok(None),
        Some(Value::String(s)) if s.is_empty() => return Ok(Some(None)),
        Some(Value::Object(parts)) => parts,
        Some(_) => return Err(ApiError::invalid_param("address", "Invalid hash")),
    };
    let part = |name: &str| {
        parts
            .get(name)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    let country = part("country");
    if let Some(c) = &country {
        if c.len() != 2 || !c.bytes().all(|b| b.is_ascii_alphabetic()) {
            return Err(ApiError::invalid_param(
                "address[country]",
                format!(
                    "Country '{c}' is unknown. Try using a 2-character alphanumeric country code \
                     instead, such as 'US', 'EG', or 'GB'."
                ),
            ));
        }
    }
    Ok(Some(Some(Address {
        line1: part("line1"),
        line2: part("line2"),
        city: part("city"),
        postal_code: part("postal_code"),
        state: part("state"),
        country: country.map(|c| c.to_uppercase()),
    })))
}
