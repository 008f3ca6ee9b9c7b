//! The signed-in caller's password: checking it again before a sensitive change (which opens the
//! session's re-authentication window, `crate::reauth`), changing it, and re-authenticating.

use closewise_domain::password::Password;
use closewise_domain::reauth::reauth_until;
use time::OffsetDateTime;

use crate::mail::Template;
use crate::mfa::MfaError;
use crate::passkeys::{PasskeyError, Purpose};
use crate::reauth::Reauth;
use crate::store::UserRow;

use super::{AccountError, Accounts, Caller, Checked, PasswordBudget};

impl Accounts {
    /// The caller's account when `password` is its password (the session then stamped), `None`
    /// when it is not; `StepUpRequired` when the account has a second factor not given on this
    /// session within the window (re-authenticate with the code first). Spends one check of `budget` first, refunded when right.
    pub async fn check_password<B: PasswordBudget>(
        &self,
        caller: Caller,
        password: &str,
        budget: &B,
    ) -> Checked<Option<UserRow>, B::Refusal> {
        let checked = self.verify_password(caller, password, budget).await?;
        if let Ok(Some(user)) = &checked {
            let reauth = Reauth::new(self.store.clone(), self.clock.clone());
            reauth.stamp(caller.session_id, caller.user_id).await?;
            // An account with a second factor also needs it given within the window.
            let has_factor = self
                .mfa
                .factors(user.id)
                .await
                .map_err(mfa_error)?
                .step_up_needs_factor();
            if has_factor && !reauth.is_recent(caller.session_id).await? {
                return Err(AccountError::StepUpRequired);
            }
        }
        Ok(checked)
    }

    /// `check_password` without stamping the session.
    async fn verify_password<B: PasswordBudget>(
        &self,
        caller: Caller,
        password: &str,
        budget: &B,
    ) -> Checked<Option<UserRow>, B::Refusal> {
        let user = self
            .store
            .user_by_id(caller.user_id)
            .await?
            .ok_or(AccountError::NotSignedIn)?;
        let spent = match budget.spend(&user.email).await {
            Ok(spent) => spent,
            Err(refusal) => return Ok(Err(refusal)),
        };
        if !self
            .hasher
            .verify(password, Some(&user.password_hash))
            .await?
        {
            return Ok(Ok(None));
        }
        budget.refund(spent).await;
        Ok(Ok(Some(user)))
    }

    /// Sets `password` after checking `current`; ends every other session and mails a notice.
    #[tracing::instrument(skip_all)]
    pub async fn change_password<B: PasswordBudget>(
        &self,
        caller: Caller,
        current: &str,
        password: &Password,
        budget: &B,
    ) -> Checked<(), B::Refusal> {
        let user = match self.check_password(caller, current, budget).await? {
            Err(refusal) => return Ok(Err(refusal)),
            Ok(None) => return Err(AccountError::WrongCurrentPassword),
            Ok(Some(user)) => user,
        };
        let hash = self.hasher.hash(password.expose()).await?;
        let now = self.clock.now();
        let mail = self
            .mail
            .compose(&user.email, Template::PasswordChanged, now);
        self.store
            .change_password(user.id, &hash, Some(caller.session_id), false, &mail, now)
            .await?;
        Ok(Ok(()))
    }

    /// Opens the caller's re-authentication window with its password and, when the account has
    /// a second factor, that factor (`factor`: a TOTP or recovery code, or a passkey's answer to a
    /// `step_up` challenge issued to the caller; one more check of `budget`): answers when the
    /// window closes. Without a factor from such an account: `MfaRequired`, and the session is
    /// not stamped; a wrong one: `InvalidCode` or the passkey's refusal.
    #[tracing::instrument(skip_all)]
    pub async fn reauthenticate<B: PasswordBudget>(
        &self,
        caller: Caller,
        password: &str,
        factor: Option<StepUpFactor<'_>>,
        budget: &B,
    ) -> Checked<OffsetDateTime, B::Refusal> {
        let user = match self.verify_password(caller, password, budget).await? {
            Err(refusal) => return Ok(Err(refusal)),
            Ok(None) => return Err(AccountError::InvalidCredentials),
            Ok(Some(user)) => user,
        };
        // Not in `verify_password`: a password change or an account deletion replaces or drops
        // the hash anyway.
        crate::sessions::rehash_if_outdated(&self.hasher, &self.store, &user, password).await;
        let factors = self.mfa.factors(user.id).await.map_err(mfa_error)?;
        let reauth = Reauth::new(self.store.clone(), self.clock.clone());
        if factors.step_up_needs_factor() {
            let Some(factor) = factor.filter(|f| !f.is_empty()) else {
                return Err(AccountError::MfaRequired {
                    methods: factors.methods(),
                });
            };
            let spent = match budget.spend(&user.email).await {
                Ok(spent) => spent,
                Err(refusal) => return Ok(Err(refusal)),
            };
            self.check_factor(&user, factor).await?;
            budget.refund(spent).await;
            reauth
                .stamp_factor(caller.session_id, caller.user_id)
                .await?;
        }
        reauth.stamp(caller.session_id, caller.user_id).await?;
        Ok(Ok(reauth_until(self.clock.now())))
    }

    async fn check_factor(
        &self,
        user: &UserRow,
        factor: StepUpFactor<'_>,
    ) -> Result<(), AccountError> {
        match factor {
            StepUpFactor::Code(code) => self
                .mfa
                .check_code(user.id, &user.email, code, false)
                .await
                .map(|_| ())
                .map_err(mfa_error),
            StepUpFactor::Passkey {
                challenge_id,
                credential,
            } => {
                let passkeys = self.passkeys.as_ref().ok_or_else(|| {
                    AccountError::Passkey(PasskeyError::InvalidPasskey(
                        "passkeys are not configured",
                    ))
                })?;
                passkeys
                    .authenticate(Purpose::StepUp, &challenge_id, credential, Some(user.id))
                    .await?;
                Ok(())
            }
        }
    }
}

/// The second factor a re-authentication presents.
#[derive(Debug, Clone)]
pub enum StepUpFactor<'a> {
    /// A TOTP or recovery code.
    Code(&'a str),
    /// A passkey's answer (`AuthenticationResponseJSON`) to a `step_up` challenge issued to the
    /// caller.
    Passkey {
        challenge_id: String,
        credential: serde_json::Value,
    },
}

impl StepUpFactor<'_> {
    /// A blank code is no factor at all (the form's empty field).
    fn is_empty(&self) -> bool {
        matches!(self, StepUpFactor::Code(c) if c.trim().is_empty())
    }
}

fn mfa_error(e: MfaError) -> AccountError {
    match e {
        MfaError::InvalidCode => AccountError::InvalidCode,
        MfaError::NotSignedIn => AccountError::NotSignedIn,
        MfaError::Database(e) => AccountError::Database(e),
        other => AccountError::Internal(anyhow::anyhow!(other)),
    }
}

impl Accounts {
    /// The signed-in caller's account.
    pub async fn user(&self, user_id: uuid::Uuid) -> Result<UserRow, AccountError> {
        let row = match &self.users {
            Some(users) => {
                users
                    .get_or_load(user_id, || self.store.user_by_id(user_id))
                    .await?
            }
            None => self.store.user_by_id(user_id).await?,
        };
        row.ok_or(AccountError::NotSignedIn)
    }
}
