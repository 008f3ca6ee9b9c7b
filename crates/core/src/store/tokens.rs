//! Single-use e-mail tokens (verification, password reset), stored as SHA-256 hashes.

use time::OffsetDateTime;
use uuid::Uuid;

use super::{dispatch, Store};

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct EmailTokenRow {
    pub id: Uuid,
    pub user_id: Uuid,
    pub kind: String,
    pub created_at: OffsetDateTime,
    pub expires_at: OffsetDateTime,
    pub used_at: Option<OffsetDateTime>,
}

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
    /// spent it first.
    #[tracing::instrument(skip_all)]
    pub async fn consume_verification_token(
        &self,
        token_id: Uuid,
        user_id: Uuid,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| {
            let mut tx = p.begin().await?;
            let spent = sqlx::query(
                "UPDATE email_tokens SET used_at = $2 WHERE id = $1 AND used_at IS NULL",
            )
            .bind(token_id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            if spent.rows_affected() != 1 {
                return Ok(false);
            }
            sqlx::query(
                "UPDATE users SET email_confirmed_at = COALESCE(email_confirmed_at, $2), updated_at = $2 \
                 WHERE id = $1",
            )
            .bind(user_id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(true)
        })
    }

    /// Spends a reset token. False when it was already spent.
    pub async fn consume_token(
        &self,
        token_id: Uuid,
        now: OffsetDateTime,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, |p| sqlx::query(
            "UPDATE email_tokens SET used_at = $2 WHERE id = $1 AND used_at IS NULL"
        )
        .bind(token_id)
        .bind(now)
        .execute(p)
        .await
        .map(|r| r.rows_affected() == 1))
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
