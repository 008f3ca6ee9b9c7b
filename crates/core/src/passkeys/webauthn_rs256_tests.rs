//! RS256 (COSE -257) passkeys, as Windows Hello makes them: a fixed 2048-bit test key
//! (`rs256_test_key.pem`, made for these tests only) signs an assertion built here the way an
//! authenticator does; it verifies, and a tampered one, a short key or another hash do not.

use super::*;
use rsa::pkcs1::DecodeRsaPrivateKey;
use rsa::traits::PublicKeyParts;
use rsa::{Pkcs1v15Sign, RsaPrivateKey};
use serde_json::json;

const ORIGIN: &str = "http://localhost:8765";
const CHALLENGE: &str = "cnMyNTYtY2hhbGxlbmdl";

fn rp() -> RelyingParty {
    RelyingParty::from_base_url(ORIGIN).unwrap()
}

fn private_key() -> RsaPrivateKey {
    RsaPrivateKey::from_pkcs1_pem(include_str!("rs256_test_key.pem")).unwrap()
}

fn cose(n: &[u8], e: &[u8]) -> Vec<u8> {
    let map = Value::Map(vec![
        (Value::from(1), Value::from(3)),
        (Value::from(3), Value::from(RS256)),
        (Value::from(-1), Value::Bytes(n.to_vec())),
        (Value::from(-2), Value::Bytes(e.to_vec())),
    ]);
    let mut out = Vec::new();
    ciborium::ser::into_writer(&map, &mut out).unwrap();
    out
}

fn cose_of(key: &RsaPrivateKey) -> Vec<u8> {
    cose(&key.n().to_bytes_be(), &key.e().to_bytes_be())
}

/// An assertion for `CHALLENGE` by credential `cred`, signed by `key` with `scheme`.
fn assertion(key: &RsaPrivateKey, scheme: Pkcs1v15Sign) -> AuthenticationResponse {
    let client_data = serde_json::to_vec(&json!({
        "type": "webauthn.get", "challenge": CHALLENGE, "origin": ORIGIN, "crossOrigin": false,
    }))
    .unwrap();
    let mut auth = Sha256::digest(rp().id.as_bytes()).to_vec();
    auth.push(FLAG_UP | FLAG_UV);
    auth.extend_from_slice(&7u32.to_be_bytes());
    let mut message = auth.clone();
    message.extend_from_slice(&Sha256::digest(&client_data));
    let signature = key.sign(scheme, &Sha256::digest(&message)).unwrap();
    let id = b64_encode(b"rs256-credential");
    serde_json::from_value(json!({
        "id": id, "rawId": id, "type": "public-key",
        "response": {
            "clientDataJSON": b64_encode(&client_data),
            "authenticatorData": b64_encode(&auth),
            "signature": b64_encode(&signature),
        },
    }))
    .unwrap()
}

#[test]
fn an_rs256_assertion_verifies_with_its_cose_key() {
    let key = private_key();
    assert!(matches!(
        public_key(&cose_of(&key)),
        Ok(PublicKey::Rs256(_))
    ));
    let signed = assertion(&key, Pkcs1v15Sign::new::<Sha256>());
    let a = verify_assertion(&rp(), CHALLENGE, &signed, &cose_of(&key), true).unwrap();
    assert_eq!(a.sign_count, 7);
}

#[test]
fn a_tampered_rs256_assertion_or_another_hash_is_refused() {
    let key = private_key();
    let mut signed = assertion(&key, Pkcs1v15Sign::new::<Sha256>());
    let mut sig = b64(&signed.response.signature).unwrap();
    sig[10] ^= 1;
    signed.response.signature = b64_encode(&sig);
    let refused = verify_assertion(&rp(), CHALLENGE, &signed, &cose_of(&key), true);
    assert_eq!(refused, Err(Invalid("bad signature")));
    // The right key over the right bytes, but without SHA-256's DigestInfo prefix.
    let unprefixed = assertion(&key, Pkcs1v15Sign::new_unprefixed());
    let refused = verify_assertion(&rp(), CHALLENGE, &unprefixed, &cose_of(&key), true);
    assert_eq!(refused, Err(Invalid("bad signature")));
}

#[test]
fn an_rsa_key_under_2048_bits_or_without_its_exponent_is_refused() {
    let key = private_key();
    let n = key.n().to_bytes_be();
    assert!(matches!(
        public_key(&cose(&n[..128], &key.e().to_bytes_be())),
        Err(Invalid("RSA key under 2048 bits"))
    ));
    let no_e = Value::Map(vec![
        (Value::from(1), Value::from(3)),
        (Value::from(3), Value::from(RS256)),
        (Value::from(-1), Value::Bytes(n)),
    ]);
    let mut bytes = Vec::new();
    ciborium::ser::into_writer(&no_e, &mut bytes).unwrap();
    assert!(matches!(
        public_key(&bytes),
        Err(Invalid("RSA key without n or e"))
    ));
}
