//! The `mfa_token` a password sign-in of an account with a second factor answers
//! (`crate::mfa`'s tokens). A passkey is that second factor: the passkey challenge names the
//! token's account, and the passkey grant spends the token; an answer that does not verify
//! counts against the token as a wrong code does.

use uuid::Uuid;

use super::{PasskeyError, Passkeys, Purpose};
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

impl Passkeys {
    /// The passkey grant's check: the account an answer to a sign-in challenge signs in. With
    /// `mfa_token` (presented by `client`) the passkey is that password sign-in's second factor:
    /// it must be the token's account's, the token is then spent (single use), and an answer
    /// that does not verify counts as one of the token's five wrong attempts.
    pub async fn sign_in_answer(
        &self,
        mfa: &Mfa,
        challenge_id: &str,
        credential: serde_json::Value,
        mfa_token: Option<&str>,
        client: &MfaClient<'_>,
    ) -> Result<Uuid, PasskeyError> {
        let Some(token) = mfa_token else {
            return self
                .authenticate(Purpose::SignIn, challenge_id, credential, None)
                .await;
        };
        let presented = mfa
            .present(token, client.kind(), client.ip)
            .await
            .map_err(refused)?;
        let expected = Some(presented.user.id);
        let user_id = match self
            .authenticate(Purpose::SignIn, challenge_id, credential, expected)
            .await
        {
            Err(e @ PasskeyError::InvalidPasskey(_)) => {
                mfa.count_failure(&presented).await.map_err(refused)?;
                return Err(e);
            }
            other => other?,
        };
        mfa.spend_for_passkey(&presented).await.map_err(refused)?;
        Ok(user_id)
    }
}
