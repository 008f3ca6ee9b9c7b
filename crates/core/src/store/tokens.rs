//! Single-use e-mail tokens (verification, password reset), stored as SHA-256 hashes.

use closewise_domain::tokens::EmailTokenKind;
use time::OffsetDateTime;
use uuid::Uuid;

use closewise_domain::signup::{confirmation, Confirmation};

use super::mail::bind_mail;
use super::revocations::{notify_revoked, Revoked};
use super::users::{NewEmailToken, INSERT_TOKEN, VOID_TOKENS_OF_KIND};
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

/// What a verification link needs at hand in case the address's sign-ups disagree, made before
/// the transaction that decides (`consume_verification_token`).
pub struct ChoosePasswordSetup {
    /// Replaces the pending passwords: a hash nobody knows the password of.
    pub unusable_hash: String,
    /// The single-use token of the page's "choose your password" step.
    pub password_token: NewEmailToken,
}

/// Voids every outstanding link of a user, verification and reset alike.
pub(crate) const VOID_ALL_TOKENS: &str =
    "UPDATE email_tokens SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL";

/// The reason recorded on the sessions a first confirmation of the address ends.
pub const CONFIRMED_REASON: &str = "email_confirmed";

/// In `$tx`: confirms the address of `$user_id` on the word of the team's identity provider or
/// directory, when it was unconfirmed. Whoever signed the address up chose the password on the row,
/// and nothing says it was the address's owner, so `$unusable_hash` replaces it (the person signs
/// in by SSO or sets a password with "Forgot password?"), every session ends and every outstanding
/// link (verification, reset) is voided, as a verification link after sign-ups that disagreed
/// does. Evaluates to whether it confirmed; the caller announces `Revoked::User` after the commit.
macro_rules! confirm_vouched {
    ($tx:ident, $user_id:expr, $unusable_hash:expr, $now:expr) => {{
        let first = sqlx::query(
            "UPDATE users SET email_confirmed_at = $2, updated_at = $2, password_hash = $3 \
             WHERE id = $1 AND email_confirmed_at IS NULL",
        )
        .bind($user_id)
        .bind($now)
        .bind($unusable_hash)
        .execute(&mut *$tx)
        .await?
        .rows_affected()
            == 1;
        if first {
            sqlx::query($crate::store::sessions::REVOKE_ALL_SESSIONS)
                .bind($user_id)
                .bind($now)
                .bind($crate::store::tokens::CONFIRMED_REASON)
                .execute(&mut *$tx)
                .await?;
            sqlx::query($crate::store::tokens::VOID_ALL_TOKENS)
                .bind($user_id)
                .bind($now)
                .execute(&mut *$tx)
                .await?;
        }
        first
    }};
}
pub(crate) use confirm_vouched;

/// Spends one token; a second spend changes no row.
const SPEND_TOKEN: &str = "UPDATE email_tokens SET used_at = $2 WHERE id = $1 AND used_at IS NULL";

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

    /// Spends a verification token and confirms the e-mail, once. `None` when another request
    /// spent it first. On the first confirmation every session opened before it ends and the other
    /// unused verification links are voided; what becomes of the password follows
    /// `closewise_domain::signup::confirmation` of the address's sign-ups:
    /// - one sign-up: the password is the one chosen in the sign-up that sent this link;
    /// - sign-ups that disagree: no pending password becomes the account's (`choose.unusable_hash`
    ///   replaces them) and `choose.password_token` is stored for the clicker to choose one.
    #[tracing::instrument(skip_all)]
    pub async fn consume_verification_token(
        &self,
        token_id: Uuid,
        user_id: Uuid,
        choose: &ChoosePasswordSetup,
        now: OffsetDateTime,
    ) -> Result<Option<Confirmation>, sqlx::Error> {
        let rule = dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
            let spent = sqlx::query(SPEND_TOKEN)
                .bind(token_id)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            if spent.rows_affected() != 1 {
                return Ok(None);
            }
            // Locks the user (its row on PostgreSQL; SQLite holds the write lock already) so a
            // sign-up counted meanwhile is counted before we read.
            sqlx::query("UPDATE users SET updated_at = updated_at WHERE id = $1")
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
            let (link_password, signups): (Option<String>, i64) = sqlx::query_as(
                "SELECT t.password_hash, CAST(u.signup_passwords AS BIGINT) FROM email_tokens t \
                 JOIN users u ON u.id = t.user_id WHERE t.id = $1",
            )
            .bind(token_id)
            .fetch_one(&mut *tx)
            .await?;
            let rule = confirmation(u32::try_from(signups).unwrap_or(u32::MAX));
            let password_hash = match rule {
                Confirmation::OneClick => link_password,
                Confirmation::ChoosePassword => Some(choose.unusable_hash.clone()),
            };
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
            if !first {
                // Confirmed before (an operator, a race): the link changes no password.
                tx.commit().await?;
                return Ok(Some(Confirmation::OneClick));
            }
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
            if rule == Confirmation::ChoosePassword {
                let t = &choose.password_token;
                sqlx::query(INSERT_TOKEN)
                    .bind(t.id)
                    .bind(user_id)
                    .bind(t.kind)
                    .bind(&t.token_hash)
                    .bind(now)
                    .bind(t.expires_at)
                    .bind(&t.password_hash)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            Ok::<_, sqlx::Error>(rule)
        })?;
        self.revoked(Revoked::User(user_id));
        Ok(Some(rule))
    }

    /// A password reset in one transaction: spends the link (false when it was spent already,
    /// and then nothing changes), sets the password, confirms the e-mail, ends every session,
    /// voids every other reset link and writes the "password changed" mail, if any (none when the
    /// password is the first one, chosen after sign-ups that disagreed).
    #[tracing::instrument(skip_all)]
    pub async fn reset_password(
        &self,
        token_id: Uuid,
        user_id: Uuid,
        password_hash: &str,
        mail: Option<&NewMail>,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = crate::store::begin::begin(p).await?;
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
            if let Some(mail) = mail {
                bind_mail!(mail).execute(&mut *tx).await?;
            }
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
        let changed = dispatch!(self, |p| {
            sqlx::query(
            "UPDATE users SET email_confirmed_at = COALESCE(email_confirmed_at, $2), updated_at = $2 WHERE id = $1"
        )
        .bind(user_id)
        .bind(now)
        .execute(p)
        .await
        .map(|r| r.rows_affected() == 1)
        })?;
        if changed {
            self.announce(Revoked::Reads(user_id)).await?;
        }
        Ok(changed)
    }
}
