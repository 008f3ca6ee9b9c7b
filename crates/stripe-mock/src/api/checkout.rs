//! `/v1/checkout/sessions`.

use axum::extract::{Path, State};
use axum::Json;
use serde_json::Value;

use super::catalogue::NewPrice;
use super::list::page;
use super::params::{int_value, metadata_value, valid_email, valid_url, Params};
use super::{ApiResult, Endpoint, Routes, Shared};
use crate::error::ApiError;
use crate::store::{new_id, CheckoutSession, Collect, LineItem, Metadata, SessionDiscount};

static CREATE: Endpoint = Endpoint::post(
    "/v1/checkout/sessions",
    &[
        "mode",
        "success_url",
        "cancel_url",
        "customer",
        "customer_email",
        "client_reference_id",
        "expires_at",
        "metadata[*]",
        "subscription_data[metadata][*]",
        "subscription_data[trial_period_days]",
        "line_items[][price]",
        "line_items[][quantity]",
        "line_items[][price_data][currency]",
        "line_items[][price_data][unit_amount]",
        "line_items[][price_data][product]",
        "line_items[][price_data][product_data][name]",
        "line_items[][price_data][recurring][interval]",
        "line_items[][price_data][recurring][interval_count]",
        "billing_address_collection",
        "tax_id_collection[enabled]",
        "customer_update[name]",
        "customer_update[address]",
        "allow_promotion_codes",
        "discounts[][coupon]",
        "discounts[][promotion_code]",
        "automatic_tax[enabled]",
    ],
);
static RETRIEVE: Endpoint = Endpoint::get("/v1/checkout/sessions/{id}", &[]);
static EXPIRE: Endpoint = Endpoint::post("/v1/checkout/sessions/{id}/expire", &[]);
static LINE_ITEMS: Endpoint = Endpoint::list("/v1/checkout/sessions/{id}/line_items", &[]);
static LIST: Endpoint = Endpoint::list(
    "/v1/checkout/sessions",
    &["customer", "subscription", "status"],
);

pub(super) fn routes(r: Routes) -> Routes {
    r.add(&CREATE, create_session)
        .add(&RETRIEVE, get_session)
        .add(&EXPIRE, expire_session)
        .add(&LINE_ITEMS, session_line_items)
        .add(&LIST, list_sessions)
}

async fn create_session(State(st): State<Shared>, p: Params) -> ApiResult {
    let mode = p.required("mode")?;
    if !matches!(mode.as_str(), "subscription" | "payment") {
        return Err(ApiError::invalid_param(
            "mode",
            format!("Invalid mode: this mock supports `payment` and `subscription`, not `{mode}`."),
        ));
    }
    let success_url = p.required("success_url")?;
    if !valid_url(&success_url) {
        return Err(ApiError::invalid_param("success_url", "Not a valid URL"));
    }
    let cancel_url = p.str("cancel_url")?.filter(|s| !s.is_empty());
    if let Some(url) = &cancel_url {
        if !valid_url(url) {
            return Err(ApiError::invalid_param("cancel_url", "Not a valid URL"));
        }
    }
    let customer = p.str("customer")?.filter(|s| !s.is_empty());
    let customer_email = p.str("customer_email")?.filter(|s| !s.is_empty());
    if customer.is_some() && customer_email.is_some() {
        return Err(ApiError::invalid_request(
            "You may only specify one of these parameters: customer, customer_email.",
        ));
    }
    if let Some(email) = &customer_email {
        if !valid_email(email) {
            return Err(ApiError::invalid_param(
                "customer_email",
                format!("Invalid email address: {email}"),
            ));
        }
    }
    let client_reference_id = p.str("client_reference_id")?;
    let metadata = p.metadata()?.unwrap_or_default();
    let (subscription_metadata, trial_period_days) = match p.values.get("subscription_data") {
        Some(Value::Object(m)) => (
            metadata_value(m.get("metadata"), "subscription_data[metadata]")?.unwrap_or_default(),
            trial_days(m.get("trial_period_days"))?,
        ),
        _ => (Metadata::new(), None),
    };
    if trial_period_days.is_some() && mode != "subscription" {
        return Err(ApiError::invalid_param(
            "subscription_data[trial_period_days]",
            "You can only pass in `subscription_data` in `subscription` mode.",
        ));
    }
    let raw_items = match p.values.get("line_items") {
        None => return Err(ApiError::missing_param("line_items")),
        Some(Value::Array(items)) if !items.is_empty() => items.clone(),
        Some(_) => return Err(ApiError::invalid_param("line_items", "Invalid array")),
    };
    let expires_at = p.int("expires_at")?;
    let collect = collect(&p, customer.is_some())?;
    let allow_promotion_codes = p.bool("allow_promotion_codes")?;
    let wanted = discount_param(&p)?;
    let automatic_tax = p.automatic_tax()?.unwrap_or(false);
    if allow_promotion_codes.is_some() && wanted.is_some() {
        return Err(ApiError::invalid_request(
            "You may only specify one of these parameters: allow_promotion_codes, discounts.",
        ));
    }
    st.mutate(|s, now| {
        if let Some(c) = &customer {
            let known = s.customer(c, "customer")?;
            let located = known.address.as_ref().is_some_and(|a| a.country.is_some());
            if automatic_tax && !located && !collect.update_address {
                return Err(ApiError::invalid_param("customer_update[address]", "Automatic tax calculation in Checkout requires a valid address on the Customer. Add a valid address to the Customer or set either `customer_update[address]` to 'auto' or `customer_update[shipping]` to 'auto' to save the address entered in Checkout to the Customer."));
            }
        }
        let mut line_items = Vec::new();
        let mut currency: Option<String> = None;
        let mut recurring = false;
        let (mut inline_prices, mut inline_products) = (Vec::new(), Vec::new());
        for (i, item) in raw_items.iter().enumerate() {
            let field = |f: &str| format!("line_items[{i}][{f}]");
            let quantity = item
                .get("quantity")
                .and_then(Value::as_str)
                .ok_or_else(|| ApiError::missing_param(&field("quantity")))?;
            let quantity: u64 = quantity
                .parse()
                .ok()
                .filter(|q| *q >= 1)
                .ok_or_else(|| ApiError::invalid_param(&field("quantity"), format!("Invalid integer: {quantity}")))?;
            let price = match (item.get("price").and_then(Value::as_str).filter(|s| !s.is_empty()), item.get("price_data")) {
                (Some(price_id), None) => {
                    let price = s.price(price_id, &field("price"))?;
                    if !price.active {
                        return Err(ApiError::invalid_param(&field("price"), format!("The price `{price_id}` is not available to be purchased because it is not active.")));
                    }
                    price.clone()
                }
                (None, Some(Value::Object(data))) => {
                    // Made for this session only, like Stripe's inline prices: not active, no event.
                    let prefix = field("price_data");
                    let (mut price, product) = NewPrice::parse(data, &prefix)?.build(s, new_id("price"), &prefix, now)?;
                    price.active = false;
                    inline_products.extend(product);
                    inline_prices.push(price.clone());
                    price
                }
                (None, Some(_)) => return Err(ApiError::invalid_param(&field("price_data"), "Invalid hash")),
                (Some(_), Some(_)) => return Err(ApiError::invalid_request(format!("You may only specify one of these parameters: {}, {}.", field("price"), field("price_data")))),
                (None, None) => return Err(ApiError::missing_param(&field("price"))),
            };
            match (&currency, mode.as_str(), price.recurring.is_some()) {
                (Some(c), _, _) if *c != price.currency => {
                    return Err(ApiError::invalid_param("line_items", "All line items must use the same currency."))
                }
                (_, "payment", true) => {
                    return Err(ApiError::invalid_param("line_items", "You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices."))
                }
                _ => {}
            }
            recurring |= price.recurring.is_some();
            currency = Some(price.currency.clone());
            line_items.push(LineItem { id: new_id("li"), price: price.id, quantity });
        }
        if mode == "subscription" && !recurring {
            return Err(ApiError::invalid_param("line_items", "You must provide at least one recurring price in `subscription` mode when using prices."));
        }
        let expires_at = match expires_at {
            None => now + 24 * 3600,
            Some(t) if t >= now + 30 * 60 && t <= now + 24 * 3600 => t,
            Some(_) => return Err(ApiError::invalid_param("expires_at", "The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.")),
        };
        let currency = currency.unwrap_or_else(|| "usd".to_owned());
        let subtotal: i64 = line_items.iter().map(|li| s.line_item_amount(li)).sum();
        let discounts = match wanted {
            None => Vec::new(),
            Some((None, Some(code))) => {
                let pc = s.redeemable_code(&code, "discounts[0][promotion_code]", customer.as_deref(), subtotal, &currency, now)?;
                vec![SessionDiscount { coupon: pc.coupon.clone(), promotion_code: Some(pc.id.clone()) }]
            }
            Some((Some(coupon), None)) => {
                if !s.coupon(&coupon, "discounts[0][coupon]")?.valid(now) {
                    return Err(ApiError::invalid_param("discounts[0][coupon]", format!("Coupon {coupon} is no longer valid.")));
                }
                vec![SessionDiscount { coupon, promotion_code: None }]
            }
            Some(_) => return Err(ApiError::invalid_request("You may only specify one of these parameters: discounts[0][coupon], discounts[0][promotion_code].")),
        };
        for product in inline_products {
            s.products.insert(product.id.clone(), product);
        }
        for price in inline_prices {
            s.prices.insert(price.id.clone(), price);
        }
        let id = format!("cs_test_{}", new_id("x").trim_start_matches("x_"));
        let session = CheckoutSession {
            url: format!("{}/c/pay/{id}", st.public_url()),
            id: id.clone(),
            created: now,
            expires_at,
            mode,
            status: "open".to_owned(),
            payment_status: "unpaid".to_owned(),
            customer,
            customer_email,
            details_email: None,
            client_reference_id,
            metadata,
            subscription_metadata,
            success_url: Some(success_url),
            cancel_url,
            line_items,
            currency,
            subscription: None,
            invoice: None,
            payment_intent: None,
            collect,
            company: None,
            allow_promotion_codes,
            discounts,
            automatic_tax,
            trial_period_days,
        };
        s.sessions.insert(id.clone(), session);
        Ok(Json(s.render_session(&s.sessions[&id], &p.expand)))
    })
}

async fn get_session(State(st): State<Shared>, Path(id): Path<String>, p: Params) -> ApiResult {
    st.mutate(|s, _| Ok(Json(s.render_session(s.session(&id)?, &p.expand))))
}

async fn expire_session(State(st): State<Shared>, Path(id): Path<String>, p: Params) -> ApiResult {
    st.mutate(|s, now| {
        s.expire_session(&id, &p.origin, now)?;
        Ok(Json(s.render_session(&s.sessions[&id], &p.expand)))
    })
}

async fn session_line_items(
    State(st): State<Shared>,
    Path(id): Path<String>,
    p: Params,
) -> ApiResult {
    st.mutate(|s, _| {
        let session = s.session(&id)?;
        page(
            &p,
            &format!("/v1/checkout/sessions/{id}/line_items"),
            &session.line_items,
            |_| true,
            |li, _| {
                let index = session.line_items.iter().position(|x| x.id == li.id);
                s.render_line_item(session, index.unwrap_or_default())
            },
        )
    })
}

async fn list_sessions(State(st): State<Shared>, p: Params) -> ApiResult {
    let customer = p.str("customer")?;
    let subscription = p.str("subscription")?;
    let status = p.str("status")?;
    st.mutate(|s, _| {
        page(
            &p,
            "/v1/checkout/sessions",
            s.sessions.values(),
            |cs| {
                (customer.is_none() || cs.customer == customer)
                    && (subscription.is_none() || cs.subscription == subscription)
                    && status.as_ref().is_none_or(|st| &cs.status == st)
            },
            |cs, exp| s.render_session(cs, exp),
        )
    })
}

/// What the page collects from a business buyer, refused where Stripe refuses it: an existing
/// customer's name must be updatable (`customer_update[name]=auto`) to collect a tax ID.
fn collect(p: &Params, has_customer: bool) -> Result<Collect, ApiError> {
    let address = match p.str("billing_address_collection")?.as_deref() {
        None | Some("auto") => false,
        Some("required") => true,
        Some(other) => {
            return Err(ApiError::invalid_param(
                "billing_address_collection",
                format!(
                "Invalid billing_address_collection: must be one of auto or required, not {other}"
            ),
            ))
        }
    };
    let nested = |hash: &str, key: &str| match p.values.get(hash) {
        Some(Value::Object(m)) => m.get(key).and_then(Value::as_str).map(str::to_owned),
        _ => None,
    };
    let tax_id = match nested("tax_id_collection", "enabled").as_deref() {
        None | Some("false") => false,
        Some("true") => true,
        Some(other) => {
            return Err(ApiError::invalid_param(
                "tax_id_collection[enabled]",
                format!("Invalid boolean: {other}"),
            ))
        }
    };
    let mut update = [false; 2];
    for (i, key) in ["name", "address"].into_iter().enumerate() {
        update[i] = match nested("customer_update", key).as_deref() {
            None | Some("never") => false,
            Some("auto") => true,
            Some(other) => {
                return Err(ApiError::invalid_param(
                    &format!("customer_update[{key}]"),
                    format!(
                        "Invalid customer_update[{key}]: must be one of auto or never, not {other}"
                    ),
                ))
            }
        };
    }
    if (update[0] || update[1]) && !has_customer {
        return Err(ApiError::invalid_request(
            "customer_update can only be used with customer.",
        ));
    }
    if tax_id && has_customer && !update[0] {
        return Err(ApiError::invalid_request(
            "Tax ID collection requires updating business name on the customer. To enable tax ID collection for an existing customer, please set `customer_update[name]` to `auto`.",
        ));
    }
    Ok(Collect {
        address,
        tax_id,
        update_name: update[0],
        update_address: update[1],
    })
}

/// A session's discount as sent: (`coupon`, `promotion_code`).
type WantedDiscount = (Option<String>, Option<String>);

/// `discounts[0][coupon]` / `discounts[0][promotion_code]`: a session takes one discount.
fn discount_param(p: &Params) -> Result<Option<WantedDiscount>, ApiError> {
    let items = match p.values.get("discounts") {
        None => return Ok(None),
        Some(Value::String(s)) if s.is_empty() => return Ok(None),
        Some(Value::Array(items)) => items,
        Some(_) => return Err(ApiError::invalid_param("discounts", "Invalid array")),
    };
    if items.len() > 1 {
        return Err(ApiError::invalid_param(
            "discounts",
            "You may only specify one discount for a Checkout Session.",
        ));
    }
    let Some(item) = items.first() else {
        return Ok(None);
    };
    let get = |f: &str| {
        item.get(f)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    match (get("coupon"), get("promotion_code")) {
        (None, None) => Err(ApiError::missing_param("discounts[0][promotion_code]")),
        pair => Ok(Some(pair)),
    }
}

/// `subscription_data[trial_period_days]`: 1 to 730 days, as Stripe allows.
fn trial_days(raw: Option<&Value>) -> Result<Option<i64>, ApiError> {
    const PARAM: &str = "subscription_data[trial_period_days]";
    let Some(raw) = raw else {
        return Ok(None);
    };
    let days = match raw {
        Value::String(s) => int_value(Some(s), PARAM)?,
        _ => return Err(ApiError::invalid_param(PARAM, "Invalid integer")),
    };
    match days {
        Some(d) if (1..=730).contains(&d) => Ok(Some(d)),
        Some(d) => Err(ApiError::invalid_param(
            PARAM,
            format!("The `trial_period_days` must be between 1 and 730 days, not {d}."),
        )),
        None => Ok(None),
    }
}
