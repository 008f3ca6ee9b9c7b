//! A request's parameters, read the way Stripe reads them, and the checks several endpoints share.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::header;
use serde_json::{Map, Value};

use super::middleware::RequestId;
use super::Endpoint;
use crate::error::ApiError;
use crate::expand::Expand;
use crate::form;
use crate::store::{Metadata, Origin};

/// A request's parameters (query for GET/DELETE, form body for POST), its expansions and origin.
/// Extracting them refuses any parameter the route's [`Endpoint`] does not list.
pub(super) struct Params {
    pub(super) values: Map<String, Value>,
    pub(super) expand: Expand,
    pub(super) origin: Origin,
}

impl<S: Send + Sync> FromRequest<S> for Params {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let request_id = req.extensions().get::<RequestId>().map(|r| r.0.clone());
        let endpoint = *req
            .extensions()
            .get::<&'static Endpoint>()
            .ok_or_else(|| ApiError::internal("This route has no parameter list."))?;
        let idempotency_key = req
            .headers()
            .get("idempotency-key")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let query = req.uri().query().unwrap_or_default().as_bytes().to_vec();
        let is_json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/json"));
        if is_json {
            return Err(ApiError::invalid_request(
                "Invalid request: Stripe's API takes application/x-www-form-urlencoded bodies, not JSON.",
            ));
        }
        let body = Bytes::from_request(req, state)
            .await
            .map_err(|_| ApiError::invalid_request("Could not read the request body."))?;
        let sent: Vec<(String, String)> = form_urlencoded::parse(&query)
            .chain(form_urlencoded::parse(&body))
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        endpoint.check(sent.iter().map(|(k, v)| (k.as_str(), v.as_str())))?;
        let mut values = match form::parse(&query) {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        if let Value::Object(m) = form::parse(&body) {
            values.extend(m);
        }
        let expand = match values.remove("expand") {
            None => Expand::none(),
            Some(Value::Array(items)) => Expand::new(
                items
                    .into_iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect(),
            ),
            Some(_) => return Err(ApiError::invalid_param("expand", "Invalid array")),
        };
        Ok(Params {
            values,
            expand,
            origin: Origin {
                request_id,
                idempotency_key,
            },
        })
    }
}

impl Params {
    pub(super) fn str(&self, name: &str) -> Result<Option<String>, ApiError> {
        match self.values.get(name) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(ApiError::invalid_param(
                name,
                format!("Invalid string: {name} must be a string, not a hash or array."),
            )),
        }
    }

    /// A non-empty string (empty strings count as missing, as in Stripe).
    pub(super) fn required(&self, name: &str) -> Result<String, ApiError> {
        self.str(name)?
            .filter(|s| !s.is_empty())
            .ok_or_else(|| ApiError::missing_param(name))
    }

    pub(super) fn bool(&self, name: &str) -> Result<Option<bool>, ApiError> {
        match self.str(name)?.as_deref() {
            None => Ok(None),
            Some("true") => Ok(Some(true)),
            Some("false") => Ok(Some(false)),
            Some(other) => Err(ApiError::invalid_param(
                name,
                format!("Invalid boolean: {other}"),
            )),
        }
    }

    /// `automatic_tax[enabled]` (Stripe requires `enabled` whenever the hash is sent).
    pub(super) fn automatic_tax(&self) -> Result<Option<bool>, ApiError> {
        match self.values.get("automatic_tax") {
            None => Ok(None),
            Some(Value::Object(m)) => match m.get("enabled").and_then(Value::as_str) {
                None => Err(ApiError::missing_param("automatic_tax[enabled]")),
                Some("true") => Ok(Some(true)),
                Some("false") => Ok(Some(false)),
                Some(other) => Err(ApiError::invalid_param(
                    "automatic_tax[enabled]",
                    format!("Invalid boolean: {other}"),
                )),
            },
            Some(_) => Err(ApiError::invalid_param("automatic_tax", "Invalid hash")),
        }
    }

    pub(super) fn int(&self, name: &str) -> Result<Option<i64>, ApiError> {
        int_value(self.str(name)?.as_deref(), name)
    }

    pub(super) fn metadata(&self) -> Result<Option<Metadata>, ApiError> {
        metadata_value(self.values.get("metadata"), "metadata")
    }
}

pub(super) fn int_value(raw: Option<&str>, name: &str) -> Result<Option<i64>, ApiError> {
    match raw {
        None => Ok(None),
        Some(s) => s
            .parse()
            .map(Some)
            .map_err(|_| ApiError::invalid_param(name, format!("Invalid integer: {s}"))),
    }
}

/// `metadata[k]=v`; an empty value unsets a key, `metadata=` (empty string) clears them all.
pub(super) fn metadata_value(
    value: Option<&Value>,
    name: &str,
) -> Result<Option<Metadata>, ApiError> {
    match value {
        None => Ok(None),
        Some(Value::String(s)) if s.is_empty() => Ok(Some(Metadata::new())),
        Some(Value::Object(map)) => {
            let mut out = Metadata::new();
            for (k, v) in map {
                let v = v.as_str().ok_or_else(|| {
                    ApiError::invalid_param(&format!("{name}[{k}]"), "Invalid string")
                })?;
                out.insert(k.clone(), v.to_owned());
            }
            Ok(Some(out))
        }
        Some(_) => Err(ApiError::invalid_param(name, "Invalid hash")),
    }
}

pub(super) fn merge_metadata(target: &mut Metadata, update: Metadata, clear: bool) {
    if clear {
        target.clear();
    }
    for (k, v) in update {
        if v.is_empty() {
            target.remove(&k);
        } else {
            target.insert(k, v);
        }
    }
}

pub(super) fn valid_email(email: &str) -> bool {
    let mut parts = email.split('@');
    matches!((parts.next(), parts.next(), parts.next()), (Some(a), Some(b), None)
        if !a.is_empty() && b.contains('.') && !b.starts_with('.') && !b.ends_with('.')
            && !email.contains(char::is_whitespace))
}

pub(super) fn valid_url(url: &str) -> bool {
    (url.starts_with("http://") || url.starts_with("https://"))
        && url.split("://").nth(1).is_some_and(|rest| !rest.is_empty())
        && !url.contains(char::is_whitespace)
}

pub(super) fn changed_fields(before: &Value, after: &Value) -> Option<Value> {
    let (Value::Object(b), Value::Object(a)) = (before, after) else {
        return None;
    };
    let prev: Map<String, Value> = b
        .iter()
        .filter(|(k, v)| a.get(*k) != Some(v))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    (!prev.is_empty()).then_some(Value::Object(prev))
}
