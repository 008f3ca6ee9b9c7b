//! What the passkey flows refuse, with the machine code an adapter shows.

use super::webauthn::Invalid;
use crate::store::DbError;

#[derive(Debug, thiserror::Error)]
pub enum PasskeyError {
    /// A response that does not verify: malformed, for another challenge, origin or RP, a
    /// credential unknown or of another account, a counter that went backwards. The reason is
    /// logged, never shown.
    #[error("This passkey could not be verified. Try again.")]
    InvalidPasskey(&'static str),
    /// A challenge answered after its 5 minutes.
    #[error("The passkey request has expired. Try again.")]
    ChallengeExpired,
    #[error("{0}")]
    InvalidName(&'static str),
    /// Removing a passkey that is not the caller's (or is gone).
    #[error("Passkey not found")]
    NotFound,
    /// The signed-in caller's account is gone.
    #[error("Authentication required. Please sign in again.")]
    NotSignedIn,
    /// An `mfa_token` unknown, expired, used, voided or of another client.
    #[error("Your sign-in has expired. Sign in again.")]
    InvalidMfaToken,
    #[error(transparent)]
    Database(#[from] DbError),
}

impl PasskeyError {
    pub(super) fn invalid(reason: &'static str) -> Self {
        tracing::info!(reason, "passkey response refused");
        PasskeyError::InvalidPasskey(reason)
    }

    pub fn code(&self) -> &'static str {
        match self {
            PasskeyError::InvalidPasskey(_) => "invalid_passkey",
            PasskeyError::ChallengeExpired => "challenge_expired",
            PasskeyError::InvalidName(_) => "invalid_passkey_name",
            PasskeyError::NotFound => "passkey_not_found",
            PasskeyError::NotSignedIn => "not_signed_in",
            PasskeyError::InvalidMfaToken => "invalid_mfa_token",
            PasskeyError::Database(_) => "internal",
        }
    }
}

impl From<Invalid> for PasskeyError {
    fn from(e: Invalid) -> Self {
        PasskeyError::invalid(e.0)
    }
}
