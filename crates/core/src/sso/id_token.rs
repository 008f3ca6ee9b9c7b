//! The ID token checked as OpenID Connect Core §3.1.3.7 says: signed by a key of the provider's
//! JWKS with an asymmetric algorithm, `iss` the issuer, `aud` our client (and `azp` too when there
//! are several audiences), not expired, and the `nonce` of this sign-in. A conformant provider
//! leaves the claims the scopes ask for out of the ID token when it issues an access token (OpenID
//! Connect Core §5.4): they are read from its UserInfo endpoint with that token
//! (`Provider::userinfo`), and used only when its `sub` is the ID token's (§5.3.2).

use anyhow::{anyhow, bail, Context};
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde::Deserialize;

use closewise_domain::oauth::constant_time_eq;
use closewise_domain::sso::{EmailClaim, CLOCK_SKEW_SECONDS};

/// The claims we read from an ID token.
#[derive(Clone, Debug, Deserialize)]
pub struct IdClaims {
    pub sub: String,
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default, deserialize_with = "bool_or_string")]
    pub email_verified: Option<bool>,
    #[serde(default)]
    pub preferred_username: Option<String>,
    #[serde(default)]
    pub upn: Option<String>,
    #[serde(default)]
    pub nonce: Option<String>,
    #[serde(default)]
    pub azp: Option<String>,
    #[serde(default)]
    aud: serde_json::Value,
}

impl IdClaims {
    /// The value of the claim that carries the address.
    pub fn address(&self, claim: EmailClaim) -> Option<&str> {
        match claim {
            EmailClaim::Email => self.email.as_deref(),
            EmailClaim::PreferredUsername => self.preferred_username.as_deref(),
            EmailClaim::Upn => self.upn.as_deref(),
        }
    }

    /// Whether UserInfo may tell more than the ID token about `claim`: it lacks the claim, or
    /// `email_verified` that `email` needs.
    pub fn lacks(&self, claim: EmailClaim) -> bool {
        self.address(claim).is_none()
            || (claim.needs_verified_flag() && self.email_verified.is_none())
    }

    /// The ID token's claims with those it lacks taken from the UserInfo answer `info`, whose
    /// `sub` must be the ID token's (else the answer is about someone else and is refused).
    pub fn with_userinfo(mut self, info: UserInfo) -> anyhow::Result<IdClaims> {
        if !constant_time_eq(info.sub.as_bytes(), self.sub.as_bytes()) {
            bail!("UserInfo's sub is not the ID token's");
        }
        self.email = self.email.or(info.email);
        self.email_verified = self.email_verified.or(info.email_verified);
        self.preferred_username = self.preferred_username.or(info.preferred_username);
        self.upn = self.upn.or(info.upn);
        Ok(self)
    }
}

/// The claims we read from a UserInfo answer.
#[derive(Clone, Debug, Deserialize)]
pub struct UserInfo {
    pub sub: String,
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default, deserialize_with = "bool_or_string")]
    pub email_verified: Option<bool>,
    #[serde(default)]
    pub preferred_username: Option<String>,
    #[serde(default)]
    pub upn: Option<String>,
}

/// Some providers send `"email_verified": "true"`.
fn bool_or_string<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    Ok(match serde_json::Value::deserialize(d)? {
        serde_json::Value::Bool(b) => Some(b),
        serde_json::Value::String(s) => Some(s == "true"),
        _ => None,
    })
}

/// Only asymmetric signatures: a JWKS never holds our client secret, and `none` is no signature.
const ALGORITHMS: [Algorithm; 9] = [
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::EdDSA,
];

/// Checks `id_token` against `jwks`, `issuer`, `client_id` and `nonce`; the claims when it holds.
pub fn verify_id_token(
    id_token: &str,
    jwks: &JwkSet,
    issuer: &str,
    client_id: &str,
    nonce: &str,
) -> anyhow::Result<IdClaims> {
    let header = jsonwebtoken::decode_header(id_token).context("the ID token is not a JWT")?;
    if !ALGORITHMS.contains(&header.alg) {
        bail!(
            "the ID token is signed with {:?}, which we do not accept",
            header.alg
        );
    }
    let candidates: Vec<_> = match &header.kid {
        Some(kid) => jwks.find(kid).into_iter().collect(),
        None => jwks.keys.iter().collect(),
    };
    if candidates.is_empty() {
        bail!("no key of the provider's JWKS signed the ID token");
    }
    let mut validation = Validation::new(header.alg);
    validation.set_issuer(&[issuer, &format!("{issuer}/")]);
    validation.set_audience(&[client_id]);
    validation.set_required_spec_claims(&["exp", "iat", "iss", "aud", "sub"]);
    validation.leeway = CLOCK_SKEW_SECONDS;
    let mut last = anyhow!("no key of the provider's JWKS signed the ID token");
    for jwk in candidates {
        let Ok(key) = DecodingKey::from_jwk(jwk) else {
            continue;
        };
        match jsonwebtoken::decode::<IdClaims>(id_token, &key, &validation) {
            Ok(data) => return check_claims(data.claims, client_id, nonce),
            Err(e) => last = anyhow!("the ID token does not hold: {e}"),
        }
    }
    Err(last)
}

fn check_claims(claims: IdClaims, client_id: &str, nonce: &str) -> anyhow::Result<IdClaims> {
    let several = claims.aud.as_array().is_some_and(|a| a.len() > 1);
    if (several || claims.azp.is_some()) && claims.azp.as_deref() != Some(client_id) {
        bail!("the ID token was issued to another party (azp)");
    }
    match &claims.nonce {
        Some(n) if constant_time_eq(n.as_bytes(), nonce.as_bytes()) => Ok(claims),
        _ => bail!("the ID token's nonce is not this sign-in's"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use base64::Engine;
    use ed25519_dalek::SigningKey;
    use jsonwebtoken::{EncodingKey, Header};
    use serde_json::{json, Value};

    const ISSUER: &str = "https://idp.example";

    fn key(seed: u8) -> (EncodingKey, Value) {
        let signing = SigningKey::from_bytes(&[seed; 32]);
        // PKCS#8 v1 of an Ed25519 seed (RFC 8410).
        let mut der = hex::decode("302e020100300506032b657004220420").unwrap();
        der.extend_from_slice(&[seed; 32]);
        let x = URL_SAFE_NO_PAD.encode(signing.verifying_key().as_bytes());
        let jwk = json!({ "kty": "OKP", "crv": "Ed25519", "x": x, "kid": format!("k{seed}"), "alg": "EdDSA", "use": "sig" });
        (EncodingKey::from_ed_der(&der), jwk)
    }

    fn token(seed: u8, claims: Value) -> String {
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = Some(format!("k{seed}"));
        jsonwebtoken::encode(&header, &claims, &key(seed).0).unwrap()
    }

    fn claims(changes: Value) -> Value {
        let now = time::OffsetDateTime::now_utc().unix_timestamp();
        let mut c = json!({ "iss": ISSUER, "aud": "client", "sub": "ana", "iat": now, "exp": now + 300,
            "nonce": "n0nce", "email": "ana@acme.example", "email_verified": true });
        c.as_object_mut()
            .unwrap()
            .extend(changes.as_object().unwrap().clone());
        c
    }

    fn jwks() -> JwkSet {
        serde_json::from_value(json!({ "keys": [key(1).1] })).unwrap()
    }

    fn check(t: &str) -> anyhow::Result<IdClaims> {
        verify_id_token(t, &jwks(), ISSUER, "client", "n0nce")
    }

    #[test]
    fn an_id_token_signed_by_the_providers_key_for_us_and_this_sign_in_holds() {
        let c = check(&token(1, claims(json!({})))).unwrap();
        assert_eq!(
            (c.email.as_deref(), c.email_verified),
            (Some("ana@acme.example"), Some(true))
        );
        let c = check(&token(1, claims(json!({ "email_verified": "true" })))).unwrap();
        assert_eq!(c.email_verified, Some(true));
    }

    #[test]
    fn userinfo_fills_what_the_id_token_lacks_only_for_the_same_subject() {
        let bare = check(&token(
            1,
            claims(json!({ "email": null, "email_verified": null })),
        ))
        .unwrap();
        assert!(bare.lacks(EmailClaim::Email));
        let info = |sub: &str| UserInfo {
            sub: sub.into(),
            email: Some("ana@acme.example".into()),
            email_verified: Some(true),
            preferred_username: None,
            upn: Some("ana@acme.example".into()),
        };
        let merged = bare.clone().with_userinfo(info("ana")).unwrap();
        assert!(!merged.lacks(EmailClaim::Email));
        assert_eq!(merged.address(EmailClaim::Email), Some("ana@acme.example"));
        assert_eq!(merged.address(EmailClaim::Upn), Some("ana@acme.example"));
        assert!(merged.lacks(EmailClaim::PreferredUsername));
        assert!(
            bare.with_userinfo(info("eve")).is_err(),
            "another subject's claims"
        );
        let full = check(&token(1, claims(json!({})))).unwrap();
        assert!(!full.lacks(EmailClaim::Email));
        let kept = full
            .with_userinfo(UserInfo {
                email: Some("x@y.example".into()),
                ..info("ana")
            })
            .unwrap();
        assert_eq!(
            kept.email.as_deref(),
            Some("ana@acme.example"),
            "the ID token's own claim stays"
        );
    }

    #[test]
    fn every_other_id_token_is_refused() {
        let now = time::OffsetDateTime::now_utc().unix_timestamp();
        for (case, t) in [
            ("another key", token(2, claims(json!({})))),
            (
                "another issuer",
                token(1, claims(json!({ "iss": "https://evil.example" }))),
            ),
            (
                "another audience",
                token(1, claims(json!({ "aud": "someone-else" }))),
            ),
            (
                "another party among several audiences",
                token(1, claims(json!({ "aud": ["client", "x"], "azp": "x" }))),
            ),
            (
                "several audiences without azp",
                token(1, claims(json!({ "aud": ["client", "x"] }))),
            ),
            (
                "another sign-in's nonce",
                token(1, claims(json!({ "nonce": "other" }))),
            ),
            ("no nonce", token(1, claims(json!({ "nonce": null })))),
            ("expired", token(1, claims(json!({ "exp": now - 120 })))),
        ] {
            assert!(check(&t).is_err(), "{case}");
        }
        // HMAC with a "secret" anyone can read in the JWKS, and no signature at all.
        let hs = jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            &claims(json!({})),
            &EncodingKey::from_secret(b"x"),
        )
        .unwrap();
        assert!(check(&hs).is_err(), "HS256");
        let parts: Vec<&str> = hs.split('.').collect();
        let none = format!(
            "{}.{}.",
            URL_SAFE_NO_PAD.encode(r#"{"alg":"none"}"#),
            parts[1]
        );
        assert!(check(&none).is_err(), "alg none");
    }
}
