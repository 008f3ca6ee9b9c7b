//! `/scim/v2/Users`: list (`filter=userName eq "…"`, `startIndex`, `count`) by GET or by a
//! POST of a SearchRequest to `/Users/.search` (or `/.search`: Users are the only resource
//! type), get, create, replace, PATCH and delete, for the token's team only. `attributes` and
//! `excludedAttributes` narrow what an answer shows (top-level attributes; `id` and `schemas`
//! always).

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use closewise_core::scim::{ScimCaller, ScimUser};
use closewise_domain::scim::USER_SCHEMA;
use serde_json::{json, Map, Value};
use time::format_description::well_known::Rfc3339;

use super::discovery::LIST_RESPONSE;
use super::{base, json_body, Caller, Scim};
use crate::error::scim::ScimApiError;
use crate::state::AppState;

type Params = Query<HashMap<String, String>>;

const SEARCH_REQUEST: &str = "urn:ietf:params:scim:api:messages:2.0:SearchRequest";

fn rfc3339(t: time::OffsetDateTime) -> String {
    t.format(&Rfc3339).unwrap_or_default()
}

/// The User as SCIM shows it: the provider's attributes with ours (`id`, `meta`). `active` shows
/// when the provider assigned it (a PATCH `remove` leaves it unassigned: the user counts as
/// active, as one created without it).
fn render(state: &AppState, u: &ScimUser) -> Value {
    let mut v: Map<String, Value> = u.attributes.clone();
    let assigned = v.keys().any(|k| k.eq_ignore_ascii_case("active"));
    v.retain(|k, _| !k.eq_ignore_ascii_case("active"));
    v.insert("schemas".into(), json!([USER_SCHEMA]));
    v.insert("id".into(), u.id.to_string().into());
    if assigned {
        v.insert("active".into(), u.active.into());
    }
    v.insert(
        "meta".into(),
        json!({
            "resourceType": "User",
            "created": rfc3339(u.created_at),
            "lastModified": rfc3339(u.updated_at),
            "location": format!("{}/Users/{}", base(state), u.id),
        }),
    );
    Value::Object(v)
}

/// The attribute names of a comma-separated list, lower case, schema URN and sub-attribute off.
fn names(raw: Option<&String>) -> Vec<String> {
    raw.map(|r| {
        r.split(',')
            .map(|a| {
                let a = a.trim();
                let a = match a.rsplit_once(':') {
                    Some((_, tail)) if a.to_ascii_lowercase().starts_with("urn:") => tail,
                    _ => a,
                };
                a.split('.').next().unwrap_or(a).to_ascii_lowercase()
            })
            .filter(|a| !a.is_empty())
            .collect()
    })
    .unwrap_or_default()
}

/// Applies `attributes` / `excludedAttributes` to a rendered User.
fn narrow(mut v: Value, params: &HashMap<String, String>) -> Value {
    let only = names(params.get("attributes"));
    let except = names(params.get("excludedAttributes"));
    if let Value::Object(m) = &mut v {
        m.retain(|k, _| {
            let k = k.to_ascii_lowercase();
            let always = k == "id" || k == "schemas";
            always || ((only.is_empty() || only.contains(&k)) && !except.contains(&k))
        });
    }
    v
}

fn number(params: &HashMap<String, String>, name: &str) -> Result<Option<i64>, ScimApiError> {
    params
        .get(name)
        .map(|v| {
            v.trim()
                .parse::<i64>()
                .map_err(|_| ScimApiError::invalid_value(format!("{name} is a number.")))
        })
        .transpose()
}

pub async fn list(
    State(state): State<AppState>,
    Caller(caller): Caller,
    Query(params): Params,
) -> Result<Scim, ScimApiError> {
    page(&state, &caller, &params).await
}

/// `POST /Users/.search` (RFC 7644 §3.4.3): a SearchRequest's `filter`, `startIndex`, `count`,
/// `attributes` and `excludedAttributes`, answered as the GET list answers them.
pub async fn search(
    State(state): State<AppState>,
    Caller(caller): Caller,
    body: Bytes,
) -> Result<Scim, ScimApiError> {
    let params = search_params(json_body(&body)?)?;
    page(&state, &caller, &params).await
}

/// A SearchRequest body as the list's query parameters.
fn search_params(body: Value) -> Result<HashMap<String, String>, ScimApiError> {
    let Value::Object(body) = body else {
        return Err(ScimApiError::invalid_syntax(
            "A SearchRequest is a JSON object.",
        ));
    };
    let field = |name: &str| {
        body.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
            .filter(|v| !v.is_null())
    };
    let is_search = field("schemas")
        .and_then(Value::as_array)
        .is_some_and(|s| s.iter().any(|u| u.as_str() == Some(SEARCH_REQUEST)));
    if !is_search {
        return Err(ScimApiError::invalid_syntax(format!(
            "schemas is [\"{SEARCH_REQUEST}\"]."
        )));
    }
    let mut params = HashMap::new();
    for name in ["filter", "startIndex", "count"] {
        match field(name) {
            None => {}
            Some(Value::String(s)) => {
                params.insert(name.to_owned(), s.clone());
            }
            Some(Value::Number(n)) if name != "filter" => {
                params.insert(name.to_owned(), n.to_string());
            }
            Some(_) => return Err(ScimApiError::invalid_value(format!("{name} is not valid."))),
        }
    }
    for name in ["attributes", "excludedAttributes"] {
        let list = match field(name) {
            None => continue,
            Some(Value::String(s)) => s.clone(),
            Some(Value::Array(a)) => a
                .iter()
                .map(|v| v.as_str().map(str::to_owned))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| ScimApiError::invalid_value(format!("{name} are strings.")))?
                .join(","),
            Some(_) => return Err(ScimApiError::invalid_value(format!("{name} are strings."))),
        };
        params.insert(name.to_owned(), list);
    }
    Ok(params)
}

/// One page of the team's Users as a ListResponse.
async fn page(
    state: &AppState,
    caller: &ScimCaller,
    params: &HashMap<String, String>,
) -> Result<Scim, ScimApiError> {
    let page = state
        .scim
        .users(
            caller,
            params.get("filter").map(String::as_str),
            number(params, "startIndex")?,
            number(params, "count")?,
        )
        .await?;
    let resources: Vec<Value> = page
        .users
        .iter()
        .map(|u| narrow(render(state, u), params))
        .collect();
    Ok(Scim(
        StatusCode::OK,
        json!({
            "schemas": [LIST_RESPONSE],
            "totalResults": page.total,
            "itemsPerPage": resources.len(),
            "startIndex": page.start_index,
            "Resources": resources,
        }),
    ))
}

pub async fn get_one(
    State(state): State<AppState>,
    Caller(caller): Caller,
    Path(id): Path<String>,
    Query(params): Params,
) -> Result<Scim, ScimApiError> {
    let user = state.scim.user(&caller, &id).await?;
    Ok(Scim(StatusCode::OK, narrow(render(&state, &user), &params)))
}

pub async fn create(
    State(state): State<AppState>,
    Caller(caller): Caller,
    Query(params): Params,
    body: Bytes,
) -> Result<Scim, ScimApiError> {
    let user = state.scim.create_user(&caller, json_body(&body)?).await?;
    Ok(Scim(
        StatusCode::CREATED,
        narrow(render(&state, &user), &params),
    ))
}

pub async fn replace(
    State(state): State<AppState>,
    Caller(caller): Caller,
    Path(id): Path<String>,
    Query(params): Params,
    body: Bytes,
) -> Result<Scim, ScimApiError> {
    let user = state
        .scim
        .replace_user(&caller, &id, json_body(&body)?)
        .await?;
    Ok(Scim(StatusCode::OK, narrow(render(&state, &user), &params)))
}

pub async fn patch(
    State(state): State<AppState>,
    Caller(caller): Caller,
    Path(id): Path<String>,
    Query(params): Params,
    body: Bytes,
) -> Result<Scim, ScimApiError> {
    let user = state
        .scim
        .patch_user(&caller, &id, json_body(&body)?)
        .await?;
    Ok(Scim(StatusCode::OK, narrow(render(&state, &user), &params)))
}

pub async fn delete(
    State(state): State<AppState>,
    Caller(caller): Caller,
    Path(id): Path<String>,
) -> Result<StatusCode, ScimApiError> {
    state.scim.delete_user(&caller, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}
