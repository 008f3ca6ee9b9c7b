//! Checking a code given as the second factor: six digits against the confirmed app (the step
//! recorded, so the same code cannot serve twice), anything else as a recovery code (spent, and
//! the account told how many are left).

use closewise_domain::mfa::{recovery, totp, Code};
use rand::Rng;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::{Mfa, MfaError};
use crate::mail::Template;

/// Which kind of code passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Passed {
    Totp,
    RecoveryCode,
}

/// SHA-256 of a normalised recovery code (they are high-entropy: no slow hash needed).
pub(super) fn hash_recovery(normalized: &str) -> String {
    hex::encode(Sha256::digest(normalized.as_bytes()))
}

/// A new set: the codes to show once and their hashes to store.
pub(super) fn new_recovery_codes() -> (Vec<String>, Vec<String>) {
    let mut rng = rand::thread_rng();
    let codes: Vec<String> = (0..recovery::COUNT)
        .map(|_| {
            let mut idx = [0u8; recovery::LEN];
            for i in idx.iter_mut() {
                *i = rng.gen_range(0..recovery::ALPHABET.len()) as u8;
            }
            recovery::format(&idx)
        })
        .collect();
    let hashes = codes
        .iter()
        .map(|c| hash_recovery(&recovery::normalize(c).expect("a fresh code is well-formed")))
        .collect();
    (codes, hashes)
}

impl Mfa {
    /// Checks `raw` (a TOTP or, unless `totp_only`, a recovery code) as `user_id`'s second factor;
    /// a passing code is spent. `InvalidCode` otherwise, and nothing changes.
    pub async fn check_code(
        &self,
        user_id: Uuid,
        email: &str,
        raw: &str,
        totp_only: bool,
    ) -> Result<Passed, MfaError> {
        match Code::parse(raw).ok_or(MfaError::InvalidCode)? {
            Code::Totp(code) => {
                let row = self
                    .store
                    .totp_of(user_id)
                    .await?
                    .filter(|r| r.confirmed_at.is_some())
                    .ok_or(MfaError::InvalidCode)?;
                let secret = self.secrets.open(user_id, &row.secret)?;
                let step = totp::verify(&secret, &code, self.clock.now(), row.last_step)
                    .map_err(|_| MfaError::InvalidCode)?;
                // A concurrent request may have accepted this step first.
                if !self.store.accept_totp_step(user_id, step).await? {
                    return Err(MfaError::InvalidCode);
                }
                Ok(Passed::Totp)
            }
            Code::Recovery(_) if totp_only => Err(MfaError::InvalidCode),
            Code::Recovery(code) => {
                let now = self.clock.now();
                let left = self
                    .store
                    .use_recovery_code(user_id, &hash_recovery(&code), now)
                    .await?
                    .ok_or(MfaError::InvalidCode)?;
                let mail = self
                    .mail
                    .compose(email, Template::MfaRecoveryCodeUsed { left }, now);
                self.store.enqueue_mail(&mail).await?;
                Ok(Passed::RecoveryCode)
            }
        }
    }
}
