//! Single-use e-mail tokens (verification, password reset), stored as SHA-256 hashes.

use closewise_domain::tokens::EmailTokenKind;
use time::OffsetDateTime;
use uuid::Uuid;

use super::mail::bind_mail;
use super::revocations::{notify_revoked, Revoked};
use super::{dispatch, NewMail, Store};

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct EmailTokenRow {
    pub id: Uuid,
    pub user_id: Uuid,
    pub kind: String,
    pub created_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
    pub used_at: Option<OffsetDateTime>,
}

/// Spends one token; a second spend changes no row.
const SPEND_TOKEN: &str = "UPDATE email_tokens SET used_at = $2 WHERE id = $1 AND used_at IS NULL";

/// Spends every outstanding token of one kind of a user ($3: the kind).
pub(crate) const VOID_TOKENS_OF_KIND: &str =
    "UPDATE email_tokens SET used_at = $2 WHERE user_id = $1 AND kind = $3 AND used_at IS NULL";

impl Store {
    pub async fn email_token_by_hash(
        &self,
        kind: &str,
        token_hash: &str,
    ) -> Result<Option<EmailTokenRow>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_as::<_, EmailTokenRow>(
            "SELECT id, user_id, kind, created_at, expires_at, used_at FROM email_tokens \
             WHERE token_hash = $1 AND kind = $2"
        )
        .bind(token_hash)
        .bind(kind)
        .fetch_optional(p)
        .await)
    }

    /// Spends a verification token and confirms the e-mail, once. False when another request
    /// spent it first. On the first confirmation the password becomes the one chosen in the
    /// sign-up that sent this link (so whoever registered the address first does not own it),
    /// every session opened before it ends, and the other unused verification links are voided.
    #[tracing::instrument(skip_all)]
    pub async fn consume_verification_token(
        &self,
        token_id: Uuid,
        user_id: Uuid,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        let first = dispatch!(self, |p| {
            let mut tx = p.begin().await?;
            let spent = sqlx::query(SPEND_TOKEN)
                .bind(token_id)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            if spent.rows_affected() != 1 {
                return Ok(false);
            }
            let (password_hash,): (Option<String>,) =
                sqlx::query_as("SELECT password_hash FROM email_tokens WHERE id = $1")
                    .bind(token_id)
                    .fetch_one(&mut *tx)
                    .await?;
            let first = sqlx::query(
                "UPDATE users SET email_confirmed_at = $2, updated_at = $2, \
                 password_hash = COALESCE($3, password_hash) \
                 WHERE id = $1 AND email_confirmed_at IS NULL",
            )
            .bind(user_id)
            .bind(now)
            .bind(&password_hash)
            .execute(&mut *tx)
            .await?
            .rows_affected()
                == 1;
            if first {
                sqlx::query(
                    "UPDATE sessions SET revoked_at = $2, revoked_reason = 'email_confirmed' \
                     WHERE user_id = $1 AND revoked_at IS NULL",
                )
                .bind(user_id)
                .bind(now)
                .execute(&mut *tx)
                .await?;
                notify_revoked!(self, tx, Revoked::User(user_id));
                sqlx::query(VOID_TOKENS_OF_KIND)
                    .bind(user_id)
                    .bind(now)
                    .bind(EmailTokenKind::Verification.as_str())
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(first)
        })?;
        if first {
            self.revoked(Revoked::User(user_id));
        }
        Ok(true)
    }

    /// The password of the newest sign-up of an unconfirmed account, for a resent link.
    pub async fn pending_signup_password(
        &self,
        user_id: Uuid,
    ) -> Result<Option<String>, sqlx::Error> {
        dispatch!(self, |p| sqlx::query_as::<_, (Option<String>,)>(
            "SELECT password_hash FROM email_tokens WHERE user_id = $1 AND kind = 'verification' \
             AND password_hash IS NOT NULL ORDER BY created_at DESC LIMIT 1"
        )
        .bind(user_id)
        .fetch_optional(p)
        .await
        .map(|r| r.and_then(|(h,)| h)))
    }

    /// A password reset in one transaction: spends the link (false when it was spent already,
    /// and then nothing changes), sets the password, confirms the e-mail, ends every session,
    /// voids every other reset link and writes the "password changed" mail.
    #[tracing::instrument(skip_all)]
    pub async fn reset_password(
        &self,
        token_id: Uuid,
        user_id: Uuid,
        password_hash: &str,
        mail: &NewMail,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = p.begin().await?;
            let spent = sqlx::query(SPEND_TOKEN)
                .bind(token_id)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            if spent.rows_affected() != 1 {
                return Ok(false);
            }
            sqlx::query(
                "UPDATE users SET password_hash = $2, updated_at = $3, \
                 email_confirmed_at = COALESCE(email_confirmed_at, $3) WHERE id = $1",
            )
            .bind(user_id)
            .bind(password_hash)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "UPDATE sessions SET revoked_at = $2, revoked_reason = 'password_reset' \
                 WHERE user_id = $1 AND revoked_at IS NULL",
            )
            .bind(user_id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            notify_revoked!(self, tx, Revoked::User(user_id));
            sqlx::query(VOID_TOKENS_OF_KIND)
                .bind(user_id)
                .bind(now)
                .bind(EmailTokenKind::Reset.as_str())
                .execute(&mut *tx)
                .await?;
            bind_mail!(mail).execute(&mut *tx).await?;
            tx.commit().await?;
            Ok::<_, sqlx::Error>(())
        })?;
        self.revoked(Revoked::User(user_id));
        Ok(true)
    }

    /// Marks the user's e-mail confirmed (operator action).
    pub async fn confirm_email(
        &self,
        user_id: Uuid,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            sqlx::query(
            "UPDATE users SET email_confirmed_at = COALESCE(email_confirmed_at, $2), updated_at = $2 WHERE id = $1"
        )
        .bind(user_id)
        .bind(now)
        .execute(p)
        .await
        .map(|r| r.rows_affected() == 1)
        })
    }
}
