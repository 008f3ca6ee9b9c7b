//! Accounts: every flow of an account's life that the API and the CLI run, each one method —
//! sign-up ([`signup`]), the verification link, its password step and its resend
//! ([`verification`]), forgotten passwords ([`recovery`]), the signed-in caller's password
//! checks: change, re-authentication ([`credentials`]), and deletion ([`deletion`]).
//!
//! The adapters parse the input into the domain's types and keep their own request budgets; the
//! budget that password checks share with sign-in is handed in as a [`PasswordBudget`], so a
//! check spends it before the hash is compared, whatever adapter asks.

mod credentials;
pub mod deletion;
mod email_links;
mod operator;
mod recovery;
mod signup;
mod verification;

use std::future::Future;

use uuid::Uuid;

use crate::billing::{Billing, BillingError};
use crate::clock::Clock;
use crate::mail::Composer;
use crate::mfa::Mfa;
use crate::passkeys::{PasskeyError, Passkeys};
use crate::password::Hasher;
use crate::store::Store;

pub use crate::budget::PasswordBudget;
pub use credentials::StepUpFactor;
pub use deletion::{AccountDeletion, Deletion};
pub use email_links::Link;
pub use operator::{Explained, PlanView};
pub use recovery::ResetDone;
pub use verification::{confirm_by_operator, Verified};

use closewise_domain::team_billing::TEAM_OWNER_MESSAGE;

#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// The live subscription could not be cancelled, so the account was kept.
    #[error("could not cancel the subscription at Stripe, so the account was kept: {0}")]
    SubscriptionNotCancelled(BillingError),
    /// The owner of a team with other members or a subscription that has not ended.
    #[error("{}", TEAM_OWNER_MESSAGE)]
    TeamOwner,
    #[error("This {0} link is invalid.")]
    LinkInvalid(Link),
    #[error("This {0} link has already been used.")]
    LinkUsed(Link),
    #[error("This {0} link has expired. Request a new one.")]
    LinkExpired(Link),
    /// The signed-in caller's account is gone.
    #[error("Authentication required. Please sign in again.")]
    NotSignedIn,
    /// A password change whose current password is wrong.
    #[error("Current password is incorrect")]
    WrongCurrentPassword,
    /// A deletion whose password is wrong.
    #[error("Password is incorrect")]
    WrongPassword,
    /// A re-authentication whose password is wrong: worded as sign-in's.
    #[error("Invalid login credentials")]
    InvalidCredentials,
    /// A re-authentication of an account with a second factor, without its code.
    #[error("Enter the 6-digit code from your authenticator app.")]
    MfaRequired {
        methods: Vec<closewise_domain::mfa::Method>,
    },
    /// A sensitive change of an account with a second factor whose session has not given the
    /// factor within the re-authentication window.
    #[error("Please confirm your password to continue.")]
    StepUpRequired,
    /// A re-authentication whose second-factor code is wrong, replayed or malformed.
    #[error("That code is not valid. Check your authenticator app and try again.")]
    InvalidCode,
    /// A re-authentication whose passkey answer does not verify (or whose challenge expired).
    #[error(transparent)]
    Passkey(#[from] PasskeyError),
    /// Sign-up or a password reset for an address whose company requires single sign-on.
    #[error("{}", closewise_domain::sso::SSO_REQUIRED_MESSAGE)]
    SsoRequired,
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    /// Hashing failed: a fault of ours.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl AccountError {
    pub fn code(&self) -> &'static str {
        match self {
            AccountError::SubscriptionNotCancelled(_) => "stripe_unavailable",
            AccountError::TeamOwner => "team_owner",
            AccountError::LinkInvalid(_) => "token_invalid",
            AccountError::LinkUsed(_) => "token_used",
            AccountError::LinkExpired(_) => "token_expired",
            AccountError::NotSignedIn => "invalid_token",
            AccountError::WrongCurrentPassword
            | AccountError::WrongPassword
            | AccountError::InvalidCredentials => "invalid_credentials",
            AccountError::MfaRequired { .. } => "mfa_required",
            AccountError::InvalidCode => "invalid_code",
            AccountError::StepUpRequired => "reauthentication_required",
            AccountError::Passkey(e) => e.code(),
            AccountError::SsoRequired => "sso_required",
            AccountError::Database(_) | AccountError::Internal(_) => "internal",
        }
    }
}

/// The answer of a flow that checks a password: the outer error is the flow's, the inner one the
/// budget's refusal.
pub type Checked<T, R> = Result<Result<T, R>, AccountError>;

/// The signed-in caller of a flow: its account and the session it came with.
#[derive(Clone, Copy, Debug)]
pub struct Caller {
    pub user_id: Uuid,
    pub session_id: Uuid,
}

/// How long sign-up (after hashing), resend and recover take at least. Their database work differs
/// between known and unknown e-mails (a mail written or not, a failed or a full insert); padding
/// the answer to a floor well above that work makes the two indistinguishable by timing
/// (resilience suite: `enumeration::timing_does_not_tell_known_from_unknown_emails_*`).
pub const EMAIL_WORK_FLOOR: std::time::Duration = std::time::Duration::from_millis(100);

/// Runs `work`, then waits until `EMAIL_WORK_FLOOR` has passed since it started.
async fn padded<T>(work: impl Future<Output = Result<T, AccountError>>) -> Result<T, AccountError> {
    let started = tokio::time::Instant::now();
    let outcome = work.await;
    tokio::time::sleep_until(started + EMAIL_WORK_FLOOR).await;
    outcome
}

#[derive(Clone)]
pub struct Accounts {
    store: Store,
    hasher: Hasher,
    mail: Composer,
    clock: Clock,
    deletion: AccountDeletion,
    /// The second factor re-authentication asks for when the account has one.
    mfa: Mfa,
    /// A passkey as that factor (`with_passkeys`); without it a passkey answer is refused.
    passkeys: Option<Passkeys>,
    /// The signed-in caller's account, cached per user (`caching_reads`; none from the CLI).
    users: Option<
        std::sync::Arc<crate::sessions::read_cache::ReadCache<Option<crate::store::UserRow>>>,
    >,
}

impl Accounts {
    pub fn new(
        store: Store,
        billing: Billing,
        hasher: Hasher,
        mail: Composer,
        clock: Clock,
        mfa: Mfa,
    ) -> Self {
        Accounts {
            mfa,
            passkeys: None,
            deletion: AccountDeletion::new(store.clone(), billing),
            store,
            hasher,
            mail,
            clock,
            users: None,
        }
    }

    /// Lets re-authentication take a passkey as the second factor.
    pub fn with_passkeys(mut self, passkeys: Passkeys) -> Self {
        self.passkeys = Some(passkeys);
        self
    }

    /// Answers `user` from a per-user cache emptied by the writes that change the account
    /// (`crate::sessions::read_cache`): for the API, whose reads are the hot path.
    pub fn caching_reads(mut self) -> Self {
        self.users = Some(crate::sessions::read_cache::ReadCache::for_store(
            &self.store,
        ));
        self
    }
}
