//! SCIM 2.0 (RFC 7643/7644) rules for the Users a team's identity provider manages: the one
//! filter we answer (`userName eq "…"`, also `externalId` and `id`), a resource's attributes as
//! the provider sends them, and PATCH operations applied to them (with and without `path`).
//!
//! Attribute names are case-insensitive (RFC 7643 §2.1); a path may carry the User schema's URN.

use serde_json::{Map, Value};

/// The User schema's URN.
pub const USER_SCHEMA: &str = "urn:ietf:params:scim:schemas:core:2.0:User";
/// The PATCH request's schema.
pub const PATCH_OP: &str = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

/// A refusal with its SCIM `scimType` (RFC 7644 §3.12); all are `400`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScimRuleError {
    #[error("{0}")]
    InvalidFilter(String),
    #[error("{0}")]
    InvalidSyntax(String),
    #[error("{0}")]
    InvalidPath(String),
    #[error("{0}")]
    NoTarget(String),
    #[error("{0}")]
    InvalidValue(String),
    #[error("{0}")]
    Mutability(String),
}

impl ScimRuleError {
    pub fn scim_type(&self) -> &'static str {
        match self {
            ScimRuleError::InvalidFilter(_) => "invalidFilter",
            ScimRuleError::InvalidSyntax(_) => "invalidSyntax",
            ScimRuleError::InvalidPath(_) => "invalidPath",
            ScimRuleError::NoTarget(_) => "noTarget",
            ScimRuleError::InvalidValue(_) => "invalidValue",
            ScimRuleError::Mutability(_) => "mutability",
        }
    }
}

/// The attribute a list filter compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FilterAttribute {
    UserName,
    ExternalId,
    Id,
}

/// `attribute eq "value"`: the only filter the list answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filter {
    pub attribute: FilterAttribute,
    pub value: String,
}

/// Parses `userName eq "ana@acme.test"` (or `externalId`/`id`); anything else is `invalidFilter`.
pub fn parse_filter(raw: &str) -> Result<Filter, ScimRuleError> {
    let bad = || ScimRuleError::InvalidFilter(format!("Unsupported filter: {raw}"));
    let raw = raw.trim();
    let (attr, rest) = raw.split_once(char::is_whitespace).ok_or_else(bad)?;
    let (op, value) = rest
        .trim_start()
        .split_once(char::is_whitespace)
        .ok_or_else(bad)?;
    if !op.eq_ignore_ascii_case("eq") {
        return Err(bad());
    }
    let value = value.trim();
    let value: String = serde_json::from_str::<String>(value).map_err(|_| bad())?;
    let attr = strip_schema(attr);
    let attribute = if attr.eq_ignore_ascii_case("userName") {
        FilterAttribute::UserName
    } else if attr.eq_ignore_ascii_case("externalId") {
        FilterAttribute::ExternalId
    } else if attr.eq_ignore_ascii_case("id") {
        FilterAttribute::Id
    } else {
        return Err(bad());
    };
    Ok(Filter { attribute, value })
}

/// `urn:…:User:name.givenName` → `name.givenName`.
fn strip_schema(path: &str) -> &str {
    match path.get(..USER_SCHEMA.len()) {
        Some(head) if head.eq_ignore_ascii_case(USER_SCHEMA) => {
            path[USER_SCHEMA.len()..].trim_start_matches(':')
        }
        _ => path,
    }
}

/// The attributes of a created or replaced User as sent, without what the server owns (`id`,
/// `meta`, `schemas`). `userName` must be a string.
pub fn user_attributes(body: Value) -> Result<Map<String, Value>, ScimRuleError> {
    let Value::Object(mut attrs) = body else {
        return Err(ScimRuleError::InvalidSyntax(
            "A User is a JSON object.".into(),
        ));
    };
    attrs.retain(|k, _| {
        !["id", "meta", "schemas"]
            .iter()
            .any(|s| k.eq_ignore_ascii_case(s))
    });
    user_name(&attrs)?;
    if let Some(active) = get(&attrs, "active") {
        if !active.is_boolean() {
            return Err(ScimRuleError::InvalidValue(
                "active is true or false.".into(),
            ));
        }
    }
    Ok(attrs)
}

/// The resource's `userName`.
pub fn user_name(attrs: &Map<String, Value>) -> Result<&str, ScimRuleError> {
    match get(attrs, "userName") {
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(s),
        _ => Err(ScimRuleError::InvalidValue("userName is required.".into())),
    }
}

/// `active`, true unless the resource says false.
pub fn active(attrs: &Map<String, Value>) -> bool {
    get(attrs, "active")
        .and_then(Value::as_bool)
        .unwrap_or(true)
}

/// The value of `name`, matched case-insensitively.
pub fn get<'a>(attrs: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    attrs
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v)
}

/// The key under which `name` is stored (the existing spelling, else `name` itself).
fn key_of(attrs: &Map<String, Value>, name: &str) -> String {
    attrs
        .keys()
        .find(|k| k.eq_ignore_ascii_case(name))
        .cloned()
        .unwrap_or_else(|| name.to_owned())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Add,
    Replace,
    Remove,
}

/// A parsed PATCH path: `attr`, `attr.sub`, or `attr[field eq "v"]` with an optional `.sub`.
struct Path {
    attr: String,
    filter: Option<(String, Value)>,
    sub: Option<String>,
}

fn parse_path(raw: &str) -> Result<Path, ScimRuleError> {
    let bad = || ScimRuleError::InvalidPath(format!("Unsupported path: {raw}"));
    let path = strip_schema(raw.trim());
    if path.is_empty() {
        return Err(bad());
    }
    if let Some((attr, rest)) = path.split_once('[') {
        let (inner, after) = rest.split_once(']').ok_or_else(bad)?;
        let filter = parse_value_filter(inner).ok_or_else(bad)?;
        let sub = match after.strip_prefix('.') {
            Some(s) if !s.is_empty() => Some(s.to_owned()),
            None if after.is_empty() => None,
            _ => return Err(bad()),
        };
        return Ok(Path {
            attr: attr.to_owned(),
            filter: Some(filter),
            sub,
        });
    }
    let (attr, sub) = match path.split_once('.') {
        Some((a, s)) if !a.is_empty() && !s.is_empty() => (a, Some(s.to_owned())),
        Some(_) => return Err(bad()),
        None => (path, None),
    };
    Ok(Path {
        attr: attr.to_owned(),
        filter: None,
        sub,
    })
}

/// `type eq "work"` inside brackets.
fn parse_value_filter(inner: &str) -> Option<(String, Value)> {
    let mut parts = inner.trim().splitn(3, char::is_whitespace);
    let field = parts.next()?;
    let op = parts.next()?;
    let value = parts.next()?.trim();
    if !op.eq_ignore_ascii_case("eq") {
        return None;
    }
    let value: Value = serde_json::from_str(value).ok()?;
    Some((field.to_owned(), value))
}

fn matches(element: &Value, (field, value): &(String, Value)) -> bool {
    let Value::Object(o) = element else {
        return false;
    };
    match (get(o, field), value) {
        (Some(Value::String(a)), Value::String(b)) => a.eq_ignore_ascii_case(b),
        (Some(a), b) => a == b,
        (None, _) => false,
    }
}

/// Applies a PATCH request's `Operations` to the attributes.
pub fn apply_patch(attrs: &mut Map<String, Value>, body: &Value) -> Result<(), ScimRuleError> {
    let syntax = |m: &str| ScimRuleError::InvalidSyntax(m.to_owned());
    let ops = body
        .as_object()
        .and_then(|b| get(b, "Operations"))
        .and_then(Value::as_array)
        .ok_or_else(|| syntax("A PATCH request has an Operations list."))?;
    for op in ops {
        let o = op
            .as_object()
            .ok_or_else(|| syntax("Each operation is an object."))?;
        let kind = match get(o, "op").and_then(Value::as_str).map(str::to_lowercase) {
            Some(k) if k == "add" => Op::Add,
            Some(k) if k == "replace" => Op::Replace,
            Some(k) if k == "remove" => Op::Remove,
            _ => return Err(syntax("op is add, replace or remove.")),
        };
        let value = get(o, "value").cloned();
        match get(o, "path").and_then(Value::as_str) {
            Some(p) => apply_path(attrs, kind, &parse_path(p)?, value)?,
            None => {
                let Some(Value::Object(values)) = value else {
                    return Err(match kind {
                        Op::Remove => ScimRuleError::NoTarget("remove needs a path.".into()),
                        _ => syntax("Without a path, value is an object of attributes."),
                    });
                };
                for (k, v) in &values {
                    apply_path(attrs, kind, &parse_path(k)?, Some(v.clone()))?;
                }
            }
        }
    }
    Ok(())
}

fn apply_path(
    attrs: &mut Map<String, Value>,
    kind: Op,
    path: &Path,
    value: Option<Value>,
) -> Result<(), ScimRuleError> {
    if ["id", "meta", "schemas"]
        .iter()
        .any(|s| path.attr.eq_ignore_ascii_case(s))
    {
        if path.attr.eq_ignore_ascii_case("id") {
            return Err(ScimRuleError::Mutability("id is read-only.".into()));
        }
        return Ok(());
    }
    let value = match (kind, value) {
        (Op::Remove, _) => None,
        (_, Some(v)) => Some(v),
        (_, None) => return Err(ScimRuleError::InvalidValue("value is missing.".into())),
    };
    let key = key_of(attrs, &path.attr);
    if let Some(filter) = &path.filter {
        let Some(Value::Array(items)) = attrs.get_mut(&key) else {
            return match kind {
                Op::Remove => Ok(()),
                _ => Err(ScimRuleError::NoTarget(format!(
                    "No {} to match.",
                    path.attr
                ))),
            };
        };
        if kind == Op::Remove && path.sub.is_none() {
            items.retain(|e| !matches(e, filter));
            return Ok(());
        }
        let mut hit = false;
        for item in items.iter_mut().filter(|e| matches(e, filter)) {
            hit = true;
            let Value::Object(o) = item else { continue };
            match (&path.sub, &value) {
                (Some(sub), None) => {
                    o.remove(&key_of(o, sub));
                }
                (Some(sub), Some(v)) => {
                    o.insert(key_of(o, sub), v.clone());
                }
                (None, Some(Value::Object(v))) => o.extend(v.clone()),
                (None, _) => return Err(ScimRuleError::InvalidValue("value is an object.".into())),
            }
        }
        if !hit && kind != Op::Remove {
            return Err(ScimRuleError::NoTarget(format!(
                "No {} matched.",
                path.attr
            )));
        }
        return Ok(());
    }
    match (&path.sub, value) {
        (None, None) => {
            attrs.remove(&key);
        }
        (None, Some(v)) => {
            let merged = match (kind, attrs.remove(&key), v) {
                (_, Some(Value::Object(mut old)), Value::Object(new)) => {
                    old.extend(new);
                    Value::Object(old)
                }
                (Op::Add, Some(Value::Array(mut old)), Value::Array(new)) => {
                    old.extend(
                        new.into_iter()
                            .filter(|n| !old.contains(n))
                            .collect::<Vec<_>>(),
                    );
                    Value::Array(old)
                }
                (_, _, v) => v,
            };
            attrs.insert(key, merged);
        }
        (Some(sub), v) => {
            let entry = attrs
                .entry(key)
                .or_insert_with(|| Value::Object(Map::new()));
            let Value::Object(o) = entry else {
                return Err(ScimRuleError::InvalidPath(format!(
                    "{} has no sub-attributes.",
                    path.attr
                )));
            };
            let sub_key = key_of(o, sub);
            match v {
                Some(v) => {
                    o.insert(sub_key, v);
                }
                None => {
                    o.remove(&sub_key);
                }
            }
        }
    }
    Ok(())
}

/// The most characters a SCIM token's name has.
pub const TOKEN_NAME_MAX_CHARS: usize = 60;

/// The name the owner gives a SCIM token (which identity provider holds it): trimmed, 1 to 60
/// characters, no control characters.
pub fn token_name(input: &str) -> Result<String, &'static str> {
    let name = input.trim();
    if name.is_empty() {
        return Err("Please name the token, for example after the identity provider that uses it.");
    }
    if name.chars().count() > TOKEN_NAME_MAX_CHARS || name.chars().any(char::is_control) {
        return Err("A token's name is at most 60 characters, without control characters.");
    }
    Ok(name.to_owned())
}

#[cfg(test)]
#[path = "scim_tests.rs"]
mod tests;
