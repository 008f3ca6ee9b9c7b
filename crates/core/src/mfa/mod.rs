//! A second factor: enrolling an authenticator app (TOTP, `closewise_domain::mfa::totp`)
//! with its secret sealed at rest ([`secret_box`]), recovery codes, checking a code ([`codes`]),
//! and the `mfa_token` that carries a password sign-in to its code step ([`tokens`]). The rules
//! are the domain's; the sign-in itself is the sessions service's, step-up the reauth module's.
//!
//! [`Mfa::methods_for`] is the one place that says which factors an account has: passkeys (issue
//! 24's other half) are counted there once their table exists.

mod codes;
mod enrolment;
mod error;
pub mod secret_box;
mod tokens;

use closewise_domain::mfa::{Factors, Method};
use uuid::Uuid;

use crate::clock::Clock;
use crate::mail::{Composer, Template};
use crate::store::Store;

pub use codes::Passed;
pub use enrolment::Enrolment;
pub use error::MfaError;
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

impl Mfa {
    /// `SetupRequired` when a team the user is in requires a second factor they have not set up:
    /// they cannot approve devices until they do.
    pub async fn require_setup_for_approving(&self, user_id: Uuid) -> Result<(), MfaError> {
        let required = self.store.team_requires_mfa(user_id).await?;
        let has = self.factors(user_id).await?.any();
        if closewise_domain::mfa::may_approve_devices(required, has) {
            Ok(())
        } else {
            Err(MfaError::SetupRequired)
        }
    }
}

/// What the operator's reset removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OperatorReset {
    /// The authenticator app and its recovery codes.
    pub app: bool,
    pub passkeys: u64,
}

impl OperatorReset {
    pub fn any(&self) -> bool {
        self.app || self.passkeys > 0
    }
}

/// The factors a reset removes, as the mail names them ("An authenticator app and 2 passkeys").
fn removed_factors(app: bool, passkeys: u64) -> String {
    let keys = match passkeys {
        0 => None,
        1 => Some("1 passkey".to_owned()),
        n => Some(format!("{n} passkeys")),
    };
    match (app, keys) {
        (true, Some(keys)) => format!("{} and {keys}", enrolment::APP),
        (true, None) => enrolment::APP.into(),
        (false, Some(keys)) => keys,
        (false, None) => String::new(),
    }
}

/// The operator's reset (`closewise users mfa reset`): removes the app and the recovery codes of
/// `user_id` and, when `remove_passkeys`, every passkey (a passkey signs in by itself, so one the
/// customer no longer controls must go too); mails `email` once, and ends every session. Nothing
/// changes when there was nothing to remove.
pub async fn reset_by_operator(
    store: &Store,
    mail: &Composer,
    user_id: Uuid,
    email: &str,
    remove_passkeys: bool,
    now: time::OffsetDateTime,
) -> Result<OperatorReset, MfaError> {
    let has_app = store.totp_of(user_id).await?.is_some();
    let passkeys = if remove_passkeys {
        u64::try_from(store.passkey_count(user_id).await?).unwrap_or(0)
    } else {
        0
    };
    let notice = mail.compose(
        email,
        Template::MfaFactorRemoved {
            factor: removed_factors(has_app, passkeys),
            by_operator: true,
        },
        now,
    );
    let mut done = OperatorReset::default();
    if passkeys > 0 {
        // The mail goes with the app's removal when there is one, else with the passkeys'.
        let mail = (!has_app).then_some(&notice);
        done.passkeys = store.delete_passkeys_of(user_id, mail).await?;
    }
    if has_app {
        done.app = store.remove_totp(user_id, Some(&notice)).await?;
    }
    if done.any() {
        store.revoke_all_sessions(user_id, "mfa_reset", now).await?;
    }
    Ok(done)
}
