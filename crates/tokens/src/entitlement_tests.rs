use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::{json, Value};

use super::*;
use crate::access;
use crate::testing::{TestKey, ISSUER};
use crate::Jwks;

const NOW: i64 = 1_795_000_000;
const DAY: i64 = 24 * 3600;
const U1: &str = "0190c3a4-1111-7000-8000-000000000001";
const S1: &str = "0190c3a4-2222-7000-8000-000000000001";

/// Free plan claims issued at `iat`, with the server's lifetimes (24 h, then 7 days' grace).
fn claims(sub: &str, iat: i64) -> Value {
    let valid_until = iat + DAY;
    let grace_until = valid_until + 7 * DAY;
    json!({
        "iss": ISSUER, "aud": AUDIENCE, "sub": sub, "plan_type": "free", "unlimited": false,
        "calls_limit": 5, "calls_remaining": 2, "max_call_seconds": 300, "sid": S1, "iat": iat,
        "valid_until": valid_until, "grace_until": grace_until, "exp": grace_until,
        "policy": {"retention_days": 30}, "policy_version": "v",
    })
}

fn check(token: &str, keys: &Jwks, issuer: &str, now: i64) -> Result<EntitlementClaims, Rejection> {
    verify(token, keys, issuer, now)
}

#[test]
fn a_token_signed_by_the_published_key_verifies() {
    let k = TestKey::generate("k1");
    let claims = check(&k.sign(&claims(U1, NOW)), &k.jwks(), ISSUER, NOW).unwrap();
    assert_eq!(claims.sub.to_string(), U1);
    assert_eq!(claims.calls_remaining, Some(2));
    assert_eq!(claims.policy, json!({"retention_days": 30}));
    assert_eq!(freshness(&claims, NOW), Freshness::Fresh);
}

#[test]
fn an_access_token_names_its_session_only_when_signed_by_a_trusted_key_for_our_issuer() {
    let k = TestKey::generate("k1");
    let session = access::verify(&k.access_token(U1, S1), &k.jwks(), ISSUER).unwrap();
    assert_eq!(
        (session.sub.to_string(), session.sid.to_string()),
        (U1.into(), S1.into())
    );
    let other = TestKey::generate("k1");
    assert_eq!(
        access::verify(&other.access_token(U1, S1), &k.jwks(), ISSUER),
        Err(Rejection::BadSignature)
    );
    assert!(matches!(
        access::verify(&k.access_token(U1, S1), &k.jwks(), "https://evil.example"),
        Err(Rejection::WrongIssuer(_))
    ));
    // An entitlement token is not an access token, nor the reverse.
    assert!(access::verify(&k.sign(&claims(U1, NOW)), &k.jwks(), ISSUER).is_err());
    assert!(check(&k.access_token(U1, S1), &k.jwks(), ISSUER, NOW).is_err());
}

#[test]
fn a_tampered_payload_is_refused() {
    let k = TestKey::generate("k1");
    let token = k.sign(&claims(U1, NOW));
    let mut forged = claims(U1, NOW);
    forged["unlimited"] = true.into();
    let parts: Vec<&str> = token.split('.').collect();
    let tampered = format!(
        "{}.{}.{}",
        parts[0],
        URL_SAFE_NO_PAD.encode(forged.to_string()),
        parts[2]
    );
    assert_eq!(
        check(&tampered, &k.jwks(), ISSUER, NOW),
        Err(Rejection::BadSignature)
    );
}

#[test]
fn a_token_from_another_key_or_an_unknown_kid_is_refused() {
    let ours = TestKey::generate("k1");
    let theirs = TestKey::generate("k1");
    let token = theirs.sign(&claims(U1, NOW));
    assert_eq!(
        check(&token, &ours.jwks(), ISSUER, NOW),
        Err(Rejection::BadSignature)
    );
    let other_kid = TestKey {
        key: ours.key.clone(),
        kid: "k2".into(),
    };
    assert_eq!(
        check(&other_kid.sign(&claims(U1, NOW)), &ours.jwks(), ISSUER, NOW),
        Err(Rejection::UnknownKey("k2".into()))
    );
}

#[test]
fn the_header_must_say_eddsa_and_entitlement_jwt() {
    let k = TestKey::generate("k1");
    let c = claims(U1, NOW);
    let cases = [
        (json!({"alg": "none", "typ": TYP, "kid": "k1"}), "alg none"),
        (
            json!({"alg": "EdDSA", "typ": "JWT", "kid": "k1"}),
            "an access token's typ",
        ),
        (json!({"alg": "EdDSA", "kid": "k1"}), "no typ"),
        (json!({"alg": "EdDSA", "typ": TYP}), "no kid"),
    ];
    for (header, case) in cases {
        let token = k.sign_raw(&header, &c);
        assert!(check(&token, &k.jwks(), ISSUER, NOW).is_err(), "{case}");
    }
    assert!(check("a.b", &k.jwks(), ISSUER, NOW).is_err());
}

#[test]
fn another_audience_or_issuer_is_refused() {
    let k = TestKey::generate("k1");
    let mut c = claims(U1, NOW);
    c["aud"] = "closewise".into();
    assert!(matches!(
        check(&k.sign(&c), &k.jwks(), ISSUER, NOW),
        Err(Rejection::WrongAudience(_))
    ));
    let token = k.sign(&claims(U1, NOW));
    assert!(matches!(
        check(&token, &k.jwks(), "https://evil.example", NOW),
        Err(Rejection::WrongIssuer(_))
    ));
    assert!(check(&token, &k.jwks(), "http://localhost:8080/", NOW).is_ok());
}

#[test]
fn the_token_is_fresh_for_a_day_then_in_grace_for_seven_then_expired() {
    let k = TestKey::generate("k1");
    let token = k.sign(&claims(U1, NOW));
    let at = |t: i64| check(&token, &k.jwks(), ISSUER, t).map(|c| freshness(&c, t));
    assert_eq!(at(NOW + DAY - 1), Ok(Freshness::Fresh));
    assert_eq!(at(NOW + DAY + CLOCK_SKEW_SECONDS), Ok(Freshness::Grace));
    assert_eq!(at(NOW + 8 * DAY - 1), Ok(Freshness::Grace));
    assert_eq!(
        at(NOW + 8 * DAY + CLOCK_SKEW_SECONDS),
        Err(Rejection::Expired)
    );
}

#[test]
fn five_minutes_of_clock_skew_are_tolerated_and_no_more() {
    let k = TestKey::generate("k1");
    let jwks = k.jwks();
    // Our clock is behind the server's: the token seems issued in the future.
    let ahead = k.sign(&claims(U1, NOW + CLOCK_SKEW_SECONDS));
    assert!(check(&ahead, &jwks, ISSUER, NOW).is_ok());
    let too_far = k.sign(&claims(U1, NOW + CLOCK_SKEW_SECONDS + 1));
    assert_eq!(
        check(&too_far, &jwks, ISSUER, NOW),
        Err(Rejection::NotYetValid)
    );
    // Our clock is ahead: the token's limits stretch by the same 5 minutes.
    let token = k.sign(&claims(U1, NOW));
    let c = check(&token, &jwks, ISSUER, NOW).unwrap();
    assert_eq!(
        freshness(&c, NOW + DAY + CLOCK_SKEW_SECONDS - 1),
        Freshness::Fresh
    );
    assert_eq!(
        freshness(&c, c.grace_until + CLOCK_SKEW_SECONDS - 1),
        Freshness::Grace
    );
    assert_eq!(
        freshness(&c, c.grace_until + CLOCK_SKEW_SECONDS),
        Freshness::Expired
    );
    assert!(check(&token, &jwks, ISSUER, c.exp + CLOCK_SKEW_SECONDS - 1).is_ok());
}

#[test]
fn claims_are_the_same_but_for_their_times_only_when_every_other_field_is() {
    let first: EntitlementClaims = serde_json::from_value(claims(U1, NOW)).unwrap();
    let later: EntitlementClaims = serde_json::from_value(claims(U1, NOW + 30)).unwrap();
    assert_ne!(first.iat, later.iat);
    assert!(first.same_but_times(&later));

    type Change = Box<dyn Fn(&mut EntitlementClaims)>;
    let another: uuid::Uuid = S1.replace("2222", "3333").parse().unwrap();
    let changed: Vec<(&str, Change)> = vec![
        ("iss", Box::new(|c| c.iss.push('x'))),
        ("aud", Box::new(|c| c.aud.push('x'))),
        ("sub", Box::new(move |c| c.sub = another)),
        ("plan_type", Box::new(|c| c.plan_type = "paid".into())),
        ("unlimited", Box::new(|c| c.unlimited = !c.unlimited)),
        ("calls_limit", Box::new(|c| c.calls_limit = Some(9))),
        ("calls_remaining", Box::new(|c| c.calls_remaining = Some(0))),
        ("max_call_seconds", Box::new(|c| c.max_call_seconds = None)),
        ("sid", Box::new(move |c| c.sid = another)),
        ("source", Box::new(|c| c.source = Some("team".into()))),
        (
            "policy",
            Box::new(|c| c.policy["retention_days"] = 7.into()),
        ),
        (
            "policy_version",
            Box::new(|c| c.policy_version = "0".repeat(64)),
        ),
    ];
    for (field, change) in changed {
        let mut other = later.clone();
        change(&mut other);
        assert!(!first.same_but_times(&other), "{field} differs");
        assert!(!other.same_but_times(&first), "{field} differs");
    }
}
