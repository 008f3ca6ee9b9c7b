//! A software authenticator for the suite: an ES256 key, a discoverable credential and a counter,
//! answering the API's options as a browser's `toJSON()` would (attestation none). The verifier
//! is also checked against real output captured from Chromium (core's `webauthn` tests); this
//! one lets every test use the challenges the server issues.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use ciborium::value::Value as Cbor;
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use rand::RngCore;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

pub fn b64(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

pub struct Authenticator {
    key: SigningKey,
    pub credential_id: Vec<u8>,
    pub counter: u32,
    /// What the browser reports as the page's origin, and the RP id it hashes.
    pub origin: String,
    pub rp_id: String,
    /// The user handle the credential was created with (`options.user.id`).
    pub user_handle: Option<String>,
    /// Whether it verifies the user (a PIN, a fingerprint): the UV flag of what it signs. A
    /// security key without a PIN only proves presence.
    pub verifies_user: bool,
}

impl Authenticator {
    pub fn new(origin: &str, rp_id: &str) -> Self {
        let key = loop {
            let mut bytes = [0u8; 32];
            rand::thread_rng().fill_bytes(&mut bytes);
            if let Ok(k) = SigningKey::from_slice(&bytes) {
                break k;
            }
        };
        let mut credential_id = vec![0u8; 32];
        rand::thread_rng().fill_bytes(&mut credential_id);
        Authenticator {
            key,
            credential_id,
            counter: 0,
            origin: origin.into(),
            rp_id: rp_id.into(),
            user_handle: None,
            verifies_user: true,
        }
    }

    fn client_data(&self, kind: &str, options: &Value) -> Vec<u8> {
        serde_json::to_vec(&json!({
            "type": kind,
            "challenge": options["challenge"],
            "origin": self.origin,
            "crossOrigin": false,
        }))
        .unwrap()
    }

    fn auth_data(&mut self, flags: u8) -> Vec<u8> {
        let flags = if self.verifies_user {
            flags
        } else {
            flags & !0x04
        };
        self.counter += 1;
        let mut data = Sha256::digest(self.rp_id.as_bytes()).to_vec();
        data.push(flags);
        data.extend_from_slice(&self.counter.to_be_bytes());
        data
    }

    fn cose_key(&self) -> Vec<u8> {
        let point = self.key.verifying_key().to_encoded_point(false);
        let map = Cbor::Map(vec![
            (Cbor::from(1), Cbor::from(2)),
            (Cbor::from(3), Cbor::from(-7)),
            (Cbor::from(-1), Cbor::from(1)),
            (Cbor::from(-2), Cbor::Bytes(point.x().unwrap().to_vec())),
            (Cbor::from(-3), Cbor::Bytes(point.y().unwrap().to_vec())),
        ]);
        let mut out = Vec::new();
        ciborium::ser::into_writer(&map, &mut out).unwrap();
        out
    }

    /// `RegistrationResponseJSON` for creation `options`.
    pub fn register(&mut self, options: &Value) -> Value {
        self.user_handle = options["user"]["id"].as_str().map(str::to_string);
        let client_data = self.client_data("webauthn.create", options);
        let mut auth = self.auth_data(0x45);
        auth.extend_from_slice(&[0u8; 16]);
        auth.extend_from_slice(&(self.credential_id.len() as u16).to_be_bytes());
        auth.extend_from_slice(&self.credential_id);
        auth.extend_from_slice(&self.cose_key());
        let attestation = Cbor::Map(vec![
            (Cbor::from("fmt"), Cbor::from("none")),
            (Cbor::from("attStmt"), Cbor::Map(vec![])),
            (Cbor::from("authData"), Cbor::Bytes(auth)),
        ]);
        let mut att = Vec::new();
        ciborium::ser::into_writer(&attestation, &mut att).unwrap();
        let id = b64(&self.credential_id);
        json!({
            "id": id, "rawId": id, "type": "public-key",
            "authenticatorAttachment": "platform", "clientExtensionResults": {},
            "response": {
                "clientDataJSON": b64(&client_data),
                "attestationObject": b64(&att),
                "transports": ["internal"],
            },
        })
    }

    /// `AuthenticationResponseJSON` for request `options`.
    pub fn sign_in(&mut self, options: &Value) -> Value {
        let client_data = self.client_data("webauthn.get", options);
        let auth = self.auth_data(0x05);
        let mut message = auth.clone();
        message.extend_from_slice(&Sha256::digest(&client_data));
        let signature: Signature = self.key.sign(&message);
        let id = b64(&self.credential_id);
        json!({
            "id": id, "rawId": id, "type": "public-key",
            "authenticatorAttachment": "platform", "clientExtensionResults": {},
            "response": {
                "clientDataJSON": b64(&client_data),
                "authenticatorData": b64(&auth),
                "signature": b64(signature.to_der().as_bytes()),
                "userHandle": self.user_handle,
            },
        })
    }
}
