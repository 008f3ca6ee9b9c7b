//! The keys the client trusts to sign entitlement tokens: pinned, never read from the session
//! store (a file the user can edit) nor fetched from the server the token came from (whoever can
//! answer in its place could then vouch for itself).
//!
//! A release build carries the production keys, compiled in from `CLOSEWISE_ENTITLEMENT_JWKS` (a
//! JWKS, JSON) at build time: a list, so the next key ships beside the current one before the
//! server rotates to it. Other deployments (a development server's generated key, tests) pass
//! their keys explicitly with [`Client::with_entitlement_keys`](crate::Client::with_entitlement_keys);
//! the `closewise-desktop` binary takes `--entitlement-jwks <file>` in debug builds only.

use crate::entitlement::Jwks;

/// The keys compiled into this build; empty when it was built without `CLOSEWISE_ENTITLEMENT_JWKS`
/// (then no entitlement token verifies until keys are given).
pub fn built_in_keys() -> Jwks {
    parse_built_in(option_env!("CLOSEWISE_ENTITLEMENT_JWKS"))
}

fn parse_built_in(raw: Option<&str>) -> Jwks {
    raw.filter(|r| !r.trim().is_empty())
        .map(|r| {
            serde_json::from_str(r)
                .expect("CLOSEWISE_ENTITLEMENT_JWKS was set at build time but is not a JWKS")
        })
        .unwrap_or(Jwks { keys: Vec::new() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_list_is_a_jwks_of_any_number_of_keys() {
        assert!(parse_built_in(None).keys.is_empty());
        assert!(parse_built_in(Some(" ")).keys.is_empty());
        let two = r#"{"keys":[{"kty":"OKP","crv":"Ed25519","x":"a","kid":"k1"},
            {"kty":"OKP","crv":"Ed25519","x":"b","kid":"k2"}]}"#;
        assert_eq!(parse_built_in(Some(two)).keys.len(), 2);
    }
}
