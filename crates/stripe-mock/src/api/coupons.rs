//! `/v1/coupons`.

use axum::extract::{Path, State};
use axum::Json;

use super::list::page;
use super::params::{merge_metadata, Params};
use super::{ApiResult, Endpoint, Routes, Shared};
use crate::error::ApiError;
use crate::expand::Expand;
use crate::store::{new_id, Coupon};

static CREATE: Endpoint = Endpoint::post(
    "/v1/coupons",
    &[
        "id",
        "name",
        "percent_off",
        "amount_off",
        "currency",
        "duration",
        "duration_in_months",
        "max_redemptions",
        "redeem_by",
        "metadata[*]",
    ],
);
static RETRIEVE: Endpoint = Endpoint::get("/v1/coupons/{id}", &[]);
static UPDATE: Endpoint = Endpoint::post("/v1/coupons/{id}", &["name", "metadata[*]"]);
static LIST: Endpoint = Endpoint::list("/v1/coupons", &[]);

pub(super) fn routes(r: Routes) -> Routes {
    r.add(&CREATE, create_coupon)
        .add(&RETRIEVE, get_coupon)
        .add(&UPDATE, update_coupon)
        .add(&LIST, list_coupons)
}

fn positive(p: &Params, name: &str) -> Result<Option<i64>, ApiError> {
    match p.int(name)? {
        Some(n) if n < 1 => Err(ApiError::invalid_param(
            name,
            "This value must be greater than or equal to 1.",
        )),
        n => Ok(n),
    }
}

/// A new coupon as the request describes it, checked the way Stripe checks it.
fn parse(p: &Params) -> Result<Coupon, ApiError> {
    let percent_off = match p.str("percent_off")?.filter(|s| !s.is_empty()) {
        None => None,
        Some(raw) => {
            let pct: f64 = raw.parse().map_err(|_| {
                ApiError::invalid_param("percent_off", format!("Invalid decimal: {raw}"))
            })?;
            if !(pct > 0.0 && pct <= 100.0) {
                return Err(ApiError::invalid_param(
                    "percent_off",
                    "Invalid percent_off: must be greater than 0 and less than or equal to 100.",
                ));
            }
            Some(pct)
        }
    };
    let amount_off = positive(p, "amount_off")?;
    let currency = p
        .str("currency")?
        .filter(|s| !s.is_empty())
        .map(|c| c.to_lowercase());
    match (percent_off, amount_off) {
        (Some(_), Some(_)) => {
            return Err(ApiError::invalid_request(
                "You may only specify one of these parameters: amount_off, percent_off.",
            ))
        }
        (None, None) => {
            return Err(ApiError::invalid_request(
                "You must specify either amount_off or percent_off.",
            ))
        }
        (None, Some(_)) if currency.is_none() => {
            return Err(ApiError::missing_param("currency"));
        }
        _ => {}
    }
    let duration = p
        .str("duration")?
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "once".to_owned());
    if !matches!(duration.as_str(), "once" | "repeating" | "forever") {
        return Err(ApiError::invalid_param(
            "duration",
            format!(
                "Invalid duration: must be one of forever, once, or repeating, not {duration}."
            ),
        ));
    }
    let duration_in_months = positive(p, "duration_in_months")?;
    match (duration.as_str(), duration_in_months) {
        ("repeating", None) => return Err(ApiError::missing_param("duration_in_months")),
        ("once" | "forever", Some(_)) => {
            return Err(ApiError::invalid_param(
                "duration_in_months",
                "duration_in_months can only be set when duration is repeating.",
            ))
        }
        _ => {}
    }
    Ok(Coupon {
        id: p
            .str("id")?
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| new_id("x").trim_start_matches("x_")[..8].to_owned()),
        created: 0,
        name: p.str("name")?.filter(|s| !s.is_empty()),
        percent_off,
        amount_off,
        currency: currency.filter(|_| amount_off.is_some()),
        duration,
        duration_in_months,
        max_redemptions: positive(p, "max_redemptions")?,
        redeem_by: p.int("redeem_by")?,
        times_redeemed: 0,
        metadata: p.metadata()?.unwrap_or_default(),
    })
}

async fn create_coupon(State(st): State<Shared>, p: Params) -> ApiResult {
    let mut coupon = parse(&p)?;
    st.mutate(|s, now| {
        if coupon.redeem_by.is_some_and(|t| t <= now) {
            return Err(ApiError::invalid_param(
                "redeem_by",
                "Invalid redeem_by: must be in the future.",
            ));
        }
        if s.coupons.contains_key(&coupon.id) {
            let mut e = ApiError::invalid_param("id", "Coupon already exists.");
            e.code = Some("resource_already_exists");
            return Err(e);
        }
        coupon.created = now;
        let json = s.render_coupon(&coupon);
        s.emit("coupon.created", json.clone(), None, &p.origin, now);
        s.coupons.insert(coupon.id.clone(), coupon);
        Ok(Json(json))
    })
}

async fn get_coupon(State(st): State<Shared>, Path(id): Path<String>, _p: Params) -> ApiResult {
    st.mutate(|s, _| Ok(Json(s.render_coupon(s.coupon(&id, "id")?))))
}

async fn update_coupon(State(st): State<Shared>, Path(id): Path<String>, p: Params) -> ApiResult {
    let name = p.str("name")?;
    let metadata = p.metadata()?;
    let clear = matches!(p.values.get("metadata"), Some(v) if v.as_str() == Some(""));
    st.mutate(|s, now| {
        s.coupon(&id, "id")?;
        let before = s.render_coupon(&s.coupons[&id]);
        let coupon = s.coupons.get_mut(&id).expect("checked above");
        if let Some(name) = name {
            coupon.name = Some(name).filter(|n| !n.is_empty());
        }
        if let Some(m) = metadata {
            merge_metadata(&mut coupon.metadata, m, clear);
        }
        let after = s.render_coupon(&s.coupons[&id]);
        if let Some(previous) = super::params::changed_fields(&before, &after) {
            s.emit(
                "coupon.updated",
                after.clone(),
                Some(previous),
                &p.origin,
                now,
            );
        }
        Ok(Json(after))
    })
}

async fn list_coupons(State(st): State<Shared>, p: Params) -> ApiResult {
    st.mutate(|s, _| {
        page(
            &p,
            "/v1/coupons",
            s.coupons.values(),
            |_| true,
            |c, _: &Expand| s.render_coupon(c),
        )
    })
}
