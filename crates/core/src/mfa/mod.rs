//! A second factor: enrolling an authenticator app (TOTP, `closewise_domain::mfa::totp`)
//! with its secret sealed at rest ([`secret_box`]), recovery codes, checking a code ([`codes`]),
//! and the `mfa_token` that carries a password sign-in to its code step ([`tokens`]). The rules
//! are the domain's; the sign-in itself is the sessions service's, step-up the reauth module's.
//!
//! [`Mfa::methods_for`] is the one place that says which factors an account has, passkeys
//! included. An operator's view and reset are in [`operator`].

mod codes;
mod enrolment;
mod error;
pub mod operator;
pub mod secret_box;
mod tokens;

use closewise_domain::mfa::{Factors, Method};
use uuid::Uuid;

use crate::clock::Clock;
use crate::mail::Composer;
use crate::store::Store;

pub use codes::Passed;
pub use enrolment::Enrolment;
pub use error::MfaError;
pub use operator::{OperatorReset, OperatorView};
pub use secret_box::SecretBox;
pub use tokens::{Client, PendingSignIn, Presented};

/// A flow that checks a code spends one check of the account's budget first
/// ([`crate::budget::PasswordBudget`], the one sign-in spends): the inner `Err` is the budget's
/// refusal, passed through as is.
pub type Budgeted<T, R> = Result<Result<T, R>, MfaError>;

/// What `GET /api/auth/mfa` shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Status {
    pub totp: bool,
    pub recovery_codes_remaining: u32,
    pub passkeys: u32,
    /// A team the user belongs to requires a second factor.
    pub required: bool,
}

#[derive(Clone)]
pub struct Mfa {
    store: Store,
    clock: Clock,
    secrets: SecretBox,
    mail: Composer,
}

impl Mfa {
    pub fn new(store: Store, clock: Clock, secrets: SecretBox, mail: Composer) -> Self {
        Mfa {
            store,
            clock,
            secrets,
            mail,
        }
    }

    /// The factors `user_id` has enrolled (passkeys included once counted by the store).
    pub async fn factors(&self, user_id: Uuid) -> Result<Factors, MfaError> {
        Ok(self.store.mfa_factors(user_id).await?)
    }

    /// The methods a code step offers `user_id`; empty when the account has no factor.
    pub async fn methods_for(&self, user_id: Uuid) -> Result<Vec<Method>, MfaError> {
        Ok(self.factors(user_id).await?.methods())
    }

    pub async fn status(&self, user_id: Uuid) -> Result<Status, MfaError> {
        let f = self.factors(user_id).await?;
        Ok(Status {
            totp: f.totp,
            recovery_codes_remaining: if f.totp { f.recovery_codes } else { 0 },
            passkeys: f.passkeys,
            required: self.store.team_requires_mfa(user_id).await?,
        })
    }
}
