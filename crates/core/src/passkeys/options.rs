//! The options the browser is handed, in WebAuthn Level 3's JSON encoding
//! (`PublicKeyCredential.parseCreationOptionsFromJSON` / `parseRequestOptionsFromJSON`: binary
//! fields base64url).

use closewise_domain::passkeys::{RelyingParty, CHALLENGE_TTL};
use serde_json::{json, Value};
use uuid::Uuid;

use super::webauthn::{b64_encode, EDDSA, ES256, RS256};
use crate::store::passkeys::PasskeyRow;
use crate::store::UserRow;

/// The relying party's name browsers show.
pub const RP_NAME: &str = "Closewise";

/// A challenge just issued, and the options that carry it.
#[derive(Debug, Clone)]
pub struct ChallengeOptions {
    pub challenge_id: Uuid,
    pub options: Value,
}

fn timeout_ms() -> i64 {
    CHALLENGE_TTL.whole_milliseconds() as i64
}

fn descriptors(passkeys: &[PasskeyRow]) -> Vec<Value> {
    passkeys
        .iter()
        .map(|p| json!({ "type": "public-key", "id": p.credential_id }))
        .collect()
}

/// `PublicKeyCredentialCreationOptionsJSON`: a discoverable credential (resident key required),
/// user verification required (it may stand alone), no attestation, none of the user's passkeys again. The user
/// handle is the account id's 16 bytes.
pub fn creation(
    rp: &RelyingParty,
    challenge_id: Uuid,
    challenge: &str,
    user: &UserRow,
    existing: &[PasskeyRow],
) -> ChallengeOptions {
    let options = json!({
        "rp": { "id": rp.id, "name": RP_NAME },
        "user": {
            "id": b64_encode(user.id.as_bytes()),
            "name": user.email,
            "displayName": user.email,
        },
        "challenge": challenge,
        "pubKeyCredParams": [
            { "type": "public-key", "alg": ES256 },
            { "type": "public-key", "alg": EDDSA },
            { "type": "public-key", "alg": RS256 },
        ],
        "timeout": timeout_ms(),
        "excludeCredentials": descriptors(existing),
        "authenticatorSelection": {
            "residentKey": "required",
            "requireResidentKey": true,
            "userVerification": "required",
        },
        "attestation": "none",
    });
    ChallengeOptions {
        challenge_id,
        options,
    }
}

/// `PublicKeyCredentialRequestOptionsJSON`: `allowed` empty for a discoverable sign-in. User
/// verification `required` when `uv` (the passkey stands alone), else `preferred`.
pub fn request(
    rp: &RelyingParty,
    challenge_id: Uuid,
    challenge: &str,
    allowed: &[PasskeyRow],
    uv: bool,
) -> ChallengeOptions {
    let options = json!({
        "challenge": challenge,
        "timeout": timeout_ms(),
        "rpId": rp.id,
        "allowCredentials": descriptors(allowed),
        "userVerification": if uv { "required" } else { "preferred" },
    });
    ChallengeOptions {
        challenge_id,
        options,
    }
}
