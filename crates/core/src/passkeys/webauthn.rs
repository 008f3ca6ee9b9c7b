//! WebAuthn verification (Level 2/3, §7.1 registration and §7.2 authentication) for the relying
//! party: the browser's JSON (`PublicKeyCredential.toJSON()`, binary fields base64url) checked
//! against the challenge we issued, our origin and RP id, and the credential's public key.
//! Attestation "none" only (we ask for none: we do not need to know the authenticator's make);
//! ES256 (COSE -7), EdDSA (COSE -8) and RS256 (COSE -257, RSASSA-PKCS1-v1_5 with SHA-256, at
//! least 2048 bits: Windows Hello's) keys. Pure: no I/O, no clock.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use ciborium::value::Value;
use closewise_domain::passkeys::RelyingParty;
use serde::Deserialize;
use sha2::{Digest, Sha256};

/// COSE algorithm identifiers we accept, in order of preference.
pub const ES256: i64 = -7;
pub const EDDSA: i64 = -8;
pub const RS256: i64 = -257;
/// The smallest RSA modulus we accept, in bits.
const RSA_MIN_BITS: usize = 2048;

const FLAG_UP: u8 = 0x01;
const FLAG_UV: u8 = 0x04;
const FLAG_AT: u8 = 0x40;

/// Why a response was refused: for logs only; the caller answers one `invalid_passkey`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid WebAuthn response: {0}")]
pub struct Invalid(pub &'static str);

/// `RegistrationResponseJSON`: what `navigator.credentials.create()` answered, as JSON.
#[derive(Debug, Clone, Deserialize)]
pub struct RegistrationResponse {
    pub id: String,
    #[serde(rename = "rawId")]
    pub raw_id: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub response: AttestationResponse,
}

#[derive(Debug, Clone, Deserialize)]
pub struct AttestationResponse {
    #[serde(rename = "clientDataJSON")]
    pub client_data_json: String,
    #[serde(rename = "attestationObject")]
    pub attestation_object: String,
}

/// `AuthenticationResponseJSON`: what `navigator.credentials.get()` answered, as JSON.
#[derive(Debug, Clone, Deserialize)]
pub struct AuthenticationResponse {
    pub id: String,
    #[serde(rename = "rawId")]
    pub raw_id: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub response: AssertionResponse,
}

#[derive(Debug, Clone, Deserialize)]
pub struct AssertionResponse {
    #[serde(rename = "clientDataJSON")]
    pub client_data_json: String,
    #[serde(rename = "authenticatorData")]
    pub authenticator_data: String,
    pub signature: String,
    #[serde(rename = "userHandle", default)]
    pub user_handle: Option<String>,
}

/// A credential just registered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewCredential {
    pub credential_id: Vec<u8>,
    /// The COSE_Key as the authenticator sent it.
    pub public_key: Vec<u8>,
    pub sign_count: u32,
}

/// An assertion whose signature verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assertion {
    pub sign_count: u32,
    pub user_handle: Option<Vec<u8>>,
}

#[derive(Deserialize)]
struct ClientData {
    #[serde(rename = "type")]
    kind: String,
    challenge: String,
    origin: String,
    #[serde(rename = "crossOrigin", default)]
    cross_origin: Option<bool>,
}

/// Base64url, with or without padding.
pub fn b64(field: &str) -> Result<Vec<u8>, Invalid> {
    URL_SAFE_NO_PAD
        .decode(field.trim_end_matches('='))
        .map_err(|_| Invalid("a field is not base64url"))
}

pub fn b64_encode(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// The credential id both `id` and `rawId` name (they must agree).
fn credential_id(id: &str, raw_id: &str, kind: &str) -> Result<Vec<u8>, Invalid> {
    if kind != "public-key" {
        return Err(Invalid("type is not public-key"));
    }
    let raw = b64(raw_id)?;
    if b64(id)? != raw || raw.is_empty() {
        return Err(Invalid("id and rawId differ"));
    }
    Ok(raw)
}

impl AuthenticationResponse {
    /// The credential this assertion is by (`rawId`), before anything is verified.
    pub fn credential_id(&self) -> Result<Vec<u8>, Invalid> {
        credential_id(&self.id, &self.raw_id, &self.kind)
    }
}

/// §7.1 steps 5–14 / §7.2 steps 10–14: type, challenge, origin, and not cross-origin.
fn check_client_data(
    raw: &[u8],
    kind: &str,
    challenge: &str,
    rp: &RelyingParty,
) -> Result<(), Invalid> {
    let data: ClientData =
        serde_json::from_slice(raw).map_err(|_| Invalid("clientDataJSON is not JSON"))?;
    if data.kind != kind {
        return Err(Invalid("clientDataJSON type"));
    }
    if data.challenge.trim_end_matches('=') != challenge {
        return Err(Invalid("another challenge"));
    }
    if data.origin != rp.origin {
        return Err(Invalid("another origin"));
    }
    if data.cross_origin == Some(true) {
        return Err(Invalid("cross-origin"));
    }
    Ok(())
}

struct AuthData<'a> {
    sign_count: u32,
    /// With the AT flag: the credential id and the COSE key.
    attested: Option<(&'a [u8], &'a [u8])>,
}

/// Parses authenticator data and checks the RP id hash, user presence and (when `require_uv`)
/// user verification.
fn auth_data<'a>(
    raw: &'a [u8],
    rp: &RelyingParty,
    require_uv: bool,
) -> Result<AuthData<'a>, Invalid> {
    if raw.len() < 37 {
        return Err(Invalid("authenticator data too short"));
    }
    if raw[..32] != Sha256::digest(rp.id.as_bytes())[..] {
        return Err(Invalid("another RP id"));
    }
    let flags = raw[32];
    if flags & FLAG_UP == 0 {
        return Err(Invalid("user not present"));
    }
    if require_uv && flags & FLAG_UV == 0 {
        return Err(Invalid("user not verified"));
    }
    let sign_count = u32::from_be_bytes([raw[33], raw[34], raw[35], raw[36]]);
    let attested = if flags & FLAG_AT != 0 {
        let rest = raw
            .get(37 + 16..)
            .ok_or(Invalid("attested data too short"))?;
        let len = usize::from(u16::from_be_bytes([
            *rest.first().ok_or(Invalid("no credential id"))?,
            *rest.get(1).ok_or(Invalid("no credential id"))?,
        ]));
        let id = rest
            .get(2..2 + len)
            .ok_or(Invalid("credential id too short"))?;
        let mut key_bytes = &rest[2 + len..];
        let before = key_bytes.len();
        let _: Value = ciborium::de::from_reader(&mut key_bytes)
            .map_err(|_| Invalid("public key is not CBOR"))?;
        let key = &rest[2 + len..2 + len + (before - key_bytes.len())];
        Some((id, key))
    } else {
        None
    };
    Ok(AuthData {
        sign_count,
        attested,
    })
}

fn map_get(map: &[(Value, Value)], key: i64) -> Option<&Value> {
    map.iter().find_map(|(k, v)| match k {
        Value::Integer(i) if i128::from(*i) == i128::from(key) => Some(v),
        _ => None,
    })
}

fn int(v: Option<&Value>) -> Option<i64> {
    match v {
        Some(Value::Integer(i)) => i64::try_from(i128::from(*i)).ok(),
        _ => None,
    }
}

fn bytes(v: Option<&Value>) -> Option<&[u8]> {
    match v {
        Some(Value::Bytes(b)) => Some(b),
        _ => None,
    }
}

/// A public key we can verify with, from its COSE_Key (RFC 9053).
enum PublicKey {
    Es256(p256::ecdsa::VerifyingKey),
    EdDsa(ed25519_dalek::VerifyingKey),
    Rs256(rsa::RsaPublicKey),
}

/// An RSA key (COSE kty 3): n at -1, e at -2, big-endian.
fn rsa_key(map: &[(Value, Value)]) -> Result<PublicKey, Invalid> {
    let (Some(n), Some(e)) = (bytes(map_get(map, -1)), bytes(map_get(map, -2))) else {
        return Err(Invalid("RSA key without n or e"));
    };
    let n = rsa::BigUint::from_bytes_be(n);
    if n.bits() < RSA_MIN_BITS {
        return Err(Invalid("RSA key under 2048 bits"));
    }
    rsa::RsaPublicKey::new(n, rsa::BigUint::from_bytes_be(e))
        .map(PublicKey::Rs256)
        .map_err(|_| Invalid("bad RSA key"))
}

fn public_key(cose: &[u8]) -> Result<PublicKey, Invalid> {
    let value: Value =
        ciborium::de::from_reader(cose).map_err(|_| Invalid("public key is not CBOR"))?;
    let Value::Map(map) = value else {
        return Err(Invalid("public key is not a map"));
    };
    let (kty, alg, crv) = (
        int(map_get(&map, 1)),
        int(map_get(&map, 3)),
        int(map_get(&map, -1)),
    );
    let x = bytes(map_get(&map, -2));
    match (kty, alg, crv) {
        (Some(2), Some(ES256), Some(1)) => {
            let (Some(x), Some(y)) = (x, bytes(map_get(&map, -3))) else {
                return Err(Invalid("EC2 key without x or y"));
            };
            if x.len() != 32 || y.len() != 32 {
                return Err(Invalid("EC2 coordinates are not 32 bytes"));
            }
            let point = p256::EncodedPoint::from_affine_coordinates(x.into(), y.into(), false);
            p256::ecdsa::VerifyingKey::from_encoded_point(&point)
                .map(PublicKey::Es256)
                .map_err(|_| Invalid("EC2 point not on P-256"))
        }
        (Some(1), Some(EDDSA), Some(6)) => {
            let x: [u8; 32] = x
                .and_then(|x| x.try_into().ok())
                .ok_or(Invalid("OKP key is not 32 bytes"))?;
            ed25519_dalek::VerifyingKey::from_bytes(&x)
                .map(PublicKey::EdDsa)
                .map_err(|_| Invalid("bad Ed25519 key"))
        }
        (Some(3), Some(RS256), _) => rsa_key(&map),
        _ => Err(Invalid("unsupported key type or algorithm")),
    }
}

fn verify_signature(key: &PublicKey, message: &[u8], signature: &[u8]) -> Result<(), Invalid> {
    use p256::ecdsa::signature::Verifier;
    let ok = match key {
        PublicKey::Es256(k) => p256::ecdsa::Signature::from_der(signature)
            .map(|s| s.normalize_s().unwrap_or(s))
            .is_ok_and(|s| k.verify(message, &s).is_ok()),
        PublicKey::EdDsa(k) => ed25519_dalek::Signature::from_slice(signature)
            .is_ok_and(|s| k.verify_strict(message, &s).is_ok()),
        PublicKey::Rs256(k) => k
            .verify(
                rsa::Pkcs1v15Sign::new::<Sha256>(),
                &Sha256::digest(message),
                signature,
            )
            .is_ok(),
    };
    ok.then_some(()).ok_or(Invalid("bad signature"))
}

/// §7.1: a registration answering `challenge` (base64url, as issued) for our RP.
pub fn verify_registration(
    rp: &RelyingParty,
    challenge: &str,
    credential: &RegistrationResponse,
    require_uv: bool,
) -> Result<NewCredential, Invalid> {
    let raw_id = credential_id(&credential.id, &credential.raw_id, &credential.kind)?;
    let client_data = b64(&credential.response.client_data_json)?;
    check_client_data(&client_data, "webauthn.create", challenge, rp)?;
    let attestation = b64(&credential.response.attestation_object)?;
    let value: Value = ciborium::de::from_reader(attestation.as_slice())
        .map_err(|_| Invalid("attestationObject is not CBOR"))?;
    let Value::Map(map) = value else {
        return Err(Invalid("attestationObject is not a map"));
    };
    let field = |name: &str| {
        map.iter()
            .find_map(|(k, v)| matches!(k, Value::Text(t) if t == name).then_some(v))
    };
    match field("fmt") {
        Some(Value::Text(fmt)) if fmt == "none" => {}
        _ => return Err(Invalid("attestation format is not none")),
    }
    let Some(Value::Bytes(auth)) = field("authData") else {
        return Err(Invalid("no authData"));
    };
    let data = auth_data(auth, rp, require_uv)?;
    let Some((id, key)) = data.attested else {
        return Err(Invalid("no attested credential"));
    };
    if id != raw_id.as_slice() {
        return Err(Invalid("credential id differs from rawId"));
    }
    public_key(key)?;
    Ok(NewCredential {
        credential_id: raw_id,
        public_key: key.to_vec(),
        sign_count: data.sign_count,
    })
}

/// §7.2: an assertion answering `challenge` by the credential whose COSE key is `public_key`.
/// The sign counter's rule is the caller's (`closewise_domain::passkeys::sign_count_acceptable`).
pub fn verify_assertion(
    rp: &RelyingParty,
    challenge: &str,
    credential: &AuthenticationResponse,
    public_key_cose: &[u8],
    require_uv: bool,
) -> Result<Assertion, Invalid> {
    credential.credential_id()?;
    let r = &credential.response;
    let client_data = b64(&r.client_data_json)?;
    check_client_data(&client_data, "webauthn.get", challenge, rp)?;
    let auth = b64(&r.authenticator_data)?;
    let data = auth_data(&auth, rp, require_uv)?;
    let key = public_key(public_key_cose)?;
    let mut message = auth.clone();
    message.extend_from_slice(&Sha256::digest(&client_data));
    verify_signature(&key, &message, &b64(&r.signature)?)?;
    let user_handle = match r.user_handle.as_deref() {
        Some(h) if !h.is_empty() => Some(b64(h)?),
        _ => None,
    };
    Ok(Assertion {
        sign_count: data.sign_count,
        user_handle,
    })
}

#[cfg(test)]
#[path = "webauthn_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "webauthn_rs256_tests.rs"]
mod rs256_tests;
