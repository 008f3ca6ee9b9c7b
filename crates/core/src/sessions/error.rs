//! What a session flow refuses, with the machine code an adapter shows.

use crate::store::DbError;

#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// Unknown e-mail or wrong password: one answer for both.
    #[error("Invalid login credentials")]
    InvalidCredentials,
    /// Signing in before the address is confirmed.
    #[error("Email not confirmed")]
    EmailNotConfirmed,
    /// A signed-in caller whose address is not confirmed, for an action that needs it.
    #[error("Email not confirmed")]
    VerificationRequired,
    /// A refresh without any refresh token (none in the body, no cookie).
    #[error("Please sign in to continue")]
    NoSession,
    /// A refresh token unknown, expired, or of an ended session.
    #[error("Your session has ended. Please sign in again.")]
    InvalidRefreshToken,
    /// A spent refresh token presented again: the session is revoked.
    #[error("Your session has ended. Please sign in again.")]
    RefreshTokenReused,
    /// An access token whose user is gone.
    #[error("Authentication required. Please sign in again.")]
    InvalidToken,
    /// Signing out without a live session.
    #[error("Please sign in to continue")]
    NotSignedIn,
    /// A sign-out scope other than `local` or `global`.
    #[error("scope must be local or global")]
    InvalidScope,
    /// The password was right; the account's second factor is next (`mfa_token`, `methods`).
    #[error("Enter the 6-digit code from your authenticator app.")]
    MfaRequired(crate::mfa::PendingSignIn),
    /// A wrong, replayed or malformed code at the mfa grant.
    #[error("That code is not valid. Check your authenticator app and try again.")]
    InvalidCode,
    /// An `mfa_token` unknown, expired, used, voided, or of another client.
    #[error("Your sign-in has expired. Please sign in again.")]
    InvalidMfaToken,
    /// The address's company requires single sign-on (its team's "Require SSO").
    #[error("{}", closewise_domain::sso::SSO_REQUIRED_MESSAGE)]
    SsoRequired,
    #[error(transparent)]
    Database(#[from] DbError),
    /// A fault of ours (the password hasher's pool, a user gone under a session).
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl SessionError {
    pub fn code(&self) -> &'static str {
        match self {
            SessionError::InvalidCredentials => "invalid_credentials",
            SessionError::EmailNotConfirmed | SessionError::VerificationRequired => {
                "email_not_confirmed"
            }
            SessionError::NoSession => "no_session",
            SessionError::InvalidRefreshToken => "invalid_refresh_token",
            SessionError::RefreshTokenReused => "refresh_token_reused",
            SessionError::InvalidToken => "invalid_token",
            SessionError::NotSignedIn => "not_signed_in",
            SessionError::InvalidScope => "invalid_scope",
            SessionError::MfaRequired(_) => "mfa_required",
            SessionError::InvalidCode => "invalid_code",
            SessionError::InvalidMfaToken => "invalid_mfa_token",
            SessionError::SsoRequired => "sso_required",
            SessionError::Database(_) | SessionError::Internal(_) => "internal",
        }
    }

    /// True when the session the credential named has ended: the adapter also clears the cookie.
    pub fn session_ended(&self) -> bool {
        matches!(
            self,
            SessionError::InvalidRefreshToken
                | SessionError::RefreshTokenReused
                // The refresh grant ends a session SSO did not start when Require SSO applies.
                | SessionError::SsoRequired
        )
    }
}
