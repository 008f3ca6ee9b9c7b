//! Signing in with the password, and with the second factor when the account has one: the
//! password grant spends the sign-in budget, checks the password, and either starts a session or,
//! for an account with a factor, answers `MfaRequired` with an `mfa_token`; the mfa grant
//! redeems that token with a code (the same budget, keyed by the account) and starts the session,
//! stamped as having given the factor.

use closewise_domain::email::Email;

use super::{Session, SessionError, Sessions};
use crate::budget::PasswordBudget;
use crate::mfa::{Client, MfaError};

/// The answer of a sign-in: the outer error is the flow's, the inner one the budget's refusal.
pub type SignedIn<R> = Result<Result<Session, R>, SessionError>;

impl Sessions {
    /// The password grant. `account` is the budget's key for the typed e-mail (`email` is `None`
    /// when it is malformed: just another unknown account). An account with a second factor gets
    /// `MfaRequired`; one without gets its session, exactly as before factors existed.
    #[allow(clippy::too_many_arguments)]
    pub async fn sign_in<B: PasswordBudget>(
        &self,
        email: Option<&Email>,
        account: &str,
        password: &str,
        client: Client,
        user_agent: Option<&str>,
        ip: &str,
        budget: &B,
    ) -> SignedIn<B::Refusal> {
        if let Some(email) = email {
            if self.store.sso_required_for(email.as_str()).await? {
                return Err(SessionError::SsoRequired);
            }
        }
        // Spent before verifying, so concurrent guesses cannot overrun it; refunded on success.
        let spent = match budget.spend(account).await {
            Ok(spent) => spent,
            Err(refusal) => return Ok(Err(refusal)),
        };
        // The account and its second factors in one read.
        let (user, factors) = match email {
            Some(e) => self.store.user_with_factors_by_email(e.as_str()).await?,
            None => None,
        }
        .unzip();
        let user = self.verify_password(user, password).await?;
        let factors = factors.unwrap_or_default();
        budget.refund(spent).await;
        if user.email_confirmed_at.is_none() && !self.allow_unverified {
            return Err(SessionError::EmailNotConfirmed);
        }
        if factors.any() {
            let pending = self
                .mfa
                .issue_token(user.id, factors.methods(), client, ip)
                .await
                .map_err(mfa_error)?;
            return Err(SessionError::MfaRequired(pending));
        }
        Ok(Ok(self.start(user, user_agent, Some(ip)).await?))
    }

    /// The mfa grant: `mfa_token` from the password step, issued to this client at this address,
    /// and a TOTP or recovery code. A wrong code spends the account's budget (and counts against
    /// the token: the fifth voids it).
    #[allow(clippy::too_many_arguments)]
    pub async fn mfa_sign_in<B: PasswordBudget>(
        &self,
        mfa_token: &str,
        code: &str,
        client: Client,
        user_agent: Option<&str>,
        ip: &str,
        budget: &B,
    ) -> SignedIn<B::Refusal> {
        let presented = self
            .mfa
            .present(mfa_token, client, ip)
            .await
            .map_err(mfa_error)?;
        let spent = match budget.spend(&presented.user.email).await {
            Ok(spent) => spent,
            Err(refusal) => return Ok(Err(refusal)),
        };
        self.mfa.redeem(&presented, code).await.map_err(mfa_error)?;
        budget.refund(spent).await;
        // Require SSO may have been turned on since the password step.
        if self.store.sso_required_for(&presented.user.email).await? {
            return Err(SessionError::SsoRequired);
        }
        let session = self.start(presented.user, user_agent, Some(ip)).await?;
        self.store
            .stamp_mfa(session.session_id, session.user.id, self.clock.now())
            .await?;
        Ok(Ok(session))
    }
}

fn mfa_error(e: MfaError) -> SessionError {
    match e {
        MfaError::InvalidCode => SessionError::InvalidCode,
        MfaError::InvalidMfaToken => SessionError::InvalidMfaToken,
        MfaError::Database(e) => SessionError::Database(e),
        other => SessionError::Internal(anyhow::anyhow!(other)),
    }
}
