//! Checking a code given as the second factor: six digits against the confirmed app (the step
//! recorded, so the same code cannot serve twice), anything else as a recovery code (spent, and
//! the account told how many are left).
//!
//! A recovery code is stored as `hmac-sha256:` and the hex HMAC-SHA256, under a key derived from
//! `MFA_ENCRYPTION_KEY` ([`super::SecretBox::mac_hex`]), of the code's SHA-256 (hex, of its
//! normalised form). Codes stored before were that SHA-256 alone (no prefix): an account's are
//! rekeyed in place at its next recovery-code check, before the code is looked up, so they keep
//! working and no plain SHA-256 stays at rest once used.

use closewise_domain::mfa::{recovery, totp, Code};
use rand::Rng;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::{Budgeted, Mfa, MfaError};
use crate::budget::PasswordBudget;
use crate::mail::Template;
use crate::store::UserRow;

/// Which kind of code passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Passed {
    Totp,
    RecoveryCode,
}

/// The mark of a keyed hash; a stored hash without it is a plain SHA-256 from before.
const KEYED: &str = "hmac-sha256:";

/// SHA-256 of a normalised recovery code, hex: what was stored before codes were keyed.
fn sha256_hex(normalized: &str) -> String {
    hex::encode(Sha256::digest(normalized.as_bytes()))
}

/// A new set of codes to show once.
fn new_recovery_codes() -> Vec<String> {
    let mut rng = rand::thread_rng();
    (0..recovery::COUNT)
        .map(|_| {
            let mut idx = [0u8; recovery::LEN];
            for i in idx.iter_mut() {
                *i = rng.gen_range(0..recovery::ALPHABET.len()) as u8;
            }
            recovery::format(&idx)
        })
        .collect()
}

impl Mfa {
    /// The stored form of a plain SHA-256 (hex) of a code: keyed under this server's key.
    fn keyed(&self, sha256_hex: &str) -> String {
        format!("{KEYED}{}", self.secrets.mac_hex(sha256_hex.as_bytes()))
    }

    /// The stored form of a normalised recovery code.
    fn hash_recovery(&self, normalized: &str) -> String {
        self.keyed(&sha256_hex(normalized))
    }

    /// A new set: the codes to show once and their hashes to store.
    pub(super) fn new_recovery_codes(&self) -> (Vec<String>, Vec<String>) {
        let codes = new_recovery_codes();
        let hashes = codes
            .iter()
            .map(|c| {
                self.hash_recovery(&recovery::normalize(c).expect("a fresh code is well-formed"))
            })
            .collect();
        (codes, hashes)
    }

    /// Rekeys the codes of `user_id` still stored as a plain SHA-256.
    async fn rekey_legacy_codes(&self, user_id: Uuid) -> Result<(), MfaError> {
        let legacy = self
            .store
            .recovery_code_hashes_without(user_id, KEYED)
            .await?;
        if legacy.is_empty() {
            return Ok(());
        }
        let rekeyed: Vec<(String, String)> = legacy
            .into_iter()
            .map(|old| {
                let new = self.keyed(&old);
                (old, new)
            })
            .collect();
        self.store.rekey_recovery_codes(user_id, &rekeyed).await?;
        Ok(())
    }

    /// `check_code` within the account's budget of failed checks: one check of `budget` is spent
    /// before the code is looked at (racing guesses cannot overrun it) and refunded when it passes.
    pub(super) async fn check_code_within<B: PasswordBudget>(
        &self,
        user: &UserRow,
        raw: &str,
        totp_only: bool,
        budget: &B,
    ) -> Budgeted<Passed, B::Refusal> {
        let spent = match budget.spend(&user.email).await {
            Ok(spent) => spent,
            Err(refusal) => return Ok(Err(refusal)),
        };
        let passed = self
            .check_code(user.id, &user.email, raw, totp_only)
            .await?;
        budget.refund(spent).await;
        Ok(Ok(passed))
    }

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
                self.rekey_legacy_codes(user_id).await?;
                let now = self.clock.now();
                let left = self
                    .store
                    .use_recovery_code(user_id, &self.hash_recovery(&code), now)
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
