//! The verification link, the password chosen after sign-ups that disagreed, sending the link
//! again, and an operator's verification (the CLI), which follows the link's rule.

use closewise_domain::email::Email;
use closewise_domain::limits::return_path;
use closewise_domain::password::Password;
use closewise_domain::signup::Confirmation;
use closewise_domain::tokens::EmailTokenKind;
use uuid::Uuid;

use crate::password::Hasher;
use crate::store::audit::NewAudit;
use crate::store::tokens::ChoosePasswordSetup;
use crate::store::{Store, UserRow};

use super::email_links::new_email_token;
use super::{padded, AccountError, Accounts, Link};

/// What a verification link did.
#[derive(Debug)]
pub struct Verified {
    pub user: UserRow,
    /// `ChoosePassword` when the address's sign-ups disagreed: no pending password became the
    /// account's, and the clicker chooses one with `password_token`.
    pub confirmation: Confirmation,
    /// With `ChoosePassword` only: the single-use token of the password step.
    pub password_token: Option<String>,
}

impl Accounts {
    /// Spends a verification link and confirms the address.
    #[tracing::instrument(skip_all)]
    pub async fn verify(&self, token: &str) -> Result<Verified, AccountError> {
        let link = Link::Verification;
        let row = self
            .live_email_token(EmailTokenKind::Verification, token, link)
            .await?;
        let now = self.clock.now();
        // Made whether or not the sign-ups disagree: the store decides under the user's lock.
        let (password_token, token_row) = new_email_token(EmailTokenKind::Reset, now);
        let choose = ChoosePasswordSetup {
            unusable_hash: self.hasher.unusable_hash()?,
            password_token: token_row,
        };
        let confirmation = self
            .store
            .consume_verification_token(row.id, row.user_id, &choose, now)
            .await?
            .ok_or(AccountError::LinkUsed(link))?;
        let user = self
            .store
            .user_by_id(row.user_id)
            .await?
            .ok_or(AccountError::LinkInvalid(link))?;
        let password_token =
            (confirmation == Confirmation::ChoosePassword).then_some(password_token);
        Ok(Verified {
            user,
            confirmation,
            password_token,
        })
    }

    /// The password step of a verification whose sign-ups disagreed.
    #[tracing::instrument(skip_all)]
    pub async fn choose_password(
        &self,
        password_token: &str,
        password: &Password,
    ) -> Result<UserRow, AccountError> {
        let link = Link::Password;
        let row = self
            .live_email_token(EmailTokenKind::Reset, password_token, link)
            .await?;
        let hash = self.hasher.hash(password.expose()).await?;
        let now = self.clock.now();
        // A reset without the "password changed" mail: the account had no password anyone knew.
        if !self
            .store
            .reset_password(row.id, row.user_id, &hash, None, now)
            .await?
        {
            return Err(AccountError::LinkUsed(link));
        }
        self.store
            .user_by_id(row.user_id)
            .await?
            .ok_or(AccountError::LinkInvalid(link))
    }

    /// Mails the verification link again to an unconfirmed address; does nothing, as slowly, for
    /// others. `next` as in sign-up.
    #[tracing::instrument(skip_all)]
    pub async fn resend(&self, email: &Email, next: Option<&str>) -> Result<(), AccountError> {
        padded(async {
            if let Some(user) = self.store.user_by_email(email.as_str()).await? {
                if user.email_confirmed_at.is_none() {
                    // The resent link carries no password of its own, so it is no sign-up: it
                    // confirms the only sign-up's password, or asks for one when they disagree.
                    let kind = EmailTokenKind::Verification;
                    let next = next.and_then(return_path);
                    self.send_link(user.id, email.as_str(), kind, false, None, next)
                        .await?;
                }
            }
            Ok(())
        })
        .await
    }
}

/// An operator marks the account verified (with `audit`), by the link's rule: after sign-ups that
/// disagreed no pending password stays, and the user sets one with "Forgot password?". `None`
/// when it was verified already. Needs no mail or Stripe, so the CLI calls it without `Accounts`.
pub async fn confirm_by_operator(
    store: &Store,
    hasher: &Hasher,
    user_id: Uuid,
    audit: &NewAudit,
) -> Result<Option<Confirmation>, AccountError> {
    let unusable = hasher.unusable_hash()?;
    Ok(store.verify_user(user_id, &unusable, audit).await?)
}
