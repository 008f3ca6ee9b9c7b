//! Sign-up: answers alike for new and registered addresses and mails a verification link; the
//! owner of a registered address hears of it, at most once per resend interval.

use closewise_domain::email::Email;
use closewise_domain::limits::return_path;
use closewise_domain::password::Password;
use closewise_domain::tokens::EmailTokenKind;
use uuid::Uuid;

use crate::mail::Template;
use crate::store::users::{NewUser, SignupOutcome};

use super::email_links::new_email_token;
use super::{padded, AccountError, Accounts};

impl Accounts {
    /// Signs `email` up with `password`; `next` (a path of this site, anything else ignored) is
    /// carried in the verification link.
    #[tracing::instrument(skip_all)]
    pub async fn sign_up(
        &self,
        email: &Email,
        password: &Password,
        next: Option<&str>,
    ) -> Result<(), AccountError> {
        if self.store.sso_required_for(email.as_str()).await? {
            return Err(AccountError::SsoRequired);
        }
        // Hashed before we know whether the e-mail is taken, so both answers take as long.
        let hash = self.hasher.hash(password.expose()).await?;
        let now = self.clock.now();
        let (token, mut token_row) = new_email_token(EmailTokenKind::Verification, now);
        // The link confirms this sign-up's password, whoever registered the address first, as long
        // as no other sign-up of the address came (closewise_domain::signup).
        token_row.password_hash = Some(hash.clone());
        let next = next.and_then(return_path);
        let link = self.mail.link_with_next("/verify", &token, next);
        let mail = self
            .mail
            .compose(email.as_str(), Template::Verification { link }, now);
        let user = NewUser {
            id: Uuid::now_v7(),
            email: email.as_str().to_string(),
            password_hash: hash,
            now,
        };
        padded(async {
            let outcome = self
                .store
                .create_user(&user, Uuid::now_v7(), &token_row, &mail)
                .await?;
            if outcome == SignupOutcome::AlreadyRegistered {
                self.notify_existing(email, &user.password_hash, next)
                    .await?;
            }
            Ok(())
        })
        .await
    }

    /// Someone signed up with a registered e-mail: its owner gets the verification again (if still
    /// unconfirmed) or a notice — throttled, so repeated sign-ups cannot flood an inbox.
    async fn notify_existing(
        &self,
        email: &Email,
        password_hash: &str,
        next: Option<&str>,
    ) -> Result<(), AccountError> {
        let Some(user) = self.store.user_by_email(email.as_str()).await? else {
            return Ok(());
        };
        if user.email_confirmed_at.is_none() {
            let kind = EmailTokenKind::Verification;
            let hash = Some(password_hash.to_owned());
            self.send_link(user.id, email.as_str(), kind, true, hash, next)
                .await?;
        } else {
            let mail = self.mail.compose(
                email.as_str(),
                Template::AlreadyRegistered,
                self.clock.now(),
            );
            self.store
                .mail_user_throttled(user.id, None, &mail, true)
                .await?;
        }
        Ok(())
    }
}
