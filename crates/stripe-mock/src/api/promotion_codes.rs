//! `/v1/promotion_codes`: customer-facing codes for a coupon (`promotion[coupon]`).

use axum::extract::{Path, State};
use axum::Json;
use serde_json::Value;

use super::list::page;
use super::params::{changed_fields, merge_metadata, Params};
use super::{ApiResult, Endpoint, Routes, Shared};
use crate::error::ApiError;
use crate::expand::Expand;
use crate::store::{new_id, PromotionCode};

static CREATE: Endpoint = Endpoint::post(
    "/v1/promotion_codes",
    &[
        "promotion[type]",
        "promotion[coupon]",
        "code",
        "active",
        "customer",
        "expires_at",
        "max_redemptions",
        "restrictions[first_time_transaction]",
        "restrictions[minimum_amount]",
        "restrictions[minimum_amount_currency]",
        "metadata[*]",
    ],
);
static RETRIEVE: Endpoint = Endpoint::get("/v1/promotion_codes/{id}", &[]);
static UPDATE: Endpoint = Endpoint::post("/v1/promotion_codes/{id}", &["active", "metadata[*]"]);
static LIST: Endpoint = Endpoint::list(
    "/v1/promotion_codes",
    &["active", "code", "coupon", "customer"],
);

pub(super) fn routes(r: Routes) -> Routes {
    r.add(&CREATE, create_code)
        .add(&RETRIEVE, get_code)
        .add(&UPDATE, update_code)
        .add(&LIST, list_codes)
}

fn sub_str<'a>(p: &'a Params, hash: &str, field: &str) -> Result<Option<&'a str>, ApiError> {
    match p.values.get(hash) {
        None => Ok(None),
        Some(Value::Object(m)) => Ok(m
            .get(field)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())),
        Some(_) => Err(ApiError::invalid_param(hash, "Invalid hash")),
    }
}

fn valid_code(code: &str) -> bool {
    !code.is_empty()
        && code.len() <= 500
        && code
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

async fn create_code(State(st): State<Shared>, p: Params) -> ApiResult {
    match sub_str(&p, "promotion", "type")? {
        Some("coupon") => {}
        None => return Err(ApiError::missing_param("promotion[type]")),
        Some(other) => {
            return Err(ApiError::invalid_param(
                "promotion[type]",
                format!("Invalid promotion[type]: must be coupon, not {other}."),
            ))
        }
    }
    let coupon = sub_str(&p, "promotion", "coupon")?
        .ok_or_else(|| ApiError::missing_param("promotion[coupon]"))?
        .to_owned();
    let code = match p.str("code")?.filter(|s| !s.is_empty()) {
        Some(code) if !valid_code(&code) => {
            return Err(ApiError::invalid_param(
                "code",
                "Invalid code: it may contain only letters, digits, dashes and underscores, up to 500 characters.",
            ))
        }
        Some(code) => code,
        None => new_id("x").trim_start_matches("x_")[..8].to_uppercase(),
    };
    let first_time = match sub_str(&p, "restrictions", "first_time_transaction")? {
        None | Some("false") => false,
        Some("true") => true,
        Some(other) => {
            return Err(ApiError::invalid_param(
                "restrictions[first_time_transaction]",
                format!("Invalid boolean: {other}"),
            ))
        }
    };
    let minimum_amount = super::params::int_value(
        sub_str(&p, "restrictions", "minimum_amount")?,
        "restrictions[minimum_amount]",
    )?;
    let minimum_currency =
        sub_str(&p, "restrictions", "minimum_amount_currency")?.map(str::to_lowercase);
    if minimum_amount.is_some() && minimum_currency.is_none() {
        return Err(ApiError::missing_param(
            "restrictions[minimum_amount_currency]",
        ));
    }
    if minimum_amount.is_some_and(|m| m < 0) {
        return Err(ApiError::invalid_param(
            "restrictions[minimum_amount]",
            "This value must be greater than or equal to 0.",
        ));
    }
    let max_redemptions = p.int("max_redemptions")?;
    if max_redemptions.is_some_and(|m| m < 1) {
        return Err(ApiError::invalid_param(
            "max_redemptions",
            "This value must be greater than or equal to 1.",
        ));
    }
    let expires_at = p.int("expires_at")?;
    let active = p.bool("active")?.unwrap_or(true);
    let customer = p.str("customer")?.filter(|s| !s.is_empty());
    let metadata = p.metadata()?.unwrap_or_default();
    st.mutate(|s, now| {
        let c = s.coupon(&coupon, "promotion[coupon]")?;
        if !c.valid(now) {
            return Err(ApiError::invalid_param(
                "promotion[coupon]",
                format!("Coupon {coupon} is no longer valid and cannot be used for new promotion codes."),
            ));
        }
        if let Some(t) = expires_at {
            if t <= now {
                return Err(ApiError::invalid_param(
                    "expires_at",
                    "Invalid expires_at: must be in the future.",
                ));
            }
            if c.redeem_by.is_some_and(|r| t > r) {
                return Err(ApiError::invalid_param(
                    "expires_at",
                    "The promotion code's expires_at cannot be later than its coupon's redeem_by.",
                ));
            }
        }
        if let Some(id) = &customer {
            s.customer(id, "customer")?;
        }
        let taken = s
            .promotion_codes
            .values()
            .any(|pc| pc.active && pc.code.eq_ignore_ascii_case(&code));
        if active && taken {
            return Err(ApiError::invalid_param(
                "code",
                format!("An active promotion code with `code: {code}` already exists."),
            ));
        }
        let promo = PromotionCode {
            id: new_id("promo"),
            created: now,
            code,
            coupon,
            active,
            customer,
            max_redemptions,
            expires_at,
            first_time_transaction: first_time,
            minimum_amount,
            minimum_amount_currency: minimum_currency,
            times_redeemed: 0,
            metadata,
        };
        let json = s.render_promotion_code(&promo, &Expand::none());
        s.emit("promotion_code.created", json, None, &p.origin, now);
        let id = promo.id.clone();
        s.promotion_codes.insert(id.clone(), promo);
        Ok(Json(s.render_promotion_code(&s.promotion_codes[&id], &p.expand)))
    })
}

async fn get_code(State(st): State<Shared>, Path(id): Path<String>, p: Params) -> ApiResult {
    st.mutate(|s, _| {
        Ok(Json(s.render_promotion_code(
            s.promotion_code(&id, "id")?,
            &p.expand,
        )))
    })
}

async fn update_code(State(st): State<Shared>, Path(id): Path<String>, p: Params) -> ApiResult {
    let active = p.bool("active")?;
    let metadata = p.metadata()?;
    let clear = matches!(p.values.get("metadata"), Some(v) if v.as_str() == Some(""));
    st.mutate(|s, now| {
        let code = s.promotion_code(&id, "id")?.clone();
        if active == Some(true) && !code.active {
            let clash = s
                .promotion_codes
                .values()
                .any(|pc| pc.active && pc.id != id && pc.code.eq_ignore_ascii_case(&code.code));
            if clash {
                return Err(ApiError::invalid_param(
                    "active",
                    format!(
                        "An active promotion code with `code: {}` already exists.",
                        code.code
                    ),
                ));
            }
        }
        let before = s.render_promotion_code(&code, &Expand::none());
        let stored = s.promotion_codes.get_mut(&id).expect("checked above");
        if let Some(a) = active {
            stored.active = a;
        }
        if let Some(m) = metadata {
            merge_metadata(&mut stored.metadata, m, clear);
        }
        let after = s.render_promotion_code(&s.promotion_codes[&id], &Expand::none());
        if let Some(previous) = changed_fields(&before, &after) {
            s.emit(
                "promotion_code.updated",
                after,
                Some(previous),
                &p.origin,
                now,
            );
        }
        Ok(Json(
            s.render_promotion_code(&s.promotion_codes[&id], &p.expand),
        ))
    })
}

async fn list_codes(State(st): State<Shared>, p: Params) -> ApiResult {
    let active = p.bool("active")?;
    let code = p.str("code")?;
    let coupon = p.str("coupon")?;
    let customer = p.str("customer")?;
    st.mutate(|s, _| {
        page(
            &p,
            "/v1/promotion_codes",
            s.promotion_codes.values(),
            |pc| {
                active.is_none_or(|a| pc.active == a)
                    // Stripe matches the code case-insensitively.
                    && code.as_ref().is_none_or(|c| pc.code.eq_ignore_ascii_case(c))
                    && coupon.as_ref().is_none_or(|c| &pc.coupon == c)
                    && (customer.is_none() || pc.customer == customer)
            },
            |pc, exp| s.render_promotion_code(pc, exp),
        )
    })
}
