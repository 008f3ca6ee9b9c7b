//! The `mfa_token` a password sign-in of an account with a second factor answers
//! (`crate::mfa`'s tokens). A passkey is that second factor: the passkey challenge names the
//! token's account, and the passkey grant spends the token.

use uuid::Uuid;

use super::PasskeyError;
use crate::mfa::{Client, Mfa, MfaError};

/// Who presents the token: the site's pages (cookie) or a native client, and from where.
pub struct MfaClient<'a> {
    pub site: bool,
    pub ip: &'a str,
}

impl MfaClient<'_> {
    fn kind(&self) -> Client {
        if self.site {
            Client::Site
        } else {
            Client::Native
        }
    }
}

fn refused(e: MfaError) -> PasskeyError {
    match e {
        MfaError::Database(e) => PasskeyError::Database(e),
        _ => PasskeyError::InvalidMfaToken,
    }
}

/// The account of a live `mfa_token` presented by `client`, without spending it.
pub async fn mfa_token_account(
    mfa: &Mfa,
    token: &str,
    client: &MfaClient<'_>,
) -> Result<Uuid, PasskeyError> {
    let presented = mfa
        .present(token, client.kind(), client.ip)
        .await
        .map_err(refused)?;
    Ok(presented.user.id)
}

/// Spends the `mfa_token` of `user_id` presented by `client` (single use).
pub async fn spend_mfa_token(
    mfa: &Mfa,
    token: &str,
    user_id: Uuid,
    client: &MfaClient<'_>,
) -> Result<(), PasskeyError> {
    let presented = mfa
        .present(token, client.kind(), client.ip)
        .await
        .map_err(refused)?;
    if presented.user.id != user_id {
        return Err(PasskeyError::InvalidMfaToken);
    }
    mfa.spend_for_passkey(&presented).await.map_err(refused)
}
