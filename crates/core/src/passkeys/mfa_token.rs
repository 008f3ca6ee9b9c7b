//! The `mfa_token` a password sign-in of an account with a second factor answers (contract:
//! helper D's branch `mfa-totp` owns the tokens). A passkey is that second factor: the passkey
//! challenge names the token's account, and the passkey grant spends the token.
//!
//! STUB: branch `mfa-totp` had not landed its mfa_token functions when passkeys were built, so
//! every token is refused here (`invalid_mfa_token`) and no passkey can finish a password
//! sign-in yet. On merging, these two functions call D's real ones (peek and spend, bound to the
//! account and the client); nothing else of the passkey flows changes.

use uuid::Uuid;

use super::PasskeyError;
use crate::store::Store;

/// Who presents the token: the site's pages (cookie) or a native client, and from where.
pub struct MfaClient<'a> {
    pub site: bool,
    pub ip: &'a str,
}

/// The account of a live `mfa_token` presented by `client`, without spending it.
pub async fn mfa_token_account(
    _store: &Store,
    _token: &str,
    _client: &MfaClient<'_>,
) -> Result<Uuid, PasskeyError> {
    Err(PasskeyError::InvalidMfaToken)
}

/// Spends the `mfa_token` of `user_id` presented by `client` (single use).
pub async fn spend_mfa_token(
    _store: &Store,
    _token: &str,
    _user_id: Uuid,
    _client: &MfaClient<'_>,
) -> Result<(), PasskeyError> {
    Err(PasskeyError::InvalidMfaToken)
}
