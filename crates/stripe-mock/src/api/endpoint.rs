//! What each endpoint takes, listed once: the router is built from these lists, every request is
//! checked against its endpoint's list before the handler runs, and the README's table is tested
//! against them. Anything else is refused the way Stripe refuses an unknown parameter, so a test
//! that passes against the mock never relies on something the mock silently ignored.
//!
//! A parameter is written the way it is sent: `email`, `recurring[interval]`; `[]` stands for
//! any index (`expand[]` takes `expand[0]` and `expand[]`), `[*]` for any key (`metadata[*]`;
//! an empty `metadata` clears the hash, as in Stripe).

use crate::error::ApiError;
use crate::form::split_key;

/// Every endpoint also takes these.
pub const EVERY_ENDPOINT: &[&str] = &["expand[]"];
/// Every list endpoint also takes these.
pub const EVERY_LIST: &[&str] = &["limit", "starting_after", "ending_before"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Endpoint {
    pub method: &'static str,
    /// With `{id}` where an object id goes, e.g. `/v1/customers/{id}`.
    pub path: &'static str,
    /// What this endpoint takes besides [`EVERY_ENDPOINT`] (and [`EVERY_LIST`] for lists).
    pub params: &'static [&'static str],
    pub list: bool,
}

impl Endpoint {
    pub const fn get(path: &'static str, params: &'static [&'static str]) -> Self {
        Self::new("GET", path, params, false)
    }

    pub const fn list(path: &'static str, params: &'static [&'static str]) -> Self {
        Self::new("GET", path, params, true)
    }

    pub const fn post(path: &'static str, params: &'static [&'static str]) -> Self {
        Self::new("POST", path, params, false)
    }

    pub const fn delete(path: &'static str, params: &'static [&'static str]) -> Self {
        Self::new("DELETE", path, params, false)
    }

    const fn new(
        method: &'static str,
        path: &'static str,
        params: &'static [&'static str],
        list: bool,
    ) -> Self {
        Self {
            method,
            path,
            params,
            list,
        }
    }

    /// Every parameter pattern this endpoint accepts.
    pub fn accepted(&self) -> Vec<&'static str> {
        let list: &[&str] = if self.list { EVERY_LIST } else { &[] };
        [self.params, EVERY_ENDPOINT, list].concat()
    }

    /// Refuses the first key (query, then body, in the order sent) the endpoint does not take.
    pub(crate) fn check<'a>(
        &self,
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<(), ApiError> {
        let patterns: Vec<Vec<String>> = self.accepted().iter().map(|p| split_key(p)).collect();
        for (key, value) in pairs {
            let sent = split_key(key);
            if patterns.iter().any(|p| matches(&sent, p)) {
                continue;
            }
            // The name is right but a hash or an array was expected.
            let deeper = patterns
                .iter()
                .find(|p| p.len() > sent.len() && matches(&sent, &p[..sent.len()]));
            match deeper.map(|p| p[sent.len()].as_str()) {
                Some("*") if value.is_empty() => continue,
                Some("") => return Err(ApiError::invalid_param(key, "Invalid array")),
                Some(_) => return Err(ApiError::invalid_param(key, "Invalid hash")),
                None => return Err(ApiError::unknown_param(key)),
            }
        }
        Ok(())
    }
}

fn matches(sent: &[String], pattern: &[String]) -> bool {
    sent.len() == pattern.len()
        && sent.iter().zip(pattern).all(|(s, p)| match p.as_str() {
            "" => s.is_empty() || s.bytes().all(|b| b.is_ascii_digit()),
            "*" => !s.is_empty(),
            p => s == p,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SESSION: Endpoint = Endpoint::post(
        "/v1/checkout/sessions",
        &["mode", "line_items[][price]", "metadata[*]"],
    );

    fn refusal(pairs: &[(&str, &str)]) -> Option<(Option<&'static str>, Option<String>)> {
        SESSION
            .check(pairs.iter().copied())
            .err()
            .map(|e| (e.code, e.param))
    }

    #[test]
    fn listed_keys_pass_in_every_form_stripe_clients_send() {
        let pairs = [
            ("mode", "subscription"),
            ("line_items[0][price]", "price_1"),
            ("line_items[12][price]", "price_2"),
            ("metadata[user_id]", "u1"),
            ("expand[]", "customer"),
            ("expand[0]", "subscription"),
            ("metadata", ""),
        ];
        assert_eq!(refusal(&pairs), None);
    }

    #[test]
    fn anything_else_is_named_in_full() {
        let cases = [
            ("customer", "parameter_unknown"),
            ("line_items[0][quantity]", "parameter_unknown"),
            ("line_items[x][price]", "parameter_unknown"),
            ("mode[x]", "parameter_unknown"),
            ("metadata[]", "parameter_unknown"),
            ("line_items", "parameter_invalid"),
            ("expand", "parameter_invalid"),
        ];
        for (key, code) in cases {
            assert_eq!(
                refusal(&[(key, "v")]),
                Some((Some(code), Some(key.to_owned()))),
                "{key}"
            );
        }
    }

    #[test]
    fn lists_take_the_cursor_and_everything_takes_expand() {
        let list = Endpoint::list("/v1/things", &["customer"]);
        assert_eq!(
            list.accepted(),
            [
                "customer",
                "expand[]",
                "limit",
                "starting_after",
                "ending_before"
            ]
        );
        assert_eq!(
            Endpoint::get("/v1/things/{id}", &[]).accepted(),
            ["expand[]"]
        );
    }
}
