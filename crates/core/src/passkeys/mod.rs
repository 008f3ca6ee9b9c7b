//! Passkeys (WebAuthn).
pub mod webauthn;
