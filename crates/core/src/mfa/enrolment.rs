//! The signed-in caller's authenticator app: a pending enrolment (a new secret, replacing an older
//! pending one), confirmed by its first code (which also hands out the recovery codes), new
//! recovery codes, and turning it off.

use closewise_domain::mfa::totp;
use rand::RngCore;
use uuid::Uuid;

use super::{Budgeted, Mfa, MfaError};
use crate::budget::PasswordBudget;
use crate::mail::Template;
use crate::store::UserRow;

/// How the mails name this factor.
pub(super) const APP: &str = "An authenticator app";

/// A pending enrolment: the secret to type in and the URI to scan.
#[derive(Debug, Clone)]
pub struct Enrolment {
    pub secret: String,
    pub otpauth_uri: String,
}

impl Mfa {
    async fn user(&self, user_id: Uuid) -> Result<UserRow, MfaError> {
        self.store
            .user_by_id(user_id)
            .await?
            .ok_or(MfaError::NotSignedIn)
    }

    /// Starts (or restarts) enrolling an app: `AlreadyEnrolled` when one is confirmed.
    pub async fn begin_totp(&self, user_id: Uuid) -> Result<Enrolment, MfaError> {
        let user = self.user(user_id).await?;
        let mut secret = [0u8; totp::SECRET_LEN];
        rand::thread_rng().fill_bytes(&mut secret);
        let sealed = self.secrets.seal(user_id, &secret);
        if !self
            .store
            .put_pending_totp(user_id, &sealed, self.clock.now())
            .await?
        {
            return Err(MfaError::AlreadyEnrolled);
        }
        let secret = totp::base32_encode(&secret);
        Ok(Enrolment {
            otpauth_uri: totp::otpauth_uri(&user.email, &secret),
            secret,
        })
    }

    /// Confirms the pending enrolment with its first code: the 10 recovery codes, shown once.
    /// The session given is stamped as having given the factor.
    pub async fn confirm_totp(
        &self,
        user_id: Uuid,
        session_id: Uuid,
        code: &str,
    ) -> Result<Vec<String>, MfaError> {
        let user = self.user(user_id).await?;
        let row = match self.store.totp_of(user_id).await? {
            None => return Err(MfaError::NoPendingEnrolment),
            Some(r) if r.confirmed_at.is_some() => return Err(MfaError::AlreadyEnrolled),
            Some(r) => r,
        };
        let secret = self.secrets.open(user_id, &row.secret)?;
        let now = self.clock.now();
        let step = totp::verify(&secret, code, now, None).map_err(|_| MfaError::InvalidCode)?;
        let (codes, hashes) = self.new_recovery_codes();
        let mail = self.mail.compose(
            &user.email,
            Template::MfaFactorAdded { factor: APP.into() },
            now,
        );
        if !self
            .store
            .confirm_totp(user_id, step, &hashes, &mail, now)
            .await?
        {
            // Confirmed by a concurrent request meanwhile.
            return Err(MfaError::AlreadyEnrolled);
        }
        self.store.stamp_mfa(session_id, user_id, now).await?;
        Ok(codes)
    }

    /// A new set of recovery codes (the old ones void), for a current app code checked within
    /// the account's `budget`.
    pub async fn regenerate_recovery_codes<B: PasswordBudget>(
        &self,
        user_id: Uuid,
        code: &str,
        budget: &B,
    ) -> Budgeted<Vec<String>, B::Refusal> {
        let user = self.user(user_id).await?;
        if let Err(refusal) = self.check_code_within(&user, code, true, budget).await? {
            return Ok(Err(refusal));
        }
        let (codes, hashes) = self.new_recovery_codes();
        let now = self.clock.now();
        let mail = self
            .mail
            .compose(&user.email, Template::MfaRecoveryCodesGenerated, now);
        self.store
            .replace_recovery_codes(user_id, &hashes, &mail, now)
            .await?;
        Ok(Ok(codes))
    }

    /// Turns the app off for a current app code or a recovery code, checked within the account's
    /// `budget`; the recovery codes go too.
    pub async fn disable_totp<B: PasswordBudget>(
        &self,
        user_id: Uuid,
        code: &str,
        budget: &B,
    ) -> Budgeted<(), B::Refusal> {
        let user = self.user(user_id).await?;
        if let Err(refusal) = self.check_code_within(&user, code, false, budget).await? {
            return Ok(Err(refusal));
        }
        let mail = self.mail.compose(
            &user.email,
            Template::MfaFactorRemoved {
                factor: APP.into(),
                by_operator: false,
            },
            self.clock.now(),
        );
        self.store.remove_totp(user_id, Some(&mail)).await?;
        Ok(Ok(()))
    }
}
