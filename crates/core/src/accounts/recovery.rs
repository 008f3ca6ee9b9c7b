//! Forgotten passwords: a reset link by mail, and the reset it allows.

use closewise_domain::email::Email;
use closewise_domain::password::Password;
use closewise_domain::tokens::EmailTokenKind;

use crate::mail::Template;
use crate::store::oauth::DeviceSessionRow;
use crate::store::passkeys::PasskeyRow;

use super::{padded, AccountError, Accounts, Link};

/// What a password reset leaves for the person to review: the passkeys, which still sign the
/// account in (a reset removes no factor: that takes a sign-in with one, or support), and the
/// desktop devices the reset signed out.
#[derive(Debug, Default)]
pub struct ResetDone {
    pub passkeys: Vec<PasskeyRow>,
    pub devices_signed_out: Vec<DeviceSessionRow>,
}

impl Accounts {
    /// Mails a reset link to a registered address; does nothing, as slowly, for others.
    #[tracing::instrument(skip_all)]
    pub async fn recover(&self, email: &Email) -> Result<(), AccountError> {
        // Per domain, not per account: it tells nothing about who is registered.
        if self.store.sso_required_for(email.as_str()).await? {
            return Err(AccountError::SsoRequired);
        }
        padded(async {
            if let Some(user) = self.store.user_by_email(email.as_str()).await? {
                let kind = EmailTokenKind::Reset;
                self.send_link(user.id, email.as_str(), kind, false, None, None)
                    .await?;
            }
            Ok(())
        })
        .await
    }

    /// Spends a reset link and sets `password`; what the person should review next.
    #[tracing::instrument(skip_all)]
    pub async fn reset(&self, token: &str, password: &Password) -> Result<ResetDone, AccountError> {
        let link = Link::Reset;
        let row = self
            .live_email_token(EmailTokenKind::Reset, token, link)
            .await?;
        let now = self.clock.now();
        let user = self
            .store
            .user_by_id(row.user_id)
            .await?
            .ok_or(AccountError::LinkInvalid(link))?;
        if self.store.sso_required_for(&user.email).await? {
            return Err(AccountError::SsoRequired);
        }
        let devices_signed_out = self
            .store
            .device_sessions_of(user.id)
            .await?
            .into_iter()
            .filter(|d| d.refresh_expires_at.is_some_and(|e| now < e))
            .collect();
        let hash = self.hasher.hash(password.expose()).await?;
        let mail = self
            .mail
            .compose(&user.email, Template::PasswordChanged, now);
        // Spending the link and changing the password are one transaction, which also ends every
        // session and voids every other reset link.
        if !self
            .store
            .reset_password(row.id, user.id, &hash, Some(&mail), now)
            .await?
        {
            return Err(AccountError::LinkUsed(link));
        }
        Ok(ResetDone {
            passkeys: self.store.passkeys_of(user.id).await?,
            devices_signed_out,
        })
    }
}
