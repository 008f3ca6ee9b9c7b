//! Offline check of the entitlement token: an EdDSA JWT (`typ: entitlement+jwt`) signed by the
//! server's key, published at `/.well-known/jwks.json`. The client answers from a verified token
//! while the API cannot be reached: fresh until `valid_until`, in grace until `grace_until`.
//!
//! Clocks drift: every time comparison allows [`CLOCK_SKEW_SECONDS`] (5 minutes) in the user's
//! favour — a token issued up to 5 minutes "in the future" is accepted, and one stays fresh, in
//! grace or unexpired for 5 minutes past the instant it names.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use ed25519_dalek::{Signature, VerifyingKey};
use serde::{Deserialize, Serialize};

pub const AUDIENCE: &str = "closewise-desktop";
pub const TOKEN_TYPE: &str = "entitlement+jwt";
pub const CLOCK_SKEW_SECONDS: i64 = 300;

/// A JSON Web Key Set as the server publishes it (Ed25519 keys only are used).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Jwks {
    pub keys: Vec<Jwk>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Jwk {
    pub kty: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crv: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kid: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alg: Option<String>,
}

impl Jwks {
    fn ed25519_key(&self, kid: &str) -> Option<VerifyingKey> {
        let jwk = self.keys.iter().find(|k| {
            k.kid.as_deref() == Some(kid) && k.kty == "OKP" && k.crv.as_deref() == Some("Ed25519")
        })?;
        let x = URL_SAFE_NO_PAD.decode(jwk.x.as_deref()?).ok()?;
        VerifyingKey::from_bytes(&x.try_into().ok()?).ok()
    }
}

/// The claims of an entitlement token (docs/api.md, "Entitlements and calls").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EntitlementClaims {
    pub iss: String,
    pub aud: String,
    pub sub: String,
    pub plan_type: String,
    pub unlimited: bool,
    pub calls_limit: Option<u32>,
    pub calls_remaining: Option<u32>,
    pub max_call_seconds: Option<u64>,
    /// The session (and so the device: a device's id is its session's) the token was issued to;
    /// absent only in tokens older than the claim, which are then refused.
    #[serde(default)]
    pub sid: Option<String>,
    /// The team's policy (`crate::policy`); absent only in tokens older than the claim.
    #[serde(default)]
    pub policy: Option<serde_json::Value>,
    #[serde(default)]
    pub policy_version: Option<String>,
    pub iat: i64,
    pub valid_until: i64,
    pub grace_until: i64,
    pub exp: i64,
}

/// Why a token was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    #[error("malformed token ({0})")]
    Malformed(&'static str),
    #[error("signed with algorithm {0}, not EdDSA")]
    WrongAlgorithm(String),
    #[error("not an entitlement token (typ {0:?})")]
    WrongType(Option<String>),
    #[error("signed by an unknown key (kid {0:?})")]
    UnknownKey(String),
    #[error("the signature does not match")]
    BadSignature,
    #[error("for another audience ({0})")]
    WrongAudience(String),
    #[error("from another issuer ({0})")]
    WrongIssuer(String),
    #[error("issued in the future")]
    NotYetValid,
    #[error("expired")]
    Expired,
}

#[derive(Deserialize)]
struct Header {
    alg: String,
    typ: Option<String>,
    kid: Option<String>,
}

/// Checks the header (EdDSA, `typ` accepted by `typ_ok`, a `kid` of `jwks`) and the signature;
/// answers the payload, still encoded.
fn signed_payload<'t>(
    token: &'t str,
    jwks: &Jwks,
    typ_ok: impl Fn(Option<&str>) -> bool,
) -> Result<&'t str, Rejection> {
    let mut parts = token.split('.');
    let (Some(h), Some(p), Some(s), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(Rejection::Malformed("not three parts"));
    };
    let header: Header = decode_json(h).ok_or(Rejection::Malformed("header"))?;
    if header.alg != "EdDSA" {
        return Err(Rejection::WrongAlgorithm(header.alg));
    }
    if !typ_ok(header.typ.as_deref()) {
        return Err(Rejection::WrongType(header.typ));
    }
    let kid = header.kid.ok_or(Rejection::UnknownKey(String::new()))?;
    let key = jwks.ed25519_key(&kid).ok_or(Rejection::UnknownKey(kid))?;
    let signature = URL_SAFE_NO_PAD
        .decode(s)
        .ok()
        .and_then(|b| Signature::from_slice(&b).ok())
        .ok_or(Rejection::Malformed("signature"))?;
    key.verify_strict(format!("{h}.{p}").as_bytes(), &signature)
        .map_err(|_| Rejection::BadSignature)?;
    Ok(p)
}

/// Who an access token names: its user and its session. Read from the stored access token,
/// verified against the same trusted keys, so the session an entitlement token must belong to is
/// not a plain field of the editable store.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct AccessSession {
    pub sub: String,
    pub sid: String,
}

/// The access tokens' audience (the entitlement tokens' is [`AUDIENCE`]).
pub const ACCESS_AUDIENCE: &str = "closewise";

/// Verifies an access token's signature, audience and issuer, not its expiry: offline it has
/// usually expired, and it only says which session this is.
pub fn access_session(token: &str, jwks: &Jwks, issuer: &str) -> Result<AccessSession, Rejection> {
    #[derive(Deserialize)]
    struct Claims {
        sub: String,
        sid: String,
        aud: String,
        iss: String,
    }
    let p = signed_payload(token, jwks, |typ| typ.is_none_or(|t| t == "JWT"))?;
    let c: Claims = decode_json(p).ok_or(Rejection::Malformed("claims"))?;
    if c.aud != ACCESS_AUDIENCE {
        return Err(Rejection::WrongAudience(c.aud));
    }
    if c.iss.trim_end_matches('/') != issuer.trim_end_matches('/') {
        return Err(Rejection::WrongIssuer(c.iss));
    }
    Ok(AccessSession {
        sub: c.sub,
        sid: c.sid,
    })
}

/// Verifies signature, header, audience, issuer and lifetime (at `now`, Unix seconds).
pub fn verify(
    token: &str,
    jwks: &Jwks,
    issuer: &str,
    now: i64,
) -> Result<EntitlementClaims, Rejection> {
    let p = signed_payload(token, jwks, |typ| typ == Some(TOKEN_TYPE))?;
    let claims: EntitlementClaims = decode_json(p).ok_or(Rejection::Malformed("claims"))?;
    if claims.aud != AUDIENCE {
        return Err(Rejection::WrongAudience(claims.aud));
    }
    if claims.iss.trim_end_matches('/') != issuer.trim_end_matches('/') {
        return Err(Rejection::WrongIssuer(claims.iss));
    }
    if claims.iat > now + CLOCK_SKEW_SECONDS {
        return Err(Rejection::NotYetValid);
    }
    if now >= claims.exp + CLOCK_SKEW_SECONDS {
        return Err(Rejection::Expired);
    }
    Ok(claims)
}

fn decode_json<T: serde::de::DeserializeOwned>(part: &str) -> Option<T> {
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(part).ok()?).ok()
}

/// How much a verified token may still be trusted offline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Freshness {
    /// Before `valid_until`: answer as if online.
    Fresh,
    /// Between `valid_until` and `grace_until`: answer, and warn that the app must connect soon.
    Grace,
    /// After `grace_until`: refuse ("offline too long, connect to continue").
    Expired,
}

pub fn freshness(claims: &EntitlementClaims, now: i64) -> Freshness {
    if now < claims.valid_until + CLOCK_SKEW_SECONDS {
        Freshness::Fresh
    } else if now < claims.grace_until + CLOCK_SKEW_SECONDS {
        Freshness::Grace
    } else {
        Freshness::Expired
    }
}

/// Test keys: a fresh Ed25519 key, its JWKS, and tokens signed the way the server signs them.
#[cfg(test)]
pub(crate) mod test_keys {
    use super::*;
    use ed25519_dalek::{Signer, SigningKey};

    pub const ISSUER: &str = "http://localhost:8080";
    /// The session of [`claims`] and, by default, of [`TestKey::access_token`].
    pub const SID: &str = "s1";

    pub struct TestKey {
        pub key: SigningKey,
        pub kid: String,
    }

    impl TestKey {
        pub fn generate(kid: &str) -> TestKey {
            TestKey {
                key: SigningKey::generate(&mut rand::rngs::OsRng),
                kid: kid.into(),
            }
        }

        pub fn jwks(&self) -> Jwks {
            Jwks {
                keys: vec![Jwk {
                    kty: "OKP".into(),
                    crv: Some("Ed25519".into()),
                    x: Some(URL_SAFE_NO_PAD.encode(self.key.verifying_key().to_bytes())),
                    kid: Some(self.kid.clone()),
                    alg: Some("EdDSA".into()),
                }],
            }
        }

        pub fn sign_raw(&self, header: &serde_json::Value, claims: &serde_json::Value) -> String {
            let h = URL_SAFE_NO_PAD.encode(header.to_string());
            let p = URL_SAFE_NO_PAD.encode(claims.to_string());
            let sig = self.key.sign(format!("{h}.{p}").as_bytes());
            format!("{h}.{p}.{}", URL_SAFE_NO_PAD.encode(sig.to_bytes()))
        }

        pub fn sign(&self, claims: &serde_json::Value) -> String {
            let header = serde_json::json!({"alg": "EdDSA", "typ": TOKEN_TYPE, "kid": self.kid});
            self.sign_raw(&header, claims)
        }

        /// An access token of session `sid` of user `sub`, as the server signs one (expired: it
        /// only names the session).
        pub fn access_token(&self, sub: &str, sid: &str) -> String {
            let header = serde_json::json!({"alg": "EdDSA", "typ": "JWT", "kid": self.kid});
            let claims = serde_json::json!({"sub": sub, "sid": sid, "email": "ana@example.com",
                "email_verified": true, "iat": 1, "exp": 2, "iss": ISSUER, "aud": ACCESS_AUDIENCE});
            self.sign_raw(&header, &claims)
        }
    }

    /// Free plan claims issued at `iat`, with the server's lifetimes (24 h, then 7 days' grace).
    pub fn claims(sub: &str, iat: i64) -> serde_json::Value {
        let valid_until = iat + 24 * 3600;
        let grace_until = valid_until + 7 * 24 * 3600;
        let policy = serde_json::json!({
            "consent_notice": {"mode": "off", "text": "", "regions": {}},
            "allowed_apps": ["zoom", "meet", "teams", "phone"],
            "hint_categories": {"objections": true, "replies": true, "follow_ups": true},
            "retention_days": 30, "require_mfa": false, "require_sso": false});
        let version: String = {
            use sha2::Digest;
            sha2::Sha256::digest(crate::policy::canonical_json(&policy).as_bytes())
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect()
        };
        serde_json::json!({
            "iss": ISSUER, "aud": AUDIENCE, "sub": sub, "plan_type": "free", "unlimited": false,
            "calls_limit": 5, "calls_remaining": 2, "max_call_seconds": 300, "sid": SID, "iat": iat,
            "valid_until": valid_until, "grace_until": grace_until, "exp": grace_until,
            "policy": policy, "policy_version": version,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::test_keys::*;
    use super::*;

    const NOW: i64 = 1_795_000_000;
    const DAY: i64 = 24 * 3600;

    #[test]
    fn a_token_signed_by_the_published_key_verifies() {
        let k = TestKey::generate("k1");
        let claims = verify(&k.sign(&claims("u1", NOW)), &k.jwks(), ISSUER, NOW).unwrap();
        assert_eq!(claims.sub, "u1");
        assert_eq!(claims.calls_remaining, Some(2));
        assert_eq!(freshness(&claims, NOW), Freshness::Fresh);
    }

    #[test]
    fn an_access_token_names_its_session_only_when_signed_by_a_trusted_key_for_our_issuer() {
        let k = TestKey::generate("k1");
        let session = access_session(&k.access_token("u1", "s9"), &k.jwks(), ISSUER).unwrap();
        assert_eq!((session.sub.as_str(), session.sid.as_str()), ("u1", "s9"));
        let other = TestKey::generate("k1");
        assert_eq!(
            access_session(&other.access_token("u1", "s9"), &k.jwks(), ISSUER),
            Err(Rejection::BadSignature)
        );
        assert!(matches!(
            access_session(
                &k.access_token("u1", "s9"),
                &k.jwks(),
                "https://evil.example"
            ),
            Err(Rejection::WrongIssuer(_))
        ));
        // An entitlement token is not an access token, nor the reverse.
        assert!(access_session(&k.sign(&claims("u1", NOW)), &k.jwks(), ISSUER).is_err());
        assert!(verify(&k.access_token("u1", "s9"), &k.jwks(), ISSUER, NOW).is_err());
    }

    #[test]
    fn a_tampered_payload_is_refused() {
        let k = TestKey::generate("k1");
        let token = k.sign(&claims("u1", NOW));
        let mut forged = claims("u1", NOW);
        forged["unlimited"] = true.into();
        let parts: Vec<&str> = token.split('.').collect();
        let tampered = format!(
            "{}.{}.{}",
            parts[0],
            URL_SAFE_NO_PAD.encode(forged.to_string()),
            parts[2]
        );
        assert_eq!(
            verify(&tampered, &k.jwks(), ISSUER, NOW),
            Err(Rejection::BadSignature)
        );
    }

    #[test]
    fn a_token_from_another_key_or_an_unknown_kid_is_refused() {
        let ours = TestKey::generate("k1");
        let theirs = TestKey::generate("k1");
        let token = theirs.sign(&claims("u1", NOW));
        assert_eq!(
            verify(&token, &ours.jwks(), ISSUER, NOW),
            Err(Rejection::BadSignature)
        );
        let other_kid = TestKey {
            key: ours.key.clone(),
            kid: "k2".into(),
        };
        assert_eq!(
            verify(
                &other_kid.sign(&claims("u1", NOW)),
                &ours.jwks(),
                ISSUER,
                NOW
            ),
            Err(Rejection::UnknownKey("k2".into()))
        );
    }

    #[test]
    fn the_header_must_say_eddsa_and_entitlement_jwt() {
        let k = TestKey::generate("k1");
        let c = claims("u1", NOW);
        let cases = [
            (
                serde_json::json!({"alg": "none", "typ": TOKEN_TYPE, "kid": "k1"}),
                "alg none",
            ),
            (
                serde_json::json!({"alg": "EdDSA", "typ": "JWT", "kid": "k1"}),
                "an access token's typ",
            ),
            (serde_json::json!({"alg": "EdDSA", "kid": "k1"}), "no typ"),
            (
                serde_json::json!({"alg": "EdDSA", "typ": TOKEN_TYPE}),
                "no kid",
            ),
        ];
        for (header, case) in cases {
            let token = k.sign_raw(&header, &c);
            assert!(verify(&token, &k.jwks(), ISSUER, NOW).is_err(), "{case}");
        }
        assert!(verify("a.b", &k.jwks(), ISSUER, NOW).is_err());
    }

    #[test]
    fn another_audience_or_issuer_is_refused() {
        let k = TestKey::generate("k1");
        let mut c = claims("u1", NOW);
        c["aud"] = "closewise".into();
        assert!(matches!(
            verify(&k.sign(&c), &k.jwks(), ISSUER, NOW),
            Err(Rejection::WrongAudience(_))
        ));
        let token = k.sign(&claims("u1", NOW));
        assert!(matches!(
            verify(&token, &k.jwks(), "https://evil.example", NOW),
            Err(Rejection::WrongIssuer(_))
        ));
        assert!(verify(&token, &k.jwks(), "http://localhost:8080/", NOW).is_ok());
    }

    #[test]
    fn the_token_is_fresh_for_a_day_then_in_grace_for_seven_then_expired() {
        let k = TestKey::generate("k1");
        let token = k.sign(&claims("u1", NOW));
        let at = |t: i64| verify(&token, &k.jwks(), ISSUER, t).map(|c| freshness(&c, t));
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
        let ahead = k.sign(&claims("u1", NOW + CLOCK_SKEW_SECONDS));
        assert!(verify(&ahead, &jwks, ISSUER, NOW).is_ok());
        let too_far = k.sign(&claims("u1", NOW + CLOCK_SKEW_SECONDS + 1));
        assert_eq!(
            verify(&too_far, &jwks, ISSUER, NOW),
            Err(Rejection::NotYetValid)
        );
        // Our clock is ahead: the token's limits stretch by the same 5 minutes.
        let token = k.sign(&claims("u1", NOW));
        let c = verify(&token, &jwks, ISSUER, NOW).unwrap();
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
        assert!(verify(&token, &jwks, ISSUER, c.exp + CLOCK_SKEW_SECONDS - 1).is_ok());
    }
}
