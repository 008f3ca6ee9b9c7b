//! Tokens the server signed before this crate, with jsonwebtoken's encoder
//! (`fixtures/tokens/signed-by-jsonwebtoken.json`: a fixed key, fixed claims): they verify here,
//! and this crate signs the same bytes from the same key and claims (the entitlement tokens'
//! bytes are compared in core, which has the server's typed policy).

use serde::Deserialize;
use serde_json::Value;
use uuid::Uuid;

use crate::access::{self, AccessClaims};
use crate::entitlement::{self, EntitlementClaims};
use crate::{Jwks, Signer};

#[derive(Deserialize)]
struct Fixture {
    seed: String,
    issuer: String,
    iat: i64,
    user: Uuid,
    session: Uuid,
    kid: String,
    jwks: Value,
    access_token: String,
    entitlement_token: String,
    team_entitlement_token: String,
}

fn fixture() -> Fixture {
    serde_json::from_str(include_str!(
        "../../../fixtures/tokens/signed-by-jsonwebtoken.json"
    ))
    .unwrap()
}

fn signer(f: &Fixture) -> Signer {
    let seed: Vec<u8> = (0..f.seed.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&f.seed[i..i + 2], 16).unwrap())
        .collect();
    Signer::new(ed25519_dalek::SigningKey::from_bytes(
        &seed.try_into().unwrap(),
    ))
}

#[test]
fn tokens_signed_before_verify_against_the_jwks_published_then() {
    let f = fixture();
    let jwks: Jwks = serde_json::from_value(f.jwks.clone()).unwrap();
    let who = access::verify(&f.access_token, &jwks, &f.issuer).unwrap();
    assert_eq!((who.sub, who.sid), (f.user, f.session));

    let free: EntitlementClaims =
        entitlement::verify(&f.entitlement_token, &jwks, &f.issuer, f.iat).unwrap();
    assert_eq!((free.sub, free.sid), (f.user, f.session));
    assert_eq!(
        (free.plan_type.as_str(), free.calls_remaining, free.source),
        ("free", Some(2), None)
    );
    let team: EntitlementClaims =
        entitlement::verify(&f.team_entitlement_token, &jwks, &f.issuer, f.iat).unwrap();
    assert!(team.unlimited);
    assert_eq!(team.source.as_deref(), Some("team"));
}

#[test]
fn the_same_key_names_the_same_kid_and_jwks_and_signs_the_same_access_token() {
    let f = fixture();
    let signer = signer(&f);
    assert_eq!(signer.kid(), f.kid);
    assert_eq!(serde_json::to_value(signer.jwks()).unwrap(), f.jwks);
    let claims: AccessClaims = access::verify(&f.access_token, &signer, &f.issuer).unwrap();
    assert_eq!(signer.sign_access(&claims).unwrap(), f.access_token);
}
