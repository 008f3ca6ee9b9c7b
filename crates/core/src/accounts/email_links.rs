//! The single-use links the account flows mail (verification and reset): their tokens, their
//! mail, and reading one back.

use closewise_domain::tokens::{check_email_token, expires_at, EmailTokenKind, TokenCheck};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::mail::Template;
use crate::sessions::opaque_tokens::{hash_token, random_token};
use crate::store::users::NewEmailToken;
use crate::store::EmailTokenRow;

use super::{AccountError, Accounts};

/// Which page's link an error is about, as its message names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    Verification,
    /// The password step after sign-ups that disagreed.
    Password,
    Reset,
}

impl std::fmt::Display for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Link::Verification => "verification",
            Link::Password => "password",
            Link::Reset => "reset",
        })
    }
}

/// A fresh token of `kind` (given out once) and its row (only its hash is stored).
pub(super) fn new_email_token(
    kind: EmailTokenKind,
    now: OffsetDateTime,
) -> (String, NewEmailToken) {
    let token = random_token();
    let row = NewEmailToken {
        id: Uuid::now_v7(),
        kind: kind.as_str(),
        token_hash: hash_token(&token),
        expires_at: expires_at(kind, now),
        password_hash: None,
    };
    (token, row)
}

impl Accounts {
    /// Mails the user a fresh link of `kind` carrying `next` (a return path already checked with
    /// `return_path`); when `throttled`, not if a mail of that kind went out within the resend
    /// interval. A verification link with `password_hash` counts as a sign-up.
    pub(super) async fn send_link(
        &self,
        user_id: Uuid,
        email: &str,
        kind: EmailTokenKind,
        throttled: bool,
        password_hash: Option<String>,
        next: Option<&str>,
    ) -> Result<(), AccountError> {
        let now = self.clock.now();
        let (token, mut token_row) = new_email_token(kind, now);
        token_row.password_hash = password_hash;
        let template = match kind {
            EmailTokenKind::Verification => Template::Verification {
                link: self.mail.link_with_next("/verify", &token, next),
            },
            EmailTokenKind::Reset => Template::Reset {
                link: self.mail.link_with_next("/reset-password", &token, next),
            },
        };
        let mail = self.mail.compose(email, template, now);
        self.store
            .mail_user_throttled(user_id, Some(&token_row), &mail, throttled)
            .await?;
        Ok(())
    }

    /// The stored row of a link's token, if it is known, unused and unexpired.
    pub(super) async fn live_email_token(
        &self,
        kind: EmailTokenKind,
        token: &str,
        link: Link,
    ) -> Result<EmailTokenRow, AccountError> {
        let row = self
            .store
            .email_token_by_hash(kind.as_str(), &hash_token(token.trim()))
            .await?
            .ok_or(AccountError::LinkInvalid(link))?;
        match check_email_token(row.expires_at, row.used_at, self.clock.now()) {
            TokenCheck::Used => Err(AccountError::LinkUsed(link)),
            TokenCheck::Expired => Err(AccountError::LinkExpired(link)),
            TokenCheck::Valid => Ok(row),
        }
    }
}
