//! Against real authenticator output: `chromium_fixture.json` was captured once from Chromium's
//! virtual authenticator (DevTools `WebAuthn.addVirtualAuthenticator`, ctap2, internal, resident
//! keys, user verification) on http://localhost:8765 with fixed challenges: a registration (ES256,
//! attestation none) and two discoverable sign-ins (counters 2 and 3).

use super::*;
use serde_json::Value as Json;

fn fixture() -> Json {
    serde_json::from_str(include_str!("chromium_fixture.json")).unwrap()
}

fn rp() -> RelyingParty {
    RelyingParty::from_base_url("http://localhost:8765").unwrap()
}

fn registration(f: &Json) -> RegistrationResponse {
    serde_json::from_value(f["registration"].clone()).unwrap()
}

fn assertion(f: &Json, which: &str) -> AuthenticationResponse {
    serde_json::from_value(f[which].clone()).unwrap()
}

fn challenge<'a>(f: &'a Json, which: &str) -> &'a str {
    f["challenges"][which].as_str().unwrap()
}

fn registered(f: &Json) -> NewCredential {
    verify_registration(&rp(), challenge(f, "registration"), &registration(f), true).unwrap()
}

#[test]
fn chromiums_registration_verifies_and_yields_its_credential_and_key() {
    let f = fixture();
    let c = registered(&f);
    assert_eq!(
        b64_encode(&c.credential_id),
        f["registration"]["rawId"].as_str().unwrap()
    );
    assert_eq!(c.sign_count, 1);
    assert!(matches!(public_key(&c.public_key), Ok(PublicKey::Es256(_))));
}

#[test]
fn chromiums_sign_ins_verify_with_the_registered_key() {
    let f = fixture();
    let key = registered(&f).public_key;
    let a = verify_assertion(
        &rp(),
        challenge(&f, "signin1"),
        &assertion(&f, "assertion1"),
        &key,
        true,
    )
    .unwrap();
    assert_eq!(a.sign_count, 2);
    assert_eq!(a.user_handle.unwrap(), (1u8..=16).collect::<Vec<_>>());
    let a = verify_assertion(
        &rp(),
        challenge(&f, "signin2"),
        &assertion(&f, "assertion2"),
        &key,
        true,
    )
    .unwrap();
    assert_eq!(a.sign_count, 3);
}

#[test]
fn a_response_for_another_challenge_is_refused() {
    let f = fixture();
    let key = registered(&f).public_key;
    assert_eq!(
        verify_registration(&rp(), challenge(&f, "signin1"), &registration(&f), false),
        Err(Invalid("another challenge"))
    );
    let other = verify_assertion(
        &rp(),
        challenge(&f, "signin2"),
        &assertion(&f, "assertion1"),
        &key,
        false,
    );
    assert_eq!(other, Err(Invalid("another challenge")));
}

#[test]
fn another_origin_or_rp_id_is_refused() {
    let f = fixture();
    let other_port = RelyingParty::from_base_url("http://localhost:9999").unwrap();
    assert_eq!(
        verify_registration(
            &other_port,
            challenge(&f, "registration"),
            &registration(&f),
            false
        ),
        Err(Invalid("another origin"))
    );
    let other_id = RelyingParty {
        id: "example.com".into(),
        origin: "http://localhost:8765".into(),
    };
    let key = registered(&f).public_key;
    assert_eq!(
        verify_assertion(
            &other_id,
            challenge(&f, "signin1"),
            &assertion(&f, "assertion1"),
            &key,
            false
        ),
        Err(Invalid("another RP id"))
    );
}

#[test]
fn a_create_response_cannot_serve_as_a_get_and_back() {
    let f = fixture();
    let mut a = assertion(&f, "assertion1");
    a.response.client_data_json = f["registration"]["response"]["clientDataJSON"]
        .as_str()
        .unwrap()
        .into();
    let key = registered(&f).public_key;
    assert_eq!(
        verify_assertion(&rp(), challenge(&f, "registration"), &a, &key, false),
        Err(Invalid("clientDataJSON type"))
    );
}

#[test]
fn a_tampered_signature_or_authenticator_data_is_refused() {
    let f = fixture();
    let key = registered(&f).public_key;
    let mut a = assertion(&f, "assertion1");
    // The same assertion with the counter raised: the signature no longer covers it.
    let mut data = b64(&a.response.authenticator_data).unwrap();
    data[36] = data[36].wrapping_add(7);
    a.response.authenticator_data = b64_encode(&data);
    assert_eq!(
        verify_assertion(&rp(), challenge(&f, "signin1"), &a, &key, false),
        Err(Invalid("bad signature"))
    );
    // Assertion 2's signature under assertion 1's data.
    let mut a = assertion(&f, "assertion1");
    a.response.signature = assertion(&f, "assertion2").response.signature;
    assert_eq!(
        verify_assertion(&rp(), challenge(&f, "signin1"), &a, &key, false),
        Err(Invalid("bad signature"))
    );
}

#[test]
fn another_credentials_key_does_not_verify() {
    let f = fixture();
    // An Ed25519 COSE key (kty OKP, alg -8, crv Ed25519) that is not this credential's.
    let signing = ed25519_dalek::SigningKey::from_bytes(&[7u8; 32]);
    let cose = Value::Map(vec![
        (Value::from(1), Value::from(1)),
        (Value::from(3), Value::from(-8)),
        (Value::from(-1), Value::from(6)),
        (
            Value::from(-2),
            Value::Bytes(signing.verifying_key().to_bytes().to_vec()),
        ),
    ]);
    let mut key = Vec::new();
    ciborium::ser::into_writer(&cose, &mut key).unwrap();
    assert_eq!(
        verify_assertion(
            &rp(),
            challenge(&f, "signin1"),
            &assertion(&f, "assertion1"),
            &key,
            false
        ),
        Err(Invalid("bad signature"))
    );
}

#[test]
fn malformed_input_is_refused_not_panicked_on() {
    let f = fixture();
    let key = registered(&f).public_key;
    let mut a = assertion(&f, "assertion1");
    a.response.authenticator_data = "!!!not base64".into();
    assert_eq!(
        verify_assertion(&rp(), challenge(&f, "signin1"), &a, &key, false),
        Err(Invalid("a field is not base64url"))
    );
    let mut a = assertion(&f, "assertion1");
    a.response.authenticator_data = b64_encode(&[0u8; 10]);
    assert!(verify_assertion(&rp(), challenge(&f, "signin1"), &a, &key, false).is_err());
    let mut r = registration(&f);
    r.response.attestation_object = b64_encode(b"\xa1\x63fmt");
    assert!(verify_registration(&rp(), challenge(&f, "registration"), &r, false).is_err());
    let mut r = registration(&f);
    r.id = "AAAA".into();
    assert_eq!(
        verify_registration(&rp(), challenge(&f, "registration"), &r, false),
        Err(Invalid("id and rawId differ"))
    );
    // Truncated attested data at every length: an error each time.
    let att = b64(&registration(&f).response.attestation_object).unwrap();
    for cut in [40, 60, 80, 100, 150] {
        let mut r = registration(&f);
        r.response.attestation_object = b64_encode(&att[..cut.min(att.len())]);
        assert!(verify_registration(&rp(), challenge(&f, "registration"), &r, false).is_err());
    }
}
