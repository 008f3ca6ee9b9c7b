//! The `mfa_token` of a password sign-in waiting for its second factor: opaque, stored hashed,
//! 5 minutes, single use, bound to the account, the client kind and the client's address; 5 wrong
//! codes void it (`closewise_domain::mfa`).

use closewise_domain::mfa::{mfa_token_usable, Method, MFA_TOKEN_LIFETIME};
use uuid::Uuid;

use super::codes::Passed;
use super::{Mfa, MfaError};
use crate::store::mfa::{MfaTokenRow, NewMfaToken};
use crate::store::UserRow;

/// 32 random bytes, base64url (as the sessions' opaque tokens; sessions build on this
/// module, so it cannot use theirs).
fn random_token() -> String {
    use base64::Engine;
    use rand::RngCore;
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

fn hash_token(token: &str) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(token.as_bytes()))
}

/// Who signs in: our own pages (the refresh cookie) or a native client (tokens in the body).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Client {
    Site,
    Native,
}

impl Client {
    fn as_str(self) -> &'static str {
        match self {
            Client::Site => "site",
            Client::Native => "native",
        }
    }
}

/// A password sign-in that needs its second factor.
#[derive(Debug, Clone)]
pub struct PendingSignIn {
    pub mfa_token: String,
    pub methods: Vec<Method>,
}

/// A live token and its account, ready for the code.
pub struct Presented {
    pub(crate) row: MfaTokenRow,
    pub user: UserRow,
}

impl Mfa {
    pub async fn issue_token(
        &self,
        user_id: Uuid,
        methods: Vec<Method>,
        client: Client,
        ip: &str,
    ) -> Result<PendingSignIn, MfaError> {
        let token = random_token();
        let now = self.clock.now();
        self.store
            .insert_mfa_token(&NewMfaToken {
                user_id,
                hash: &hash_token(&token),
                client: client.as_str(),
                ip,
                now,
                expires_at: now + MFA_TOKEN_LIFETIME,
            })
            .await?;
        Ok(PendingSignIn {
            mfa_token: token,
            methods,
        })
    }

    /// The token's account when `token` is live and was issued to this client at this address;
    /// `InvalidMfaToken` otherwise.
    pub async fn present(
        &self,
        token: &str,
        client: Client,
        ip: &str,
    ) -> Result<Presented, MfaError> {
        let row = self
            .store
            .mfa_token_by_hash(&hash_token(token.trim()))
            .await?
            .filter(|r| {
                r.used_at.is_none()
                    && r.client == client.as_str()
                    && r.ip == ip
                    && mfa_token_usable(r.created_at, r.attempts, self.clock.now())
            })
            .ok_or(MfaError::InvalidMfaToken)?;
        let user = self
            .store
            .user_by_id(row.user_id)
            .await?
            .ok_or(MfaError::InvalidMfaToken)?;
        Ok(Presented { row, user })
    }

    /// Checks `code` for a presented token: on success the token is spent; a wrong code counts
    /// against it (`InvalidCode`; the fifth voids it).
    pub async fn redeem(&self, presented: &Presented, code: &str) -> Result<Passed, MfaError> {
        let p = presented;
        match self.check_code(p.user.id, &p.user.email, code, false).await {
            Ok(passed) => {
                if !self
                    .store
                    .spend_mfa_token(p.row.id, self.clock.now())
                    .await?
                {
                    return Err(MfaError::InvalidMfaToken);
                }
                Ok(passed)
            }
            Err(MfaError::InvalidCode) => {
                self.store.mfa_token_failed(p.row.id).await?;
                Err(MfaError::InvalidCode)
            }
            Err(e) => Err(e),
        }
    }
}

impl Mfa {
    /// A wrong second factor other than a code (a passkey answer that does not verify) presented
    /// with the token: it counts against the token as a wrong code does (the fifth voids it).
    pub async fn count_failure(&self, presented: &Presented) -> Result<(), MfaError> {
        self.store.mfa_token_failed(presented.row.id).await?;
        Ok(())
    }

    /// A passkey is the second factor of a presented token: the passkey was verified for the
    /// token's account (by the passkey service), so the token is spent (single use).
    pub async fn spend_for_passkey(&self, presented: &Presented) -> Result<(), MfaError> {
        let spent = self
            .store
            .spend_mfa_token(presented.row.id, self.clock.now())
            .await?;
        if spent {
            Ok(())
        } else {
            Err(MfaError::InvalidMfaToken)
        }
    }
}
