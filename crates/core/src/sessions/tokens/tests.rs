use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use closewise_domain::policy::Policy;
use closewise_domain::usage::{entitlements, Access};
use ed25519_dalek::SigningKey;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use uuid::Uuid;

use super::*;

fn claims(now: OffsetDateTime, iss: &str) -> AccessClaims {
    AccessClaims {
        sub: Uuid::now_v7(),
        sid: Uuid::now_v7(),
        email: "ana@example.com".into(),
        email_verified: true,
        iat: now.unix_timestamp(),
        exp: now.unix_timestamp() + 3600,
        iss: iss.into(),
        aud: ACCESS_AUDIENCE.into(),
    }
}

#[test]
fn a_token_verifies_until_it_expires() {
    let keys = Keys::generate("http://localhost:8080").unwrap();
    let now = OffsetDateTime::now_utc();
    let token = keys.issue(&claims(now, "http://localhost:8080")).unwrap();
    assert!(keys.verify(&token, now).is_some());
    assert!(keys
        .verify(&token, now + time::Duration::hours(2))
        .is_none());
}

#[test]
fn another_keys_token_is_refused() {
    let ours = Keys::generate("http://localhost:8080").unwrap();
    let theirs = Keys::generate("http://localhost:8080").unwrap();
    let now = OffsetDateTime::now_utc();
    let token = theirs.issue(&claims(now, "http://localhost:8080")).unwrap();
    assert!(ours.verify(&token, now).is_none());
}

#[test]
fn a_token_for_another_issuer_is_refused() {
    let keys = Keys::generate("http://localhost:8080").unwrap();
    let now = OffsetDateTime::now_utc();
    let token = keys.issue(&claims(now, "https://evil.example")).unwrap();
    assert!(keys.verify(&token, now).is_none());
}

#[test]
fn an_unsigned_alg_none_token_is_refused() {
    let keys = Keys::generate("http://localhost:8080").unwrap();
    let now = OffsetDateTime::now_utc();
    let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"none","typ":"JWT"}"#);
    let body =
        URL_SAFE_NO_PAD.encode(serde_json::to_vec(&claims(now, "http://localhost:8080")).unwrap());
    assert!(keys.verify(&format!("{header}.{body}."), now).is_none());
}

#[test]
fn the_development_key_is_plain_pkcs8_that_openssl_reads() {
    let dir = std::env::temp_dir().join(format!("cw-key-{}", Uuid::now_v7()));
    let path = dir.join("jwt.pem");
    Keys::load_or_create(&path, "i").unwrap();
    let pem = std::fs::read_to_string(&path).unwrap();
    let der = pem
        .lines()
        .filter(|l| !l.starts_with("-----"))
        .collect::<String>();
    let der = base64::engine::general_purpose::STANDARD
        .decode(der)
        .unwrap();
    // PKCS#8 v1 (RFC 5208): version 0, and 48 bytes for an Ed25519 key without its public half.
    assert_eq!(der.len(), 48, "a v1 key, which OpenSSL 3 reads");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_development_key_survives_a_restart() {
    let dir = std::env::temp_dir().join(format!("cw-key-{}", Uuid::now_v7()));
    let path = dir.join("jwt.pem");
    let first = Keys::load_or_create(&path, "i").unwrap();
    let second = Keys::load_or_create(&path, "i").unwrap();
    assert_eq!(first.kid(), second.kid());
    std::fs::remove_dir_all(dir).unwrap();
}

/// Decoded by jsonwebtoken, a library other than the one that signed: what any JWT library reads.
fn decode(keys: &Keys, token: &str) -> Option<EntitlementClaims> {
    let jwks = keys.jwks();
    let x = jwks["keys"][0]["x"].as_str().unwrap();
    let key = DecodingKey::from_ed_components(x).unwrap();
    let mut v = Validation::new(Algorithm::EdDSA);
    v.set_audience(&[closewise_tokens::entitlement::AUDIENCE]);
    v.validate_exp = false;
    jsonwebtoken::decode::<EntitlementClaims>(token, &key, &v)
        .ok()
        .map(|d| d.claims)
}

#[test]
fn an_entitlement_token_carries_the_jwks_kid_its_type_and_the_claims() {
    let keys = Keys::generate("http://localhost:8080").unwrap();
    let now = OffsetDateTime::now_utc();
    let e = entitlements(Access::Free, 3, 0);
    let claims = keys.entitlement_claims(
        Uuid::now_v7(),
        Uuid::now_v7(),
        &e,
        now,
        Policy::default(),
        Policy::default().version(),
    );
    let token = keys.issue_entitlement(&claims).unwrap();
    let header = jsonwebtoken::decode_header(&token).unwrap();
    assert_eq!(header.typ.as_deref(), Some("entitlement+jwt"));
    assert_eq!(
        header.kid.as_deref(),
        keys.jwks()["keys"][0]["kid"].as_str()
    );
    assert_eq!(decode(&keys, &token), Some(claims.clone()));
    assert_eq!(
        (
            claims.calls_limit,
            claims.calls_remaining,
            claims.max_call_seconds
        ),
        (Some(5), Some(2), Some(300))
    );
    assert_eq!(claims.exp - claims.iat, 8 * 24 * 3600);
}

#[test]
fn another_keys_entitlement_token_does_not_verify() {
    let ours = Keys::generate("i").unwrap();
    let theirs = Keys::generate("i").unwrap();
    let e = entitlements(Access::Paid { warning: None }, 0, 0);
    let claims = theirs.entitlement_claims(
        Uuid::now_v7(),
        Uuid::now_v7(),
        &e,
        OffsetDateTime::now_utc(),
        Policy::default(),
        Policy::default().version(),
    );
    let token = theirs.issue_entitlement(&claims).unwrap();
    assert_eq!(decode(&ours, &token), None);
    assert!(claims.unlimited && claims.calls_limit.is_none());
}

/// Tokens this server signed with jsonwebtoken before its signing moved to `closewise_tokens`
/// (a fixed key and fixed claims): the same key and claims sign the same bytes today, so apps in
/// use read the new tokens exactly as the old, and the old tokens still verify.
#[test]
fn the_same_key_and_claims_sign_the_bytes_jsonwebtoken_signed() {
    let f: serde_json::Value = serde_json::from_str(include_str!(
        "../../../../../fixtures/tokens/signed-by-jsonwebtoken.json"
    ))
    .unwrap();
    let text = |k: &str| f[k].as_str().unwrap().to_owned();
    let seed: [u8; 32] = hex::decode(text("seed")).unwrap().try_into().unwrap();
    let keys = Keys::from_signing_key(SigningKey::from_bytes(&seed), &text("issuer"));
    let iat = f["iat"].as_i64().unwrap();
    let now = OffsetDateTime::from_unix_timestamp(iat).unwrap();
    let (user, session): (Uuid, Uuid) = (
        text("user").parse().unwrap(),
        text("session").parse().unwrap(),
    );

    let access = AccessClaims {
        sub: user,
        sid: session,
        email: "ana@example.com".into(),
        email_verified: true,
        iat,
        exp: iat + 3600,
        iss: text("issuer"),
        aud: ACCESS_AUDIENCE.into(),
    };
    assert_eq!(keys.issue(&access).unwrap(), text("access_token"));
    assert_eq!(keys.verify(&text("access_token"), now), Some(access));

    let policy = || (Policy::default(), Policy::default().version());
    let (p, v) = policy();
    let free = keys.entitlement_claims(user, session, &entitlements(Access::Free, 3, 0), now, p, v);
    assert_eq!(
        keys.issue_entitlement(&free).unwrap(),
        text("entitlement_token")
    );
    let (p, v) = policy();
    let paid = entitlements(Access::Paid { warning: None }, 0, 0);
    let mut team = keys.entitlement_claims(user, session, &paid, now, p, v);
    team.source = Some("team".into());
    assert_eq!(
        keys.issue_entitlement(&team).unwrap(),
        text("team_entitlement_token")
    );
    assert_eq!(keys.jwks(), f["jwks"]);
}
