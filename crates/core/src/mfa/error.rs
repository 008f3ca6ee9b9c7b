//! What the second-factor flows refuse, with the machine code an adapter shows.

use closewise_domain::mfa::Method;

#[derive(Debug, thiserror::Error)]
pub enum MfaError {
    /// Enrolling (or confirming) while a confirmed authenticator app exists.
    #[error("An authenticator app is already set up on this account.")]
    AlreadyEnrolled,
    /// Confirming without an enrolment in progress.
    #[error("Start setting up the authenticator app first.")]
    NoPendingEnrolment,
    /// A wrong, expired, replayed or malformed code, or a spent recovery code.
    #[error("That code is not valid. Check your authenticator app and try again.")]
    InvalidCode,
    /// An `mfa_token` unknown, expired, used, voided by wrong codes, or of another client.
    #[error("Your sign-in has expired. Please sign in again.")]
    InvalidMfaToken,
    /// A step-up without the code of an account that has a factor.
    #[error("Enter the 6-digit code from your authenticator app.")]
    CodeRequired { methods: Vec<Method> },
    /// A member of a team that requires a second factor, without one, approving a device.
    #[error("Your team requires a second factor. Set up an authenticator app or a passkey first.")]
    SetupRequired,
    /// The signed-in caller's account is gone.
    #[error("Authentication required. Please sign in again.")]
    NotSignedIn,
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    /// A secret that does not open (wrong MFA_ENCRYPTION_KEY): a fault of ours.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl MfaError {
    pub fn code(&self) -> &'static str {
        match self {
            MfaError::AlreadyEnrolled => "mfa_already_enrolled",
            MfaError::NoPendingEnrolment => "no_pending_enrolment",
            MfaError::InvalidCode => "invalid_code",
            MfaError::InvalidMfaToken => "invalid_mfa_token",
            MfaError::CodeRequired { .. } => "mfa_required",
            MfaError::SetupRequired => "mfa_setup_required",
            MfaError::NotSignedIn => "invalid_token",
            MfaError::Database(_) | MfaError::Internal(_) => "internal",
        }
    }
}
