//! `/v1/billing_portal/configurations` (create, retrieve, list) and `/v1/billing_portal/sessions`.

use axum::extract::{Path, State};
use axum::Json;
use serde_json::{Map, Value};

use super::list::page;
use super::params::{valid_url, Params};
use super::{ApiResult, Endpoint, Routes, Shared};
use crate::error::ApiError;
use crate::store::{new_id, PortalConfiguration, PortalFeatures, PortalSession};

static CREATE_SESSION: Endpoint = Endpoint::post(
    "/v1/billing_portal/sessions",
    &["customer", "return_url", "configuration"],
);
static CREATE_CONFIGURATION: Endpoint = Endpoint::post(
    "/v1/billing_portal/configurations",
    &[
        "features[invoice_history][enabled]",
        "features[payment_method_update][enabled]",
        "features[subscription_cancel][enabled]",
        "features[subscription_cancel][mode]",
        "features[subscription_update][enabled]",
        "features[subscription_update][default_allowed_updates][]",
        "features[subscription_update][proration_behavior]",
        "default_return_url",
        "metadata[*]",
        "name",
    ],
);
static RETRIEVE_CONFIGURATION: Endpoint =
    Endpoint::get("/v1/billing_portal/configurations/{id}", &[]);
static LIST_CONFIGURATIONS: Endpoint = Endpoint::list(
    "/v1/billing_portal/configurations",
    &["active", "is_default"],
);

pub(super) fn routes(r: Routes) -> Routes {
    r.add(&CREATE_SESSION, create_portal_session)
        .add(&CREATE_CONFIGURATION, create_configuration)
        .add(&RETRIEVE_CONFIGURATION, get_configuration)
        .add(&LIST_CONFIGURATIONS, list_configurations)
}

async fn create_portal_session(State(st): State<Shared>, p: Params) -> ApiResult {
    let customer = p.required("customer")?;
    let return_url = p.str("return_url")?.filter(|s| !s.is_empty());
    if let Some(url) = &return_url {
        if !valid_url(url) {
            return Err(ApiError::invalid_param("return_url", "Not a valid URL"));
        }
    }
    let configuration = p.str("configuration")?.filter(|s| !s.is_empty());
    st.mutate(|s, now| {
        s.customer(&customer, "customer")?;
        if let Some(c) = &configuration {
            s.portal_configuration(c)?;
        }
        let id = format!("bps_{}", new_id("x").trim_start_matches("x_"));
        let session = PortalSession {
            url: format!("{}/p/session/{id}", st.public_url()),
            id: id.clone(),
            created: now,
            customer,
            return_url,
            configuration,
        };
        s.portal_sessions.insert(id.clone(), session);
        Ok(Json(s.render_portal(&s.portal_sessions[&id])))
    })
}

/// `features[<name>]` as a hash (absent: empty).
fn feature(features: &Map<String, Value>, name: &str) -> Result<Map<String, Value>, ApiError> {
    match features.get(name) {
        None => Ok(Map::new()),
        Some(Value::Object(m)) => Ok(m.clone()),
        Some(_) => Err(ApiError::invalid_param(
            &format!("features[{name}]"),
            "Invalid hash",
        )),
    }
}

/// `features[<name>][enabled]`: required whenever the feature's hash is sent, as in Stripe.
fn enabled(hash: &Map<String, Value>, name: &str, default: bool) -> Result<bool, ApiError> {
    let param = format!("features[{name}][enabled]");
    if hash.is_empty() {
        return Ok(default);
    }
    match hash.get("enabled").and_then(Value::as_str) {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        Some(other) => Err(ApiError::invalid_param(
            &param,
            format!("Invalid boolean: {other}"),
        )),
        None => Err(ApiError::missing_param(&param)),
    }
}

fn one_of(
    hash: &Map<String, Value>,
    key: &str,
    param: &str,
    allowed: &[&str],
    default: &str,
) -> Result<String, ApiError> {
    match hash.get(key).and_then(Value::as_str) {
        None => Ok(default.to_owned()),
        Some(v) if allowed.contains(&v) => Ok(v.to_owned()),
        Some(v) => Err(ApiError::invalid_param(
            param,
            format!(
                "Invalid {param}: must be one of {} (got `{v}`).",
                allowed.join(", ")
            ),
        )),
    }
}

/// Reads `features[…]` the way Stripe does; what is not sent is off, as for a new configuration.
fn features(p: &Params) -> Result<PortalFeatures, ApiError> {
    let features = match p.values.get("features") {
        Some(Value::Object(m)) => m.clone(),
        Some(_) => return Err(ApiError::invalid_param("features", "Invalid hash")),
        None => return Err(ApiError::missing_param("features")),
    };
    let cancel = feature(&features, "subscription_cancel")?;
    let update = feature(&features, "subscription_update")?;
    let subscription_update = enabled(&update, "subscription_update", false)?;
    let allowed_param = "features[subscription_update][default_allowed_updates]";
    let allowed_updates: Vec<String> = match update.get("default_allowed_updates") {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| match v.as_str() {
                Some(u @ ("price" | "quantity" | "promotion_code")) => Ok(u.to_owned()),
                _ => Err(ApiError::invalid_param(
                    allowed_param,
                    "Invalid default_allowed_updates: must be price, quantity or promotion_code.",
                )),
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(ApiError::invalid_param(allowed_param, "Invalid array")),
    };
    if subscription_update && allowed_updates.is_empty() {
        return Err(ApiError::missing_param(allowed_param));
    }
    Ok(PortalFeatures {
        invoice_history: enabled(
            &feature(&features, "invoice_history")?,
            "invoice_history",
            false,
        )?,
        payment_method_update: enabled(
            &feature(&features, "payment_method_update")?,
            "payment_method_update",
            false,
        )?,
        subscription_cancel: enabled(&cancel, "subscription_cancel", false)?,
        cancel_mode: one_of(
            &cancel,
            "mode",
            "features[subscription_cancel][mode]",
            &["at_period_end", "immediately"],
            "at_period_end",
        )?,
        subscription_update,
        allowed_updates,
        update_proration_behavior: one_of(
            &update,
            "proration_behavior",
            "features[subscription_update][proration_behavior]",
            &["create_prorations", "none", "always_invoice"],
            "none",
        )?,
    })
}

async fn create_configuration(State(st): State<Shared>, p: Params) -> ApiResult {
    let features = features(&p)?;
    let default_return_url = p.str("default_return_url")?.filter(|s| !s.is_empty());
    if let Some(url) = &default_return_url {
        if !valid_url(url) {
            return Err(ApiError::invalid_param(
                "default_return_url",
                "Not a valid URL",
            ));
        }
    }
    let name = p.str("name")?.filter(|s| !s.is_empty());
    let metadata = p.metadata()?.unwrap_or_default();
    st.mutate(|s, now| {
        let id = new_id("bpc");
        let c = PortalConfiguration {
            id: id.clone(),
            created: now,
            name,
            default_return_url,
            metadata,
            features,
        };
        s.portal_configurations.insert(id, c.clone());
        Ok(Json(s.render_portal_configuration(&c)))
    })
}

async fn get_configuration(
    State(st): State<Shared>,
    Path(id): Path<String>,
    _p: Params,
) -> ApiResult {
    st.mutate(|s, _| {
        let c = s
            .portal_configuration(&id)
            .map_err(|_| ApiError::no_such("billing_portal.configuration", &id, "id"))?;
        Ok(Json(s.render_portal_configuration(&c)))
    })
}

/// Every configuration is active here (none can be deactivated); `is_default` picks the default.
async fn list_configurations(State(st): State<Shared>, p: Params) -> ApiResult {
    let active = p.bool("active")?;
    let is_default = p.bool("is_default")?;
    st.mutate(|s, _| {
        let all = s.all_portal_configurations();
        page(
            &p,
            "/v1/billing_portal/configurations",
            &all,
            |c| {
                active != Some(false)
                    && is_default
                        .is_none_or(|d| d == (c.id == crate::store::DEFAULT_PORTAL_CONFIGURATION))
            },
            |c, _| s.render_portal_configuration(c),
        )
    })
}
