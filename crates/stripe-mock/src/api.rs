//! The `/v1` REST subset in Stripe's wire format, and the `/_mock` control endpoints.

use std::sync::Arc;

use axum::body::{to_bytes, Body, Bytes};
use axum::extract::{FromRequest, Path, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Map, Value};

use crate::error::ApiError;
use crate::expand::Expand;
use crate::store::{
    new_id, CheckoutSession, LineItem, Metadata, Origin, PortalSession, Price, Product, Recurring,
};
use crate::{form, AppState};

type Shared = Arc<AppState>;
type ApiResult = Result<Json<Value>, ApiError>;

const MAX_BODY: usize = 1 << 20;
/// Stripe keeps idempotency keys for at least 24 hours.
const IDEMPOTENCY_TTL: i64 = 24 * 3600;

pub fn router(state: Shared) -> Router {
    let v1 = Router::new()
        .route("/customers", post(create_customer).get(list_customers))
        .route("/customers/{id}", get(get_customer).post(update_customer))
        .route("/products", post(create_product))
        .route("/products/{id}", get(get_product))
        .route("/prices", post(create_price).get(list_prices))
        .route("/prices/{id}", get(get_price))
        .route(
            "/checkout/sessions",
            post(create_session).get(list_sessions),
        )
        .route("/checkout/sessions/{id}", get(get_session))
        .route("/checkout/sessions/{id}/expire", post(expire_session))
        .route(
            "/checkout/sessions/{id}/line_items",
            get(session_line_items),
        )
        .route("/subscriptions", get(list_subscriptions))
        .route(
            "/subscriptions/{id}",
            get(get_subscription)
                .post(update_subscription)
                .delete(cancel_subscription),
        )
        .route("/payment_methods/{id}", get(get_payment_method))
        .route("/invoices/{id}", get(get_invoice))
        .route("/billing_portal/sessions", post(create_portal_session))
        .route("/events", get(list_events))
        .route("/events/{id}", get(get_event))
        .fallback(unknown_route)
        .layer(middleware::from_fn_with_state(state.clone(), idempotency))
        .layer(middleware::from_fn_with_state(state.clone(), authenticate))
        .with_state(state);
    Router::new().nest("/v1", v1)
}

pub fn mock_router(state: Shared) -> Router {
    Router::new()
        .route("/_mock/health", get(|| async { Json(json!({"ok": true})) }))
        .route("/_mock/clock", get(get_clock))
        .route("/_mock/clock/advance", post(advance_clock))
        .with_state(state)
}

// ------------------------------------------------------------------ middleware

/// Checks `Authorization: Bearer <key>` (or Basic with the key as user name, as Stripe allows)
/// and gives every request a `Request-Id`.
async fn authenticate(State(state): State<Shared>, mut req: Request, next: Next) -> Response {
    let request_id = new_id("req");
    let provided = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(api_key_from_header);
    let result = match provided {
        None => Err(ApiError::unauthorized(
            "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
        )),
        Some(key) if key == state.config.secret_key => Ok(()),
        Some(key) => Err(ApiError::unauthorized(format!(
            "Invalid API Key provided: {}",
            mask_key(&key)
        ))),
    };
    let mut response = match result {
        Ok(()) => {
            req.extensions_mut().insert(RequestId(request_id.clone()));
            next.run(req).await
        }
        Err(e) => e.into_response(),
    };
    if let Ok(v) = HeaderValue::from_str(&request_id) {
        response.headers_mut().insert("request-id", v);
    }
    response.headers_mut().insert(
        "stripe-version",
        HeaderValue::from_static(crate::API_VERSION),
    );
    response
}

fn api_key_from_header(value: &str) -> Option<String> {
    if let Some(token) = value.strip_prefix("Bearer ") {
        return Some(token.trim().to_owned());
    }
    if let Some(basic) = value.strip_prefix("Basic ") {
        use base64::Engine;
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(basic.trim())
            .ok()?;
        let decoded = String::from_utf8(decoded).ok()?;
        return Some(decoded.split(':').next().unwrap_or_default().to_owned());
    }
    None
}

/// Stripe shows the first 8 and last 4 characters: `sk_test_****ocal`.
fn mask_key(key: &str) -> String {
    let chars: Vec<char> = key.chars().collect();
    if chars.len() <= 12 {
        return "*".repeat(chars.len());
    }
    let head: String = chars[..8].iter().collect();
    let tail: String = chars[chars.len() - 4..].iter().collect();
    format!("{head}{}{tail}", "*".repeat(chars.len() - 12))
}

#[derive(Clone)]
struct RequestId(String);

/// Same `Idempotency-Key` (on POST/DELETE) + same method, path and body: the first answer is
/// replayed with `Idempotent-Replayed: true`. Same key with a different request: 400.
async fn idempotency(State(state): State<Shared>, req: Request, next: Next) -> Response {
    let key = req
        .headers()
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let Some(key) = key.filter(|_| matches!(*req.method(), Method::POST | Method::DELETE)) else {
        return next.run(req).await;
    };
    let (parts, body) = req.into_parts();
    let Ok(bytes) = to_bytes(body, MAX_BODY).await else {
        return ApiError::invalid_request("Request body too large.").into_response();
    };
    let fingerprint = format!(
        "{} {}\n{}",
        parts.method,
        parts.uri.path(),
        String::from_utf8_lossy(&bytes)
    );
    let stored = state.mutate(|store, now| {
        store
            .idempotency
            .retain(|_, r| now - r.created < IDEMPOTENCY_TTL);
        store.idempotency.get(&key).cloned()
    });
    if let Some(stored) = stored {
        if stored.fingerprint != fingerprint {
            let mut e = ApiError::invalid_request(format!(
                "Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '{key}' if you meant to execute a different request."
            ));
            e.kind = "idempotency_error";
            return e.into_response();
        }
        let mut response = Response::new(Body::from(stored.body));
        *response.status_mut() = StatusCode::from_u16(stored.status).unwrap_or(StatusCode::OK);
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        headers.insert("idempotent-replayed", HeaderValue::from_static("true"));
        if let Ok(v) = HeaderValue::from_str(&key) {
            headers.insert("idempotency-key", v);
        }
        return response;
    }
    if !state
        .idempotency_in_flight
        .lock()
        .expect("lock")
        .insert(key.clone())
    {
        let mut e = ApiError::invalid_request(
            "There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): Please try again later.",
        );
        e.status = StatusCode::CONFLICT;
        e.kind = "idempotency_error";
        return e.into_response();
    }
    let req = Request::from_parts(parts, Body::from(bytes));
    let response = next.run(req).await;
    let (mut parts, body) = response.into_parts();
    let bytes = to_bytes(body, usize::MAX).await.unwrap_or_default();
    // Like Stripe, server errors are not saved: retrying them may succeed.
    if !parts.status.is_server_error() {
        let stored = crate::store::StoredResponse {
            created: state.clock.now(),
            fingerprint,
            status: parts.status.as_u16(),
            body: String::from_utf8_lossy(&bytes).into_owned(),
        };
        state.mutate(|store, _| store.idempotency.insert(key.clone(), stored));
    }
    state
        .idempotency_in_flight
        .lock()
        .expect("lock")
        .remove(&key);
    if let Ok(v) = HeaderValue::from_str(&key) {
        parts.headers.insert("idempotency-key", v);
    }
    Response::from_parts(parts, Body::from(bytes))
}

async fn unknown_route(method: Method, uri: axum::extract::OriginalUri) -> ApiError {
    ApiError::unknown_route(method.as_str(), uri.0.path())
}

// ------------------------------------------------------------------ parameters

/// A request's parameters (query for GET/DELETE, form body for POST), its expansions and origin.
struct Params {
    values: Map<String, Value>,
    expand: Expand,
    origin: Origin,
}

impl<S: Send + Sync> FromRequest<S> for Params {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let request_id = req.extensions().get::<RequestId>().map(|r| r.0.clone());
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
            Some(Value::String(s)) => Expand::new(vec![s]),
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
    fn str(&self, name: &str) -> Result<Option<String>, ApiError> {
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
    fn required(&self, name: &str) -> Result<String, ApiError> {
        self.str(name)?
            .filter(|s| !s.is_empty())
            .ok_or_else(|| ApiError::missing_param(name))
    }

    fn bool(&self, name: &str) -> Result<Option<bool>, ApiError> {
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

    fn int(&self, name: &str) -> Result<Option<i64>, ApiError> {
        int_value(self.str(name)?.as_deref(), name)
    }

    fn metadata(&self) -> Result<Option<Metadata>, ApiError> {
        metadata_value(self.values.get("metadata"), "metadata")
    }

    fn limit(&self) -> Result<usize, ApiError> {
        let limit = self.int("limit")?.unwrap_or(10);
        if !(1..=100).contains(&limit) {
            return Err(ApiError::invalid_param(
                "limit",
                "This value must be greater than or equal to 1 and less than or equal to 100.",
            ));
        }
        Ok(limit as usize)
    }
}

fn int_value(raw: Option<&str>, name: &str) -> Result<Option<i64>, ApiError> {
    match raw {
        None => Ok(None),
        Some(s) => s
            .parse()
            .map(Some)
            .map_err(|_| ApiError::invalid_param(name, format!("Invalid integer: {s}"))),
    }
}

/// `metadata[k]=v`; an empty value unsets a key, `metadata=` (empty string) clears them all.
fn metadata_value(value: Option<&Value>, name: &str) -> Result<Option<Metadata>, ApiError> {
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

fn merge_metadata(target: &mut Metadata, update: Metadata, clear: bool) {
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

fn valid_email(email: &str) -> bool {
    let mut parts = email.split('@');
    matches!((parts.next(), parts.next(), parts.next()), (Some(a), Some(b), None)
        if !a.is_empty() && b.contains('.') && !b.starts_with('.') && !b.ends_with('.')
            && !email.contains(char::is_whitespace))
}

fn valid_url(url: &str) -> bool {
    (url.starts_with("http://") || url.starts_with("https://"))
        && url.split("://").nth(1).is_some_and(|rest| !rest.is_empty())
        && !url.contains(char::is_whitespace)
}

fn list_json(data: Vec<Value>, has_more: bool, url: &str) -> Json<Value> {
    Json(json!({ "object": "list", "data": data, "has_more": has_more, "url": url }))
}

/// Applies `starting_after` / `ending_before` / `limit` to ids in list order.
fn paginate<T>(
    items: Vec<(String, T)>,
    p: &Params,
    param_name: &str,
) -> Result<(Vec<T>, bool), ApiError> {
    let limit = p.limit()?;
    let mut items = items;
    if let Some(after) = p.str("starting_after")? {
        let pos = items
            .iter()
            .position(|(id, _)| *id == after)
            .ok_or_else(|| ApiError::no_such(param_name, &after, "starting_after"))?;
        items.drain(..=pos);
    } else if let Some(before) = p.str("ending_before")? {
        let pos = items
            .iter()
            .position(|(id, _)| *id == before)
            .ok_or_else(|| ApiError::no_such(param_name, &before, "ending_before"))?;
        items.truncate(pos);
        let skip = items.len().saturating_sub(limit);
        items.drain(..skip);
    }
    let has_more = items.len() > limit;
    items.truncate(limit);
    Ok((items.into_iter().map(|(_, v)| v).collect(), has_more))
}

// ------------------------------------------------------------------ customers

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
    Ok(Json(st.mutate(|s, now| {
        let id = s.create_customer(email, name, description, metadata, &p.origin, now);
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
        if let Some(pm) = default_pm {
            c.default_payment_method = (!pm.is_empty()).then_some(pm);
        }
        let after = s.render_customer(&s.customers[&id], &Expand::none());
        let previous = changed_fields(&before, &after);
        if let Some(previous) = previous {
            s.emit("customer.updated", after, Some(previous), &p.origin, now);
        }
        Ok(Json(s.render_customer(&s.customers[&id], &p.expand)))
    })
}

fn changed_fields(before: &Value, after: &Value) -> Option<Value> {
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

async fn list_customers(State(st): State<Shared>, p: Params) -> ApiResult {
    let email = p.str("email")?;
    st.mutate(|s, _| {
        let mut items: Vec<_> = s
            .customers
            .values()
            .filter(|c| email.is_none() || c.email == email)
            .map(|c| (c.id.clone(), (c.created, s.render_customer(c, &p.expand))))
            .collect();
        items.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(b.0.cmp(&a.0)));
        let items = items.into_iter().map(|(id, (_, v))| (id, v)).collect();
        let (data, more) = paginate(items, &p, "customer")?;
        Ok(list_json(data, more, "/v1/customers"))
    })
}

// ------------------------------------------------------------------ products and prices

async fn create_product(State(st): State<Shared>, p: Params) -> ApiResult {
    let name = p.required("name")?;
    let description = p.str("description")?;
    let metadata = p.metadata()?.unwrap_or_default();
    let id = p.str("id")?.unwrap_or_else(|| new_id("prod"));
    st.mutate(|s, now| {
        if s.products.contains_key(&id) {
            return Err(ApiError::invalid_param(
                "id",
                format!("Product already exists: {id}"),
            ));
        }
        let product = Product {
            id: id.clone(),
            created: now,
            updated: now,
            name,
            description,
            active: true,
            metadata,
        };
        s.emit(
            "product.created",
            s.render_product(&product),
            None,
            &p.origin,
            now,
        );
        s.products.insert(id.clone(), product);
        Ok(Json(s.render_product(&s.products[&id])))
    })
}

async fn get_product(State(st): State<Shared>, Path(id): Path<String>) -> ApiResult {
    st.mutate(|s, _| {
        s.products
            .get(&id)
            .map(|p| Json(s.render_product(p)))
            .ok_or_else(|| ApiError::no_such("product", &id, "id"))
    })
}

async fn create_price(State(st): State<Shared>, p: Params) -> ApiResult {
    let currency = p.required("currency")?.to_lowercase();
    let unit_amount = p
        .int("unit_amount")?
        .ok_or_else(|| ApiError::missing_param("unit_amount"))?;
    if unit_amount < 0 {
        return Err(ApiError::invalid_param(
            "unit_amount",
            "This value must be greater than or equal to 0.",
        ));
    }
    let recurring = match p.values.get("recurring") {
        None => None,
        Some(Value::Object(m)) => {
            let interval = m
                .get("interval")
                .and_then(Value::as_str)
                .ok_or_else(|| ApiError::missing_param("recurring[interval]"))?;
            if !matches!(interval, "day" | "week" | "month" | "year") {
                return Err(ApiError::invalid_param(
                    "recurring[interval]",
                    "Invalid recurring[interval]: must be one of day, month, week, or year",
                ));
            }
            let count = int_value(
                m.get("interval_count").and_then(Value::as_str),
                "recurring[interval_count]",
            )?
            .unwrap_or(1);
            Some(Recurring {
                interval: interval.to_owned(),
                interval_count: count.max(1) as u64,
            })
        }
        Some(_) => return Err(ApiError::invalid_param("recurring", "Invalid hash")),
    };
    let product = p.str("product")?;
    let product_name = match p.values.get("product_data") {
        Some(Value::Object(m)) => Some(
            m.get("name")
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .ok_or_else(|| ApiError::missing_param("product_data[name]"))?
                .to_owned(),
        ),
        _ => None,
    };
    let metadata = p.metadata()?.unwrap_or_default();
    let nickname = p.str("nickname")?;
    let lookup_key = p.str("lookup_key")?;
    let id = p.str("id")?.unwrap_or_else(|| new_id("price"));
    st.mutate(|s, now| {
        let product_id = match (product, product_name) {
            (Some(pid), _) => {
                if !s.products.contains_key(&pid) {
                    return Err(ApiError::no_such("product", &pid, "product"));
                }
                pid
            }
            (None, Some(name)) => {
                let product = Product {
                    id: new_id("prod"),
                    created: now,
                    updated: now,
                    name,
                    description: None,
                    active: true,
                    metadata: Metadata::new(),
                };
                let pid = product.id.clone();
                s.emit(
                    "product.created",
                    s.render_product(&product),
                    None,
                    &p.origin,
                    now,
                );
                s.products.insert(pid.clone(), product);
                pid
            }
            (None, None) => return Err(ApiError::missing_param("product")),
        };
        if s.prices.contains_key(&id) {
            return Err(ApiError::invalid_param(
                "id",
                format!("Price already exists: {id}"),
            ));
        }
        let price = Price {
            id: id.clone(),
            created: now,
            product: product_id,
            unit_amount,
            currency,
            recurring,
            active: true,
            nickname,
            lookup_key,
            metadata,
        };
        s.emit(
            "price.created",
            s.render_price(&price, &Expand::none()),
            None,
            &p.origin,
            now,
        );
        s.prices.insert(id.clone(), price);
        Ok(Json(s.render_price(&s.prices[&id], &p.expand)))
    })
}

async fn get_price(State(st): State<Shared>, Path(id): Path<String>, p: Params) -> ApiResult {
    st.mutate(|s, _| Ok(Json(s.render_price(s.price(&id, "price")?, &p.expand))))
}

async fn list_prices(State(st): State<Shared>, p: Params) -> ApiResult {
    let active = p.bool("active")?;
    let product = p.str("product")?;
    let kind = p.str("type")?;
    st.mutate(|s, _| {
        let mut prices: Vec<&Price> = s
            .prices
            .values()
            .filter(|pr| active.is_none_or(|a| pr.active == a))
            .filter(|pr| product.as_ref().is_none_or(|id| &pr.product == id))
            .filter(|pr| {
                kind.as_deref()
                    .is_none_or(|k| (k == "recurring") == pr.recurring.is_some())
            })
            .collect();
        prices.sort_by(|a, b| b.created.cmp(&a.created).then(a.id.cmp(&b.id)));
        let items = prices
            .into_iter()
            .map(|pr| {
                (
                    pr.id.clone(),
                    s.render_price(pr, &p.expand.child("data").unwrap_or_default()),
                )
            })
            .collect();
        let (data, more) = paginate(items, &p, "price")?;
        Ok(list_json(data, more, "/v1/prices"))
    })
}

// ------------------------------------------------------------------ checkout sessions

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
    let subscription_metadata = match p.values.get("subscription_data") {
        Some(Value::Object(m)) => {
            metadata_value(m.get("metadata"), "subscription_data[metadata]")?.unwrap_or_default()
        }
        _ => Metadata::new(),
    };
    let raw_items = match p.values.get("line_items") {
        None => return Err(ApiError::missing_param("line_items")),
        Some(Value::Array(items)) if !items.is_empty() => items.clone(),
        Some(_) => return Err(ApiError::invalid_param("line_items", "Invalid array")),
    };
    let expires_at = p.int("expires_at")?;
    st.mutate(|s, now| {
        if let Some(c) = &customer {
            s.customer(c, "customer")?;
        }
        let mut line_items = Vec::new();
        let mut currency: Option<String> = None;
        for (i, item) in raw_items.iter().enumerate() {
            let field = |f: &str| format!("line_items[{i}][{f}]");
            let price_id = item
                .get("price")
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .ok_or_else(|| ApiError::missing_param(&field("price")))?;
            let quantity = item
                .get("quantity")
                .and_then(Value::as_str)
                .ok_or_else(|| ApiError::missing_param(&field("quantity")))?;
            let quantity: u64 = quantity
                .parse()
                .ok()
                .filter(|q| *q >= 1)
                .ok_or_else(|| ApiError::invalid_param(&field("quantity"), format!("Invalid integer: {quantity}")))?;
            let price = s.price(price_id, &field("price"))?;
            if !price.active {
                return Err(ApiError::invalid_param(&field("price"), format!("The price `{price_id}` is not available to be purchased because it is not active.")));
            }
            match (&currency, mode.as_str(), price.recurring.is_some()) {
                (Some(c), _, _) if *c != price.currency => {
                    return Err(ApiError::invalid_param("line_items", "All line items must use the same currency."))
                }
                (_, "payment", true) => {
                    return Err(ApiError::invalid_param("line_items", "You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices."))
                }
                _ => {}
            }
            currency = Some(price.currency.clone());
            line_items.push(LineItem { id: new_id("li"), price: price_id.to_owned(), quantity });
        }
        if mode == "subscription"
            && !line_items.iter().any(|li| s.prices[&li.price].recurring.is_some())
        {
            return Err(ApiError::invalid_param("line_items", "You must provide at least one recurring price in `subscription` mode when using prices."));
        }
        let expires_at = match expires_at {
            None => now + 24 * 3600,
            Some(t) if t >= now + 30 * 60 && t <= now + 24 * 3600 => t,
            Some(_) => return Err(ApiError::invalid_param("expires_at", "The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.")),
        };
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
            currency: currency.unwrap_or_else(|| "usd".to_owned()),
            subscription: None,
            invoice: None,
            payment_intent: None,
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
        let items = session
            .line_items
            .iter()
            .map(|li| (li.id.clone(), s.render_line_item(li, &session.currency)))
            .collect();
        let (data, more) = paginate(items, &p, "line item")?;
        Ok(list_json(
            data,
            more,
            &format!("/v1/checkout/sessions/{id}/line_items"),
        ))
    })
}

async fn list_sessions(State(st): State<Shared>, p: Params) -> ApiResult {
    let customer = p.str("customer")?;
    let subscription = p.str("subscription")?;
    let status = p.str("status")?;
    st.mutate(|s, _| {
        let mut sessions: Vec<&CheckoutSession> = s
            .sessions
            .values()
            .filter(|cs| customer.is_none() || cs.customer == customer)
            .filter(|cs| subscription.is_none() || cs.subscription == subscription)
            .filter(|cs| status.as_ref().is_none_or(|st| &cs.status == st))
            .collect();
        sessions.sort_by(|a, b| b.created.cmp(&a.created).then(b.id.cmp(&a.id)));
        let exp = p.expand.child("data").unwrap_or_default();
        let items = sessions
            .into_iter()
            .map(|cs| (cs.id.clone(), s.render_session(cs, &exp)))
            .collect();
        let (data, more) = paginate(items, &p, "checkout.session")?;
        Ok(list_json(data, more, "/v1/checkout/sessions"))
    })
}

// ------------------------------------------------------------------ subscriptions

async fn get_subscription(
    State(st): State<Shared>,
    Path(id): Path<String>,
    p: Params,
) -> ApiResult {
    st.mutate(|s, _| Ok(Json(s.render_subscription(s.subscription(&id)?, &p.expand))))
}

async fn update_subscription(
    State(st): State<Shared>,
    Path(id): Path<String>,
    p: Params,
) -> ApiResult {
    let cancel = p.bool("cancel_at_period_end")?;
    let default_pm = p.str("default_payment_method")?;
    let clear_metadata = matches!(p.values.get("metadata"), Some(Value::String(s)) if s.is_empty());
    let metadata = p.metadata()?;
    st.mutate(|s, now| {
        let sub = s.subscription(&id)?.clone();
        if let Some(pm) = default_pm.as_deref().filter(|pm| !pm.is_empty()) {
            let pm_obj = s
                .payment_methods
                .get(pm)
                .ok_or_else(|| ApiError::no_such("PaymentMethod", pm, "default_payment_method"))?;
            if pm_obj.customer.as_deref() != Some(sub.customer.as_str()) {
                return Err(ApiError::invalid_param(
                    "default_payment_method",
                    format!("The customer does not have a payment method with the ID {pm}. The payment method must be attached to the customer."),
                ));
            }
        }
        if sub.status == "canceled" && (cancel.is_some() || default_pm.is_some()) {
            return Err(ApiError::invalid_request(
                "A canceled subscription can only update its cancellation_details and metadata.",
            ));
        }
        if let Some(cancel) = cancel {
            s.set_cancel_at_period_end(&id, cancel, &p.origin, now)?;
        }
        if default_pm.is_some() || metadata.is_some() {
            s.update_subscription(&id, &p.origin, now, |sub| {
                if let Some(pm) = default_pm {
                    sub.default_payment_method = (!pm.is_empty()).then_some(pm);
                }
                if let Some(m) = metadata {
                    merge_metadata(&mut sub.metadata, m, clear_metadata);
                }
            })?;
        }
        Ok(Json(s.render_subscription(&s.subscriptions[&id], &p.expand)))
    })
}

async fn cancel_subscription(
    State(st): State<Shared>,
    Path(id): Path<String>,
    p: Params,
) -> ApiResult {
    st.mutate(|s, now| {
        s.end_subscription(&id, &p.origin, now)?;
        Ok(Json(
            s.render_subscription(&s.subscriptions[&id], &p.expand),
        ))
    })
}

async fn list_subscriptions(State(st): State<Shared>, p: Params) -> ApiResult {
    let customer = p.str("customer")?;
    let price = p.str("price")?;
    let status = p.str("status")?;
    st.mutate(|s, _| {
        let mut subs: Vec<_> = s
            .subscriptions
            .values()
            .filter(|sub| customer.as_ref().is_none_or(|c| &sub.customer == c))
            .filter(|sub| {
                price
                    .as_ref()
                    .is_none_or(|pr| sub.items.iter().any(|i| &i.price == pr))
            })
            .filter(|sub| match status.as_deref() {
                // Stripe's default hides canceled subscriptions.
                None => sub.status != "canceled",
                Some("all") => true,
                Some(want) => sub.status == want,
            })
            .collect();
        subs.sort_by(|a, b| b.created.cmp(&a.created).then(b.id.cmp(&a.id)));
        let exp = p.expand.child("data").unwrap_or_default();
        let items = subs
            .into_iter()
            .map(|sub| (sub.id.clone(), s.render_subscription(sub, &exp)))
            .collect();
        let (data, more) = paginate(items, &p, "subscription")?;
        Ok(list_json(data, more, "/v1/subscriptions"))
    })
}

// ------------------------------------------------------------------ payment methods, invoices

async fn get_payment_method(
    State(st): State<Shared>,
    Path(id): Path<String>,
    p: Params,
) -> ApiResult {
    st.mutate(|s, _| {
        s.payment_methods
            .get(&id)
            .map(|pm| Json(s.render_payment_method(pm, &p.expand)))
            .ok_or_else(|| ApiError::no_such("PaymentMethod", &id, "payment_method"))
    })
}

async fn get_invoice(State(st): State<Shared>, Path(id): Path<String>, p: Params) -> ApiResult {
    st.mutate(|s, _| {
        s.invoices
            .get(&id)
            .map(|i| Json(s.render_invoice(i, &p.expand)))
            .ok_or_else(|| ApiError::no_such("invoice", &id, "invoice"))
    })
}

// ------------------------------------------------------------------ billing portal

async fn create_portal_session(State(st): State<Shared>, p: Params) -> ApiResult {
    let customer = p.required("customer")?;
    let return_url = p.str("return_url")?.filter(|s| !s.is_empty());
    if let Some(url) = &return_url {
        if !valid_url(url) {
            return Err(ApiError::invalid_param("return_url", "Not a valid URL"));
        }
    }
    st.mutate(|s, now| {
        s.customer(&customer, "customer")?;
        let id = format!("bps_{}", new_id("x").trim_start_matches("x_"));
        let session = PortalSession {
            url: format!("{}/p/session/{id}", st.public_url()),
            id: id.clone(),
            created: now,
            customer,
            return_url,
        };
        s.portal_sessions.insert(id.clone(), session);
        Ok(Json(s.render_portal(&s.portal_sessions[&id])))
    })
}

// ------------------------------------------------------------------ events

async fn list_events(State(st): State<Shared>, p: Params) -> ApiResult {
    let kind = p.str("type")?;
    let types: Option<Vec<String>> = match p.values.get("types") {
        Some(Value::Array(items)) => Some(
            items
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect(),
        ),
        _ => None,
    };
    st.mutate(|s, _| {
        let matches = |event_type: &str| {
            let by_type = kind.as_deref().is_none_or(|k| match k.strip_suffix(".*") {
                Some(prefix) => event_type.starts_with(&format!("{prefix}.")),
                None => event_type == k,
            });
            by_type
                && types
                    .as_ref()
                    .is_none_or(|t| t.iter().any(|t| t == event_type))
        };
        // Newest first, like Stripe.
        let items = s
            .events
            .iter()
            .rev()
            .filter(|e| matches(&e.kind))
            .map(|e| (e.id.clone(), s.render_event(e)))
            .collect();
        let (data, more) = paginate(items, &p, "event")?;
        Ok(list_json(data, more, "/v1/events"))
    })
}

async fn get_event(State(st): State<Shared>, Path(id): Path<String>) -> ApiResult {
    st.mutate(|s, _| {
        s.events
            .iter()
            .find(|e| e.id == id)
            .map(|e| Json(s.render_event(e)))
            .ok_or_else(|| ApiError::no_such("event", &id, "id"))
    })
}

// ------------------------------------------------------------------ mock control

async fn get_clock(State(st): State<Shared>) -> Json<Value> {
    Json(json!({ "now": st.clock.now() }))
}

/// `seconds=N` or `to=<unix>`, as a form or JSON body.
async fn advance_clock(State(st): State<Shared>, req: Request) -> Response {
    let is_json = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    let query = req.uri().query().unwrap_or_default().as_bytes().to_vec();
    let Ok(body) = to_bytes(req.into_body(), MAX_BODY).await else {
        return ApiError::invalid_request("Could not read the request body.").into_response();
    };
    let mut params = form::parse(&query);
    let parsed = if is_json {
        serde_json::from_slice::<Value>(&body).ok()
    } else {
        Some(form::parse(&body))
    };
    let Some(Value::Object(body)) = parsed else {
        return ApiError::invalid_request("Send `seconds` or `to` as JSON or a form.")
            .into_response();
    };
    if let Value::Object(m) = &mut params {
        m.extend(body);
    }
    let number = |name: &str| -> Result<Option<i64>, ApiError> {
        match params.get(name) {
            None => Ok(None),
            Some(Value::Number(n)) => n
                .as_i64()
                .map(Some)
                .ok_or_else(|| ApiError::invalid_param(name, "Invalid integer")),
            Some(Value::String(s)) => int_value(Some(s), name),
            Some(_) => Err(ApiError::invalid_param(name, "Invalid integer")),
        }
    };
    let seconds = match (number("seconds"), number("to")) {
        (Err(e), _) | (_, Err(e)) => return e.into_response(),
        (Ok(Some(s)), Ok(None)) => s,
        (Ok(None), Ok(Some(to))) => to - st.clock.now(),
        (Ok(None), Ok(None)) => return ApiError::missing_param("seconds").into_response(),
        (Ok(Some(_)), Ok(Some(_))) => {
            return ApiError::invalid_request("Send either `seconds` or `to`, not both.")
                .into_response()
        }
    };
    if seconds < 0 {
        return ApiError::invalid_param("seconds", "The clock only moves forward.").into_response();
    }
    let before = st.mutate(|s, _| s.events.len());
    let now = st.advance_clock(seconds);
    let events: Vec<Value> = st.mutate(|s, _| {
        s.events[before..]
            .iter()
            .map(|e| json!({ "id": e.id, "type": e.kind }))
            .collect()
    });
    Json(json!({ "now": now, "events": events })).into_response()
}
